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
from bot.storage.store import Event


@dataclass(frozen=True)
class NothingToUndo(Refusal):
    code: ClassVar[str] = "nothing_to_undo"


# The refusals only history gives (one so far).
HistoryRefusal = NothingToUndo


@dataclass(frozen=True)
class Undone(Done):
    """``event`` was taken back."""

    event: Event
    event_id: int | None = None


async def undo(
    day: ContestDay, actor: int, role: str, at: datetime, update_id: int | None
) -> Undone | HistoryRefusal | RoundClosed:
    kinds = ORGANISER_UNDOABLE if role == "organiser" else VOLUNTEER_KINDS
    async with day.store.transaction() as tx:
        mine = await tx.events(actor=actor, kinds=kinds)
        if not mine:
            return NothingToUndo()
        last = mine[-1]
        heat = day.heats.get(last.category or "")
        if heat is not None and \
                await day.confirmed_rounds(heat.category) > heat.round_index:
            return RoundClosed(heat.id)  # a result, or its clock: its qualifiers are known
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
