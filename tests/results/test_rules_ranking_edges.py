"""RULES.md section 4, at the edges: the limit itself, zero pieces, prizes side by side."""

from __future__ import annotations

from dataclasses import replace

from bot.domain.contest import Category, Contest, ExtraPrize
from bot.domain.ranking import Competitor, rank


def c(number: int, finish: int | None = None, pieces: int | None = None, local: bool = False):
    return Competitor(number=number, names=(f"n{number}",), finish=finish, pieces=pieces,
                      local=local)


def test_finish_exactly_at_the_time_limit_is_a_finish(castrillo: Contest):
    cat = castrillo.category("adultos")
    assert castrillo.limit_inclusive  # finish_at_limit_counts = true
    limit = 2 * 3600 + 30 * 60
    assert cat.time_limit == limit
    rows = rank(cat, [c(1, finish=limit, pieces=500), c(2, pieces=499)])
    assert [(r.number, r.position, r.finished, r.time) for r in rows] == [
        (1, 1, True, limit), (2, 2, False, None)]


def test_contest_where_the_limit_itself_is_too_late(castrillo: Contest):
    cat = castrillo.category("adultos")
    limit = cat.time_limit
    rows = rank(cat, [c(1, finish=limit, pieces=480), c(2, finish=limit - 1)],
                limit_inclusive=False)
    assert [(r.number, r.finished) for r in rows] == [(2, True), (1, False)]


def test_pair_finishing_at_2_59_59_or_3_00_00_has_finished(castrillo: Contest):
    cat = castrillo.category("parejas")
    rows = rank(cat, [c(1, finish=3 * 3600), c(2, finish=3 * 3600 - 1), c(3, finish=3 * 3600 + 1)])
    assert [(r.number, r.finished) for r in rows] == [(2, True), (1, True), (3, False)]


def test_no_piece_placed_ranks_below_one_piece(castrillo: Contest):
    cat = castrillo.category("adultos")
    rows = rank(cat, [c(1, pieces=0), c(2, pieces=1), c(3, pieces=0)])
    assert [(r.number, r.position) for r in rows] == [(2, 1), (1, 2), (3, 2)]


def test_entry_with_no_result_is_listed_unfinished_without_position_or_prize(castrillo: Contest):
    cat = castrillo.category("adultos")
    rows = rank(cat, [c(7)])
    assert [(r.number, r.position, r.finished, r.time, r.prize) for r in rows] == [
        (7, None, False, None, None)]
    assert rows[0].finished is False


def test_local_pair_first_gets_its_position_prize_and_the_best_local_prize(castrillo: Contest):
    cat = castrillo.category("parejas")
    rows = rank(cat, [c(1, finish=4000, local=True), c(2, finish=5000), c(3, finish=6000,
                                                                          local=True)])
    first = rows[0]
    assert (first.number, first.position, first.finished, first.time) == (1, 1, True, 4000)
    assert first.prize == cat.prizes[0]
    assert first.extra_prizes == ("best_local",)
    assert [r.extra_prizes for r in rows[1:]] == [(), ()]


def test_best_local_pair_keeps_its_own_position_and_prize(castrillo: Contest):
    cat = castrillo.category("parejas")
    rows = rank(cat, [c(1, finish=4000), c(2, finish=5000, local=True)])
    second = rows[1]
    assert (second.number, second.position, second.prize) == (2, 2, cat.prizes[1])
    assert (second.finished, second.time, second.extra_prizes) == (True, 5000, ("best_local",))


def with_extras(cat: Category, *extras: ExtraPrize) -> Category:
    return replace(cat, extra_prizes=extras)


def test_an_extra_prize_nobody_can_win_does_not_stop_the_next_one(castrillo: Contest):
    cat = castrillo.category("parejas")
    best_local = cat.extra_prizes[0]
    best_non_podium = ExtraPrize("fourth", "Premio", "Puzzle", among="all", cumulative=False)
    rows = rank(with_extras(cat, best_local, best_non_podium),
                [c(i, finish=1000 * i) for i in range(1, 6)])  # no local pair
    assert [(r.number, r.extra_prizes) for r in rows if r.extra_prizes] == [(4, ("fourth",))]


def test_two_local_pairs_sharing_the_best_time_share_the_best_local_prize(castrillo: Contest):
    cat = castrillo.category("parejas")
    rows = rank(cat, [c(1, finish=3000), c(2, finish=4000, local=True),
                      c(3, finish=4000, local=True)])
    assert [(r.number, r.position, r.extra_prizes) for r in rows] == [
        (1, 1, ()), (2, 2, ("best_local",)), (3, 2, ("best_local",))]
