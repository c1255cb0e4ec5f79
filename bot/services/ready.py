"""A pair's /listo: "we have finished the puzzle", noted for a volunteer to check (any contest,
with or without an escape; at home, the photo comes next). One transaction."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.domain.clock import within_limit
from bot.domain.events import EventKind
from bot.features.selftimed.day import ClaimWaiting, NoPuzzleStarted, claim_time, session_of
from bot.services.contest_day import ContestDay, RoundClosed
from bot.services.outcomes import (
    AlreadyFinished,
    Done,
    EscapeNotOver,
    PastLimit,
    Refusal,
    SharedRefusal,
)


@dataclass(frozen=True)
class ReadyNoted(Done):
    entry: int
    time: int
    event_id: int | None = None


async def ready(
    day: ContestDay, user_id: int, number: int, at: datetime, update_id: int | None
) -> ReadyNoted | SharedRefusal | RoundClosed | ClaimWaiting | NoPuzzleStarted:
    async with day.store.transaction() as tx:
        running = await day.running(number, at)
        if isinstance(running, Refusal):
            return running
        state, t = running
        if state.finish is not None:
            return AlreadyFinished(number)
        if state.category.self_timed and state.ready is not None:
            return ClaimWaiting(number, await claim_time(day, state))
        if state.category.own_start and await session_of(day, state) is None:
            return NoPuzzleStarted(number)
        if state.ledger is not None and not state.ledger.over(t):
            return EscapeNotOver(number)
        if not within_limit(t, state.limit, day.contest.limit_inclusive):
            return PastLimit(t, state.category.time_limit)
        eid = await tx.add_event(
            at=at, kind=EventKind.READY, role="participant", actor=user_id, entry=number, value=t,
            category=state.unit, update_id=update_id,
        )
        return ReadyNoted(number, t, eid)

