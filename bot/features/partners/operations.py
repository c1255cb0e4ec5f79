"""Partners matched and asked for, each in one transaction the operation owns (``Work``):
the members joined, the entry that joined withdrawn and its people following the one kept,
written together with what the people are told."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import partial

from bot.delivery.work import Work
from bot.domain.events import EventKind
from bot.domain.places import Status
from bot.features.partners.outcomes import (
    Asked,
    Matched,
    NoRequest,
    NotSeeking,
    OrganisersMatch,
    OtherCategory,
    Outcome,
    SaidNo,
    SameEntry,
    TooManyTogether,
    Unfit,
    answer,
    matched_news,
)
from bot.features.partners.rules import (
    MATCH,
    PROPOSAL,
    Together,
    TooMany,
    kept_and_joining,
    rules_of,
    together,
)
from bot.features.partners.texts import declined_text, request_buttons, request_text
from bot.features.registration.card import entry_card
from bot.features.registration.rules import is_local
from bot.services.contest_day import ContestDay
from bot.services.outcomes import UnknownEntry
from bot.storage.store import Entry
from bot.storage.transactions import Transaction


@dataclass(frozen=True)
class Pair:
    """Entries ``first`` and ``second`` matched (by an organiser), or entry ``first`` asking
    entry ``second`` to play together (``asking``: by one of its people); by ``actor`` at
    ``at`` (a message's date, or a button's moment)."""

    first: int
    second: int
    actor: int
    role: str
    at: datetime
    update_id: int | None
    asking: bool = False


@dataclass(frozen=True)
class SayNo:
    """Entry ``number`` would rather not play with entry ``asking``, said by ``actor``."""

    number: int
    asking: int
    actor: int
    at: datetime
    update_id: int | None


async def pair(work: Work, day: ContestDay, cmd: Pair) -> Outcome:
    """An organiser's match, or a request: matched at once when the other entry had asked for
    this one, else the other's people asked, with a button to say yes."""
    async with work as tx:
        out = await _pair(day, tx, cmd)
        work.reply(partial(answer, out=out, contest=day.contest))
        if isinstance(out, Asked):
            work.tell_entry(out.other, partial(request_text, number=out.number,
                                               members=await _names(tx, out.number)),
                            keyboard=partial(request_buttons, asked=out.other,
                                             asking=out.number))
        elif isinstance(out, Matched):
            # the match, and the place it now has (whatever it is: a place to pay for too),
            # told here, to both sides' phones
            work.tell_entry(out.kept, partial(matched_news, out=out, contest=day.contest))
        return out


async def say_no(work: Work, day: ContestDay, cmd: SayNo) -> Outcome:
    """The request of the entry that asked, declined: it is no longer in force (the entry
    that asked is told, and may ask someone else; this entry's own requests stand)."""
    async with work as tx:
        out: Outcome
        if await tx.entry(cmd.number) is None or await tx.entry(cmd.asking) is None:
            out = UnknownEntry(cmd.asking)
        elif not await _asked_by(tx, cmd.asking, cmd.number):
            out = NoRequest(cmd.number, cmd.asking)
        else:
            await tx.add_event(at=cmd.at, kind=PROPOSAL, role="participant", actor=cmd.actor,
                               entry=cmd.asking, value=0, data={"declined_by": cmd.number},
                               update_id=cmd.update_id)
            out = SaidNo(cmd.number, cmd.asking)
        work.reply(partial(answer, out=out, contest=day.contest))
        if isinstance(out, SaidNo):
            work.tell_entry(cmd.asking, partial(declined_text, asked=cmd.number))
        return out


async def _names(tx: Transaction, number: int) -> tuple[str, ...]:
    entry = await tx.entry(number)
    return entry.names if entry is not None else ()


async def _pair(day: ContestDay, tx: Transaction, cmd: Pair) -> Outcome:
    found = await _both(day, tx, cmd)
    if not isinstance(found, tuple):
        return found
    kept, joining = found
    verdict = await _verdict(day, cmd, kept, joining)
    if not isinstance(verdict, Together):
        return verdict
    if cmd.asking and not await _asked_by(tx, cmd.second, cmd.first):
        await tx.add_event(at=cmd.at, kind=PROPOSAL, role=cmd.role, actor=cmd.actor,
                           entry=cmd.first, value=cmd.second, update_id=cmd.update_id)
        other = joining if joining.number == cmd.second else kept
        return Asked(cmd.first, cmd.second, other.names)
    left = await _join(day, tx, cmd, kept, joining, verdict)
    names = tuple(m.name for m in verdict.members)
    if not verdict.complete:
        return Matched(kept.number, joining.number, names, False, meals_left=left)
    regs = day.registrations
    place = (await regs.places(cmd.at))[kept.number]
    # what its people are told now (``pair``): never announced again
    await tx.add_event(at=cmd.at, kind=EventKind.STATUS_NOTICE, role="system",
                       entry=kept.number, ref=regs.status_key(kept.number, place))
    card = await entry_card(day, kept.number, cmd.at) if place.status in (
        Status.CONFIRMED, Status.PENDING_PAYMENT) else None
    return Matched(kept.number, joining.number, names, True, place, card, left)


async def _both(day: ContestDay, tx: Transaction, cmd: Pair
                ) -> tuple[Entry, Entry] | Outcome:
    """The two entries, both looking for a partner, in one category: (the one kept, the one
    joining it); or why not."""
    if cmd.first == cmd.second:
        return SameEntry(cmd.first)
    rules = rules_of(day.contest)
    if cmd.asking and (rules is None or not rules.self_service):
        return OrganisersMatch()
    first, second = await tx.entry(cmd.first), await tx.entry(cmd.second)
    if first is None or second is None:
        return UnknownEntry(cmd.first if first is None else cmd.second)
    places = await day.registrations.places(cmd.at)
    for entry in (first, second):
        if places[entry.number].status is not Status.SEEKING:
            return NotSeeking(entry.number, places[entry.number])
    if first.category != second.category:
        cats = [c.name if (c := day.contest.category(e.category)) else e.category
                for e in (first, second)]
        return OtherCategory(first.number, second.number, cats[0], cats[1])
    kept_n, _ = kept_and_joining(cmd.first, cmd.second)
    return (first, second) if kept_n == first.number else (second, first)


async def _verdict(day: ContestDay, cmd: Pair, kept: Entry, joining: Entry
                   ) -> Together | Outcome:
    """Whether they may play together now: their heat still to come, their members fitting
    the category as one registration."""
    category = day.contest.category(kept.category)
    assert category is not None
    late = await day.registrations.too_late(category, cmd.at, dict(kept.values))
    if late is not None:  # its heat has begun: as a registration then would be
        return late
    verdict = together(category, kept.members, joining.members, day.contest.date)
    if isinstance(verdict, TooMany):
        return TooManyTogether(verdict.count, verdict.most)
    if not isinstance(verdict, Together):
        members = (*kept.members, *joining.members)
        return Unfit(verdict, members[min(verdict.member, len(members) - 1)].name)
    return verdict


async def _asked_by(tx: Transaction, asking: int, asked: int) -> bool:
    """Whether entry ``asking``'s request in force (its last) is for ``asked``."""
    requests = await tx.events(entry=asking, kinds=[PROPOSAL])
    return bool(requests) and requests[-1].value == asked


async def _join(day: ContestDay, tx: Transaction, cmd: Pair, kept: Entry, joining: Entry,
                verdict: Together) -> tuple[int, int]:
    """The members joined, the meals booked added up, the entry that joined withdrawn and
    its people following the one kept. An entry kept that is paid already keeps its meals:
    the ones booked with the other (returned, adults and children) are to book again, never
    cooked unpaid."""
    regs = day.registrations
    [status] = await regs.statuses(cmd.at, [kept.number])
    meals = (joining.meal_adults, joining.meal_children)
    moved = status.paid_at is None or meals == (0, 0)
    await tx.set_members(kept.number, verdict.members)
    await tx.set_joined(kept.number, is_local(day.contest, verdict.members),
                        kept.meal_adults + (joining.meal_adults if moved else 0),
                        kept.meal_children + (joining.meal_children if moved else 0))
    await tx.add_event(at=cmd.at, kind=MATCH, role=cmd.role, actor=cmd.actor, entry=kept.number,
                       data={"other": joining.number, "complete": verdict.complete},
                       update_id=cmd.update_id)
    # the bot's own withdrawal: a consequence of the match, naming the entry it joined
    await tx.add_event(at=cmd.at, kind=EventKind.WITHDRAW, role="system", entry=joining.number,
                       data={"joined": kept.number})
    following = set(await regs.recipients(kept.number))
    for user_id in await regs.recipients(joining.number):
        if user_id not in following:
            await tx.add_event(at=cmd.at, kind=EventKind.LINK, role="participant",
                               actor=user_id, entry=kept.number, ref="partner")
    return (0, 0) if moved else meals
