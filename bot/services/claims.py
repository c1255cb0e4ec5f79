"""Claiming a volunteers' line ("I'm going"): the first claim of a line is recorded (an event
of its own: it changes no result); a later one is told who took it. The edits of every copy of
the line go with the claim, in its transaction (bot/delivery/claims.py)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, ClassVar

from bot.domain.claims import claim_ref
from bot.domain.events import EventKind
from bot.services.contest_day import ContestDay
from bot.services.outcomes import Done, Refusal, UnknownEntry
from bot.storage.store import Transaction


@dataclass(frozen=True)
class Claimed(Done):
    """``by`` took the line ``claim`` about entry ``entry`` (``data``: the claim's, as
    recorded; what the note under every copy of the line is written from)."""

    entry: int
    claim: str
    by: str
    data: dict[str, Any]


@dataclass(frozen=True)
class TakenBy(Refusal):
    """Someone claimed the line first (``mine``: the presser did, earlier)."""

    code: ClassVar[str] = "claim_taken"
    entry: int
    by: str
    mine: bool


ClaimRefusal = TakenBy


async def claim(day: ContestDay, tx: Transaction, user_id: int, name: str, entry: int,
                event_id: int, at: datetime) -> Claimed | ClaimRefusal | UnknownEntry:
    """``user_id`` (named ``name`` to the others) takes the line about event ``event_id`` of
    entry ``entry``, in ``tx``: recorded only if nobody took it before."""
    if await tx.entry(entry) is None:
        return UnknownEntry(entry)
    ref = claim_ref(entry, event_id)
    taken = tx.refs_taken(EventKind.CLAIM, [ref]).get(ref)
    if taken is not None:
        return TakenBy(entry, str(taken.get("by") or "?"), taken.get("user") == user_id)
    data: dict[str, Any] = {"by": name, "user": user_id, "entry": entry}
    state = await day.state(entry)
    if state is not None and state.category.self_timed:
        data["review"] = True  # a photo of a finish claimed at home: someone checks it
    line = await tx.event(event_id)
    if line is not None and line.entry != entry:
        # a line about several entries, a button each (the time's-up line, about a category):
        # the note under it says which one was taken
        data["several"] = True
    await tx.add_event(at=at, kind=EventKind.CLAIM, role="volunteer", actor=user_id, ref=ref,
                       data=data)
    return Claimed(entry, ref, name, data)
