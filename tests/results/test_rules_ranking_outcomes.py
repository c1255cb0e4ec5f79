"""Rankings beyond the plain finish (docs/rules.md "Rankings", docs/volunteers.md "/estado",
docs/guide/1-contest-file.md "Separate rankings within a category"): entries that
are never placed, who fits an age band, and a category's separate ranking.

Every expected value is worked out from the rule, not read off the code."""

from __future__ import annotations

from datetime import date

from bot.domain.contest import Category
from bot.domain.ranking import Competitor, Row, ages_fit, rank, separate

OPEN = Category(id="open", name="Open", members=1, pieces=500, time_limit=3600, fee=0,
                slots=(), prizes=("gold", "silver", "bronze"))
DAY = date(2027, 7, 3)  # the contest day of the age bands below


def c(number: int, finish: int | None = None, pieces: int | None = None,
      outcome: str | None = None) -> Competitor:
    return Competitor(number=number, names=(f"n{number}",), finish=finish, pieces=pieces,
                      outcome=outcome)


def seen(rows: list[Row]) -> list[tuple[int, int | None, bool, int | None, str | None]]:
    return [(r.number, r.position, r.finished, r.time, r.prize) for r in rows]


# --- did not start, disqualified, out of competition -----------------------------------------


def test_an_unplaced_entry_listed_first_does_not_hide_the_entries_after_it():
    rows = rank(OPEN, [c(1, finish=900, outcome="dsq"), c(2, finish=2000), c(3, pieces=300),
                       c(4, outcome="dns"), c(5, finish=1000)])
    # the placed: 5 (1000 s) 1st, 2 (2000 s) 2nd, 3 by pieces 3rd; then dns, then dsq, even
    # though the disqualified 1 had the best time
    assert seen(rows) == [
        (5, 1, True, 1000, "gold"), (2, 2, True, 2000, "silver"), (3, 3, False, None, "bronze"),
        (4, None, False, None, None), (1, None, False, None, None)]


def test_unplaced_entries_out_of_competition_then_no_result_then_dns_then_dsq():
    # numbers chosen against the order: each later group has lower numbers, so a group
    # merged into the one before would come first
    rows = rank(OPEN, [
        c(1, finish=500, outcome="dsq"), c(2, pieces=200, outcome="dsq"),
        c(3, pieces=100, outcome="dsq"),
        c(5, finish=400, outcome="dns"), c(6, pieces=300, outcome="dns"),
        c(7, outcome="dns"),
        c(10), c(11, finish=3601),  # no result yet; past the limit with no piece count
        c(20, outcome="oc"), c(21, pieces=400, outcome="oc"), c(22, pieces=450, outcome="oc"),
        c(23, finish=1500, outcome="oc"), c(24, finish=1200, outcome="oc"),
        c(30, finish=3000),
    ])
    # out of competition by their results: finishers by time (24 at 1200 s, 23 at 1500 s),
    # then by pieces, most first (22 with 450, 21 with 400), then without any (20); the others
    # by number within their group, whatever they had recorded
    assert [r.number for r in rows] == [30, 24, 23, 22, 21, 20, 10, 11, 5, 6, 7, 1, 2, 3]
    assert seen(rows)[0] == (30, 1, True, 3000, "gold")
    # unplaced: no place, not a finish, no ranking time and no prize, even the oc who beat 30
    assert all((r.position, r.finished, r.time, r.prize) == (None, False, None, None)
               for r in rows[1:])


def test_an_out_of_competition_finish_at_0_00_00_still_comes_before_pieces():
    rows = rank(OPEN, [c(2, pieces=500, outcome="oc"), c(3, finish=0, outcome="oc")])
    assert [r.number for r in rows] == [3, 2]


def test_out_of_competition_no_piece_placed_still_comes_before_no_result():
    # 0 pieces is a result, as in the ranking (rules.md: no piece placed ranks, below one)
    rows = rank(OPEN, [c(2, outcome="oc"), c(3, pieces=0, outcome="oc"),
                       c(4, pieces=1, outcome="oc")])
    assert [r.number for r in rows] == [4, 3, 2]

def test_unplaced_entries_take_no_place_from_the_placed():
    rows = rank(OPEN, [c(1, finish=100, outcome="oc"), c(2, finish=200), c(3, finish=200),
                       c(4, finish=300)], tie_break="earlier_round")
    assert seen(rows) == [(2, 1, True, 200, "gold"), (3, 1, True, 200, "gold"),
                          (4, 3, True, 300, "bronze"), (1, None, False, None, None)]


# --- who fits an age band ----------------------------------------------------------------


def test_age_on_the_contest_day_with_a_full_birth_date():
    under_18 = (None, 17)
    assert ages_fit([(date(2009, 7, 4), None)], DAY, *under_18)  # 18 tomorrow: 17
    assert not ages_fit([(date(2009, 7, 3), None)], DAY, *under_18)  # 18 on the day itself
    assert not ages_fit([(date(2009, 7, 2), None)], DAY, *under_18)
    assert ages_fit([(date(2009, 8, 1), None)], DAY, *under_18)  # a later month: still 17
    assert not ages_fit([(date(2009, 6, 30), None)], DAY, *under_18)  # an earlier month: 18
    over_50 = (50, None)
    assert ages_fit([(date(1977, 7, 3), None)], DAY, *over_50)  # 50 on the day
    assert not ages_fit([(date(1977, 7, 4), None)], DAY, *over_50)  # 49 until tomorrow
    assert ages_fit([(date(1960, 1, 1), None)], DAY, *over_50)


def test_a_band_with_both_ends_includes_both():
    band = (12, 17)
    assert ages_fit([(date(2015, 7, 3), None)], DAY, *band)  # 12
    assert not ages_fit([(date(2015, 7, 4), None)], DAY, *band)  # 11
    assert ages_fit([(date(2009, 7, 4), None)], DAY, *band)  # 17
    assert not ages_fit([(date(2009, 7, 3), None)], DAY, *band)  # 18


def test_a_member_known_by_the_year_only_fits_when_both_possible_ages_fit():
    # born in 2010: 16 or 17 on 3 July 2027; born in 2009: 17 or 18
    assert ages_fit([(None, 2010)], DAY, None, 17)
    assert not ages_fit([(None, 2009)], DAY, None, 17)
    # born in 1977: 49 or 50; in 1976: 50 or 51
    assert not ages_fit([(None, 1977)], DAY, 50, None)
    assert ages_fit([(None, 1976)], DAY, 50, None)


def test_a_full_date_is_read_before_the_year():
    # the date says 17; the year alone would allow 18
    assert ages_fit([(date(2009, 7, 4), 2009)], DAY, None, 17)


def test_every_member_must_fit_and_a_member_with_no_birth_never_does():
    young, old = (date(2012, 1, 1), None), (date(1990, 1, 1), None)
    assert ages_fit([young, young], DAY, None, 17)
    assert not ages_fit([young, old], DAY, None, 17)
    assert not ages_fit([old, young], DAY, None, 17)
    assert not ages_fit([young, (None, None)], DAY, None, 17)
    assert not ages_fit([(None, None), young], DAY, None, 17)
    assert ages_fit([], DAY, None, 17)


# --- a separate ranking within a category ---------------------------------------------------


def row(number: int, position: int | None, prize: str | None = None,
        extras: tuple[str, ...] = ()) -> Row:
    return Row(position, c(number), position is not None, None, prize, extras)


CATEGORY_ROWS = [row(1, 1, "gold", ("best_local",)), row(2, 2, "silver"), row(3, 2, "silver"),
                 row(4, 4), row(5, 5), row(6, 6), row(7, None), row(8, None)]


def test_a_separate_ranking_places_its_entries_among_themselves():
    kept = {2, 3, 5, 6, 8}
    rows = separate(CATEGORY_ROWS, lambda n: n in kept, ("young 1st", "young 2nd", "young 3rd"))
    # 2 and 3 shared 2nd in the category: they share 1st here, and 5 is 3rd (1, 1, 3); 6 is
    # 4th, past the prizes; 8, unplaced, stays unplaced
    assert [(r.number, r.position, r.prize, r.extra_prizes) for r in rows] == [
        (2, 1, "young 1st", ()), (3, 1, "young 1st", ()), (5, 3, "young 3rd", ()),
        (6, 4, None, ()), (8, None, None, ())]


def test_a_separate_ranking_drops_the_categorys_prizes():
    rows = separate(CATEGORY_ROWS, lambda n: n in {1, 4, 7, 8}, ("own",))
    assert [(r.number, r.position, r.prize, r.extra_prizes) for r in rows] == [
        (1, 1, "own", ()), (4, 2, None, ()), (7, None, None, ()), (8, None, None, ())]
    assert separate(CATEGORY_ROWS, lambda n: False, ("own",)) == []


def test_a_separate_ranking_pools_shared_prizes_when_the_contest_does():
    kept = {2, 3, 4}
    rows = separate(CATEGORY_ROWS, lambda n: n in kept, ("A", "B", "C"), "pooled")
    # 2 and 3 share 1st here and take up places 1 and 2: "A + B" each; 4 is 3rd
    assert [(r.number, r.position, r.prize) for r in rows] == [
        (2, 1, "A + B"), (3, 1, "A + B"), (4, 3, "C")]
    each = separate(CATEGORY_ROWS, lambda n: n in kept, ("A", "B", "C"))
    assert [r.prize for r in each] == ["A", "A", "C"]
