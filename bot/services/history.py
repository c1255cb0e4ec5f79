"""History: volunteers and organisers take their own last record back (/deshacer), and read
an entry's history, corrections and what they replaced included (/historial).

The corrections themselves (what supersedes what) are bot/domain/history.py's."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import ClassVar

from bot.domain.events import ORGANISER_UNDOABLE, VOLUNTEER_KINDS, EventKind
from bot.services.contest_day import ContestDay, RoundClosed
from bot.services.outcomes import Done, Refusal
from bot.storage.store import Event, Transaction
from bot.support.registry import REGISTRY


@dataclass(frozen=True)
class NothingToUndo(Refusal):
    code: ClassVar[str] = "nothing_to_undo"


@dataclass(frozen=True)
class UndoOutdated(Refusal):
    """The "take it back" button of a /deshacer pressed after the presser recorded something
    else (or it was taken back already): it no longer says what it would undo."""

    code: ClassVar[str] = "undo_outdated"


# The refusals only history gives.
HistoryRefusal = NothingToUndo | UndoOutdated


@dataclass(frozen=True)
class Undone(Done):
    """``event`` was taken back."""

    event: Event
    event_id: int | None = None


async def to_undo(day: ContestDay, actor: int, role: str
                  ) -> Event | HistoryRefusal | RoundClosed:
    """What a /deshacer would take back (the question it asks first), or why nothing."""
    async with day.store.transaction() as tx:
        return await _last_undoable(day, tx, actor, role)


async def _last_undoable(day: ContestDay, tx: Transaction, actor: int, role: str
                         ) -> Event | NothingToUndo | RoundClosed:
    kinds = (ORGANISER_UNDOABLE if role == "organiser" else VOLUNTEER_KINDS
             ) + REGISTRY.undoable()
    mine = await tx.events(actor=actor, kinds=kinds)
    if not mine:
        return NothingToUndo()
    last = mine[-1]
    heat = day.heats.get(last.category or "")
    if heat is not None and await day.confirmed_rounds(heat.category) > heat.round_index:
        return RoundClosed(heat.id)  # a result, or its clock: its qualifiers are known
    return last


async def undo(
    day: ContestDay, actor: int, role: str, at: datetime, update_id: int | None,
    expected: int | None = None,
) -> Undone | HistoryRefusal | RoundClosed:
    """Take back the actor's last record; ``expected``: the event the question named (its
    button), refused as outdated if the last record is another one by now."""
    async with day.store.transaction() as tx:
        last = await _last_undoable(day, tx, actor, role)
        if isinstance(last, Refusal):
            return UndoOutdated() if expected is not None and isinstance(
                last, NothingToUndo) else last
        if expected is not None and last.id != expected:
            return UndoOutdated()
        eid = await tx.add_event(
            at=at, kind=EventKind.UNDO, role=role, actor=actor, entry=last.entry,
            category=last.category, supersedes=last.id, update_id=update_id,
            data={"kind": last.kind},
        )
        return Undone(last, eid)


async def history(day: ContestDay, number: int) -> Sequence[Event] | None:
    if await day.store.entry(number) is None:
        return None
    return await day.store.events(entry=number, effective=False)
