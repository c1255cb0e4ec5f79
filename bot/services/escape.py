"""The escape stage on the contest day: a pair's requests for hints and solutions, its /listo,
and the volunteers' stages and solves (docs/rules.md, section 3). Each operation is one
transaction; the rules are bot/domain/escape.py's, whose typed refusals are mapped here onto
the day's."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import ClassVar, assert_never

from bot.domain import escape as rules
from bot.domain.clock import within_limit
from bot.domain.escape import (
    Accepted,
    Charge,
    Kind,
    check_confirmation,
    check_request,
    check_solve,
    fold,
)
from bot.domain.events import EventKind
from bot.features.selftimed.day import ClaimWaiting, NoPuzzleStarted, claim_time, session_of
from bot.services.contest_day import ContestDay, RoundClosed
from bot.services.outcomes import (
    AlreadyFinished,
    AlreadyRecorded,
    BeforeRequest,
    Done,
    EscapeNotOver,
    InTheFuture,
    PastLimit,
    Refusal,
    SharedRefusal,
)
from bot.services.state import EntryState, escape_events

# the events a pair's ledger is folded from, without its solve
LEDGER_KINDS = (EventKind.HINT, EventKind.SOLUTION, EventKind.STAGE)


@dataclass(frozen=True)
class EscapeOver(Refusal):
    code: ClassVar[str] = "escape_over"


@dataclass(frozen=True)
class StageInvalid(Refusal):
    code: ClassVar[str] = "stage_invalid"


@dataclass(frozen=True)
class StagePassed(Refusal):
    """The pair asked about a stage behind the one it is in (``stage``)."""

    code: ClassVar[str] = "stage_passed"
    stage: int


@dataclass(frozen=True)
class HintTaken(Refusal):
    code: ClassVar[str] = "hint_taken"
    stage: int


@dataclass(frozen=True)
class SolutionNeedsHint(Refusal):
    code: ClassVar[str] = "solution_needs_hint"
    stage: int


@dataclass(frozen=True)
class SolutionTaken(Refusal):
    code: ClassVar[str] = "solution_taken"
    stage: int


@dataclass(frozen=True)
class Cooldown(Refusal):
    """Too soon after the last request: allowed again at contest time ``next_at``, the real
    instant ``moment`` (None if the clock can't tell it)."""

    code: ClassVar[str] = "cooldown"
    entry: int
    next_at: int
    moment: datetime | None = None


@dataclass(frozen=True)
class CooldownPastEnd(Refusal):
    code: ClassVar[str] = "cooldown_past_end"
    next_at: int


@dataclass(frozen=True)
class StageBack(Refusal):
    """A volunteer confirmed a stage below the one already confirmed (``stage``)."""

    code: ClassVar[str] = "stage_back"
    entry: int
    stage: int


@dataclass(frozen=True)
class StageSame(Refusal):
    code: ClassVar[str] = "stage_same"
    entry: int
    stage: int


@dataclass(frozen=True)
class AlreadySolved(Refusal):
    code: ClassVar[str] = "already_solved"
    entry: int


@dataclass(frozen=True)
class ConfirmationClosed(Refusal):
    code: ClassVar[str] = "confirmation_closed"


@dataclass(frozen=True)
class PastEscapeLimit(Refusal):
    code: ClassVar[str] = "past_escape_limit"


# the refusals only the escape gives (it gives shared ones too: see bot/services/outcomes.py)
EscapeRefusal = (EscapeOver | StageInvalid | StagePassed | HintTaken | SolutionNeedsHint
                 | SolutionTaken | Cooldown | CooldownPastEnd | StageBack | StageSame
                 | AlreadySolved | ConfirmationClosed | PastEscapeLimit)


@dataclass(frozen=True)
class Granted(Done):
    """A hint or solution given: what it cost and the entry's state with it."""

    charge: Charge
    state: EntryState | None
    event_id: int | None = None


@dataclass(frozen=True)
class ReadyNoted(Done):
    entry: int
    time: int
    event_id: int | None = None


@dataclass(frozen=True)
class StageRecorded(Done):
    entry: int
    stage: int
    time: int
    event_id: int | None = None


@dataclass(frozen=True)
class EscapeRecorded(Done):
    """An escape time recorded; ``corrected``: it replaced ``old``."""

    entry: int
    time: int
    old: int | None = None
    corrected: bool = False
    event_id: int | None = None


def request_refusal(refused: rules.RequestRefused, entry: int) -> EscapeRefusal:
    """The domain's refusal of a request as the day's, about ``entry``."""
    match refused:
        case rules.EscapeOver():
            return EscapeOver()
        case rules.StageInvalid():
            return StageInvalid()
        case rules.StagePassed(stage=stage):
            return StagePassed(stage)
        case rules.HintTaken(stage=stage):
            return HintTaken(stage)
        case rules.SolutionNeedsHint(stage=stage):
            return SolutionNeedsHint(stage)
        case rules.SolutionTaken(stage=stage):
            return SolutionTaken(stage)
        case rules.Cooldown(next_at=at):
            return Cooldown(entry, at)
        case rules.CooldownPastEnd(next_at=at):
            return CooldownPastEnd(at)
        case _:
            assert_never(refused)


def confirmation_refusal(refused: rules.ConfirmationRefused, entry: int) -> EscapeRefusal:
    """The domain's refusal of a volunteer's /etapa as the day's, about ``entry``."""
    match refused:
        case rules.StageInvalid():
            return StageInvalid()
        case rules.AlreadySolved():
            return AlreadySolved(entry)
        case rules.ConfirmationClosed():
            return ConfirmationClosed()
        case rules.StageBack(stage=stage):
            return StageBack(entry, stage)
        case rules.StageSame(stage=stage):
            return StageSame(entry, stage)
        case _:
            assert_never(refused)


def solve_refusal(refused: rules.SolveRefused, entry: int) -> EscapeRefusal | SharedRefusal:
    """The domain's refusal of a volunteer's /escape as the day's, about ``entry``."""
    match refused:
        case rules.AlreadySolved():
            return AlreadySolved(entry)
        case rules.PastEscapeLimit():
            return PastEscapeLimit()
        case rules.BeforeRequest(next_at=at):
            return BeforeRequest(entry, at)
        case _:
            assert_never(refused)


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
            refusal = request_refusal(decision, number)
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


async def ready(
    day: ContestDay, user_id: int, number: int, at: datetime, update_id: int | None
) -> ReadyNoted | EscapeRefusal | SharedRefusal | RoundClosed | ClaimWaiting | NoPuzzleStarted:
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
        if not within_limit(t, state.category.time_limit, day.contest.limit_inclusive):
            return PastLimit(t, state.category.time_limit)
        eid = await tx.add_event(
            at=at, kind=EventKind.READY, role="participant", actor=user_id, entry=number, value=t,
            category=state.unit, update_id=update_id,
        )
        return ReadyNoted(number, t, eid)


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
            return confirmation_refusal(refused, number)
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
            return InTheFuture(typed)
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
            return solve_refusal(refused, number)
        eid = await tx.add_event(
            at=at, kind=EventKind.ESCAPE, role=role, actor=actor, entry=number,
            value=t, supersedes=previous.id if previous else None, category=state.unit,
            update_id=update_id,
        )
        return EscapeRecorded(
            number, t, old=previous.value if previous else None,
            corrected=previous is not None, event_id=eid,
        )

