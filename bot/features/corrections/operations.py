"""Correcting a member: one transaction writes the members as they are now and the
``member_fix`` event (who was written how, and how now), with the answer and the notice to the
entry's other phones (the rules: ``rules.py``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import partial

from bot.delivery.work import Work
from bot.features.corrections.outcomes import (
    AnotherPerson,
    BirthUnreadable,
    MemberFixed,
    Outcome,
    RegistrationClosed,
    answer,
    notice,
)
from bot.features.corrections.rules import (
    MEMBER_FIX,
    BadBirth,
    Fixed,
    NotTheSame,
    Typed,
    as_entered,
    fix_verdict,
)
from bot.features.members.operations import entered_twice, playing_unit
from bot.features.members.outcomes import AlreadyPlaying, NotAMember, NothingToChange
from bot.features.members.rules import Change, NoSuchMember, NotEligible, SameMember, member_data
from bot.features.registration.day import NotEligible as Ineligible
from bot.features.registration.day import Registrations
from bot.features.registration.rules import registration_window
from bot.services.contest_day import ContestDay
from bot.services.outcomes import UnknownEntry
from bot.storage.store import Transaction


@dataclass(frozen=True)
class FixMember:
    """``/corregir``: member ``typed.position`` of entry ``number`` written as ``typed``, by
    ``actor`` (as ``role``: a participant of the entry, or an organiser; named ``name``) at
    Telegram's date of the message."""

    number: int
    typed: Typed
    actor: int
    role: str
    name: str
    at: datetime
    update_id: int | None


async def fix_member(work: Work, day: ContestDay, regs: Registrations,
                     cmd: FixMember) -> Outcome:
    async with work as tx:
        out = await _fix(day, regs, tx, cmd)
        work.reply(partial(answer, out=out, contest=day.contest))
        if isinstance(out, MemberFixed):
            work.tell_entry(cmd.number, partial(notice, out=out, by=cmd.name))
        return out


async def _fix(day: ContestDay, regs: Registrations, tx: Transaction,
               cmd: FixMember) -> Outcome:
    number, typed = cmd.number, cmd.typed
    entry = await tx.entry(number)
    category = day.contest.category(entry.category) if entry is not None else None
    if entry is None or category is None:
        return UnknownEntry(number)
    if cmd.role == "participant" and registration_window(day.contest, cmd.at) == "closed":
        return RegistrationClosed(number)
    playing = await playing_unit(day, entry)
    if playing is not None:
        return AlreadyPlaying(number, playing)
    entered = None
    if cmd.role == "participant" and 0 <= typed.position < len(entry.members):
        fixes = [e.data for e in await tx.events(entry=number, kinds=[MEMBER_FIX])]
        entered = as_entered(entry.members[typed.position], typed.position, fixes)
    verdict = fix_verdict(category, entry.members, typed, day.contest.date, entered)
    match verdict:
        case NoSuchMember(position=p, count=count):
            return NotAMember(number, p + 1, count)
        case SameMember(position=p):
            return NothingToChange(number, p + 1, typed.name)
        case NotEligible(problem=problem):
            return Ineligible(problem)
        case BadBirth():
            return BirthUnreadable(number, category.id)
        case NotTheSame(entered=who):
            return AnotherPerson(number, typed.position + 1, who.name)
        case Fixed(members=after, old=old, new=new):
            pass
    twice = await entered_twice(day, regs, entry, after, Change(typed.position, new))
    if twice is not None:
        return twice
    await tx.set_members(number, after)
    await tx.add_event(at=cmd.at, kind=MEMBER_FIX, role=cmd.role, actor=cmd.actor,
                       entry=number,
                       data={"position": typed.position, "old": member_data(old),
                             "new": member_data(new)}, update_id=cmd.update_id)
    return MemberFixed(entry, typed.position + 1, old, new, after)
