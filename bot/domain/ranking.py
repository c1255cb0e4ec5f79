"""Rankings (docs/rules.md): per category, finishers by time, then the rest by pieces (or
by the category's ``unfinished_order``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date
from itertools import groupby
from operator import itemgetter
from typing import Any

from bot.domain.clock import within_limit
from bot.domain.contest import Category, SeparateRanking
from bot.features.escape.rules import EscapeResult


@dataclass(frozen=True)
class Competitor:
    number: int
    names: tuple[str, ...]
    local: bool = False
    finish: int | None = None  # contest time on the official clock when the puzzle was finished
    pieces: int | None = None  # pieces placed (islands of 3+) when not finished
    escape: EscapeResult | None = None  # pairs with an escape stage
    time_penalty: int = 0  # seconds added by the penalties volunteers recorded
    penalties: tuple[tuple[str, int], ...] = ()  # (penalty kind id, how many), as recorded
    # the second key when ranking times (or pieces) are equal, with ``tie_break`` set to
    # "earlier_round": the ranking time in the round before (lower is better; None: last)
    earlier: int | None = None
    splits: tuple[int, ...] = ()  # contest times the puzzles before the last were finished
    # "dns" (did not start), "dsq" (disqualified) or "oc" (out of competition: its results
    # shown, but not placed): never placed
    outcome: str | None = None
    outcome_reason: str = ""
    shown: tuple[str, ...] = ()  # its answers to the questions shown in rankings ("ES")
    jokers: int = 0  # puzzles it gave up (a marathon's joker): they count nothing
    bonus: int = 0  # pieces added to its count where pieces rank it (the jokers it kept)

    @property
    def counted(self) -> int | None:
        """The pieces it is ranked by: those placed, and the bonus of the jokers it kept."""
        return None if self.pieces is None else self.pieces + self.bonus


@dataclass(frozen=True)
class Row:
    position: int | None  # None: not finished and no piece count yet
    competitor: Competitor
    finished: bool
    time: int | None  # ranking time: the finish time, or the adjusted total for escape pairs
    prize: str | None
    extra_prizes: tuple[str, ...] = ()
    round: str | None = None  # in a classification over rounds: the round of this result

    @property
    def number(self) -> int:
        return self.competitor.number


def ranking_time(c: Competitor) -> int | None:
    """The finish (the escape pairs' adjusted total), plus the time penalties."""
    if c.finish is None:
        return None
    if c.escape is not None:
        return c.escape.adjusted_total(c.finish) + c.time_penalty
    return c.finish + c.time_penalty


TIE_BREAKS = ("shared", "earlier_round")
SHARED_PRIZES = ("each", "pooled")
# what may order the entries that did not finish, in the order the contest file lists them:
# "pieces" placed (more first), "puzzles" finished of those played in sequence (more first),
# "time" the last of them was finished (earlier first; none finished: after those with one)
UNFINISHED_KEYS = ("pieces", "puzzles", "time")


def unfinished_key(category: Category, c: Competitor, whole: bool = False) -> Any:
    """Where an entry that did not finish goes among the others (lower first), by the
    category's ``unfinished_order``; entries with equal keys share a place. ``whole``: a
    finish taken past the limit by its penalties, every piece and puzzle done at its
    ranking time. A category (or round) played with one puzzle has no finished puzzle to
    count: its entries go by pieces, whatever the order says. The plain order (pieces only) is
    an int: the 10,000-entry sort compares fast."""
    pieces = (category.pieces if whole else min(max(c.pieces or 0, 0), category.pieces)
              ) + c.bonus
    order = category.unfinished_order
    if order == ("pieces",) or not category.puzzles:
        return -pieces  # one puzzle at a time (a round of its own): no puzzle finished to count
    done = category.puzzles_played if whole else len(c.splits)
    last = ranking_time(c) if whole else (c.splits[-1] if c.splits else None)
    parts = {"pieces": (-pieces,), "puzzles": (-done,),
             "time": (0, last) if last is not None else (1, 0)}
    return tuple(x for k in order for x in parts[k])


def _placed_by_puzzles(category: Category, c: Competitor) -> bool:
    """Without a piece count: placed all the same by its finished puzzles, where the order
    leaves pieces out."""
    return bool(c.splits and category.puzzles and "pieces" not in category.unfinished_order)


def rank(
    category: Category, competitors: Iterable[Competitor], limit_inclusive: bool = True,
    penalised_finish_counts: bool = True, tie_break: str = "shared",
    shared_prizes: str = "each",
) -> list[Row]:
    """Rank one category. Equal times (or equal pieces) share a position; with ``tie_break``
    "earlier_round", the better result in the round before comes first, and only entries
    equal on both share a position.

    A finish counts when it is within the time limit on the clock. Time penalties are added to
    its ranking time; with ``penalised_finish_counts`` False, a finish whose time plus its
    penalties is past the limit ranks as not finished, with every piece placed (first among
    those ranked by pieces)."""
    earlier = tie_break == "earlier_round"
    # (sort key, number, arrival, competitor): the key once per competitor (time or pieces,
    # then with "earlier_round" the result in the round before), sorted by it then by number;
    # the arrival keeps equal numbers apart, so competitors themselves are never compared
    finished: list[tuple[Any, int, int, Competitor]] = []  # key: an int, or a tuple of them
    by_pieces: list[tuple[Any, int, int, Competitor]] = []
    unranked: list[Competitor] = []
    for c in competitors:
        t = ranking_time(c)
        if c.outcome is not None:  # did not start, or disqualified: never placed
            unranked.append(c)
            continue
        if (
            c.finish is not None
            and t is not None
            and within_limit(c.finish, category.time_limit, limit_inclusive)
        ):
            if penalised_finish_counts or within_limit(
                    c.finish + c.time_penalty, category.time_limit, limit_inclusive):
                value = t
                target = finished
            else:
                value, target = unfinished_key(category, c, whole=True), by_pieces
        elif c.pieces is not None or _placed_by_puzzles(category, c):
            value, target = unfinished_key(category, c), by_pieces
        else:
            unranked.append(c)
            continue
        if earlier:
            target.append(((value, 0 if c.earlier is not None else 1, c.earlier or 0),
                           c.number, len(target), c))
        else:  # plain ints: the 10,000-entry sort compares fast
            target.append((value, c.number, len(target), c))

    finished.sort()
    by_pieces.sort()

    rows: list[Row] = []
    for group, is_finished in ((finished, True), (by_pieces, False)):
        for _, run in groupby(group, key=itemgetter(0)):
            tied = list(run)
            position = len(rows) + 1  # entries with the same key share the position
            won = prize_of(category.prizes, position, len(tied), shared_prizes)
            time = (tied[0][0][0] if earlier else tied[0][0]) if is_finished else None
            for *_, c in tied:
                rows.append(Row(position, c, is_finished, time, won))
    # out of competition first, by their results; then no result yet, did not start,
    # disqualified
    order = {"oc": 0, None: 1, "dns": 2, "dsq": 3}

    def after(c: Competitor) -> tuple[int, int, int, int]:
        t = ranking_time(c) if c.outcome == "oc" else None
        pieces = c.pieces if c.outcome == "oc" else None
        result = 0 if t is not None else 1 if pieces is not None else 2  # a time, pieces, none
        return (order.get(c.outcome, 4), result, t or -(pieces or 0), c.number)

    for c in sorted(unranked, key=after):
        rows.append(Row(None, c, False, None, None))
    return _award_extras(category, rows)


def prize_of(prizes: tuple[str, ...], position: int | None, tied: int,
             shared_prizes: str = "each") -> str | None:
    """The prize of a place shared by ``tied`` entries: that place's for each ("each"), or
    the prizes of the places they take up together, shared ("pooled": "1st + 2nd")."""
    if position is None or position > len(prizes):
        return None
    if shared_prizes == "pooled" and tied > 1:
        return " + ".join(prizes[position - 1:position - 1 + tied])
    return prizes[position - 1]


def award(category: Category, rows: list[Row], shared_prizes: str = "each") -> list[Row]:
    """The category's prizes by the rows' positions (see ``prize_of``), then its extra
    prizes: for rows placed by another ranking (a classification over rounds)."""
    sizes: dict[int, int] = {}
    for r in rows:
        if r.position is not None:
            sizes[r.position] = sizes.get(r.position, 0) + 1
    return _award_extras(category, [
        replace(r, prize=prize_of(category.prizes, r.position, sizes.get(r.position or 0, 0),
                                  shared_prizes)) for r in rows])


def _award_extras(category: Category, rows: list[Row]) -> list[Row]:
    for extra in category.extra_prizes:
        candidates = [
            r
            for r in rows
            if r.position is not None
            and (extra.among != "local" or r.competitor.local)
            and (extra.cumulative or r.prize is None)
        ]
        if not candidates:
            continue
        best = min(r.position for r in candidates if r.position is not None)
        winners = {r.number for r in candidates if r.position == best}
        rows = [
            replace(r, extra_prizes=r.extra_prizes + (extra.id,))
            if r.number in winners
            else r
            for r in rows
        ]
    return rows


AGE_BY = ("day", "year")


def ages_fit(births: Iterable[tuple[date | None, int | None]], day: date,
             min_age: int | None, max_age: int | None, by_year: bool = False) -> bool:
    """Whether every member (full birth date, or year of birth only) is aged ``min_age`` to
    ``max_age`` on ``day``. A member known by the year only fits when both ages the year
    allows fit; a member with no birth at all never does. ``by_year``: the age reached in
    ``day``'s year instead (the year of birth decides, as many federations' age groups do)."""
    for born, year in births:
        if by_year and (born is not None or year is not None):
            ages = {day.year - (born.year if born is not None else year or 0)}
        elif born is not None:
            ages = {day.year - born.year - ((day.month, day.day) < (born.month, born.day))}
        elif year is not None:
            ages = {day.year - year - 1, day.year - year}
        else:
            return False
        if any((min_age is not None and a < min_age) or (max_age is not None and a > max_age)
               for a in ages):
            return False
    return True


def separate(rows: Sequence[Row], keep: Callable[[int], bool],
             prizes: tuple[str, ...], shared_prizes: str = "each") -> list[Row]:
    """A ranking of its own among the entries ``keep`` accepts, in the order of ``rows``:
    placed 1, 2, 3... among themselves (entries sharing a place in ``rows`` share it here
    too), with these ``prizes`` (a shared place's as ``prize_of`` says); the unplaced stay
    unplaced."""
    out: list[Row] = []
    last: tuple[int | None, int] = (None, 0)  # (position in rows, position here)
    count = 0
    for r in rows:
        if not keep(r.number):
            continue
        if r.position is None:
            out.append(replace(r, prize=None, extra_prizes=()))
            continue
        count += 1
        here = last[1] if r.position == last[0] else count
        last = (r.position, here)
        out.append(replace(r, position=here, prize=None, extra_prizes=()))
    sizes: dict[int, int] = {}
    for r in out:
        if r.position is not None:
            sizes[r.position] = sizes.get(r.position, 0) + 1
    return [replace(r, prize=prize_of(prizes, r.position, sizes.get(r.position or 0, 0),
                                      shared_prizes))
            for r in out]


@dataclass(frozen=True)
class Title:
    """An entry's place in a separate ranking of its category (under 18s, a national title),
    as the entry is told it: the ranking's id, its place there, of how many placed there, and
    the ranking's prize for that place."""

    ranking: str
    position: int
    of: int
    prize: str | None = None


def titles(rankings: Iterable[tuple[SeparateRanking, Sequence[Row]]]
           ) -> dict[int, tuple[Title, ...]]:
    """Each entry's places in the separate rankings (``(ranking, its rows)``) it holds
    one in, in the rankings' order; an entry without a place in one (did not start, out of
    competition) holds no title there."""
    out: dict[int, list[Title]] = {}
    for sr, rows in rankings:
        placed = sum(1 for r in rows if r.position is not None)
        for r in rows:
            if r.position is not None:
                out.setdefault(r.number, []).append(Title(sr.id, r.position, placed, r.prize))
    return {n: tuple(ts) for n, ts in out.items()}
