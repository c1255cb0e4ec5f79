"""What each entry is told when results are final, worked out from the rules
(docs/rules.md, "Final results"): places of how many, times, pieces, prizes named, shared
places, no place for outcomes, and what a correction tells again."""

from __future__ import annotations

from bot.domain.ranking import Competitor, rank
from bot.features.standings.rules import (
    published_record,
    ranking_open,
    standings,
    to_tell,
    told_before,
)
from bot.services.contest_file import load_contest
from tests.conftest import CASTRILLO


def _pairs():
    return load_contest(CASTRILLO).category("parejas")


def test_places_of_how_many_with_prizes_named_and_shared_places():
    cat = _pairs()
    rows = rank(cat, [
        Competitor(1, ("A",), local=True, finish=5000),
        Competitor(2, ("B",), finish=5000),  # shares 1st with #1
        Competitor(3, ("C",), finish=6000),
        Competitor(4, ("D",), pieces=900),
        Competitor(5, ("E",), outcome="dns"),
    ])
    told = {s.number: s for s in standings(cat, rows)}
    assert [(told[n].position, told[n].of) for n in (1, 2, 3, 4)] == [(1, 4), (1, 4), (3, 4),
                                                                      (4, 4)]
    assert told[1].prizes == ("Dos trofeos y dos puzzles de 2.000 piezas",
                              "Mejor pareja local: Dos trofeos y dos puzzles de 1.000 piezas")
    assert told[2].prizes == ("Dos trofeos y dos puzzles de 2.000 piezas",)
    assert told[3].prizes == ("Dos trofeos y dos puzzles de 1.000 piezas",)  # 3rd: no 2nd
    assert (told[3].time, told[3].pieces) == (6000, None)
    assert (told[4].time, told[4].pieces, told[4].prizes) == (None, 900, ())
    assert (told[5].position, told[5].outcome) == (None, "dns")


def test_published_again_only_whose_result_moved():
    cat = _pairs()
    first = standings(cat, rank(cat, [Competitor(1, ("A",), finish=5000),
                                      Competitor(2, ("B",), finish=6000)]))
    assert to_tell(first, None) == first  # the first time: everyone
    before = told_before(published_record(first))
    assert to_tell(first, before) == []  # nothing moved
    # #2's time corrected: it stays 2nd but its time moved; #1 is told nothing again
    fixed = standings(cat, rank(cat, [Competitor(1, ("A",), finish=5000),
                                      Competitor(2, ("B",), finish=5900)]))
    assert [s.number for s in to_tell(fixed, before)] == [2]
    # #2 now ahead: both places moved
    swapped = standings(cat, rank(cat, [Competitor(1, ("A",), finish=5000),
                                        Competitor(2, ("B",), finish=4000)]))
    assert [s.number for s in to_tell(swapped, before)] == [2, 1]


def test_who_may_read_the_ranking():
    assert ranking_open("final", True) and not ranking_open("final", False)
    assert ranking_open("always", False) and ranking_open("always", True)
    assert not ranking_open("never", True)
