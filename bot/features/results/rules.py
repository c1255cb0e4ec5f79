"""What a volunteer's result may record: a finish, a split time, a pieces count, an outcome.

Pure decisions over contest times (seconds on the entry's clock), each returning a typed
outcome; the service reads the history, asks here, and writes what ``Record`` says."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from bot.domain.clock import within_limit
from bot.domain.contest import Category
from bot.features.escape.rules import Ledger

OUTCOMES = ("dns", "dsq", "oc")  # did not start, disqualified, out of competition


@dataclass(frozen=True)
class ZeroTime:
    """0:00:00 typed: nobody finishes as the clock starts (a typo)."""


@dataclass(frozen=True)
class TooLate:
    time: int
    limit: int


@dataclass(frozen=True)
class Ahead:
    """A time later than the clock shows now (``now``)."""

    time: int
    now: int


@dataclass(frozen=True)
class EscapeOpen:
    """The entry has not finished its escape stage at that time."""


@dataclass(frozen=True)
class BeforeSolve:
    solved_at: int


@dataclass(frozen=True)
class NotAfterSplit:
    """At or before the entry's last split time (``split``)."""

    split: int


@dataclass(frozen=True)
class Unchanged:
    """The value is the one recorded: nothing to write."""

    value: int


@dataclass(frozen=True)
class Ask:
    """Ask the volunteer first: ``old`` the recorded finish the time moves too far, ``other``
    the other reading of what they typed; ``instead`` the reading set aside as faster than
    plausible, ``floor`` the fastest plausible finish when ``time`` (and ``other``) is
    faster, ``ahead`` the time typed later than the clock (``time`` is then the clock's)."""

    time: int
    old: int | None
    other: int | None
    instead: int | None = None
    floor: int | None = None
    ahead: int | None = None


@dataclass(frozen=True)
class Record:
    """Write it: ``value`` is the time (or count) recorded."""

    value: int


@dataclass(frozen=True)
class OutOfRange:
    count: int
    most: int


@dataclass(frozen=True)
class Finished:
    """The entry already has its finish."""


@dataclass(frozen=True)
class OnePuzzle:
    """The entry plays one puzzle: no split times."""


@dataclass(frozen=True)
class AllSplit:
    """Every puzzle but the last (of ``played``) has its split."""

    played: int


@dataclass(frozen=True)
class Which:
    """The puzzle is missing or not one of ``left``."""

    left: tuple[int, ...]


@dataclass(frozen=True)
class SplitAt:
    puzzle: int
    time: int
    position: int  # the how-many-th puzzle the entry finished


@dataclass(frozen=True)
class NeedsReason:
    """A disqualification is recorded with its reason."""


@dataclass(frozen=True)
class SameOutcome:
    pass


FinishDecision = (ZeroTime | TooLate | Ahead | EscapeOpen | BeforeSolve | NotAfterSplit
                  | Unchanged | Ask | Record)
@dataclass(frozen=True)
class NoJokers:
    """The entry's category gives no joker: every puzzle is played."""


@dataclass(frozen=True)
class JokersUsed:
    """The entry has used its ``jokers`` already."""

    jokers: int


@dataclass(frozen=True)
class Counted:
    """The entry's pieces are counted already: the count took in the puzzle it is on, and a
    joker would give up pieces it was credited with (take the count back first)."""


@dataclass(frozen=True)
class OnLast:
    """The entry is on its last puzzle (of ``played``): a joker gives nothing up there (its
    pieces, and a joker kept, count more)."""

    played: int


SplitDecision = OnePuzzle | Finished | AllSplit | Which | Ahead | TooLate | NotAfterSplit | SplitAt
JokerDecision = (NoJokers | Finished | Counted | JokersUsed | OnLast | Which | TooLate
                 | NotAfterSplit | SplitAt)
PiecesDecision = OutOfRange | Finished | Unchanged | Record
OutcomeDecision = NeedsReason | SameOutcome | None


@dataclass(frozen=True)
class Limit:
    """A category's time limit (``seconds``), counted as inside when ``inclusive``."""

    seconds: int
    inclusive: bool = True

    def refuses(self, t: int) -> TooLate | None:
        return None if within_limit(t, self.seconds, self.inclusive) else TooLate(t, self.seconds)


@dataclass(frozen=True)
class FinishCase:
    """What a finish is decided on. ``typed``: the time typed (None: the entry's /listo at
    ``ready`` if it said so, else ``now``); ``recorded``: the finish recorded, if any
    (``has_recorded``: an effective finish event exists); ``other``: the other reading of what
    was typed; ``confirmed``: the volunteer already chose with a button."""

    typed: int | None
    now: int
    limit: Limit
    ready: int | None = None
    recorded: int | None = None
    has_recorded: bool = False
    last_split: int | None = None
    escape: Ledger | None = None
    confirm_correction: int = 0
    other: int | None = None
    confirmed: bool = False
    floor: int = 0  # the fastest plausible finish (``plausible_floor``; 0: any is)


def plausible_floor(category: Category, seconds_per_piece: float,
                    given_up: Collection[int] = ()) -> int:
    """The fastest finish that is plausible for ``category``'s puzzle: ``seconds_per_piece``
    for each piece (0: any finish is), the smallest puzzles counted when several are played
    in sequence, those given up with a joker (``given_up``) left out. Faster is asked, never
    recorded silently (a 58-second 100-piece finish)."""
    if category.puzzles:
        kept = [p for k, p in enumerate(category.puzzles, 1) if k not in given_up]
        pieces = sum(sorted(kept)[:category.puzzles_played - len(given_up)])
    else:
        pieces = category.pieces
    return max(0, int(pieces * seconds_per_piece))


def question_outdated(recorded_id: int, basis: int, started: datetime | None,
                      asked_at: datetime | None) -> bool:
    """A /fin question answered with a button no longer says what it would record: the
    finish recorded is not the one it was asked on (event ids, 0: none), or the entry's clock
    started after it was asked (a heat of a later round)."""
    if recorded_id != basis:
        return True
    return asked_at is not None and started is not None and started > asked_at


class ReadyLine(StrEnum):
    """Where a volunteers' "FINISHED?" line stands when one of its buttons is pressed."""

    OPEN = "open"  # its /listo is the entry's latest, nothing recorded since
    RECORDED = "recorded"  # the finish recorded is the one this line's /listo gave
    OUTDATED = "outdated"  # a newer /listo, a finish typed, or "not finished" since


def ready_line(line: int, waiting: int | None, finished_from: int | None) -> ReadyLine:
    """A "FINISHED?" line about the /listo ``line`` (its event id), with ``waiting`` the
    entry's /listo still waiting for a volunteer (None: none) and ``finished_from`` the
    /listo the recorded finish was taken from (None: no finish, or one typed)."""
    if finished_from == line:
        return ReadyLine.RECORDED
    return ReadyLine.OPEN if waiting == line else ReadyLine.OUTDATED


def finish_time(case: FinishCase) -> int:
    """The contest time a finish stands for: typed, else the /listo, else now."""
    if case.typed is not None:
        return case.typed
    return case.ready if case.ready is not None else case.now


def decide_finish(case: FinishCase) -> FinishDecision:
    """Whether the finish may be recorded, must be asked about first, or why not."""
    if case.typed == 0:
        return ZeroTime()
    t = finish_time(case)
    late = case.limit.refuses(t)
    if late is not None:
        return late
    if case.typed is not None and case.typed > case.now:
        # the clock's time offered instead, when it could be recorded
        if not case.confirmed and case.now > 0 and case.limit.refuses(case.now) is None \
                and _before_finish(case, case.now) is None:
            return Ask(case.now, old=None, other=None, ahead=case.typed)
        return Ahead(case.typed, case.now)
    before = _before_finish(case, t)
    if before is not None:
        return before
    if case.has_recorded and case.recorded == t:
        return Unchanged(t)
    if not case.confirmed:
        asked = _ask(case, t)
        if asked is not None:
            return asked
    return Record(t)


def _before_finish(case: FinishCase, t: int) -> EscapeOpen | BeforeSolve | NotAfterSplit | None:
    """A finish at ``t`` before what must come first: the escape, the last split."""
    ledger = case.escape
    if ledger is not None:
        if not ledger.over(t):
            return EscapeOpen()
        if ledger.solved_at is not None and t < ledger.solved_at:
            return BeforeSolve(ledger.solved_at)
    if case.last_split is not None and t <= case.last_split:
        return NotAfterSplit(case.last_split)
    return None


def _ask(case: FinishCase, t: int) -> Ask | None:
    """Ask first when ``other`` is a finish just as possible, when ``t`` moves the recorded
    finish by more than the contest's ``confirm_correction``, or when it is faster than the
    plausible ``floor``. Of two readings, one faster than plausible is set aside (only the
    other is offered)."""
    other = case.other
    if not (other is not None and other != t and other <= case.now
            and case.limit.refuses(other) is None):
        other = None
    floor, instead = case.floor, None
    if other is not None and floor and (t < floor) != (other < floor):
        if t < floor:
            t, instead = other, t
        other = None
    fast = floor if floor and t < floor else None
    moved = case.has_recorded and case.recorded is not None and \
        case.confirm_correction > 0 and abs(t - case.recorded) > case.confirm_correction
    if other is None and not moved and instead is None and fast is None:
        return None
    return Ask(t, old=case.recorded if moved else None, other=other, instead=instead,
               floor=fast)


def pieces_left(category: Category, done: Collection[int]) -> int:
    """The most pieces a count typed in /piezas may say: the puzzle's; with puzzles in
    sequence, those of the puzzles still to finish (the largest ones still to play), ``done``
    being the puzzles with a split."""
    if not category.puzzles:
        return category.pieces
    unfinished = sorted((size for k, size in enumerate(category.puzzles, 1) if k not in done),
                        reverse=True)
    return sum(unfinished[:max(0, category.puzzles_played - len(done))])


def before_time_up(now: int | None, limit: int) -> bool:
    """Whether contest time ``now`` is before the time limit (a pieces count then is unusual:
    the entry is still playing)."""
    return now is not None and now < limit


def decide_pieces(count: int, most: int, finished: bool, recorded: int | None,
                  has_recorded: bool) -> PiecesDecision:
    if count < 0 or count > most:
        return OutOfRange(count, most)
    if finished:
        return Finished()
    if has_recorded and recorded == count:
        return Unchanged(count)
    return Record(count)


@dataclass(frozen=True)
class SplitCase:
    """What a split time is decided on: the puzzles ``done`` (with a split, in order), the
    ``puzzle`` named (None: not named), the time ``typed`` (None: ``now``)."""

    category: Category
    done: tuple[int, ...]
    finished: bool
    typed: int | None
    now: int
    limit: Limit
    puzzle: int | None = None
    last_split: int | None = None
    jokers_used: int = 0  # puzzles the entry gave up already (a joker's)
    counted: bool = False  # a pieces count is recorded for the entry


def split_puzzle(case: SplitCase) -> int | Which:
    """The puzzle a split is about: the one named when the puzzles are played in any order,
    the next one otherwise."""
    category, done = case.category, case.done
    left = tuple(k for k in range(1, len(category.puzzles) + 1) if k not in done)
    if category.puzzle_order == "any":
        if case.puzzle is None or case.puzzle not in left:
            return Which(left)
        return case.puzzle
    following = left[0] if left else len(done) + 1  # the first not done (one taken back)
    if case.puzzle is not None and case.puzzle != following:
        return Which((following,))
    return following


def decide_split(case: SplitCase) -> SplitDecision:
    """Whether the entry's split (a puzzle finished, not its last) may be recorded."""
    if len(case.category.puzzles) < 2:
        return OnePuzzle()
    if case.finished:
        return Finished()
    if len(case.done) >= case.category.puzzles_played - 1:
        return AllSplit(case.category.puzzles_played)
    puzzle = split_puzzle(case)
    if isinstance(puzzle, Which):
        return puzzle
    t = case.typed if case.typed is not None else case.now
    if t > case.now:
        return Ahead(t, case.now)
    late = case.limit.refuses(t)
    if late is not None:
        return late
    if case.last_split is not None and t <= case.last_split:
        return NotAfterSplit(case.last_split)
    return SplitAt(puzzle, t, len(case.done) + 1)


def decide_joker(case: SplitCase) -> JokerDecision:
    """Whether the entry may give up a puzzle now (its joker): the next one in a fixed
    order, the one named in any order; never its last, and within its time."""
    category = case.category
    if not category.jokers:
        return NoJokers()
    if case.finished:
        return Finished()
    if case.counted:
        return Counted()
    if case.jokers_used >= category.jokers:
        return JokersUsed(category.jokers)
    if len(case.done) >= category.puzzles_played - 1:
        return OnLast(category.puzzles_played)
    puzzle = split_puzzle(case)
    if isinstance(puzzle, Which):
        return puzzle
    late = case.limit.refuses(case.now)
    if late is not None:
        return late
    if case.last_split is not None and case.now <= case.last_split:
        return NotAfterSplit(case.last_split)
    return SplitAt(puzzle, case.now, len(case.done) + 1)


def decide_outcome(outcome: str, reason: str, current: str | None) -> OutcomeDecision:
    """Whether ``outcome`` may be recorded (None) for an entry that has ``current``."""
    if outcome == "dsq" and not reason:
        return NeedsReason()
    if current == outcome:
        return SameOutcome()
    return None
