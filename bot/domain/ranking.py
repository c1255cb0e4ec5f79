"""Rankings (RULES.md section 4): per category, finishers by time, then the rest by pieces."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from itertools import groupby

from bot.domain.clock import within_limit
from bot.domain.contest import Category
from bot.domain.escape import EscapeResult


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
    outcome: str | None = None  # "dns" (did not start) or "dsq" (disqualified): not placed
    outcome_reason: str = ""
    shown: tuple[str, ...] = ()  # its answers to the questions shown in rankings ("ES")


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
    finished: list[tuple[int, Competitor]] = []
    by_pieces: list[tuple[int, Competitor]] = []
    unranked: list[Competitor] = []
    for c in competitors:
        t = ranking_time(c)
        if c.outcome is not None:  # did not start, or disqualified: never placed
            unranked.append(c)
        elif (
            c.finish is not None
            and t is not None
            and within_limit(c.finish, category.time_limit, limit_inclusive)
        ):
            if penalised_finish_counts or within_limit(
                    c.finish + c.time_penalty, category.time_limit, limit_inclusive):
                finished.append((t, c))
            else:
                by_pieces.append((-category.pieces, c))
        elif c.pieces is not None:
            by_pieces.append((-min(max(c.pieces, 0), category.pieces), c))
        else:
            unranked.append(c)

    def key(x: tuple[int, Competitor]) -> tuple[int, ...]:
        if tie_break == "earlier_round":
            earlier = x[1].earlier
            return (x[0], 0 if earlier is not None else 1, earlier or 0)
        return (x[0],)

    finished.sort(key=lambda x: (key(x), x[1].number))
    by_pieces.sort(key=lambda x: (key(x), x[1].number))

    rows: list[Row] = []
    for group, is_finished in ((finished, True), (by_pieces, False)):
        for _, run in groupby(group, key=key):
            tied = list(run)
            position = len(rows) + 1  # entries with the same key share the position
            won = prize_of(category.prizes, position, len(tied), shared_prizes)
            for value, c in tied:
                rows.append(Row(position, c, is_finished, value if is_finished else None, won))
    # no result yet first, then those who did not start, then the disqualified
    order = {None: 0, "dns": 1, "dsq": 2}
    for c in sorted(unranked, key=lambda x: (order.get(x.outcome, 3), x.number)):
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
