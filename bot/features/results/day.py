"""Results: what volunteers record for an entry (a finish, pieces, a penalty, a split time, a
did-not-start or disqualification); taking them back and an entry's history are
bot/services/history.py's.

Each operation is one transaction: it reads the entry's state from the day, asks
rules.py, and appends what it says; refusals are typed, one class per reason."""

from __future__ import annotations

from datetime import datetime
from typing import Any, assert_never

from bot.domain.clock import within_limit
from bot.domain.events import EventKind
from bot.domain.rounds import Disqualified, SplitsMissing, finish_refused
from bot.features.registration.rules import clean_note
from bot.features.results import rules
from bot.features.results.outcomes import (
    AlreadyOutcome,
    AlreadyRecordedPieces,
    BeforeEscape,
    BeforeSplit,
    EntryDisqualified,
    FinishBeforeSplits,
    FinishRecorded,
    FinishToConfirm,
    JokerAfterCount,
    JokerOnLast,
    JokersUsed,
    NoJoker,
    NoSplits,
    NotFinishedNoted,
    OutcomeRecorded,
    PiecesRange,
    PiecesRecorded,
    QuestionOutdated,
    ReadyLineOutdated,
    ReasonNeeded,
    ResultsRefusal,
    SplitRecorded,
    SplitsDone,
    WhichJoker,
    WhichPuzzle,
)
from bot.services.contest_day import ContestDay, RoundClosed
from bot.services.outcomes import (
    AlreadyFinished,
    AlreadyRecorded,
    EscapeNotOver,
    InTheFuture,
    NothingClaimed,
    NoTime,
    OwnTimes,
    PastLimit,
    Refusal,
    SharedRefusal,
    UnknownEntry,
)
from bot.services.state import EntryState
from bot.storage.store import to_ts


def pieces_left(state: EntryState) -> int:
    """The most pieces a count typed in /piezas may say (see the domain's ``pieces_left``)."""
    return rules.pieces_left(state.category, {k for k, _ in state.split_puzzles})


# -- the operations ----------------------------------------------------------------------------


async def in_play(day: ContestDay, number: int, at: datetime
                   ) -> EntryState | ResultsRefusal | SharedRefusal | RoundClosed:
    """The entry's state, for pieces and penalties: recorded at any time in a category
    played once (as ever); in a round, only once its heat started and until the round is
    confirmed."""
    state = await day.state(number)
    if state is None:
        return UnknownEntry(number)
    if state.unit is None:
        return state
    running = await day.running(number, at)
    return running if isinstance(running, Refusal) else running[0]


def _splits_refusal(number: int, state: EntryState) -> ResultsRefusal | SharedRefusal | None:
    """Why no finish can be recorded for the entry whatever its time: disqualified, or splits
    still missing before its last puzzle."""
    refused = finish_refused(
        state.category, [k for k, _ in state.split_puzzles],
        state.outcome.ref if state.outcome is not None else None,
        str(state.outcome.data.get("reason", "")) if state.outcome is not None else "")
    match refused:
        case Disqualified(reason=reason):
            return EntryDisqualified(number, reason)
        case SplitsMissing(missing=missing, left=left, played=played, any_order=anyo):
            return FinishBeforeSplits(number, missing, left, played, anyo)
        case None:
            return None
        case _:
            assert_never(refused)


def _finish_case(day: ContestDay, state: EntryState, typed: int | None, now_t: int,
                 other: int | None, confirmed: bool) -> rules.FinishCase:
    ready = (state.clock.elapsed(state.ready.at) or 0) if state.ready is not None else None
    return rules.FinishCase(
        typed=typed, now=now_t,
        limit=rules.Limit(state.limit, day.contest.limit_inclusive),
        ready=ready, recorded=state.finish, has_recorded=state.finish_event is not None,
        last_split=state.splits[-1] if state.splits else None, escape=state.ledger,
        confirm_correction=day.contest.confirm_correction, other=other, confirmed=confirmed,
        floor=rules.plausible_floor(state.category, day.contest.plausible_seconds_per_piece,
                                    state.jokers))


def _finish_refusal(number: int, decision: rules.FinishDecision, basis: int, pieces: int
                    ) -> ResultsRefusal | SharedRefusal | FinishToConfirm | None:
    """What the domain's decision on a finish gives back; None: record it."""
    match decision:
        case rules.ZeroTime():
            return NoTime()
        case rules.TooLate(time=t, limit=limit):
            return PastLimit(t, limit)
        case rules.Ahead(time=t, now=now):
            return InTheFuture(t, now)
        case rules.EscapeOpen():
            return EscapeNotOver(number)
        case rules.BeforeSolve(solved_at=solved_at):
            return BeforeEscape(number, solved_at)
        case rules.NotAfterSplit(split=split):
            return BeforeSplit(number, split)
        case rules.Unchanged(value=t):
            return AlreadyRecorded(number, t)
        case rules.Ask(time=t, old=old, other=other, instead=instead, floor=floor, ahead=ahead):
            return FinishToConfirm(number, t, old=old, other=other, basis=basis, instead=instead,
                                   floor=floor, ahead=ahead, pieces=pieces)
        case rules.Record():
            return None
        case _:
            assert_never(decision)


async def finish(
    day: ContestDay, actor: int, role: str, number: int, typed: int | None, at: datetime,
    update_id: int | None, *, other: int | None = None, confirmed: bool = False,
    basis: int = 0, asked_at: datetime | None = None, ready_line: int | None = None,
    own: bool = False,
) -> FinishRecorded | FinishToConfirm | ResultsRefusal | SharedRefusal | RoundClosed:
    """Record entry ``number``'s finish. Unless ``confirmed``, nothing is recorded and the
    volunteer is asked first when the time moves a recorded finish by more than the
    contest's ``confirm_correction``, or when ``other`` (the other reading of what they
    typed, ``1:47`` as 1:47:00) is a finish just as possible. A confirmation (``confirmed``)
    is refused when the finish recorded is no longer the one the question was asked on
    (``basis``: its event id, 0 for none) or the entry's clock started after the question
    (``asked_at``: a heat of a later round). ``ready_line``: the "FINISHED?" line's button,
    the /listo it was about (its event id): its moment is recorded if it is still the one
    waiting, else the line is outdated (or already recorded). ``own``: the entry's own time
    (``typed``) of a claim confirmed, where each entry starts each puzzle itself (any other
    finish is refused there)."""
    async with day.store.transaction() as tx:
        running = await day.running(number, at)
        if isinstance(running, Refusal):
            return running
        state, now_t = running
        at_home = _at_home_refusal(number, state, typed is None and ready_line is None, own)
        if at_home is not None:
            return at_home
        refused = _splits_refusal(number, state)
        if refused is not None:
            return refused
        if ready_line is not None:
            refused = _ready_line_refusal(number, state, ready_line)
            if refused is not None:
                return refused
        previous = state.finish_event
        previous_id = previous.id if previous is not None else 0
        if confirmed and rules.question_outdated(previous_id, basis, state.clock.started,
                                                 asked_at):
            return QuestionOutdated(number)
        case = _finish_case(day, state, typed, now_t, other, confirmed)
        answer = _finish_refusal(number, rules.decide_finish(case), previous_id,
                                 state.category.pieces)
        if answer is not None:
            return answer
        t = rules.finish_time(case)
        data: dict[str, Any] = {}
        if typed is None and state.ready is not None:
            data["moment"] = to_ts(state.ready.at)
            data["ready_event"] = state.ready.id
        elif typed is None:
            data["moment"] = to_ts(at)
        eid = await tx.add_event(
            at=at, kind=EventKind.FINISH, role=role, actor=actor, entry=number, value=typed,
            data=data, supersedes=previous.id if previous else None, category=state.unit,
            update_id=update_id,
        )
        return FinishRecorded(
            number, t, old=state.finish, corrected=previous is not None,
            from_ready="ready_event" in data, event_id=eid,
            old_actor=previous.actor if previous is not None else None,
            line=state.ready.id if state.ready is not None else None,
        )


def _at_home_refusal(number: int, state: EntryState, untimed: bool, own: bool
                     ) -> OwnTimes | NothingClaimed | None:
    """At home: a finish not from its own claim (``own``), or untimed with nothing claimed."""
    if state.category.own_start and not own:
        return OwnTimes(number)
    idle = state.ready is None and state.finish is None
    return NothingClaimed(number) if state.category.self_timed and untimed and idle else None


def _ready_line_refusal(number: int, state: EntryState, line: int
                        ) -> AlreadyRecorded | ReadyLineOutdated | None:
    """Why a "FINISHED?" line's button about the /listo ``line`` records nothing (None: it
    may)."""
    finished = state.finish_event
    taken_from = finished.data.get("ready_event") if finished is not None else None
    verdict = rules.ready_line(line, state.ready.id if state.ready is not None else None,
                               taken_from if isinstance(taken_from, int) else None)
    match verdict:
        case rules.ReadyLine.OPEN:
            return None
        case rules.ReadyLine.RECORDED:
            assert state.finish is not None
            return AlreadyRecorded(number, state.finish)
        case rules.ReadyLine.OUTDATED:
            return ReadyLineOutdated(number)
        case _:
            assert_never(verdict)


async def not_finished(
    day: ContestDay, actor: int, role: str, number: int, line: int, at: datetime,
    update_id: int | None, reason: str = "",
) -> NotFinishedNoted | ResultsRefusal | SharedRefusal | RoundClosed:
    """A volunteer checked entry ``number`` after the /listo ``line`` (its event id) and found
    its puzzle not done: noted (the entry plays on; a later /fin without a time is not taken
    from that /listo), unless the line is outdated. ``reason``: a reviewer's, for a claim
    made at home."""
    async with day.store.transaction() as tx:
        running = await day.running(number, at)
        if isinstance(running, Refusal):
            return running
        state, now_t = running
        refused = _ready_line_refusal(number, state, line)
        if refused is not None:
            return ReadyLineOutdated(number) if isinstance(refused, AlreadyRecorded) else refused
        assert state.ready is not None
        told = state.clock.elapsed(state.ready.at) or 0
        reason = reason or ("not_done" if state.category.self_timed else "")
        eid = await tx.add_event(
            at=at, kind=EventKind.NOT_FINISHED, role=role, actor=actor, entry=number,
            data={"ready_event": line, **({"reason": reason} if reason else {})},
            category=state.unit, update_id=update_id,
        )
        return NotFinishedNoted(number, told, eid, reason, not within_limit(
            now_t, state.limit, day.contest.limit_inclusive), line=line)


async def pieces(
    day: ContestDay, actor: int, role: str, number: int, count: int, at: datetime,
    update_id: int | None,
) -> PiecesRecorded | ResultsRefusal | SharedRefusal | RoundClosed:
    async with day.store.transaction() as tx:
        state = await in_play(day, number, at)
        if isinstance(state, Refusal):
            return state
        previous = state.pieces_event
        decision = rules.decide_pieces(count, pieces_left(state), state.finish is not None,
                                       state.pieces, previous is not None)
        match decision:
            case rules.OutOfRange(count=typed, most=most):
                return PiecesRange(typed, most)
            case rules.Finished():
                return AlreadyFinished(number)
            case rules.Unchanged(value=same):
                return AlreadyRecordedPieces(number, same)
            case rules.Record():
                pass
            case _:
                assert_never(decision)
        eid = await tx.add_event(
            at=at, kind=EventKind.PIECES, role=role, actor=actor, entry=number, value=count,
            supersedes=previous.id if previous else None, category=state.unit,
            update_id=update_id,
        )
        now = state.clock.elapsed(at)
        limit = state.limit
        return PiecesRecorded(
            number, count, old=state.pieces, corrected=previous is not None, event_id=eid,
            early=(now, limit) if rules.before_time_up(now, limit) and now is not None else None,
        )


async def outcome(
    day: ContestDay, actor: int, role: str, number: int, outcome: str, reason: str,
    at: datetime, update_id: int | None,
) -> OutcomeRecorded | ResultsRefusal | SharedRefusal | RoundClosed:
    """Entry ``number`` did not start ("dns"), is disqualified ("dsq", with a reason) or
    plays out of competition ("oc": a late team, a guest): not placed in its heat's (or
    category's) ranking, never advancing, whatever its results; /deshacer takes it
    back."""
    assert outcome in rules.OUTCOMES
    reason = clean_note(reason)
    async with day.store.transaction() as tx:
        state = await day.state(number)
        if state is None:
            return UnknownEntry(number)
        closed = await day.closed(state)
        if closed is not None:
            return closed
        decision = rules.decide_outcome(
            outcome, reason, state.outcome.ref if state.outcome is not None else None)
        match decision:
            case rules.NeedsReason():
                return ReasonNeeded(number)
            case rules.SameOutcome():
                return AlreadyOutcome(number, outcome)
            case None:
                pass
            case _:
                assert_never(decision)
        eid = await tx.add_event(
            at=at, kind=EventKind.OUTCOME, role=role, actor=actor, entry=number, ref=outcome,
            data={"reason": reason} if reason else None, category=state.unit,
            update_id=update_id,
        )
        return OutcomeRecorded(number, outcome, reason, eid)


def _split_refusal(number: int, decision: rules.SplitDecision
                   ) -> ResultsRefusal | SharedRefusal | None:
    """What the domain's decision on a split gives back; None: record it."""
    match decision:
        case rules.OnePuzzle():
            return NoSplits(number)
        case rules.Finished():
            return AlreadyFinished(number)
        case rules.AllSplit(played=played):
            return SplitsDone(number, played)
        case rules.Which(left=left):
            return WhichPuzzle(number, left)
        case rules.Ahead(time=t, now=now):
            return InTheFuture(t, now)
        case rules.TooLate(time=t, limit=limit):
            return PastLimit(t, limit)
        case rules.NotAfterSplit(split=split):
            return BeforeSplit(number, split)
        case rules.SplitAt():
            return None
        case _:
            assert_never(decision)


async def split(
    day: ContestDay, actor: int, role: str, number: int, typed: int | None, at: datetime,
    update_id: int | None, puzzle: int | None = None, own: bool = False,
) -> SplitRecorded | ResultsRefusal | SharedRefusal | RoundClosed:
    """The entry finished a puzzle (not its last one: that is /fin), at ``typed`` or now
    on its clock: the next one in a fixed order, or ``puzzle`` when the puzzles are
    played in any order. ``own``: as ``finish``'s."""
    async with day.store.transaction() as tx:
        running = await day.running(number, at)
        if isinstance(running, Refusal):
            return running
        state, now_t = running
        if state.category.own_start and not own:
            return OwnTimes(number)
        category = state.category
        decision = rules.decide_split(rules.SplitCase(
            category=category, done=tuple(k for k, _ in state.split_puzzles),
            finished=state.finish is not None, typed=typed, now=now_t,
            limit=rules.Limit(state.limit, day.contest.limit_inclusive),
            puzzle=puzzle, last_split=state.splits[-1] if state.splits else None))
        if not isinstance(decision, rules.SplitAt):
            refused = _split_refusal(number, decision)
            assert refused is not None
            return refused
        eid = await tx.add_event(
            at=at, kind=EventKind.SPLIT, role=role, actor=actor, entry=number,
            stage=decision.puzzle, value=decision.time, category=state.unit,
            update_id=update_id,
        )
        return SplitRecorded(number, decision.puzzle, category.puzzles_played, decision.time,
                             eid, position=decision.position)


def _joker_refusal(number: int, decision: rules.JokerDecision
                   ) -> ResultsRefusal | SharedRefusal | None:
    """What the domain's decision on a joker gives back; None: record it."""
    match decision:
        case rules.NoJokers():
            return NoJoker(number)
        case rules.Finished():
            return AlreadyFinished(number)
        case rules.Counted():
            return JokerAfterCount(number)
        case rules.JokersUsed(jokers=jokers):
            return JokersUsed(number, jokers)
        case rules.OnLast(played=played):
            return JokerOnLast(number, played)
        case rules.Which(left=left):
            return WhichJoker(number, left)
        case rules.TooLate(time=t, limit=limit):
            return PastLimit(t, limit)
        case rules.NotAfterSplit(split=split):
            return BeforeSplit(number, split)
        case rules.SplitAt():
            return None
        case _:
            assert_never(decision)


async def joker(
    day: ContestDay, actor: int, role: str, number: int, at: datetime, update_id: int | None,
    puzzle: int | None = None,
) -> SplitRecorded | ResultsRefusal | SharedRefusal | RoundClosed:
    """The entry gives up a puzzle (its joker), now: the next one in a fixed order, or
    ``puzzle`` when the puzzles are played in any order. Recorded as that puzzle's split,
    marked a joker's: the entry goes on to the next, and the puzzle counts nothing."""
    async with day.store.transaction() as tx:
        running = await day.running(number, at)
        if isinstance(running, Refusal):
            return running
        state, now_t = running
        category = state.category
        decision = rules.decide_joker(rules.SplitCase(
            category=category, done=tuple(k for k, _ in state.split_puzzles),
            finished=state.finish is not None, typed=None, now=now_t,
            limit=rules.Limit(state.limit, day.contest.limit_inclusive),
            puzzle=puzzle, jokers_used=len(state.jokers),
            counted=state.pieces_event is not None,
            last_split=state.splits[-1] if state.splits else None))
        if not isinstance(decision, rules.SplitAt):
            refused = _joker_refusal(number, decision)
            assert refused is not None
            return refused
        eid = await tx.add_event(
            at=at, kind=EventKind.SPLIT, role=role, actor=actor, entry=number,
            stage=decision.puzzle, value=decision.time, category=state.unit,
            update_id=update_id, data={"joker": True},
        )
        return SplitRecorded(number, decision.puzzle, category.puzzles_played, decision.time,
                             eid, position=decision.position, joker=True,
                             jokers_left=category.jokers - len(state.jokers) - 1)
