"""Finding a partner in the chat: ``/emparejar`` (``/apparier``, ``/pair``).

- An organiser: ``/emparejar`` lists everyone looking for a partner; ``/emparejar N M``
  matches entries N and M.
- Someone whose entry looks for a partner (``[partners] self_service``): ``/emparejar`` lists
  the others looking in its category; ``/emparejar M`` asks entry M to play together (with
  several entries looking, ``/emparejar N M``). M's people get the request with two buttons
  (``partner:yes:M:N`` asks back, and so matches them; ``partner:no:M:N``).

A match that gives the entry the members it needs is told with its place (taken, to pay for,
or on the waiting list) to everyone following it, the other entry's people among them."""

from __future__ import annotations

from telegram import Update
from telegram.ext import ContextTypes

from bot.delivery.answers import answer_now
from bot.delivery.work import Asker, Work
from bot.domain.places import Status
from bot.features.partners.operations import Pair, SayNo, pair, say_no
from bot.features.partners.outcomes import Matched, OrganisersMatch, answer
from bot.features.partners.rules import PartnerRules, rules_of
from bot.features.partners.texts import (
    all_seekers_text,
    no_partners,
    not_seeking_any,
    seekers_text,
    usage,
    which_text,
)
from bot.handlers.common import (
    Caller,
    already_handled,
    caller,
    deadline_press,
    not_theirs,
    parse_int,
    pressed,
    refuse_role,
)
from bot.handlers.jobs import schedule_lapse


async def emparejar(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await caller(update, context)
    if who is None:
        return
    if not who.roles.organiser and not who.roles.entries:
        await refuse_role(update, who, "participant")
        return
    rules = rules_of(who.svc.contest)
    if rules is None:
        await answer_now(who.svc, update, no_partners(who.lang))
        return
    given = _numbers(list(context.args or []))
    if given is None:
        await answer_now(who.svc, update, usage(who.lang, who.roles.organiser))
        return
    places = await who.svc.day.registrations.places(who.at)
    mine = [e.number for e in who.roles.entries
            if places.get(e.number) is not None and places[e.number].status is Status.SEEKING]
    # an organiser matches any two; asks for their own entry (/emparejar M) as anyone does
    if who.roles.organiser and (not mine or len(given) == 2):
        await _as_organiser(update, context, who, given)
    else:
        await _as_participant(update, context, who, rules, given, mine)


def _numbers(args: list[str]) -> list[int] | None:
    """The entries' numbers typed (None: more than two, or not numbers)."""
    numbers = [parse_int(a) for a in args]
    if len(numbers) > 2 or None in numbers:
        return None
    return [n for n in numbers if n is not None]


async def _as_participant(update: Update, context: ContextTypes.DEFAULT_TYPE, who: Caller,
                          rules: PartnerRules, given: list[int], mine: list[int]) -> None:
    """``mine``: the person's entries looking for a partner."""
    if not mine:
        await answer_now(who.svc, update, not_seeking_any(who.lang))
        return
    if not rules.self_service:
        await answer_now(who.svc, update, answer(who.lang, OrganisersMatch(), who.svc.contest))
        return
    if not given:
        await _list_others(update, who, mine)
        return
    number = given[0] if len(given) == 2 else mine[0] if len(mine) == 1 else None
    if number is None or number not in mine:
        await answer_now(who.svc, update, which_text(who.lang, mine))
        return
    if await already_handled(update, who):
        return
    await _pair(update, context, who, Pair(number, given[-1], who.user_id, "participant",
                                            who.at, update.update_id, asking=True))


async def _as_organiser(update: Update, context: ContextTypes.DEFAULT_TYPE, who: Caller,
                        given: list[int]) -> None:
    if not given:
        await answer_now(who.svc, update, all_seekers_text(who.lang, await _seekers(who)))
        return
    if len(given) != 2:
        await answer_now(who.svc, update, usage(who.lang, True))
        return
    if await already_handled(update, who):
        return
    await _pair(update, context, who, Pair(given[0], given[1], who.user_id, "organiser", who.at,
                                            update.update_id))


async def _seekers(who: Caller, category: str | None = None
                   ) -> list[tuple[str, list[tuple[int, tuple[str, ...]]]]]:
    """Per category (its name), the entries looking for a partner: (number, names)."""
    regs = who.svc.day.registrations
    places = await regs.places(who.at)
    out = []
    for cat in who.svc.contest.categories:
        if category is not None and cat.id != category:
            continue
        found = [(e.number, e.names) for e in await who.svc.store.entries(cat.id)
                 if places[e.number].status is Status.SEEKING]
        if found:
            out.append((cat.name, found))
    return out


async def _list_others(update: Update, who: Caller, numbers: list[int]) -> None:
    """The others looking for a partner in the category of each of ``numbers``."""
    lines = []
    for number in numbers:
        entry = next(e for e in who.roles.entries if e.number == number)
        cat = who.svc.contest.category(entry.category)
        found = await _seekers(who, entry.category)
        others = [(n, m) for _, seekers in found for n, m in seekers if n != number]
        lines.append(seekers_text(who.lang, cat.name if cat else entry.category, others))
    await answer_now(who.svc, update, "\n\n".join(lines))


async def _pair(update: Update, context: ContextTypes.DEFAULT_TYPE, who: Caller,
                cmd: Pair) -> None:
    out = await pair(Work(who.svc, Asker.of(update, who.user_id, who.lang)), who.svc.day, cmd)
    if isinstance(out, Matched) and out.complete:
        await schedule_lapse(context.application, out.kept)  # to pay from the match


async def partner_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``partner:yes:N:M``: entry N asks entry M back (they are matched); ``partner:no:N:M``:
    entry N would rather not. Stamped as a deadline's answer is (registration closes)."""
    data, who = await pressed(update, context)
    if who is None:
        return
    parts = data.split(":")
    numbers = [parse_int(p) for p in parts[2:]]
    if len(parts) != 4 or parts[1] not in ("yes", "no") or None in numbers:
        return  # not a button of ours
    number, other = (n for n in numbers if n is not None)
    if number not in {e.number for e in who.roles.entries}:
        await not_theirs(update, who, number)
        return
    at = deadline_press(update, context, await who.svc.day.linked_users(number))
    if at is None or await already_handled(update, who):
        return
    work = Work(who.svc, Asker.of(update, who.user_id, who.lang))
    if parts[1] == "no":
        await say_no(work, who.svc.day, SayNo(number, other, who.user_id, at, update.update_id))
        return
    await _pair(update, context, who, Pair(number, other, who.user_id, "participant", at,
                                           update.update_id, asking=True))
