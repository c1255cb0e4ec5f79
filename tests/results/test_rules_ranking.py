"""RULES.md section 4: results and ranking."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from bot.domain.contest import Contest
from bot.domain.ranking import Competitor, ages_fit, rank
from bot.texts.result_lines import ranking_lines


def c(number: int, finish: int | None = None, pieces: int | None = None, local: bool = False):
    return Competitor(number=number, names=(f"n{number}",), finish=finish, pieces=pieces,
                      local=local)


def test_rule_finishers_first_by_time_lowest_first(castrillo: Contest):
    cat = castrillo.category("adultos")
    rows = rank(cat, [c(1, pieces=499), c(2, finish=5000), c(3, finish=4000)])
    assert [(r.number, r.position, r.finished) for r in rows] == [
        (3, 1, True), (2, 2, True), (1, 3, False)]


def test_rule_non_finishers_by_pieces_highest_first(castrillo: Contest):
    cat = castrillo.category("infantil-a")
    rows = rank(cat, [c(1, pieces=40), c(2, pieces=90), c(3, pieces=10)])
    assert [r.number for r in rows] == [2, 1, 3]
    assert [r.position for r in rows] == [1, 2, 3]


def test_rule_equal_times_share_a_position(castrillo: Contest):
    cat = castrillo.category("adultos")
    rows = rank(cat, [c(1, finish=4000), c(2, finish=3000), c(3, finish=4000), c(4, finish=5000)])
    assert [(r.number, r.position) for r in rows] == [(2, 1), (1, 2), (3, 2), (4, 4)]
    assert rows[1].prize == rows[2].prize == cat.prizes[1]


def test_rule_equal_pieces_share_a_position(castrillo: Contest):
    cat = castrillo.category("adultos")
    rows = rank(cat, [c(1, finish=4000), c(2, pieces=300), c(3, pieces=300), c(4, pieces=10)])
    assert [(r.number, r.position) for r in rows] == [(1, 1), (2, 2), (3, 2), (4, 4)]


def test_rule_finish_past_the_limit_is_not_a_finish(castrillo: Contest):
    cat = castrillo.category("adultos")
    rows = rank(cat, [c(1, finish=cat.time_limit + 1, pieces=480), c(2, pieces=490)])
    assert [(r.number, r.finished) for r in rows] == [(2, False), (1, False)]


def test_rule_pieces_cannot_exceed_the_puzzle_size_in_ranking(castrillo: Contest):
    cat = castrillo.category("infantil-a")  # 100 pieces
    rows = rank(cat, [c(1, pieces=5000), c(2, pieces=100)])
    assert rows[0].position == rows[1].position == 1


def test_entries_without_finish_or_pieces_are_listed_last_without_position(castrillo: Contest):
    cat = castrillo.category("adultos")
    rows = rank(cat, [c(5), c(1, pieces=10)])
    assert [(r.number, r.position) for r in rows] == [(1, 1), (5, None)]


def test_rule_prizes_per_position_from_the_contest_file(castrillo: Contest):
    cat = castrillo.category("infantil-b")
    rows = rank(cat, [c(i, finish=1000 * i) for i in range(1, 5)])
    assert [r.prize for r in rows] == [*cat.prizes, None]


def test_rule_best_local_pair_is_shown_beside_the_ranking(castrillo: Contest):
    cat = castrillo.category("parejas")
    rows = rank(cat, [c(1, finish=4000), c(2, finish=5000, local=True), c(3, finish=6000,
                                                                          local=True)])
    assert [r.extra_prizes for r in rows] == [(), ("best_local",), ()]


def test_best_local_pair_not_cumulative_setting(castrillo: Contest):
    cat = castrillo.category("parejas")
    extra = replace(cat.extra_prizes[0], cumulative=False)
    cat = replace(cat, extra_prizes=(extra,))
    rows = rank(cat, [c(i, finish=1000 * i, local=True) for i in range(1, 6)])
    assert [r.number for r in rows if r.extra_prizes] == [4]


def test_no_best_local_pair_without_local_entries(castrillo: Contest):
    cat = castrillo.category("parejas")
    rows = rank(cat, [c(1, finish=4000), c(2, finish=5000)])
    assert all(not r.extra_prizes for r in rows)


def test_a_ranking_asked_again_shows_moved_places_and_changed_results(castrillo: Contest):
    """A row's line is kept once written (bot/texts/result_lines.py): one new result moves
    the places below it, and a changed result or language is a line of its own."""
    cat = castrillo.category("adultos")
    before = [c(1, finish=4000), c(2, pieces=300), c(3, finish=5000)]
    assert ranking_lines("en", castrillo, cat, rank(cat, before))[1:] == [
        f"1. #1 n1: 1:06:40 - {cat.prizes[0]}", f"2. #3 n3: 1:23:20 - {cat.prizes[1]}",
        f"3. #2 n2: 300 pieces - {cat.prizes[2]}"]
    after = [c(1, finish=4000), c(2, pieces=350), c(3, finish=5000), c(4, finish=3000)]
    assert ranking_lines("en", castrillo, cat, rank(cat, after))[1:5] == [
        f"1. #4 n4: 0:50:00 - {cat.prizes[0]}", f"2. #1 n1: 1:06:40 - {cat.prizes[1]}",
        f"3. #3 n3: 1:23:20 - {cat.prizes[2]}", "4. #2 n2: 350 pieces" + (
            f" - {cat.prizes[3]}" if len(cat.prizes) > 3 else "")]
    assert ranking_lines("es", castrillo, cat, rank(cat, after))[4].startswith(
        "4. #2 n2: 350 piezas")


def test_ages_by_the_contest_year_let_a_year_of_birth_decide() -> None:
    """``age_by = "year"``: the age reached in the contest's year, for a full date as for a
    year only (a youth group "born 2010 or later" of 2027 is max_age = 17): the member known
    by the year, left out of an age-on-the-day ranking, is in."""
    day = date(2027, 5, 8)
    assert ages_fit([(None, 1962)], day, 65, None, by_year=True)  # 65 in 2027
    assert not ages_fit([(None, 1962)], day, 65, None)  # 64 or 65 on the day: not sure
    assert ages_fit([(date(2010, 12, 31), None)], day, None, 17, by_year=True)
    assert not ages_fit([(date(2009, 1, 1), None)], day, None, 17, by_year=True)  # 18
    assert ages_fit([(date(2010, 12, 31), None)], day, 17, 17, by_year=True)  # 16 that day
    assert not ages_fit([(None, None)], day, None, 17, by_year=True)
