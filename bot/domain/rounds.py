"""Rounds of a category: heats, who advances, and the final classification.

A category with rounds plays each round in heats; every heat has its own clock and is ranked
like a category of its own (``Heat.play``: the round's pieces and time limit). Who is in a
heat is derived from the history: the first round's entrants are the category's confirmed
entries, split in order of entry number; a later round's are the qualifiers recorded when the
organiser confirmed the round before, split so every heat gets its share of the best
(serpentine: 1 2 3 3 2 1 ...). Pure: no clock, no storage.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from functools import cached_property

from bot.domain.contest import Advancement, Category, Round
from bot.domain.ranking import Competitor, Row, award, rank


def heat_id(category: Category, round_index: int, heat: int) -> str:
    """``pairs-semi`` for a round of one heat, ``pairs-heats2`` for its second heat."""
    rnd = category.rounds[round_index]
    return f"{category.id}-{rnd.id}" + (str(heat) if rnd.heats > 1 else "")


@dataclass(frozen=True)
class Heat:
    category: Category  # the category its entries registered in
    round_index: int  # 0-based
    number: int  # 1-based within the round

    @property
    def round(self) -> Round:
        return self.category.rounds[self.round_index]

    @property
    def id(self) -> str:
        return heat_id(self.category, self.round_index, self.number)

    @property
    def last_round(self) -> bool:
        return self.round_index == len(self.category.rounds) - 1

    @cached_property
    def play(self) -> Category:
        """The heat as a category of its own: what clocks, limits and rankings read."""
        rnd = self.round
        return replace(self.category, id=self.id, pieces=rnd.pieces, time_limit=rnd.time_limit,
                       prizes=(), extra_prizes=(), rounds=(), escape=False,
                       puzzles=rnd.puzzles, puzzle_order=rnd.puzzle_order, play=rnd.play,
                       separate=())


# -- starting the heats ----------------------------------------------------------------------

EARLY_START = timedelta(minutes=30)  # /inicio starts a heat from this long before its time


@dataclass(frozen=True)
class HeatClock:
    """A heat with entrants, as ``/inicio`` sees it: whether its clock started, and whether it
    is still being played (started, time left, and an entrant without a result)."""

    number: int  # 1-based within the round
    started: bool = False
    running: bool = False


@dataclass(frozen=True)
class StartNow:
    heat: int


@dataclass(frozen=True)
class NotTimeYet:
    """The heat's day, or its hour (from ``EARLY_START`` before), has not come."""

    heat: int


@dataclass(frozen=True)
class AfterRunning:
    """The heat waits for ``running``, played before it at the same venue."""

    heat: int
    running: int


@dataclass(frozen=True)
class AllStarted:
    """Every heat at the venue has started (``heat``: its last one)."""

    heat: int


NextHeat = StartNow | NotTimeYet | AfterRunning | AllStarted


def next_heats(rnd: Round, heats: Sequence[HeatClock], at: datetime, today: date,
               early: timedelta = EARLY_START) -> list[NextHeat]:
    """What ``/inicio`` (or ``/inicio CATEGORY``) does at ``at`` with the heats of the round
    being played (``heats``: those with entrants). The heats at one venue are played one after
    the other: the venue's first heat not started starts once its day has come (``today``, on
    the contest's clock) and from ``early`` before its scheduled start, and never while
    another heat at that venue is still being played. Heats at different venues (qualifiers
    held at the same hour in two cities) start on their own, together when their times
    come together. One decision per venue, in the order of their first heats."""
    venues: dict[str, list[HeatClock]] = {}
    for h in sorted(heats, key=lambda h: h.number):
        venues.setdefault(rnd.when(h.number).venue, []).append(h)
    out: list[NextHeat] = []
    for queue in venues.values():
        waiting = next((h for h in queue if not h.started), None)
        if waiting is None:
            out.append(AllStarted(queue[-1].number))
            continue
        when = rnd.when(waiting.number)
        running = next((h for h in queue if h.running), None)
        if when.date > today or (when.start is not None and at < when.start - early):
            out.append(NotTimeYet(waiting.number))
        elif running is not None:
            out.append(AfterRunning(waiting.number, running.number))
        else:
            out.append(StartNow(waiting.number))
    return out


def heat_over(rows: Iterable[Row], elapsed: int | None, time_limit: int) -> bool:
    """Whether a heat is no longer being played at contest time ``elapsed`` (None: its clock
    has not started): its time is up, or every entrant has a result (a finish, pieces, or an
    outcome such as "did not start")."""
    if elapsed is None:
        return False
    if elapsed >= time_limit:
        return True
    return all(r.position is not None or r.competitor.outcome is not None for r in rows)


# -- results that can't be half-recorded --------------------------------------------------


@dataclass(frozen=True)
class SplitsMissing:
    """A finish refused: the entry has not had every puzzle before its last recorded.
    ``missing``: how many splits are still to record; ``left``: the puzzles a split time may
    name (in a fixed order, exactly the missing ones; in any order, every puzzle not done)."""

    missing: int
    left: tuple[int, ...]
    played: int  # how many puzzles the entry plays
    any_order: bool = False


@dataclass(frozen=True)
class Disqualified:
    """A finish refused: the entry is disqualified (``reason``: as recorded)."""

    reason: str


FinishRefused = SplitsMissing | Disqualified


def finish_refused(category: Category, done: Sequence[int], outcome: str | None,
                   reason: str = "") -> FinishRefused | None:
    """Whether a finish (the entry's last puzzle) may be recorded for an entry of
    ``category`` (its heat's play in a round) that finished the puzzles ``done`` before (its
    splits, in order) and has ``outcome`` recorded ("dsq": disqualified, for ``reason``). A
    disqualified entry's finish changes nothing; in a round of several puzzles, the finish
    comes once every puzzle before the last has its split. None: it may be recorded."""
    if outcome == "dsq":
        return Disqualified(reason)
    played = category.puzzles_played
    missing = played - 1 - len(done)
    if missing <= 0:
        return None
    if category.puzzle_order == "any":
        left = tuple(k for k in range(1, len(category.puzzles) + 1) if k not in done)
        return SplitsMissing(missing, left, played, any_order=True)
    return SplitsMissing(missing, tuple(range(len(done) + 1, played)), played)


def heats_of(category: Category) -> list[Heat]:
    return [Heat(category, r, h) for r, rnd in enumerate(category.rounds)
            for h in range(1, rnd.heats + 1)]


def heats_by_id(categories: Iterable[Category]) -> dict[str, Heat]:
    """Every heat of every round, by its id ("pairs-heats2")."""
    return {h.id: h for c in categories for h in heats_of(c)}


def round_play(category: Category, round_index: int) -> Category:
    """A whole round (all its heats) as one category: the merged ranking reads it."""
    return replace(Heat(category, round_index, 1).play,
                   id=f"{category.id}-{category.rounds[round_index].id}")


SEATINGS = ("blocks", "draw", "seeded")


def seat(category: Category, round_index: int, entrants: Sequence[int],
         answer: Callable[[int], str | None] | None = None,
         came_from: Callable[[int], int | None] | None = None) -> list[list[int]]:
    """A round's heats, each in table order, by the round's ``seating``: ``entrants`` are the
    category's confirmed entries (first round) or the qualifiers best first (later ones).
    A round split by a question (``heats_by``) puts each entry in the heat of its ``answer``
    to it (none: in no heat; the contest file and the import make sure there is one); a
    later round whose heats take the qualifiers of given heats of the round before
    (``takes``) puts each in the heat taking the one it ``came_from``. Each heat is then
    seated by the round's rule."""
    rnd = category.rounds[round_index]
    groups: list[list[int]] | None = None
    if rnd.heats_by is not None and answer is not None:
        choices = [c.lower() for c in rnd.heat_choices[:rnd.heats]]
        groups = [[] for _ in choices]
        for n in entrants:
            value = (answer(n) or "").lower()
            if value in choices:
                groups[choices.index(value)].append(n)
    elif rnd.schedule and rnd.schedule[0].takes and came_from is not None:
        groups = [[n for n in entrants if came_from(n) in s.takes] for s in rnd.schedule]
    if groups is not None:
        return seat_groups(category, round_index, groups)
    rule = rnd.seating_rule(round_index == 0)
    if rule == "seeded":
        return split_seeded(entrants, rnd.heats)
    if rule == "draw":
        return split_in_order(draw(f"{category.id}/{rnd.id}", entrants), rnd.heats,
                              keep_order=True)
    return split_in_order(entrants, rnd.heats)


def seat_groups(category: Category, round_index: int,
                groups: Sequence[Sequence[int]]) -> list[list[int]]:
    """A round's heats whose entrants are already chosen (``groups``, one per heat, best
    first), each seated by the round's rule as a heat of its own."""
    rnd = category.rounds[round_index]
    one = replace(rnd, heats=1, heats_by=None, schedule=())
    alone = replace(category, rounds=category.rounds[:round_index] + (one,)
                    + category.rounds[round_index + 1:])
    return [seat(alone, round_index, group)[0] for group in groups]


def draw(salt: str, entrants: Sequence[int]) -> list[int]:
    """A random order of ``entrants`` that anyone can repeat: the same round and the same
    entrants always give the same draw (a restart draws nothing again)."""
    drawn = sorted(entrants)
    random.Random(f"{salt}:{','.join(map(str, drawn))}").shuffle(drawn)
    return drawn


def table_number(index: int, per_table: int) -> int:
    """The table of the entry at ``index`` (0-based) of its heat's list."""
    return index // per_table + 1


def split_in_order(numbers: Sequence[int], heats: int,
                   keep_order: bool = False) -> list[list[int]]:
    """Entries in order of number (or as given, ``keep_order``), in blocks of (nearly) equal
    size, the first heats taking one more when they do not divide evenly."""
    ordered = list(numbers) if keep_order else sorted(numbers)
    size, extra = divmod(len(ordered), heats)
    out, at = [], 0
    for h in range(heats):
        n = size + (1 if h < extra else 0)
        out.append(ordered[at:at + n])
        at += n
    return out


def split_seeded(seeds: Sequence[int], heats: int) -> list[list[int]]:
    """A later round: the qualifiers best first, dealt out 1 2 3 3 2 1 1 2 3 ... so every
    heat gets its share of the best. Each heat lists its entries best first (its tables)."""
    out: list[list[int]] = [[] for _ in range(heats)]
    for i, number in enumerate(seeds):
        lap, at = divmod(i, heats)
        out[at if lap % 2 == 0 else heats - 1 - at].append(number)
    return out


def merged(category: Category, round_index: int, heats: Iterable[Sequence[Row]],
           limit_inclusive: bool = True, penalised_finish_counts: bool = True,
           tie_break: str = "shared") -> list[Row]:
    """One ranking of a round over all its heats (they played the same puzzle and limit)."""
    competitors = [r.competitor for rows in heats for r in rows]
    return rank(round_play(category, round_index), competitors, limit_inclusive,
                penalised_finish_counts, tie_break)


def capped(rule: Advancement, ranking: Sequence[Row], chosen: Iterable[int],
           group_of: Callable[[int], str | None]) -> dict[int, str]:
    """The entries left out by ``max_per`` alone: placed ahead of (or level with) the last
    qualifier, but their group (``group_of``: their answer to ``by``) already had its
    ``max_per`` qualifiers; each with that answer."""
    if rule.max_per is None:
        return {}
    through = set(chosen)
    places = [r.position for r in ranking if r.number in through and r.position is not None]
    if not places:
        return {}
    last = max(places)
    counts: dict[str, int] = {}
    for r in ranking:
        group = group_of(r.number) if r.number in through else None
        if group is not None:
            counts[group] = counts.get(group, 0) + 1
    out = {}
    for r in ranking:
        group = group_of(r.number)
        if r.number not in through and r.position is not None and r.position <= last and \
                group is not None and counts.get(group, 0) >= rule.max_per:
            out[r.number] = group
    return out


def qualifiers(rule: Advancement, heats: Sequence[Sequence[Row]], ranking: Sequence[Row],
               group_of: Callable[[int], str | None],
               skip: frozenset[int] = frozenset()) -> list[int]:
    """Who goes through, best first (``ranking``: the round's merged ranking). The entries
    in ``skip`` (they declined an invitation, or let it lapse) take no place, and the next in
    line takes it; they still count among the ranked entries ``top_percent`` is a share of."""
    ranked = [r for r in ranking if r.position is not None]
    chosen: set[int] = set()
    counts: dict[str, int] = {}

    def take(r: Row) -> bool:
        group = group_of(r.number) if rule.max_per is not None else None
        if group is not None and rule.max_per is not None and counts.get(group, 0) >= rule.max_per:
            return False
        chosen.add(r.number)
        if group is not None:
            counts[group] = counts.get(group, 0) + 1
        return True

    def take_until(rows: Iterable[Row], wanted: int) -> None:
        """Take from ``rows`` until ``wanted`` are chosen in all; the ones tied with the last
        taken go too."""
        last: int | None = None
        for r in rows:
            if r.position is None or r.number in chosen or r.number in skip:
                continue
            if len(chosen) >= wanted and r.position != last:
                break
            if take(r):
                last = r.position

    if rule.per_heat is not None:
        for rows in heats:
            take_until(sorted((r for r in rows if r.position is not None),
                              key=lambda r: (r.position or 0, r.number)),
                       len(chosen) + rule.per_heat)
    if rule.best is not None:
        take_until(ranked, rule.best)
    if rule.top_percent is not None:
        take_until(ranked, len(ranked) * rule.top_percent // 100)
    if rule.better_than is not None:
        limit = rule.better_than
        for r in ranked:
            if r.finished and r.time is not None and r.time < limit and \
                    r.number not in chosen and r.number not in skip:
                take(r)
    return [r.number for r in ranked if r.number in chosen]


def in_line(rule: Advancement, heats: Sequence[Sequence[Row]], ranking: Sequence[Row],
            group_of: Callable[[int], str | None], chosen: Sequence[int]) -> dict[int, int]:
    """The entries the rule did not take, each with its number in line (1: the first) for a
    place that comes free: the order ``qualifiers`` takes them in as the qualifiers' places
    free up one by one, the lowest first. Places per heat alone (``per_heat``, nothing
    across heats) make a line per heat, as a place given up goes to its heat's next; a rule
    on the round's ranking makes one line, in its order (a cap per group takes whom it
    takes). Entries tied for a place in line share its number; an entry the rule can never
    take (no result, or not under ``better_than``) is in no line."""
    if rule.per_heat is not None and (rule.best, rule.top_percent, rule.better_than) == (
            None, None, None):
        line: dict[int, int] = {}
        for rows in heats:
            scope = frozenset(r.number for r in rows)
            line.update(_line(rule, heats, ranking, group_of, chosen, scope))
        return line
    return _line(rule, heats, ranking, group_of, chosen,
                 frozenset(r.number for r in ranking))


def _line(rule: Advancement, heats: Sequence[Sequence[Row]], ranking: Sequence[Row],
          group_of: Callable[[int], str | None], chosen: Sequence[int],
          scope: frozenset[int]) -> dict[int, int]:
    """``in_line`` for the places of the qualifiers in ``scope``, freed lowest first."""
    line: dict[int, int] = {}
    skip: set[int] = set()
    taken = set(chosen)
    current = [n for n in chosen if n in scope]
    while current:
        skip.add(current[-1])
        now = qualifiers(rule, heats, ranking, group_of, frozenset(skip))
        newcomers = [n for n in now if n not in taken]
        number = len(line) + 1
        for n in newcomers:
            line[n] = number
        taken.update(newcomers)
        current = [n for n in now if n not in skip and n in scope]
    return line


# -- confirming a round ----------------------------------------------------------------------


@dataclass(frozen=True)
class PlayedHeat:
    """A heat of the round to confirm: its ranking, whether its clock started, and its
    contest time now (None: not started)."""

    rows: Sequence[Row]
    started: bool
    elapsed: int | None


@dataclass(frozen=True)
class AllConfirmed:
    """Every round of the category is already confirmed."""


@dataclass(frozen=True)
class NotPlayed:
    """Heat ``heat`` (1-based) has entrants but its clock never started."""

    heat: int


@dataclass(frozen=True)
class StillPlayed:
    """Heat ``heat`` (1-based) is still being played: ``waiting`` have no result yet."""

    heat: int
    waiting: tuple[int, ...]


@dataclass(frozen=True)
class NobodyThrough:
    """The round's advancement rule lets nobody through."""


@dataclass(frozen=True)
class Confirmable:
    """The round may be confirmed: ``qualifiers`` (best first) seated in the next round's
    ``heats`` (both empty after the last round)."""

    qualifiers: tuple[int, ...]
    heats: tuple[list[int], ...]


RoundVerdict = AllConfirmed | NotPlayed | StillPlayed | NobodyThrough | Confirmable


def confirm_verdict(category: Category, round_index: int, confirmed: bool,
                    heats: Sequence[PlayedHeat], ranking: Sequence[Row],
                    group_of: Callable[[int], str | None],
                    answer: Callable[[int], str | None] | None = None) -> RoundVerdict:
    """Whether the category's round ``round_index`` (``confirmed``: already) may be confirmed
    final: each heat with entrants was played and is over (time up, or a result for each
    entrant), and its rule (``advance``) lets someone through to the next round, seated in
    its heats (``answer``: a qualifier's answer to the next round's ``heats_by``)."""
    if confirmed:
        return AllConfirmed()
    for h, played in enumerate(heats, 1):
        if played.rows and not played.started:
            return NotPlayed(h)
        waiting = tuple(r.number for r in played.rows
                        if r.position is None and r.competitor.outcome is None)
        if waiting and not heat_over(played.rows, played.elapsed,
                                     Heat(category, round_index, h).play.time_limit):
            return StillPlayed(h, waiting)
    rule = category.rounds[round_index].advance
    if rule is None:
        return Confirmable((), ())
    chosen = qualifiers(rule, [p.rows for p in heats], ranking, group_of)
    if not chosen:
        return NobodyThrough()
    came: dict[int, int] = {r.number: h for h, p in enumerate(heats, 1) for r in p.rows}
    return Confirmable(tuple(chosen), tuple(seat(category, round_index + 1, chosen, answer,
                                                 came.get)))


def classification(category: Category, rounds: Sequence[tuple[Sequence[Competitor], set[int]]],
                   limit_inclusive: bool = True, penalised_finish_counts: bool = True,
                   tie_break: str = "shared", shared_prizes: str = "each",
                   final: bool = True) -> list[Row]:
    """The category's final classification: the last round reached first, then those who
    went out in the round before by their result there, and so on down; an entry without a
    result in the last round it played is not placed (listed at the end), and takes no place
    from the others. While the last round reached is still being played (``final`` False),
    its entrants come first whatever they have so far, their places kept above the others.

    ``rounds``: for each round, first to last, its entrants' results there and who of them
    went on to the next round (empty for the last one, or while it is not confirmed)."""
    rows: list[Row] = []
    unplaced: list[Row] = []  # no result in the last round they were in: after everyone
    for index in range(len(rounds) - 1, -1, -1):
        competitors, went_on = rounds[index]
        out = [c for c in competitors if c.number not in went_on]
        if not out:
            continue
        group = rank(round_play(category, index), out, limit_inclusive,
                     penalised_finish_counts, tie_break)
        offset = len(rows)
        tag = category.rounds[index].id
        in_play = index == len(rounds) - 1 and not final
        for r in group:
            row = Row(None if r.position is None else r.position + offset,
                      r.competitor, r.finished, r.time, None, round=tag)
            (unplaced if row.position is None and not in_play else rows).append(row)
    return award(category, rows + unplaced, shared_prizes)
