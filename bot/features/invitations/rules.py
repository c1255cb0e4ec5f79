"""Advancement as an invitation: qualifiers told, answering yes or no by a deadline.

A round whose ``advance`` has ``invite`` does not send its qualifiers on by itself: each is
invited (told, with a deadline) and plays the next round only once it accepts. A place
declined, or not answered by its deadline (it lapses), goes to the next in line: the round's
rule is applied again with the entries out left aside (they still count for ``top_percent``'s
total), and whoever it now takes that was never invited is invited in turn. No answer is
taken, and nobody else invited, once the heat the entry would play has begun.

The history holds it all: an ``invited`` event per invitation (its deadline), ``invite_reply``
(yes or no, the latest one counts) and ``invite_lapsed``. Pure: no clock, no storage.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from bot.domain.contest import Invite, Round

YES, NO, LAPSED = "yes", "no", "lapsed"


def begins_at(rnd: Round, heat: int, tz: ZoneInfo | str) -> datetime:
    """When heat ``heat`` (1-based) of ``rnd`` begins: its start, or its day's midnight."""
    when = rnd.when(heat)
    zone = ZoneInfo(tz) if isinstance(tz, str) else tz
    return when.start or datetime.combine(when.date, time(0), zone)


@dataclass(frozen=True)
class Invitation:
    """One entry's invitation to the next round: when it was told, its deadline, and its
    answer so far (None: waiting; ``YES``, ``NO`` or ``LAPSED``)."""

    entry: int
    told: datetime
    deadline: datetime
    heat: int = 1  # the heat (1-based) of the next round it is invited to, kept once told
    replaces: int | None = None  # the entry whose place it was invited to (None: a qualifier)
    answer: str | None = None
    answered: datetime | None = None

    @property
    def out(self) -> bool:
        """Declined or lapsed: its place goes to the next in line."""
        return self.answer in (NO, LAPSED)

    def pending(self, at: datetime) -> bool:
        return self.answer is None and at < self.deadline


def first_deadline(invite: Invite, told: datetime, begins: datetime) -> datetime:
    """The deadline of a qualifier told when the round is confirmed (at ``told``), for a heat
    that ``begins`` then: ``by``; ``within`` of being told when there is no ``by`` or it has
    passed already; else until the heat begins. Never after it begins."""
    if invite.by is not None and invite.by > told:
        deadline = invite.by
    elif invite.within is not None:
        deadline = told + timedelta(seconds=invite.within)
    else:
        deadline = begins
    return min(deadline, begins)


def next_deadline(invite: Invite, told: datetime, begins: datetime) -> datetime | None:
    """The deadline of the next in line, told at ``told`` (a place declined or lapsed):
    ``within`` of being told, else ``by``; never after the heat begins. None: no time is left
    to answer (``by`` has passed, or the heat has begun), so nobody takes the place."""
    if invite.within is not None:
        deadline = told + timedelta(seconds=invite.within)
    else:
        assert invite.by is not None  # the contest file requires one of them
        deadline = invite.by
    deadline = min(deadline, begins)
    return deadline if deadline > told else None


def fold(events: Iterable[Any]) -> dict[int, Invitation]:
    """The invitations of one round, by entry, from its ``invited``, ``invite_reply`` and
    ``invite_lapsed`` events (anything with ``kind``, ``entry``, ``at`` and ``data``), in
    the order they were written."""
    out: dict[int, Invitation] = {}
    for e in events:
        if e.entry is None:
            continue
        if e.kind == "invited":
            out[e.entry] = Invitation(e.entry, e.at, datetime.fromisoformat(e.data["deadline"]),
                                      int(e.data.get("heat", 1)), e.data.get("replaces"))
        elif e.entry in out and e.kind == "invite_reply":
            out[e.entry] = replace(out[e.entry], answer=str(e.data["answer"]), answered=e.at)
        elif e.entry in out and e.kind == "invite_lapsed" and out[e.entry].answer is None:
            out[e.entry] = replace(out[e.entry], answer=LAPSED, answered=e.at)
    return out


def accepted(invitations: dict[int, Invitation], order: Iterable[int],
             heats: int) -> list[list[int]]:
    """The entries that accepted, in the heat each was invited to, each heat in ``order``
    (the round's ranking, best first)."""
    out: list[list[int]] = [[] for _ in range(heats)]
    for n in order:
        i = invitations.get(n)
        if i is not None and i.answer == YES and 1 <= i.heat <= heats:
            out[i.heat - 1].append(n)
    return out


def freed(invitations: dict[int, Invitation]) -> list[Invitation]:
    """The places given up or lapsed that nobody was invited to yet, in the order they were
    given up."""
    taken = {i.replaces for i in invitations.values() if i.replaces is not None}
    return sorted((i for i in invitations.values() if i.out and i.entry not in taken),
                  key=lambda i: (i.answered or i.deadline, i.entry))


# -- reminders ----------------------------------------------------------------------------------


DEFAULT_REMINDER = timedelta(days=1)
SHORTEST_REMINDED = timedelta(hours=4)  # less time than this to answer: no reminder by default


def reminder_at(invite: Invite, invitation: Invitation) -> datetime | None:
    """When ``invitation``, still unanswered, is told again before its deadline: ``remind``
    before it; by default a day before, or a quarter of the time to answer when that is
    shorter, and never with less than ``SHORTEST_REMINDED`` to answer. A ``remind`` longer
    than the time the invitation leaves (told a day before a fixed ``by``, reminded "2 days"
    before it) falls back to the default: the organiser asked for a reminder, and one comes.
    None: no reminder (answered, ``remind`` 0, or no time between being told and the
    deadline)."""
    window = invitation.deadline - invitation.told
    if invitation.answer is not None or window <= timedelta(0):
        return None
    if invite.remind is not None and timedelta(seconds=invite.remind) < window:
        lead = timedelta(seconds=invite.remind)
    elif invite.remind == 0 or window < SHORTEST_REMINDED:
        return None
    else:
        lead = min(DEFAULT_REMINDER, window / 4)
    if lead <= timedelta(0):
        return None
    return invitation.deadline - lead


def reminder_key(ref: str, invitation: Invitation) -> str:
    """The notice recording that ``invitation`` (of the round ``ref``) was reminded: one per
    invitation, a new one for a new invitation of the same entry."""
    return f"invite-remind:{ref}:{invitation.entry}:{int(invitation.deadline.timestamp())}"


# -- answering ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class NotInvited:
    """The entry has no invitation waiting for it."""


@dataclass(frozen=True)
class HeatBegun:
    """The heat it would play has begun: too late to answer."""


@dataclass(frozen=True)
class Lapsed:
    """Its deadline passed without an answer: its place went to the next in line."""

    deadline: datetime


@dataclass(frozen=True)
class AlreadyDeclined:
    """It declined: the place went to the next in line (it can't be taken back)."""


@dataclass(frozen=True)
class AlreadyAccepted:
    """It accepted already."""


@dataclass(frozen=True)
class Answer:
    """The answer may be recorded (``was``: the answer before, "yes" when declining after
    accepting)."""

    was: str | None = None


ReplyVerdict = NotInvited | HeatBegun | Lapsed | AlreadyDeclined | AlreadyAccepted | Answer


def reply_verdict(invitation: Invitation | None, yes: bool, at: datetime,
                  begins: datetime) -> ReplyVerdict:
    """Whether an entry may answer ``yes`` (or no) to ``invitation`` at ``at`` for a heat that
    ``begins`` then. An entry that accepted may still decline before the heat begins (its
    place goes on); one that declined, or let its deadline pass, can't come back."""
    if invitation is None:
        return NotInvited()
    if invitation.answer == NO:
        return AlreadyDeclined()
    if invitation.answer == LAPSED or (invitation.answer is None and at >= invitation.deadline):
        return Lapsed(invitation.deadline)
    if at >= begins:
        return HeatBegun()
    if yes and invitation.answer == YES:
        return AlreadyAccepted()
    return Answer(invitation.answer)
