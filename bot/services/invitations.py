"""Advancement as an invitation: the qualifiers of a round confirmed are invited to the next
one, answer yes or no (``/acepto``, ``/renuncio``, or the buttons) by their deadline, and a
place declined or lapsed goes to the next in line, invited in the same transaction.

See bot/domain/invitations.py for the rules; this writes and reads their events.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import ClassVar

from bot.domain.contest import Category, Invite
from bot.domain.events import INVITE_KINDS, EventKind
from bot.domain.invitations import (
    LAPSED,
    NO,
    YES,
    AlreadyAccepted,
    AlreadyDeclined,
    Answer,
    HeatBegun,
    Invitation,
    Lapsed,
    NotInvited,
    begins_at,
    first_deadline,
    fold,
    next_deadline,
    reply_verdict,
)
from bot.domain.rounds import Heat, merged, qualifiers, seat
from bot.services.contest_day import ContestDay, answer_to, round_ref
from bot.services.outcomes import Done, Refusal
from bot.storage.transactions import Transaction

# -- what answering gives back -----------------------------------------------------------------


@dataclass(frozen=True)
class NoInvitation(Refusal):
    """The entry has no invitation to answer."""

    code: ClassVar[str] = "no_invitation"
    entry: int


@dataclass(frozen=True)
class InvitationLapsed(Refusal):
    """Its deadline (``moment``) passed without an answer."""

    code: ClassVar[str] = "invitation_lapsed"
    entry: int
    moment: datetime


@dataclass(frozen=True)
class InvitationDeclined(Refusal):
    """It declined already: its place went to the next in line."""

    code: ClassVar[str] = "invitation_declined"
    entry: int


@dataclass(frozen=True)
class InvitationAccepted(Refusal):
    """It accepted already."""

    code: ClassVar[str] = "invitation_accepted"
    entry: int


@dataclass(frozen=True)
class InvitationTooLate(Refusal):
    """The heat it was invited to has begun."""

    code: ClassVar[str] = "invitation_too_late"
    entry: int


InvitationRefusal = (NoInvitation | InvitationLapsed | InvitationDeclined | InvitationAccepted
                     | InvitationTooLate)


@dataclass(frozen=True)
class Invited:
    """An entry invited to ``heat`` (the round after the one confirmed), by ``deadline``."""

    entry: int
    heat: Heat
    deadline: datetime


@dataclass(frozen=True)
class Replied(Done):
    """An answer recorded: ``yes`` (``was``: the answer before, "yes" when an entry that had
    accepted declines); ``invited``: the next in line, invited to the place declined;
    ``unfilled``: a place declined that nobody can take any more (no time left)."""

    entry: int
    yes: bool
    heat: Heat
    was: str | None = None
    invited: tuple[Invited, ...] = ()
    unfilled: bool = False


@dataclass(frozen=True)
class LapsedPlaces:
    """Invitations to a round not answered by their deadlines (each entry with the heat it
    was invited to), and who was invited instead."""

    category: Category
    lapsed: tuple[tuple[int, Heat], ...]
    invited: tuple[Invited, ...] = ()


# -- inviting -------------------------------------------------------------------------------------


def invite_rule(category: Category, round_index: int) -> Invite | None:
    rule = category.rounds[round_index].advance
    return rule.invite if rule is not None else None


async def _heats_for(day: ContestDay, category: Category, index: int,
                     numbers: Sequence[int]) -> dict[int, Heat]:
    """The heat of the next round each of ``numbers`` would play, were they all in it (the
    first heat when its seating can't say: a missing answer to the question splitting it)."""
    nxt = index + 1
    lineup = await day.lineups(category)
    came = {n: h for h, ns in enumerate(lineup[index], 1) for n in ns}
    entries = {e.number: e for e in await day.store.entries(category.id)}
    seated = seat(category, nxt, list(numbers),
                  answer_to(entries, category.rounds[nxt].heats_by), came.get)
    out = {n: Heat(category, nxt, 1) for n in numbers}
    for h, ns in enumerate(seated, 1):
        out.update({n: Heat(category, nxt, h) for n in ns})
    return out


def heat_begins(day: ContestDay, heat: Heat) -> datetime:
    return begins_at(heat.round, heat.number, day.contest.timezone)


async def _write(tx: Transaction, day: ContestDay, category: Category, index: int,
                 invited: Sequence[Invited], at: datetime, actor: int | None,
                 update_id: int | None) -> None:
    for inv in invited:
        await tx.add_event(at=at, kind=EventKind.INVITED, role="organiser" if actor else "system",
                           actor=actor, entry=inv.entry, category=category.id,
                           ref=round_ref(category, index),
                           data={"deadline": inv.deadline.isoformat()}, update_id=update_id)


async def invite_qualifiers(tx: Transaction, day: ContestDay, category: Category, index: int,
                            chosen: Sequence[int], at: datetime, organiser: int,
                            update_id: int | None) -> tuple[Invited, ...]:
    """The round ``index`` just confirmed invites its qualifiers ``chosen``: each told now,
    with the deadline of the rule (written in the confirmation's transaction)."""
    rule = invite_rule(category, index)
    assert rule is not None
    heats = await _heats_for(day, category, index, chosen)
    invited = tuple(Invited(n, heats[n], first_deadline(rule, at, heat_begins(day, heats[n])))
                    for n in chosen)
    await _write(tx, day, category, index, invited, at, organiser, update_id)
    return invited


async def _next_in_line(tx: Transaction, day: ContestDay, category: Category, index: int,
                        invitations: dict[int, Invitation], at: datetime, actor: int | None,
                        update_id: int | None) -> tuple[tuple[Invited, ...], bool]:
    """After a place was declined or lapsed: the round's rule applied again without the
    entries out; whoever it takes that was never invited is invited now (when time is left).
    Also whether a place stays empty (someone was due, with no time left to answer)."""
    rule = category.rounds[index].advance
    invite = invite_rule(category, index)
    assert rule is not None and invite is not None
    contest = day.contest
    heats = [await day.heat_ranking(Heat(category, index, h))
             for h in range(1, category.rounds[index].heats + 1)]
    ranking = merged(category, index, heats, contest.limit_inclusive,
                     contest.penalised_finish_counts, contest.tie_break)
    entries = {e.number: e for e in await day.store.entries(category.id)}
    out = frozenset(n for n, i in invitations.items() if i.out)
    chosen = qualifiers(rule, heats, ranking, answer_to(entries, rule.by), skip=out)
    new = [n for n in chosen if n not in invitations]
    if not new:
        return (), False
    where = await _heats_for(day, category, index,
                             [n for n in chosen if n not in out])
    invited = []
    for n in new:
        deadline = next_deadline(invite, at, heat_begins(day, where[n]))
        if deadline is not None:
            invited.append(Invited(n, where[n], deadline))
    await _write(tx, day, category, index, invited, at, actor, update_id)
    return tuple(invited), len(invited) < len(new)


# -- answering ------------------------------------------------------------------------------------


async def _invitation_of(day: ContestDay, number: int
                         ) -> tuple[Category, int, dict[int, Invitation]] | None:
    """The category, round and invitations of the latest invitation ``number`` has."""
    entry = await day.store.entry(number)
    category = day.contest.category(entry.category) if entry is not None else None
    if category is None:
        return None
    for index in range(len(category.rounds) - 2, -1, -1):
        if invite_rule(category, index) is None:
            continue
        invitations = await day.invitations(category, index)
        if number in invitations:
            return category, index, invitations
    return None


async def invitation_of(day: ContestDay, number: int) -> tuple[Heat, Invitation] | None:
    """The heat entry ``number`` is invited to, and its invitation (None: it has none)."""
    found = await _invitation_of(day, number)
    if found is None:
        return None
    category, index, invitations = found
    return (await _heats_for(day, category, index, [number]))[number], invitations[number]


async def reply(day: ContestDay, user: int, number: int, yes: bool, at: datetime,
                update_id: int | None, role: str = "participant"
                ) -> Replied | InvitationRefusal:
    """Entry ``number`` answers its invitation: yes, or no (its place goes to the next in
    line, invited in the same transaction)."""
    async with day.store.transaction() as tx:
        found = await _invitation_of(day, number)
        if found is None:
            return NoInvitation(number)
        category, index, invitations = found
        heat = (await _heats_for(day, category, index, [number]))[number]
        invitation = invitations[number]
        match reply_verdict(invitation, yes, at, heat_begins(day, heat)):
            case NotInvited():
                return NoInvitation(number)
            case AlreadyDeclined():
                return InvitationDeclined(number)
            case Lapsed(deadline=deadline):
                return InvitationLapsed(number, deadline)
            case HeatBegun():
                return InvitationTooLate(number)
            case AlreadyAccepted():
                return InvitationAccepted(number)
            case Answer(was=was):
                await tx.add_event(at=at, kind=EventKind.INVITE_REPLY, role=role, actor=user,
                                   entry=number, category=category.id,
                                   ref=round_ref(category, index),
                                   data={"answer": YES if yes else NO}, update_id=update_id)
                if yes:
                    where = await day.heat_of(number, category)
                    return Replied(number, True, where or heat, was)
                invitations = await day.invitations(category, index)
                invited, unfilled = await _next_in_line(tx, day, category, index, invitations,
                                                        at, user, update_id)
                return Replied(number, False, heat, was, invited, unfilled)


# -- deadlines ------------------------------------------------------------------------------------


async def deadlines(day: ContestDay) -> list[datetime]:
    """The deadlines of the invitations still waiting for an answer (each a job)."""
    events = await day.store.events(kinds=list(INVITE_KINDS))
    out: set[datetime] = set()
    for ref in {e.ref for e in events}:
        for inv in fold(e for e in events if e.ref == ref).values():
            if inv.answer is None:
                out.add(inv.deadline)
    return sorted(out)


async def lapse_due(day: ContestDay, at: datetime) -> list[LapsedPlaces]:
    """Every invitation not answered by its deadline (at ``at`` or before) lapses, and its
    place goes to the next in line (told now, ``at``): one transaction."""
    out: list[LapsedPlaces] = []
    async with day.store.transaction() as tx:
        for category in day.contest.categories:
            for index in range(len(category.rounds) - 1):
                if invite_rule(category, index) is None:
                    continue
                invitations = await day.invitations(category, index)
                due = [i for i in invitations.values()
                       if i.answer is None and i.deadline <= at]
                if not due:
                    continue
                heats = await _heats_for(day, category, index, [i.entry for i in due])
                for inv in due:
                    await tx.add_event(at=inv.deadline, kind=EventKind.INVITE_LAPSED,
                                       role="system", entry=inv.entry, category=category.id,
                                       ref=round_ref(category, index), data={"answer": LAPSED})
                invited, _ = await _next_in_line(tx, day, category, index,
                                                 await day.invitations(category, index), at,
                                                 None, None)
                out.append(LapsedPlaces(category, tuple((i.entry, heats[i.entry]) for i in due),
                                        invited))
    return out


async def round_invitations(day: ContestDay, category: Category, index: int
                            ) -> dict[int, Invitation]:
    """/series: the invitations to the round after ``index`` (empty when it does not invite)."""
    if index < 0 or invite_rule(category, index) is None:
        return {}
    return await day.invitations(category, index)

