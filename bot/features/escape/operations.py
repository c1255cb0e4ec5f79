"""The escape stage on the contest day: a pair's requests for hints and solutions, and the
volunteers' stages and solves (docs/rules.md, section 3). Each operation is one transaction;
the rules (rules.py) decide, and what they refuse is given back as it is (outcomes.py renders
it)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from bot.domain.events import EventKind
from bot.features.escape.outcomes import EscapeRecorded, Granted, StageRecorded
from bot.features.escape.rules import (
    Accepted,
    Cooldown,
    EscapeRefusal,
    Kind,
    PastEscapeLimit,
    check_confirmation,
    check_request,
    check_solve,
    fold,
)
from bot.services.contest_day import ContestDay, RoundClosed
from bot.services.outcomes import AlreadyRecorded, InTheFuture, Refusal, SharedRefusal
from bot.services.state import escape_events

# the events a pair's ledger is folded from, without its solve
LEDGER_KINDS = (EventKind.HINT, EventKind.SOLUTION, EventKind.STAGE)


async def request(
    day: ContestDay, user_id: int, number: int, kind: Kind, stage: int, at: datetime,
    update_id: int | None,
) -> Granted | EscapeRefusal | SharedRefusal | RoundClosed:
    async with day.store.transaction() as tx:
        running = await day.running(number, at, escape=True)
        if isinstance(running, Refusal):
            return running
        state, t = running
        assert state.ledger is not None
        decision = check_request(state.ledger, kind, stage, t)
        if not isinstance(decision, Accepted):
            refusal = decision
            if isinstance(refusal, Cooldown):
                # when the pair may ask again, in real time: the notice is due then
                refusal = replace(refusal, moment=state.clock.instant_at(refusal.next_at))
                await tx.add_event(
                    at=at, kind=EventKind.REQUEST_REFUSED, role="participant", actor=user_id,
                    entry=number, stage=stage, value=refusal.next_at,
                    ref=f"cooldown:{number}:{refusal.next_at}",
                    data={"request": kind.value, "reason": Cooldown.code},
                    update_id=update_id,
                )
            return refusal
        eid = await tx.add_event(
            at=at, kind=kind.value, role="participant", actor=user_id, entry=number,
            stage=stage, data={"tickets_used": decision.charge.tickets_used,
                               "tickets_bought": decision.charge.tickets_bought},
            category=state.unit, update_id=update_id,
        )
        new_state = await day.state(number)
        return Granted(decision.charge, new_state, eid)


async def confirm_stage(
    day: ContestDay, actor: int, role: str, number: int, stage: int, at: datetime,
    update_id: int | None,
) -> StageRecorded | EscapeRefusal | SharedRefusal | RoundClosed:
    async with day.store.transaction() as tx:
        running = await day.running(number, at, escape=True)
        if isinstance(running, Refusal):
            return running
        state, t = running
        assert state.ledger is not None
        refused = check_confirmation(state.ledger, stage, t)
        if refused is not None:
            return refused
        eid = await tx.add_event(
            at=at, kind=EventKind.STAGE, role=role, actor=actor, entry=number, stage=stage,
            category=state.unit, update_id=update_id,
        )
        return StageRecorded(number, stage, t, eid)


async def solve(
    day: ContestDay, actor: int, role: str, number: int, typed: int | None, at: datetime,
    update_id: int | None,
) -> EscapeRecorded | EscapeRefusal | SharedRefusal | RoundClosed:
    async with day.store.transaction() as tx:
        running = await day.running(number, at, escape=True)
        if isinstance(running, Refusal):
            return running
        state, now_t = running
        assert state.ledger is not None and day.contest.escape is not None
        t = typed if typed is not None else now_t
        if t > day.contest.escape.time_limit:
            return PastEscapeLimit()
        if typed is not None and typed > now_t:
            return InTheFuture(typed, now_t)
        previous = next(
            (e for e in reversed(await tx.events(entry=number, kinds=[EventKind.ESCAPE]))), None
        )
        ledger = state.ledger
        if previous is not None:  # a correction: decide without the old solve
            events = await tx.events(entry=number, kinds=LEDGER_KINDS)
            ledger = fold(day.contest.escape, escape_events(events, state.clock))
        if previous is not None and previous.value == t:
            return AlreadyRecorded(number, t)
        refused = check_solve(ledger, t)
        if refused is not None:
            return refused
        eid = await tx.add_event(
            at=at, kind=EventKind.ESCAPE, role=role, actor=actor, entry=number,
            value=t, supersedes=previous.id if previous else None, category=state.unit,
            update_id=update_id,
        )
        return EscapeRecorded(
            number, t, old=previous.value if previous else None,
            corrected=previous is not None, event_id=eid,
        )

