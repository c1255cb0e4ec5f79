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
from bot.domain.rounds import Heat, merged, qualifiers, seat
from bot.features.invitations.rules import (
    LAPSED,
    NO,
    YES,
    AlreadyAccepted,
    AlreadyDeclined,
    HeatBegun,
    Invitation,
    Lapsed,
    NotInvited,
    begins_at,
    first_deadline,
    fold,
    freed,
    next_deadline,
    reminder_at,
    reminder_key,
    reply_verdict,
)
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
    """An entry invited to ``heat`` (the round after the one confirmed), by ``deadline``
    (``replaces``: the entry whose place it takes; None: a qualifier)."""

    entry: int
    heat: Heat
    deadline: datetime
    replaces: int | None = None


@dataclass(frozen=True)
class Replied(Done):
    """An answer recorded: ``yes`` (``was``: the answer before, "yes" when an entry that had
    accepted declines); ``invited``: the next in line, invited to the place declined;
    ``unfilled``: a place declined that nobody can take (no time is left to answer)."""

    entry: int
    yes: bool
    heat: Heat
    was: str | None = None
    invited: tuple[Invited, ...] = ()
    unfilled: bool = False


@dataclass(frozen=True)
class LapsedPlaces:
    """Invitations to a round not answered by their deadlines (each entry with the heat it
    was invited to), who was invited instead, and whether a place stays empty."""

    category: Category
    lapsed: tuple[tuple[int, Heat], ...]
    invited: tuple[Invited, ...] = ()
    unfilled: bool = False


# -- inviting -------------------------------------------------------------------------------------


def invite_rule(category: Category, round_index: int) -> Invite | None:
    rule = category.rounds[round_index].advance
    return rule.invite if rule is not None else None


def heat_begins(day: ContestDay, heat: Heat) -> datetime:
    return begins_at(heat.round, heat.number, day.contest.timezone)


def invited_heat(category: Category, index: int, invitation: Invitation) -> Heat:
    """The heat of the next round an invitation is for (kept from the moment it was told)."""
    return Heat(category, index + 1, invitation.heat)


async def _write(tx: Transaction, category: Category, index: int, invited: Sequence[Invited],
                 at: datetime, actor: int | None, update_id: int | None) -> None:
    for inv in invited:
        data: dict[str, object] = {"deadline": inv.deadline.isoformat(), "heat": inv.heat.number}
        if inv.replaces is not None:
            data["replaces"] = inv.replaces
        await tx.add_event(at=at, kind=EventKind.INVITED, role="organiser" if actor else "system",
                           actor=actor, entry=inv.entry, category=category.id,
                           ref=round_ref(category, index), data=data, update_id=update_id)


async def invite_qualifiers(tx: Transaction, category: Category, index: int,
                            seated: Sequence[Sequence[int]], at: datetime, organiser: int,
                            update_id: int | None, timezone: str) -> tuple[Invited, ...]:
    """The round ``index`` just confirmed invites its qualifiers, each to the heat of the next
    round it was ``seated`` in, with the rule's deadline (in the confirmation's transaction)."""
    rule = invite_rule(category, index)
    assert rule is not None
    invited = []
    for h, numbers in enumerate(seated, 1):
        heat = Heat(category, index + 1, h)
        deadline = first_deadline(rule, at, begins_at(heat.round, h, timezone))
        invited += [Invited(n, heat, deadline) for n in numbers]
    await _write(tx, category, index, invited, at, organiser, update_id)
    return tuple(invited)


async def _split_heat(day: ContestDay, category: Category, index: int, number: int
                      ) -> Heat | None:
    """In a next round whose heats take given heats of this one (``from``) or are split by a
    question: the heat ``number`` plays by where it comes from (None: seated by results)."""
    nxt = category.rounds[index + 1]
    if nxt.heats_by is None and not (nxt.schedule and nxt.schedule[0].takes):
        return None
    lineup = await day.lineups(category)
    came = {n: h for h, ns in enumerate(lineup[index], 1) for n in ns}
    entries = {e.number: e for e in await day.store.entries(category.id)}
    seated = seat(category, index + 1, [number], answer_to(entries, nxt.heats_by), came.get)
    return next((Heat(category, index + 1, h) for h, ns in enumerate(seated, 1) if ns), None)


async def _next_in_line(tx: Transaction, day: ContestDay, category: Category, index: int,
                        invitations: dict[int, Invitation], told: datetime, actor: int | None,
                        update_id: int | None) -> tuple[tuple[Invited, ...], bool]:
    """After places were given up or lapsed: the round's rule applied again without the
    entries out; whoever it takes that was never invited is invited now, told at ``told``,
    to a place freed (its heat: where it comes from, or the heat of the place it takes).
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
    places = freed(invitations)
    invited: list[Invited] = []
    unfilled = False
    for n in new:
        heat = await _split_heat(day, category, index, n)
        place = next((p for p in places if heat is None or p.heat == heat.number), None)
        if place is not None:
            places.remove(place)
        if heat is None:  # seated by results: the heat of the place it takes
            latest = place or max((invitations[o] for o in out), default=None,
                                  key=lambda i: (i.answered or i.deadline, i.entry))
            heat = invited_heat(category, index, latest) if latest is not None \
                else Heat(category, index + 1, 1)
        deadline = next_deadline(invite, told, heat_begins(day, heat))
        if deadline is None:
            unfilled = True
            continue
        invited.append(Invited(n, heat, deadline, place.entry if place else None))
    await _write(tx, category, index, invited, told, actor, update_id)
    return tuple(invited), unfilled


# -- answering ------------------------------------------------------------------------------------


async def _invitation_of(day: ContestDay, number: int, answerable: bool = False
                         ) -> tuple[Category, int, dict[int, Invitation]] | None:
    """The category, round and invitations of the latest invitation ``number`` has. Where it
    is to answer (``answerable``): only the latest round's that invited anyone, and while the
    round it invites to is not confirmed (an invitation to a semi-final played is none to
    the final)."""
    entry = await day.store.entry(number)
    category = day.contest.category(entry.category) if entry is not None else None
    if category is None:
        return None
    for index in range(len(category.rounds) - 2, -1, -1):
        if invite_rule(category, index) is None:
            continue
        invitations = await day.invitations(category, index)
        if number in invitations and not answerable:
            return category, index, invitations
        if invitations and answerable:
            over = await day.confirmed_rounds(category) > index + 1
            return (category, index, invitations) if number in invitations and not over \
                else None
    return None


async def invitation_of(day: ContestDay, number: int) -> tuple[Heat, Invitation] | None:
    """The heat entry ``number`` is invited to, and its invitation (None: it has none)."""
    found = await _invitation_of(day, number)
    if found is None:
        return None
    category, index, invitations = found
    return invited_heat(category, index, invitations[number]), invitations[number]


def _refused(verdict: object, number: int) -> InvitationRefusal | None:
    match verdict:
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
    return None


@dataclass(frozen=True)
class _Checked:
    """An answer looked at: the invitation's round, its heat, and why not (None: it may)."""

    category: Category
    index: int
    invitations: dict[int, Invitation]
    heat: Heat
    refused: InvitationRefusal | None


async def _check(day: ContestDay, number: int, yes: bool, at: datetime
                 ) -> _Checked | NoInvitation:
    found = await _invitation_of(day, number, answerable=True)
    if found is None:
        return NoInvitation(number)
    category, index, invitations = found
    heat = invited_heat(category, index, invitations[number])
    begins = heat_begins(day, heat)
    if (await day.clock(heat.id)).started is not None:
        begins = min(begins, at)
    refused = _refused(reply_verdict(invitations[number], yes, at, begins), number)
    return _Checked(category, index, invitations, heat, refused)


async def may_answer(day: ContestDay, number: int, yes: bool, at: datetime
                     ) -> tuple[Heat, InvitationRefusal | None] | NoInvitation:
    """Whether entry ``number`` may answer (yes or no) at ``at``: its heat, and why not. A heat
    whose clock started has begun, whatever the moment a button was shown."""
    checked = await _check(day, number, yes, at)
    return checked if isinstance(checked, NoInvitation) else (checked.heat, checked.refused)


async def reply(day: ContestDay, user: int, number: int, yes: bool, at: datetime,
                update_id: int | None, role: str = "participant", told: datetime | None = None
                ) -> Replied | InvitationRefusal:
    """Entry ``number`` answers its invitation: yes, or no (its place goes to the next in
    line, invited in the same transaction and told at ``told``: Telegram's time now, which a
    press of a button shown long ago is not)."""
    async with day.store.transaction() as tx:
        checked = await _check(day, number, yes, at)
        if isinstance(checked, NoInvitation):
            return checked
        if checked.refused is not None:
            return checked.refused
        category, index, heat = checked.category, checked.index, checked.heat
        was = checked.invitations[number].answer
        await tx.add_event(at=at, kind=EventKind.INVITE_REPLY, role=role, actor=user,
                           entry=number, category=category.id, ref=round_ref(category, index),
                           data={"answer": YES if yes else NO}, update_id=update_id)
        if yes:
            return Replied(number, True, heat, was)
        invited, unfilled = await _next_in_line(tx, day, category, index,
                                                await day.invitations(category, index),
                                                max(at, told or at), user, update_id)
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
                for inv in due:
                    await tx.add_event(at=inv.deadline, kind=EventKind.INVITE_LAPSED,
                                       role="system", entry=inv.entry, category=category.id,
                                       ref=round_ref(category, index), data={"answer": LAPSED})
                invited, unfilled = await _next_in_line(
                    tx, day, category, index, await day.invitations(category, index), at,
                    None, None)
                out.append(LapsedPlaces(category, tuple(
                    (i.entry, invited_heat(category, index, i)) for i in due), invited,
                    unfilled))
    return out


async def round_invitations(day: ContestDay, category: Category, index: int
                            ) -> dict[int, Invitation]:
    """/series: the invitations to the round after ``index`` (empty when it does not invite)."""
    if index < 0 or invite_rule(category, index) is None:
        return {}
    return await day.invitations(category, index)



# -- reminders ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reminder:
    """An invitation still unanswered, told again before its ``deadline``; ``followed``:
    whether a phone follows the entry (else only the organisers can do something)."""

    entry: int
    heat: Heat
    deadline: datetime
    followed: bool


async def _waiting(day: ContestDay) -> list[tuple[Category, int, Invitation, datetime]]:
    """Every invitation still unanswered that has a reminder, with its round and moment."""
    out = []
    for category in day.contest.categories:
        for index in range(len(category.rounds) - 1):
            invite = invite_rule(category, index)
            if invite is None:
                continue
            for inv in (await day.invitations(category, index)).values():
                moment = reminder_at(invite, inv)
                if moment is not None:
                    out.append((category, index, inv, moment))
    return out


async def reminder_moments(day: ContestDay, now: datetime) -> list[datetime]:
    """The moments of the reminders still owed (each a job; one past whose deadline has not
    come by ``now`` is still owed: the bot was off)."""
    sent = {e.ref for e in await day.store.events(kinds=[EventKind.NOTICE])}
    return sorted({moment for category, index, inv, moment in await _waiting(day)
                   if inv.deadline > now
                   and reminder_key(round_ref(category, index), inv) not in sent})


async def remind_due(day: ContestDay, at: datetime) -> list[Reminder]:
    """The invitations whose reminder is due at ``at`` and whose deadline has not come:
    each recorded as told (once, in one transaction with what it tells)."""
    out: list[Reminder] = []
    async with day.store.transaction() as tx:
        sent = {e.ref for e in await day.store.events(kinds=[EventKind.NOTICE])}
        for category, index, inv, moment in await _waiting(day):
            key = reminder_key(round_ref(category, index), inv)
            if moment > at or inv.deadline <= at or key in sent:
                continue
            await tx.add_event(at=moment, kind=EventKind.NOTICE, role="system",
                               entry=inv.entry, ref=key)
            out.append(Reminder(inv.entry, invited_heat(category, index, inv), inv.deadline,
                                bool(await day.linked_users(inv.entry))))
    return out
