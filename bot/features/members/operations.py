"""Changing a team's members before it plays: one transaction writes the members as they are
now and the ``member_change`` event saying who left and who came (the rules: ``rules.py``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import partial

from bot.delivery.work import Work
from bot.domain.events import EventKind
from bot.domain.places import Status
from bot.features.members.outcomes import (
    AlreadyPlaying,
    MembersChanged,
    MembersFixed,
    MembersRefusal,
    NotAMember,
    NothingToChange,
    OriginalsLeave,
    Outcome,
    StillLooking,
    TeamFull,
    TeamTooSmall,
    answer,
    team_notice,
)
from bot.features.members.rules import (
    Allowed,
    Change,
    ChangeVerdict,
    Full,
    NoSuchMember,
    NotEligible,
    SameMember,
    TooFew,
    TooFewOriginals,
    change_verdict,
    member_data,
    originals,
)
from bot.features.registration.day import AlreadyEntered, Registrations
from bot.features.registration.day import NotEligible as Ineligible
from bot.features.registration.rules import Member, already_entered, same_person
from bot.services.contest_day import ContestDay
from bot.services.outcomes import UnknownEntry
from bot.storage.store import Entry, Transaction


async def playing_unit(day: ContestDay, entry: Entry) -> str | None:
    """The unit (a category or a heat) the entry plays now or played last whose clock has
    started; None: its next event is still to come."""
    category = day.contest.category(entry.category)
    if category is None:
        return None
    heat = await day.heat_of(entry.number, category) if category.rounds else None
    unit = heat.id if heat is not None else category.id
    if category.rounds and heat is None:
        return None  # in no heat yet (invited to the next round): to come
    return unit if (await day.clock(unit)).started is not None else None


def _refused(verdict: ChangeVerdict, entry: Entry, change: Change
             ) -> MembersRefusal | Ineligible:
    number = entry.number
    match verdict:
        case NoSuchMember(position=p, count=count):
            return NotAMember(number, p + 1, count)
        case SameMember(position=p):
            return NothingToChange(number, p + 1, change.new.name if change.new else "")
        case Full(most=most):
            return TeamFull(number, most)
        case TooFew(fewest=fewest):
            return TeamTooSmall(number, fewest)
        case TooFewOriginals(needed=needed):
            return OriginalsLeave(number, needed)
        case NotEligible(problem=problem):
            return Ineligible(problem)
    return MembersFixed(entry.category)


async def entered_twice(day: ContestDay, regs: Registrations, entry: Entry,
                         after: Sequence[Member], change: Change) -> AlreadyEntered | None:
    """Where one entry per person is the rule (in the category, or across the contest): the
    team as changed checked as registration checks a new entry (``already_entered``), so a
    member coming in who is already in this team ("Ana García / Ana García") or in another
    entry is refused."""
    rule = day.contest.registration
    if change.new is None or not rule.one_entry_per_person:
        return None
    across = rule.one_entry_scope == "contest"
    others = [(n, m) for n, m in await regs.entered(None if across else entry.category)
              if n != entry.number]
    twice = already_entered(after, others)
    if twice is None:
        return None
    other = await day.store.entry(twice[1]) if twice[1] else None
    theirs = day.contest.category(other.category) if other is not None and across else None
    who = twice[0]
    if same_person(change.new, after[who]):  # named as the organiser typed them
        who = len(entry.members) if change.position is None else change.position
    return AlreadyEntered(who, after[who].name, twice[1], theirs.name if theirs else None)


@dataclass(frozen=True)
class ChangeMembers:
    """``/sustituir``: ``change`` to entry ``number``, by organiser ``organiser`` at Telegram's
    date of the message."""

    number: int
    change: Change
    organiser: int
    at: datetime
    update_id: int | None


async def change_members(work: Work, day: ContestDay, regs: Registrations,
                         cmd: ChangeMembers) -> Outcome:
    """An organiser changes a member of an entry before it plays: the members as they are
    now and the ``member_change`` event in one transaction, with the organiser's answer and
    the team's notice."""
    async with work as tx:
        out = await _change(day, regs, tx, cmd)
        work.reply(partial(answer, out=out, contest=day.contest))
        if isinstance(out, MembersChanged):
            work.tell_entry(out.entry.number, partial(team_notice, out=out))
        return out


async def _change(day: ContestDay, regs: Registrations, tx: Transaction,
                  cmd: ChangeMembers) -> Outcome:
    number, change = cmd.number, cmd.change
    entry = await tx.entry(number)
    category = day.contest.category(entry.category) if entry is not None else None
    if entry is None or category is None:
        return UnknownEntry(number)
    playing = await playing_unit(day, entry)
    if playing is not None:
        return AlreadyPlaying(number, playing)
    if (await regs.places(cmd.at))[number].status is Status.SEEKING:
        return StillLooking(number)
    history = [e.data for e in await day.store.events(entry=number,
                                                      kinds=[EventKind.MEMBER_CHANGE])]
    first = originals(entry.members, history)
    verdict = change_verdict(category, entry.members, first, change, day.contest.date)
    if not isinstance(verdict, Allowed):
        return _refused(verdict, entry, change)
    after = verdict.members
    twice = await entered_twice(day, regs, entry, after, change)
    if twice is not None:
        return twice
    old = entry.members[change.position] if change.position is not None else None
    await tx.set_members(number, after)
    await tx.add_event(at=cmd.at, kind=EventKind.MEMBER_CHANGE, role="organiser",
                       actor=cmd.organiser, entry=number, category=category.id,
                       data={"position": change.position, "old": member_data(old),
                             "new": member_data(change.new)}, update_id=cmd.update_id)
    return MembersChanged(entry, after, old, change.new)
