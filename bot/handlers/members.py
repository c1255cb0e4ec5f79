"""A team's members changed by an organiser before it plays: ``/sustituir N M NAME BIRTH``
(member M replaced), ``/sustituir N + NAME BIRTH`` (a member added), ``/sustituir N M -``
(member M removed)."""

from __future__ import annotations

from functools import partial

from telegram import Update
from telegram.ext import ContextTypes

from bot.delivery.answers import answer, answer_now, recording
from bot.delivery.posting import notify_entry
from bot.domain.members import Change
from bot.domain.registration import Member, clean_name
from bot.handlers.common import Callback, parse_int, recorder, registrations
from bot.handlers.registration import parse_birth
from bot.services.members import MembersChanged, change_members
from bot.services.registrations import AlreadyEntered, NotEligible
from bot.texts.common import refusal
from bot.texts.members import changed_text, team_notice
from bot.texts.names import usage_text
from bot.texts.registration import refusal_text

USAGE = "/sustituir N M|+ NAME BIRTH"


def parse_change(args: list[str], full_date: bool) -> tuple[int, Change] | None:
    """``N M NAME BIRTH``, ``N + NAME BIRTH`` or ``N M -`` (None: not one of them)."""
    if len(args) < 3:
        return None
    number = parse_int(args[0])
    position = None if args[1] == "+" else parse_int(args[1])
    if number is None or (position is None and args[1] != "+") or position == 0:
        return None
    index = position - 1 if position is not None else None
    if args[2:] == ["-"]:
        return (number, Change(index, None)) if index is not None else None
    born = parse_birth(args[-1], full_date) if len(args) >= 4 else None
    name = clean_name(" ".join(args[2:-1]))
    if born is None or not name:
        return None
    return number, Change(index, Member(name, born[0], born[1]))


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
    parsed = parse_change(args, category.checks_age if category is not None else False)
    if parsed is None:
        await answer_now(svc, update, usage_text(who.lang, USAGE))
        return
    number, change = parsed
    async with recording(svc):
        out = await change_members(svc.day, registrations(context), who.user_id, number,
                                   change, who.at, update.update_id)
        if isinstance(out, NotEligible | AlreadyEntered):  # as registration says it
            await answer_now(svc, update, refusal_text(who.lang, svc.contest, out))
            return
        if not isinstance(out, MembersChanged):
            await answer_now(svc, update, refusal(who.lang, out, svc.contest))
            return
        await answer(svc, update, changed_text(who.lang, out))
        await notify_entry(context, number, partial(team_notice, out=out))


# the commands this feature answers (bot/chat/app.py registers every feature's)
COMMANDS: dict[str, Callback] = {
    "sustituir": sustituir,
}
