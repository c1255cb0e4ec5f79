"""A team's members changed by an organiser before it plays: ``/sustituir N M NAME BIRTH``
(member M replaced), ``/sustituir N + NAME BIRTH`` (a member added), ``/sustituir N M -``
(member M removed)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from telegram import Update
from telegram.ext import ContextTypes

from bot.delivery.answers import answer_now
from bot.delivery.work import Asker, Work
from bot.domain.contest import Category, Contest
from bot.features.members.operations import ChangeMembers, change_members
from bot.features.members.rules import Change
from bot.features.members.texts import usage
from bot.features.registration.rules import (
    Member,
    birth_in_range,
    clean_name,
    name_problem,
    parse_birth,
)
from bot.features.registration.texts import name_problem_text, unreadable_birth_text
from bot.handlers.common import parse_int, recorder, registrations
from bot.services.outcomes import UnknownEntry
from bot.texts.common import refusal


@dataclass(frozen=True)
class Unfit:
    """A member coming in whom registration would not take as typed: ``name`` is why their
    name is not (``name_problem``), ``birth`` says their birth is outside the years a birth
    may be (``birth_in_range``)."""

    name: str | None = None
    birth: bool = False


def parse_change(args: list[str], full_date: bool, contest_day: date
                 ) -> tuple[int, Change] | Unfit | None:
    """``N M NAME BIRTH``, ``N + NAME BIRTH`` or ``N M -`` (None: not one of them); the
    member coming in is checked as registration checks a member entered in the chat (their
    name, then their birth: ``Unfit`` when it would refuse them)."""
    if len(args) < 3:
        return None
    number = parse_int(args[0])
    position = None if args[1] == "+" else parse_int(args[1])
    if number is None or (position is None and args[1] != "+") or position == 0:
        return None
    index = position - 1 if position is not None else None
    if args[2:] == ["-"]:
        return (number, Change(index, None)) if index is not None else None
    # a birth is the last word: a year or a date (only a year where the category goes by
    # age on the day: registration asks for the date then)
    typed = parse_birth(args[-1], False) if len(args) >= 4 else None
    name = clean_name(" ".join(args[2:-1]))
    if typed is None or not name:
        return None
    problem = name_problem(name)
    if problem is not None:
        return Unfit(name=problem)
    born = parse_birth(args[-1], full_date)
    if born is None or not birth_in_range(born[1], contest_day):
        return Unfit(birth=True)
    return number, Change(index, Member(name, born[0], born[1]))


def _unfit_text(lang: str, contest: Contest, unfit: Unfit, category: Category | None,
                number: int | None) -> str:
    """Why the member coming in was not taken, in registration's words."""
    if unfit.name is not None:
        return name_problem_text(lang, unfit.name)
    if category is None:  # no such entry: that is what to say
        return refusal(lang, UnknownEntry(number or 0), contest)
    return unreadable_birth_text(lang, category)


async def sustituir(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``/sustituir``: an organiser changes a team's members before it plays."""
    who = await recorder(update, context, "organiser")
    if who is None:
        return
    svc = who.svc
    args = list(context.args or [])
    number = parse_int(args[0]) if args else None
    entry = await svc.store.entry(number) if number is not None else None
    category = svc.contest.category(entry.category) if entry is not None else None
    parsed = parse_change(args, category.checks_age if category is not None else False,
                          svc.contest.date)
    if parsed is None:
        await answer_now(svc, update, usage(who.lang))
        return
    if isinstance(parsed, Unfit):  # refused as registration refuses them
        await answer_now(svc, update, _unfit_text(who.lang, svc.contest, parsed, category, number))
        return
    number, change = parsed
    await change_members(Work(svc, Asker.of(update, who.user_id, who.lang)), svc.day,
                         registrations(context),
                         ChangeMembers(number, change, who.user_id, who.at, update.update_id))
