"""Final results (the final results' rules; docs/rules.md, "Final results") on rows built by
hand, beside tests/standings/test_standings_rules.py: a place of how many (only the placed
count), the ranking time with penalties, pieces for an unfinished entry, prizes named with
what they are for, what the published record keeps and what a correction tells again, and who
may read a ranking. Pure domain, run against every mutant by ``make mutate``."""

from __future__ import annotations

from bot.domain.contest import Category, ExtraPrize, Slot
from bot.domain.ranking import Competitor, Row
from bot.features.standings.rules import (
    RANKING_VISIBILITY,
    Standing,
    published_record,
    ranking_open,
    standings,
    to_tell,
    told_before,
)

LOCAL = ExtraPrize("best_local", "Best local", "A cup", "local")
CAT = Category("adults", "Adults", 1, 500, 3600, 0, (Slot(),), prizes=("Gold", "Silver"),
               extra_prizes=(LOCAL,))


def test_what_each_entry_is_told() -> None:
    rows = [
        Row(1, Competitor(4, ("A",), finish=3000, time_penalty=60), True, 3060, "Gold",
            ("best_local",)),
        Row(2, Competitor(9, ("B",), finish=3100), True, 3100, None, ("unknown_prize",)),
        Row(3, Competitor(2, ("C",), pieces=420), False, None, None),
        Row(None, Competitor(7, ("D",), outcome="dsq", finish=2000), False, None, None),
        Row(None, Competitor(8, ("E",)), False, None, None),
    ]
    told = standings(CAT, rows)
    assert [s.number for s in told] == [4, 9, 2, 7, 8]  # the ranking's order
    # three placed: each is told "of 3", even those without a place
    assert told[0] == Standing(4, 1, 3, 3060, None, None, ("Gold", "Best local: A cup"))
    # an extra prize the category does not name is told as it is
    assert told[1] == Standing(9, 2, 3, 3100, None, None, ("unknown_prize",))
    assert told[2] == Standing(2, 3, 3, None, 420, None, ())
    # not finished: no time even with a finish recorded; its outcome told
    assert told[3] == Standing(7, None, 3, None, None, "dsq", ())
    assert told[4] == Standing(8, None, 3, None, None, None, ())


def test_nobody_placed() -> None:
    told = standings(CAT, [Row(None, Competitor(1, ("A",), outcome="dns"), False, None, None)])
    assert told == [Standing(1, None, 0, None, None, "dns", ())]
    assert standings(CAT, []) == []


def test_the_record_keeps_what_was_told() -> None:
    a = Standing(4, 1, 3, 3060, None, None, ("Gold", "Best local: A cup"))
    b = Standing(2, 3, 3, None, 420, "oc", ())
    assert a.key() == [1, 3, 3060, None, None, ["Gold", "Best local: A cup"]]
    record = published_record([a, b])
    assert record == {"told": {"4": [1, 3, 3060, None, None, ["Gold", "Best local: A cup"]],
                               "2": [3, 3, None, 420, "oc", []]}}
    assert told_before(record) == {4: a.key(), 2: b.key()}
    assert told_before({}) == {}
    assert told_before({"told": {}}) == {}


def test_a_correction_tells_only_whom_it_changed() -> None:
    a = Standing(4, 1, 3, 3060, None, None, ("Gold",))
    b = Standing(9, 2, 3, 3100, None, None, ())
    before = told_before(published_record([a, b]))
    assert to_tell([a, b], None) == [a, b]
    assert to_tell([], None) == []
    assert to_tell([a, b], before) == []
    # each part of what was told, moved alone, tells that entry again
    for moved in (Standing(9, 1, 3, 3100, None, None, ()), Standing(9, 2, 4, 3100, None, None, ()),
                  Standing(9, 2, 3, 3101, None, None, ()), Standing(9, 2, 3, 3100, 1, None, ()),
                  Standing(9, 2, 3, 3100, None, "oc", ()),
                  Standing(9, 2, 3, 3100, None, None, ("Silver",))):
        assert to_tell([a, moved], before) == [moved]
    # an entry never told before is told
    new = Standing(11, 3, 3, 3200, None, None, ())
    assert to_tell([a, b, new], before) == [new]
    assert to_tell([a, b], {}) == [a, b]


def test_who_may_read_a_ranking() -> None:
    assert RANKING_VISIBILITY == ("final", "always", "never")
    assert [ranking_open(v, f) for v in RANKING_VISIBILITY for f in (False, True)] == [
        False, True,  # "final": once published
        True, True,  # "always"
        False, False,  # "never"
    ]
