"""The titles of separate rankings (bot/domain/ranking.py: ``titles``, with ``separate``;
docs/rules.md "What each entry is told", docs/guide/1-contest-file.md "Separate rankings"): an
entry placed in one of its category's separate rankings (a national title within an open
category, the best under 18s) is told its place there, of how many placed there, and that
ranking's prize; an entry without a place there (did not start, out of competition, no result)
holds no title in it.

Pure, run against every mutant by ``make mutate``; every expected value is worked out by hand
from the rule, not read off the code."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from bot.domain.contest import Category, ExtraPrize, SeparateRanking
from bot.domain.ranking import Competitor, Row, Title, ages_fit, rank, separate, titles
from bot.services.contest_file import load_contest
from tests.conftest import ROOT

OPEN = Category(id="open", name="Open", members=1, pieces=500, time_limit=3600, fee=0,
                slots=(), prizes=("gold", "silver", "bronze"))
GERMAN = SeparateRanking("de", {"de": "Deutsche Meisterschaft"},
                         prizes=("Deutscher Meistertitel", "Vizemeister"))
U18 = SeparateRanking("u18", {"en": "Under 18"}, max_age=17, prizes=("Junior champion",))
BARE = SeparateRanking("club", {"en": "Club"})  # no prizes of its own


def c(number: int, finish: int | None = None, pieces: int | None = None,
      outcome: str | None = None) -> Competitor:
    return Competitor(number=number, names=(f"n{number}",), finish=finish, pieces=pieces,
                      outcome=outcome)


# the open category: 1 (French) wins; 2 and 3 (German) share 2nd; 4 (German) is 4th by
# pieces; 5 (German) did not start; 6 (German) is out of competition with the best time; 7
# (German, under 18) has no result yet; 3 and 7 are under 18
ROWS = rank(OPEN, [c(1, finish=1000), c(2, finish=1100), c(3, finish=1100), c(4, pieces=400),
                   c(5, outcome="dns"), c(6, finish=900, outcome="oc"), c(7)])
GERMANS = {2, 3, 4, 5, 6, 7}
YOUNG = {3, 7}


def test_the_category_ranking_the_titles_come_from() -> None:
    assert [(r.number, r.position, r.prize) for r in ROWS] == [
        (1, 1, "gold"), (2, 2, "silver"), (3, 2, "silver"), (4, 4, None),
        (6, None, None), (7, None, None), (5, None, None)]


def test_each_entry_is_told_its_places_in_the_separate_rankings_it_is_placed_in() -> None:
    german = separate(ROWS, GERMANS.__contains__, GERMAN.prizes)
    young = separate(ROWS, YOUNG.__contains__, U18.prizes)
    held = titles([(GERMAN, german), (U18, young)])
    # German: 2 and 3 share 1st (they shared 2nd in the category), 4 is 3rd, past the prizes;
    # three placed (5, 6 and 7 have no place). Under 18: 3 is 1st of 1 (7 has no result).
    assert held == {
        2: (Title("de", 1, 3, "Deutscher Meistertitel"),),
        3: (Title("de", 1, 3, "Deutscher Meistertitel"), Title("u18", 1, 1, "Junior champion")),
        4: (Title("de", 3, 3, None),),
    }
    # the category's winner is in no separate ranking; did not start (5), out of competition
    # (6) and no result (7) hold no title, though they are in the rankings' rows
    assert {1, 5, 6, 7}.isdisjoint(held)
    assert {r.number for r in german} == GERMANS
    assert {r.number for r in young} == YOUNG


def test_an_entrys_titles_come_in_the_order_of_the_rankings() -> None:
    german = separate(ROWS, GERMANS.__contains__, GERMAN.prizes)
    young = separate(ROWS, YOUNG.__contains__, U18.prizes)
    assert titles([(U18, young), (GERMAN, german)])[3] == (
        Title("u18", 1, 1, "Junior champion"), Title("de", 1, 3, "Deutscher Meistertitel"))


def test_a_title_carries_the_rankings_prize_never_the_categorys() -> None:
    # the category's winner (gold) and its 2nd (silver) in a ranking without prizes of its own
    club = separate(ROWS, {1, 2, 6}.__contains__, BARE.prizes)
    assert titles([(BARE, club)]) == {1: (Title("club", 1, 2, None),),
                                      2: (Title("club", 2, 2, None),)}
    # nor the category's extra prizes: the separate rows keep none, placed (1, 2) or not (6)
    assert [(r.number, r.position, r.extra_prizes) for r in club] == [
        (1, 1, ()), (2, 2, ()), (6, None, ())]
    with_extra = replace(OPEN, extra_prizes=(ExtraPrize("fastest", "Fastest", "cup", "all"),))
    rows = rank(with_extra, [c(1, finish=1000), c(2, finish=1100)])
    assert rows[0].extra_prizes == ("fastest",)
    kept = separate(rows, {1, 2}.__contains__, BARE.prizes)
    assert [(r.number, r.position, r.prize, r.extra_prizes) for r in kept] == [
        (1, 1, None, ()), (2, 2, None, ())]
    assert titles([(BARE, kept)]) == {1: (Title("club", 1, 2, None),),
                                      2: (Title("club", 2, 2, None),)}


def test_of_counts_the_entries_placed_there_sharing_a_place_or_not() -> None:
    # hand-made rows: places 1, 1, 3 and two without a place
    rows = [Row(1, c(10), True, 50, "A"), Row(1, c(11), True, 50, "A"),
            Row(None, c(12), False, None, None), Row(3, c(13), False, None, None),
            Row(None, c(14, outcome="dsq"), False, None, None)]
    sr = SeparateRanking("x", {"en": "X"}, prizes=("A",))
    assert titles([(sr, rows)]) == {10: (Title("x", 1, 3, "A"),), 11: (Title("x", 1, 3, "A"),),
                                    13: (Title("x", 3, 3, None),)}


def test_each_ranking_counts_its_own_placed_entries() -> None:
    big = [Row(1, c(1), True, 10, "p"), Row(2, c(2), True, 20, None),
           Row(3, c(3), True, 30, None), Row(4, c(4), False, None, None)]
    small = [Row(1, c(3), True, 30, "q"), Row(None, c(4), False, None, None)]
    a, b = SeparateRanking("a", {}), SeparateRanking("b", {})
    assert titles([(a, big), (b, small)]) == {
        1: (Title("a", 1, 4, "p"),), 2: (Title("a", 2, 4, None),),
        3: (Title("a", 3, 4, None), Title("b", 1, 1, "q")), 4: (Title("a", 4, 4, None),)}
    assert titles([(b, small), (a, big)])[3] == (Title("b", 1, 1, "q"), Title("a", 3, 4, None))


def test_no_title_without_a_place() -> None:
    assert titles([]) == {}
    nobody = [Row(None, c(1, outcome="dns"), False, None, None),
              Row(None, c(2), False, None, None)]
    assert titles([(GERMAN, nobody)]) == {}
    # a ranking nobody qualifies for
    assert titles([(GERMAN, separate(ROWS, lambda n: False, GERMAN.prizes))]) == {}
    # held titles are tuples, one per ranking the entry is placed in
    held = titles([(GERMAN, [Row(2, c(9), True, 60, "Vizemeister")])])
    assert held == {9: (Title("de", 2, 1, "Vizemeister"),)}
    assert isinstance(held[9], tuple)


def test_a_shared_place_pools_its_prizes_in_the_title_when_the_contest_does() -> None:
    german = separate(ROWS, GERMANS.__contains__, GERMAN.prizes, "pooled")
    # 2 and 3 share 1st and take up places 1 and 2: both prizes, for each of them
    pooled = "Deutscher Meistertitel + Vizemeister"
    assert titles([(GERMAN, german)]) == {2: (Title("de", 1, 3, pooled),),
                                          3: (Title("de", 1, 3, pooled),),
                                          4: (Title("de", 3, 3, None),)}
    # a place held alone keeps its own prize, pooled or not
    podium = SeparateRanking("de", {"de": "DM"}, prizes=("Gold", "Silber", "Bronze"))
    german = separate(ROWS, GERMANS.__contains__, podium.prizes, "pooled")
    assert titles([(podium, german)]) == {2: (Title("de", 1, 3, "Gold + Silber"),),
                                          3: (Title("de", 1, 3, "Gold + Silber"),),
                                          4: (Title("de", 3, 3, "Bronze"),)}


def test_the_under_18_title_of_the_championship_file() -> None:
    contest = load_contest(ROOT / "contests" / "championship-2027.toml")
    solo = contest.category("solo")
    (u18,) = solo.separate
    assert (u18.id, u18.max_age, u18.prizes) == ("u18", 17, ("Junior champion",))
    births = {1: date(1990, 5, 1), 2: date(2010, 7, 2),  # 16 on 1 July 2027 (17 the next day)
              3: date(2009, 7, 1),  # 18 that very day: not
              4: date(2011, 1, 1)}
    rows = rank(solo, [c(1, finish=3000), c(2, finish=3100), c(3, finish=3050),
                       c(4, pieces=200)])

    def keep(n: int) -> bool:
        return ages_fit([(births[n], None)], contest.date, u18.min_age, u18.max_age)

    held = titles([(u18, separate(rows, keep, u18.prizes, contest.shared_prizes))])
    assert held == {2: (Title("u18", 1, 2, "Junior champion"),),
                    4: (Title("u18", 2, 2, None),)}
