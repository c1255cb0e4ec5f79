"""What the results' operations give back (a finish, pieces, a split, an outcome, "not
finished"), each outcome declared once; their words are ``texts.py``'s."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from bot.services.outcomes import (
    Done,
    NothingClaimed,
    OwnTimes,
    Refusal,
)

# -- what the results' operations give back ----------------------------------------------------


@dataclass(frozen=True)
class QuestionOutdated(Refusal):
    """A /fin confirmation pressed after the entry's finish changed, or after the heat it was
    asked in gave way to another: the question no longer says what it would record."""

    code: ClassVar[str] = "question_outdated"
    entry: int


@dataclass(frozen=True)
class ReadyLineOutdated(Refusal):
    """A button of a "FINISHED?" line pressed after the entry said /listo again, or after a
    finish or "not finished" was recorded for it since: the line no longer says what it would
    record."""

    code: ClassVar[str] = "ready_line_outdated"
    entry: int


@dataclass(frozen=True)
class BeforeEscape(Refusal):
    """A finish before the escape was solved (at contest time ``time``)."""

    code: ClassVar[str] = "before_escape"
    entry: int
    time: int


@dataclass(frozen=True)
class PiecesRange(Refusal):
    code: ClassVar[str] = "pieces_range"
    count: int
    size: int


@dataclass(frozen=True)
class AlreadyRecordedPieces(Refusal):
    code: ClassVar[str] = "already_recorded_pieces"
    entry: int
    count: int


@dataclass(frozen=True)
class NoSplits(Refusal):
    """The entry plays one puzzle: its finish is /fin."""

    code: ClassVar[str] = "no_splits"
    entry: int


@dataclass(frozen=True)
class FinishBeforeSplits(Refusal):
    """A finish before every puzzle but the last has its split (``missing`` splits; ``left``:
    the puzzles /parcial may name, ``any_order``: the entry chooses which)."""

    code: ClassVar[str] = "finish_before_splits"
    entry: int
    missing: int
    left: tuple[int, ...]
    played: int
    any_order: bool = False


@dataclass(frozen=True)
class EntryDisqualified(Refusal):
    """A result for a disqualified entry: nothing changes."""

    code: ClassVar[str] = "entry_disqualified"
    entry: int
    why: str  # the disqualification's reason


@dataclass(frozen=True)
class SplitsDone(Refusal):
    """Every puzzle but the last already has its split: the last one's finish is /fin."""

    code: ClassVar[str] = "splits_done"
    entry: int
    puzzles: int


@dataclass(frozen=True)
class WhichPuzzle(Refusal):
    """The puzzle a split is about is missing or not one of those ``left``."""

    code: ClassVar[str] = "which_puzzle"
    entry: int
    left: tuple[int, ...]


@dataclass(frozen=True)
class NoJoker(Refusal):
    """The entry's category gives no joker (/comodin): every puzzle is played."""

    code: ClassVar[str] = "no_joker"
    entry: int


@dataclass(frozen=True)
class JokersUsed(Refusal):
    """The entry has given up as many puzzles as its category allows (``jokers``)."""

    code: ClassVar[str] = "jokers_used"
    entry: int
    jokers: int


@dataclass(frozen=True)
class JokerAfterCount(Refusal):
    """A joker asked once the entry's pieces are counted: the count took in the puzzle it is
    on (take the count back first)."""

    code: ClassVar[str] = "joker_after_count"
    entry: int


@dataclass(frozen=True)
class WhichJoker(Refusal):
    """The puzzle a joker gives up is missing or not one of those ``left``."""

    code: ClassVar[str] = "which_joker"
    entry: int
    left: tuple[int, ...]


@dataclass(frozen=True)
class JokerOnLast(Refusal):
    """A joker asked on the entry's last puzzle (of ``puzzles``): it is finished (/fin) or
    its pieces counted (/piezas), which count more than giving it up."""

    code: ClassVar[str] = "joker_on_last"
    entry: int
    puzzles: int


@dataclass(frozen=True)
class BeforeSplit(Refusal):
    """A split at or before the previous one (``time``)."""

    code: ClassVar[str] = "before_split"
    entry: int
    time: int


@dataclass(frozen=True)
class ReasonNeeded(Refusal):
    """A disqualification is recorded with its reason."""

    code: ClassVar[str] = "reason_needed"
    entry: int


@dataclass(frozen=True)
class AlreadyOutcome(Refusal):
    """The entry already has this outcome recorded."""

    code: ClassVar[str] = "already_outcome"
    entry: int
    outcome: str


# The refusals only results give (those shared with other features are in outcomes.py).
ResultsRefusal = (NothingClaimed | OwnTimes | QuestionOutdated | BeforeEscape | PiecesRange
                  | AlreadyRecordedPieces | NoSplits | FinishBeforeSplits
                  | EntryDisqualified | SplitsDone | WhichPuzzle | BeforeSplit | ReasonNeeded
                  | AlreadyOutcome | ReadyLineOutdated | NoJoker | JokersUsed | JokerOnLast
                  | JokerAfterCount | WhichJoker)


@dataclass(frozen=True)
class FinishToConfirm(Done):
    """Nothing recorded yet: the volunteer confirms with a button. ``old``: the recorded finish
    the time would move by more than the contest allows without asking; ``other``: the other
    reading of an ambiguous time (``1:47`` typed: 0:01:47, or 1:47:00)."""

    entry: int
    time: int
    old: int | None = None
    other: int | None = None
    basis: int = 0  # the id of the finish the question was asked on (0: none)
    instead: int | None = None  # the reading set aside as faster than plausible
    floor: int | None = None  # the fastest plausible finish, when ``time`` is faster
    ahead: int | None = None  # the time typed, later than the clock (``time``)
    pieces: int = 0  # the puzzle's, for the question about a finish too fast


@dataclass(frozen=True)
class FinishRecorded(Done):
    """A finish recorded; ``corrected``: it replaced ``old``; ``from_ready``: its time is the
    moment the entry said /listo."""

    entry: int
    time: int
    old: int | None = None
    corrected: bool = False
    from_ready: bool = False
    event_id: int | None = None
    old_actor: int | None = None  # who recorded the finish it replaced
    line: int | None = None  # the /listo whose "FINISHED?" line it settles (its event id)


@dataclass(frozen=True)
class NotFinishedNoted(Done):
    """A volunteer checked entry ``entry`` after its /listo (at contest time ``time``): not
    finished; it plays on, and its next /listo asks again."""

    entry: int
    time: int
    event_id: int | None = None
    reason: str = ""  # a reviewer's, self-timed: a code of ``REJECT_REASONS`` or their words
    time_up: bool = False  # the entry's time was up when it was checked
    line: int | None = None  # the /listo whose "FINISHED?" line it settles (its event id)


@dataclass(frozen=True)
class PiecesRecorded(Done):
    entry: int
    count: int
    old: int | None = None
    corrected: bool = False
    event_id: int | None = None
    # recorded while the entry's time is not up: (contest time now, its time limit); the
    # volunteer is told, with the button that takes it back (issue 26: a count at 0:00:06
    # ranked an entry first ahead of everyone still playing)
    early: tuple[int, int] | None = None


@dataclass(frozen=True)
class SplitRecorded(Done):
    """Entry ``entry`` finished puzzle ``puzzle`` at contest time ``time``: the
    ``position``-th of the ``puzzles`` it plays."""

    entry: int
    puzzle: int
    puzzles: int
    time: int
    event_id: int | None = None
    position: int = 0
    joker: bool = False  # given up (its joker), not finished: it counts nothing
    jokers_left: int = 0  # with ``joker``: the jokers the entry still has


@dataclass(frozen=True)
class OutcomeRecorded(Done):
    """Entry ``entry`` recorded as ``outcome`` ("dns" or "dsq"), with ``reason``."""

    entry: int
    outcome: str
    reason: str
    event_id: int | None = None


