"""Deriving contest state from stored events, through bot/domain. No Telegram here."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

from bot.domain.clock import CategoryClock, Pause, wall_clock_limit
from bot.domain.contest import Category, Contest, Question
from bot.domain.events import EventKind
from bot.domain.ranking import Competitor, Row, rank
from bot.features.escape.rules import (
    EscapeEvent,
    EscapeResult,
    Kind,
    Ledger,
    Request,
    Solved,
    StageConfirmed,
    apply_event,
    fold,
    result,
)
from bot.storage.store import Entry, Event, from_ts


def clock_for(contest: Contest, clock_events: Iterable[Event], category: str) -> CategoryClock:
    """A category's clock: its first start, the configured breaks and the organisers' pauses."""
    started = None
    pauses: list[Pause] = [Pause(b.start, b.end) for b in contest.breaks]
    open_pause = None
    for e in sorted(clock_events, key=lambda e: (e.at, e.id)):
        if e.kind == EventKind.CLOCK_START and e.category == category and started is None:
            started = e.at
        elif e.kind == EventKind.PAUSE and open_pause is None:
            open_pause = e.at
        elif e.kind == EventKind.RESUME and open_pause is not None:
            pauses.append(Pause(open_pause, e.at))
            open_pause = None
    if open_pause is not None:
        pauses.append(Pause(open_pause, None))
    return CategoryClock.build(started, pauses)


def general_pause_open(clock_events: Iterable[Event]) -> bool:
    state = False
    for e in sorted(clock_events, key=lambda e: (e.at, e.id)):
        if e.kind == EventKind.PAUSE:
            state = True
        elif e.kind == EventKind.RESUME:
            state = False
    return state


def moment_seconds(event: Event, clock: CategoryClock) -> int | None:
    """Contest time of a timed event: the time typed by the volunteer, or the clock at the
    moment it refers to (the participant's /listo, or the message date)."""
    if event.value is not None:
        return event.value
    moment = from_ts(int(event.data["moment"])) if "moment" in event.data else event.at
    return clock.elapsed(moment)


def escape_events(events: Iterable[Event], clock: CategoryClock) -> list[EscapeEvent]:
    out: list[EscapeEvent] = []
    for e in events:
        asked = e.kind in (EventKind.HINT, EventKind.SOLUTION)
        t = clock.elapsed(e.at) if asked else None
        if asked and t is not None and e.stage is not None:
            kind = Kind.HINT if e.kind == EventKind.HINT else Kind.SOLUTION
            out.append(Request(kind, e.stage, t))
        elif e.kind == EventKind.STAGE and e.stage is not None:
            at = clock.elapsed(e.at)
            if at is not None:
                out.append(StageConfirmed(e.stage, at))
        elif e.kind == EventKind.ESCAPE:
            at = moment_seconds(e, clock)
            if at is not None:
                out.append(Solved(at))
    return out


@dataclass(frozen=True)
class EntryState:
    entry: Entry
    category: Category
    clock: CategoryClock
    ledger: Ledger | None  # escape categories only
    finish: int | None
    finish_event: Event | None
    pieces: int | None
    pieces_event: Event | None
    ready: Event | None  # the latest /listo not yet followed by a finish
    penalties: tuple[tuple[str, int], ...] = ()  # (penalty kind, how many), first recorded first
    time_penalty: int = 0  # seconds the penalties add
    shown: tuple[str, ...] = ()  # answers shown after the names in rankings (``show = true``)
    # what the ledger was folded from: the ids of the events, in order, and the latest contest
    # time among its escape events (so a later state can fold only what was added since)
    basis: tuple[int, ...] = ()
    folded_until: int | None = None
    unit: str | None = None  # the heat these results are in (None: a category without rounds)
    # the puzzles finished before the last: (puzzle number, contest time), in that order
    split_puzzles: tuple[tuple[int, int], ...] = ()
    jokers: tuple[int, ...] = ()  # of those, the puzzles given up (a joker's)
    outcome: Event | None = None  # the latest "did not start" or "disqualified" recorded
    claim_photos: int = 0  # photos sent since the /listo still waiting (``ready``), self-timed
    # the category's time limit in contest seconds (``wall_clock_limit``: a season of whole days
    # across a change of summer time ends at its start's time of day; None: the category's)
    wall_limit: int | None = None

    @property
    def limit(self) -> int:
        """When the entry's time is up, in contest seconds (``wall_limit``)."""
        return self.category.time_limit if self.wall_limit is None else self.wall_limit

    @property
    def splits(self) -> tuple[int, ...]:
        """The contest times the puzzles before the last were finished, in order."""
        return tuple(t for _, t in self.split_puzzles)

    @property
    def played_splits(self) -> tuple[int, ...]:
        """``splits`` but for the puzzles given up: the times puzzles were finished."""
        if not self.jokers:
            return self.splits
        return tuple(t for k, t in self.split_puzzles if k not in self.jokers)

    @cached_property
    def escape_result(self) -> EscapeResult | None:
        return result(self.ledger) if self.ledger is not None else None

    def competitor(self) -> Competitor:
        return self._competitor

    @cached_property
    def _competitor(self) -> Competitor:
        jokers, cat = self.jokers, self.category
        finish, pieces, splits = (self._after_jokers() if jokers else
                                  (self.finish, self.pieces, self.splits))
        return Competitor(
            number=self.entry.number,
            names=self.entry.names,
            local=self.entry.local,
            finish=finish,
            pieces=pieces,
            escape=self.escape_result,
            time_penalty=self.time_penalty,
            penalties=self.penalties,
            splits=splits,
            jokers=len(jokers),
            bonus=max(0, cat.jokers - len(jokers)) * cat.joker_bonus,
            shown=self.shown,
            outcome=self.outcome.ref if self.outcome is not None else None,
            outcome_reason=str(self.outcome.data.get("reason", "")) if self.outcome else "",
        )

    def _after_jokers(self) -> tuple[int | None, int | None, tuple[int, ...]]:
        """(finish, pieces, splits) ranked for an entry that gave puzzles up: finishing the
        rest, every puzzle but those given up done, ranked by pieces (its others whole) with
        (for "time") the last one done at its finish."""
        cat, played = self.category, self.played_splits
        if self.finish is None:
            return None, self.pieces, played
        given_up = sum(cat.puzzles[k - 1] for k in self.jokers if k <= len(cat.puzzles))
        return None, cat.pieces - given_up, (*played, self.finish)


def shown_answers(contest: Contest, entry: Entry) -> tuple[str, ...]:
    """The entry's answers to the questions shown in rankings (``show = true``), in the
    contest's order, as people read them: a choice by its label in the contest's language
    ("Fitchburg Library", never its id "fitchburg"), but for a code in capitals ("FR"); a
    question nobody answered shows nothing."""
    return tuple(_readable(contest, q, value) for q in contest.questions if q.show
                 if (value := entry.answer(q.id)) is not None)


def table_needs(contest: Contest, entry: Entry, lang: str) -> tuple[str, ...]:
    """What the table lists print of the entry's answers to the questions marked
    ``on_tables`` (an accessible table): a yes/no question's label when a member (or the
    entry) said yes, another question's answer as people read it."""
    out = []
    for q in contest.questions:
        if not q.on_tables:
            continue
        if q.yes_no:
            said = entry.answer(q.id) == "yes" if q.per_entry else any(
                q.id in m.answers for m in entry.members)
            if said:
                out.append(q.short(lang))
        elif (value := entry.answer(q.id)) is not None:
            out.append(_readable(contest, q, value))
    return tuple(out)


def _readable(contest: Contest, q: Question, value: str) -> str:
    """An answer as people read it (members' different choices stay joined with "/"): a
    choice written as a code people read (a country's "FR", in capitals) stays as it is, the
    same in every language; any other choice by its label."""
    if not q.choices:
        return value
    return "/".join(c.shown(contest.language) if (c := q.choice(v)) is not None
                    and not v.isupper() else v for v in value.split("/"))


def entry_state(
    contest: Contest, entry: Entry, entry_events: Sequence[Event], clock: CategoryClock,
    previous: EntryState | None = None, play: Category | None = None,
) -> EntryState:
    """The entry's state from its events. With ``previous`` (its state from fewer events, same
    clock), events appended since are folded onto its ledger instead of folding them all again,
    when that gives the same ledger: nothing of its basis was corrected away, and nothing new
    happened earlier in contest time than what it already folded. ``play``: the heat of a
    round these events are from (its pieces and limit), instead of the entry's category."""
    category = play or contest.category(entry.category)
    assert category is not None, f"entry {entry.number} in unknown category {entry.category}"
    ledger, folded_until = _ledger(contest, category, entry_events, clock, previous)
    finish_event = _latest(entry_events, EventKind.FINISH)
    pieces_event = _latest(entry_events, EventKind.PIECES)
    ready = _latest(entry_events, EventKind.READY)
    if ready is not None and (
            (finish_event is not None and finish_event.id > ready.id)
            or _latest_after(entry_events, EventKind.NOT_FINISHED, ready.id)
            or (category.own_start and _latest_after(entry_events, EventKind.SPLIT, ready.id))):
        ready = None  # finished, checked "not finished" (or, each puzzle claimed by the entry
        # at its own start, that puzzle confirmed) since the /listo
    counts = _penalty_counts(entry_events)
    finished = splits_of(entry_events) if category.puzzles else ()
    # read whatever the file says now: a joker used stays one if the file's jokers change
    jokers = jokers_of(entry_events) if category.puzzles else ()
    return EntryState(
        entry=entry,
        category=category,
        clock=clock,
        ledger=ledger,
        finish=moment_seconds(finish_event, clock) if finish_event else None,
        finish_event=finish_event,
        pieces=_pieces(category, pieces_event, finished, jokers),
        pieces_event=pieces_event,
        ready=ready,
        penalties=tuple(counts.items()),
        time_penalty=_time_penalty(contest, counts),
        shown=shown_answers(contest, entry),
        basis=tuple(e.id for e in entry_events),
        folded_until=folded_until,
        unit=play.id if play is not None else None,
        split_puzzles=finished,
        jokers=jokers,
        outcome=_latest(entry_events, EventKind.OUTCOME),
        claim_photos=sum(1 for e in entry_events if e.kind == EventKind.PHOTO
                         and ready is not None and e.id > ready.id
                         and not e.data.get("repeat_of")) if ready is not None else 0,
        wall_limit=_wall_limit(contest, category, clock),
    )


def _wall_limit(contest: Contest, category: Category, clock: CategoryClock) -> int | None:
    """``EntryState.wall_limit``: None where it is the category's own."""
    limit = wall_clock_limit(category.time_limit, clock, contest.timezone)
    return None if limit == category.time_limit else limit


def _ledger(contest: Contest, category: Category, entry_events: Sequence[Event],
            clock: CategoryClock, previous: EntryState | None
            ) -> tuple[Ledger | None, int | None]:
    """The escape ledger and the contest time folded until (None, None without an escape)."""
    if not category.escape or contest.escape is None:
        return None, None
    folded = _fold_more(previous, entry_events, clock)
    if folded is None:
        evs = escape_events(entry_events, clock)
        folded = fold(contest.escape, evs), max((e.at for e in evs), default=None)
    return folded


def _latest(entry_events: Sequence[Event], kind: EventKind) -> Event | None:
    return next((e for e in reversed(entry_events) if e.kind == kind), None)


def _latest_after(entry_events: Sequence[Event], kind: EventKind, after: int) -> bool:
    """Whether an event of ``kind`` came after event id ``after`` (looked for from the end,
    down to that event only)."""
    for e in reversed(entry_events):
        if e.id <= after:
            return False
        if e.kind == kind:
            return True
    return False


def _penalty_counts(entry_events: Sequence[Event]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for e in entry_events:
        if e.kind == EventKind.PENALTY and e.ref is not None and e.value:
            counts[e.ref] = counts.get(e.ref, 0) + e.value
    return counts


def _time_penalty(contest: Contest, counts: dict[str, int]) -> int:
    total = 0
    for kind_id, count in counts.items():
        kind = contest.penalty(kind_id)
        total += kind.seconds * count if kind is not None else 0
    return total


def _pieces(category: Category, pieces_event: Event | None,
            finished: tuple[tuple[int, int], ...], jokers: tuple[int, ...] = ()) -> int | None:
    """With puzzles in sequence, the count typed is of the puzzles not finished yet: the
    finished ones count whole, those given up (``jokers``) nothing."""
    if pieces_event is None or pieces_event.value is None:
        return None
    return pieces_event.value + sum(category.puzzles[k - 1] for k, _ in finished
                                    if k <= len(category.puzzles) and k not in jokers)


def jokers_of(entry_events: Sequence[Event]) -> tuple[int, ...]:
    """The puzzles given up (a joker's split), in the order given up: those whose
    latest record is a joker's."""
    latest: dict[int, bool] = {}
    for e in entry_events:
        if e.kind == EventKind.SPLIT and e.stage is not None and e.value is not None:
            latest[e.stage] = bool(e.data.get("joker"))
    return tuple(k for k, joker in latest.items() if joker)


def splits_of(entry_events: Sequence[Event]) -> tuple[tuple[int, int], ...]:
    """The puzzles finished before the last (split times): (puzzle, contest time), in the
    order they were finished; the latest record of each puzzle."""
    latest: dict[int, int] = {}
    for e in entry_events:
        if e.kind == EventKind.SPLIT and e.stage is not None and e.value is not None:
            latest[e.stage] = e.value
    return tuple(sorted(latest.items(), key=lambda kv: (kv[1], kv[0])))


def _fold_more(previous: EntryState | None, entry_events: Sequence[Event],
               clock: CategoryClock) -> tuple[Ledger, int | None] | None:
    """``previous``'s ledger with the escape events appended since, or None when only a fold
    of everything gives the right ledger."""
    if previous is None or previous.ledger is None or previous.clock is not clock:
        return None
    n = len(previous.basis)
    if len(entry_events) < n or tuple(e.id for e in entry_events[:n]) != previous.basis:
        return None  # an event of its basis was corrected away
    more = sorted(escape_events(entry_events[n:], clock), key=lambda e: e.at)
    until = previous.folded_until
    if more and until is not None and more[0].at < until:
        return None  # something earlier in contest time than what was folded: fold again
    ledger = previous.ledger
    for ev in more:
        ledger = apply_event(ledger, ev)
    return ledger, (more[-1].at if more else until)


def standings(contest: Contest, category: Category, states: Iterable[EntryState]) -> list[Row]:
    return rank(category, [s.competitor() for s in states], contest.limit_inclusive,
                contest.penalised_finish_counts, contest.tie_break, contest.shared_prizes)
