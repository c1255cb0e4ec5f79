"""The escape stage on the contest day: a pair's requests for hints and solutions, and the
volunteers' stages and solves (docs/rules.md, section 3). Each operation is one transaction;
the rules (rules.py) decide, and what they refuse is given back as it is (outcomes.py renders
it)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from bot.domain.contest import EscapeRules
from bot.domain.events import EventKind
from bot.features.escape.answers import is_right, normalize
from bot.features.escape.outcomes import (
    EscapeRecorded,
    Granted,
    RightAnswer,
    StageRecorded,
    WrongAnswer,
)
from bot.features.escape.rules import (
    ATTEMPT,
    OUT_OF_PLAY,
    Accepted,
    ClockStopped,
    Cooldown,
    EscapeOver,
    EscapeRefusal,
    Kind,
    NotAnAnswer,
    OutOfPlay,
    PassedByPartner,
    PassedMeanwhile,
    PastEscapeLimit,
    Paused,
    check_attempt,
    check_confirmation,
    check_request,
    check_solve,
    fold,
    pause_until,
)
from bot.services.contest_day import ContestDay, RoundClosed
from bot.services.outcomes import AlreadyRecorded, InTheFuture, Refusal, SharedRefusal
from bot.services.state import EntryState, escape_events
from bot.storage.store import Transaction

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



MAX_KEPT_ANSWER = 200  # characters of a wrong answer kept in the history


async def attempt(
    day: ContestDay, user_id: int, number: int, typed: str, at: datetime, update_id: int | None,
) -> RightAnswer | WrongAnswer | EscapeRefusal | SharedRefusal | RoundClosed:
    """An answer typed (or tapped) on a phone of pair ``number`` to its stage's enigma, at
    Telegram's date ``at``: right, the pair passes the stage (after the last, the escape is
    solved, recorded as a volunteer's solve is); wrong, it is kept, and every
    ``pause_after`` wrong answers in a row the pair waits."""
    async with day.store.transaction() as tx:
        running = await day.running(number, at, escape=True)
        if isinstance(running, Refusal):
            return running
        state, t = running
        rules = day.contest.escape
        assert state.ledger is not None and rules is not None
        stage = state.ledger.stage
        wrong = await _wrong(tx, state, stage)
        refused = await _not_taken(tx, state, rules, typed, wrong, t)
        if refused is None and state.clock.paused_at(at):
            refused = ClockStopped()
        if refused is None and not await day.holds_place(number, at):
            refused = OutOfPlay("withdrawn")
        if refused is not None:
            return refused
        enigma = rules.enigma(stage)
        assert enigma is not None
        if is_right(enigma, typed):
            solved = stage == rules.stages
            if solved:
                eid = await tx.add_event(
                    at=at, kind=EventKind.ESCAPE, role="participant", actor=user_id,
                    entry=number, value=t, category=state.unit, update_id=update_id)
            else:
                eid = await tx.add_event(
                    at=at, kind=EventKind.STAGE, role="participant", actor=user_id,
                    entry=number, stage=stage + 1, category=state.unit, update_id=update_id)
            return RightAnswer(number, stage, t, solved, await day.state(number), eid)
        before = rules.enigma(stage - 1)
        if before is not None and is_right(before, typed):
            return PassedByPartner(stage - 1)
        await tx.add_event(
            at=at, kind=ATTEMPT, role="participant", actor=user_id, entry=number, stage=stage,
            data={"answer": typed.strip()[:MAX_KEPT_ANSWER]}, category=state.unit,
            update_id=update_id)
        paused = pause_until(rules, [*wrong, t])
        return WrongAnswer(number, stage, len(wrong) + 1, paused,
                           state.clock.instant_at(paused) if paused is not None else None)


async def _wrong(tx: Transaction, state: EntryState, stage: int) -> list[int]:
    """The contest times of the pair's wrong answers to ``stage``'s enigma."""
    return [w for w in (state.clock.elapsed(e.at) for e in
                        await tx.events(entry=state.entry.number, kinds=[ATTEMPT])
                        if e.stage == stage) if w is not None]


async def _not_taken(tx: Transaction, state: EntryState, rules: EscapeRules, typed: str,
                     wrong: list[int], t: int) -> EscapeRefusal | None:
    """Why an answer at contest time ``t`` is not judged: the pair out of play, no letter or
    digit in it, the escape over (the last stage's answer again: solved already), the pair
    waiting, or the answer meant for a stage the other phone passed meanwhile."""
    ledger = state.ledger
    assert ledger is not None
    if state.outcome is not None and state.outcome.ref in OUT_OF_PLAY:
        return OutOfPlay(str(state.outcome.ref))
    if not normalize(typed):
        return NotAnAnswer()
    refused = check_attempt(ledger, wrong, t)
    if isinstance(refused, EscapeOver) and ledger.solved_at is not None:
        last = rules.enigma(rules.stages)
        if last is not None and is_right(last, typed):
            return PassedByPartner(rules.stages)
    if isinstance(refused, Paused):
        return replace(refused, moment=state.clock.instant_at(refused.until))
    if refused is not None:
        return refused
    meant = await _meant_for(tx, state, ledger.stage, t)
    if meant is None:
        return None
    before = rules.enigma(meant)  # dated before the other phone passed that stage
    return PassedByPartner(meant) if before is not None and is_right(before, typed) \
        else PassedMeanwhile(meant)


async def _meant_for(tx: Transaction, state: EntryState, stage: int, t: int) -> int | None:
    """The stage an answer at contest time ``t`` was meant for, when the pair passed it at
    ``t`` or after (Telegram's dates: the other phone's right answer was handled first); None:
    meant for ``stage``, the one the pair is in."""
    if stage <= 1:
        return None
    entered = [w for w in (state.clock.elapsed(e.at) for e in
                           await tx.events(entry=state.entry.number, kinds=[EventKind.STAGE])
                           if e.stage == stage) if w is not None]
    return stage - 1 if entered and t <= min(entered) else None
