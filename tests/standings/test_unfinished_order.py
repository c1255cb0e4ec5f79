"""Issue 29, item 3: the order of the entries that did not finish is data
(``unfinished_order``): pieces (equal pieces share a place, as before), or pieces then the time
the last finished puzzle was done, or puzzles finished then that time then pieces. Every
expected place is worked out by hand from docs/rules.md, "Rankings"."""

from __future__ import annotations

import tomllib
from datetime import timedelta
from pathlib import Path

import pytest

from bot.domain.contest import Category, Slot
from bot.domain.ranking import Competitor, rank
from bot.services.contest_file import ContestFileError, parse_contest
from tests.rounds.test_rounds import BOSS, DAY1, VIC, open_day, said

H = 3600


def league(order: tuple[str, ...] = ("pieces",)) -> Category:
    """Five puzzles of 500 in sequence, 3 hours: the issue's online league."""
    return Category("league", "League", 1, 2500, 3 * H, 0, (Slot(),),
                    puzzles=(500,) * 5, unfinished_order=order)


def places(category: Category, competitors: list[Competitor]) -> list[tuple[int | None, int]]:
    return [(r.position, r.number) for r in rank(category, competitors)]


# three puzzles done (1,500 pieces) at 2:05:00 and at 2:50:00; 1,200 pieces: two puzzles
# done at 1:10:00 and 200 of the third; 1,500 pieces typed with two puzzles done at 1:00:00
FIELD = [
    Competitor(1, ("Ana",), pieces=1500, splits=(2400, 5100, 7500)),  # 0:40, 1:25, 2:05
    Competitor(2, ("Ben",), pieces=1500, splits=(3000, 6000, 10200)),  # 0:50, 1:40, 2:50
    Competitor(3, ("Cas",), pieces=1200, splits=(1800, 4200)),  # 0:30, 1:10
    Competitor(4, ("Dan",), pieces=1500, splits=(1800, 3600)),  # 0:30, 1:00 + 500 of the 3rd
    Competitor(5, ("Eva",), finish=10000, splits=(1, 2, 3, 4)),  # finished, 2:46:40
]


def test_pieces_alone_equal_pieces_share_a_place_as_before() -> None:
    assert places(league(), FIELD) == [(1, 5), (2, 1), (2, 2), (2, 4), (5, 3)]


def test_pieces_then_time_the_earlier_last_puzzle_goes_first() -> None:
    # 1,500 pieces each: Dan's last finished puzzle 1:00:00, Ana's 2:05:00, Ben's 2:50:00
    assert places(league(("pieces", "time")), FIELD) == [
        (1, 5), (2, 4), (3, 1), (4, 2), (5, 3)]


def test_puzzles_then_time_then_pieces() -> None:
    # three puzzles: Ana 2:05:00, Ben 2:50:00; two: Dan 1:00:00, then Cas 1:10:00
    assert places(league(("puzzles", "time", "pieces")), FIELD) == [
        (1, 5), (2, 1), (3, 2), (4, 4), (5, 3)]


def test_equal_on_every_key_still_share_and_no_puzzle_done_goes_after_a_time() -> None:
    field = [
        Competitor(1, ("A",), pieces=700, splits=(3000,)),
        Competitor(2, ("B",), pieces=700, splits=(3000,)),
        Competitor(3, ("C",), pieces=700),  # 700 of the first puzzle: no time yet
        Competitor(4, ("D",), pieces=900, splits=(4000,)),
    ]
    assert places(league(("pieces", "time")), field) == [(1, 4), (2, 1), (2, 2), (4, 3)]


def test_without_pieces_in_the_order_a_finished_puzzle_is_enough_to_be_placed() -> None:
    field = [Competitor(1, ("A",), splits=(3000, 6000)), Competitor(2, ("B",), splits=(2000,)),
             Competitor(3, ("C",))]
    assert places(league(("puzzles", "time")), field) == [(1, 1), (2, 2), (None, 3)]
    # with pieces in the order, a count is still needed, as before
    assert places(league(("pieces", "time")), field) == [(None, 1), (None, 2), (None, 3)]


# -- the contest file ------------------------------------------------------------------------

FILE = """
[contest]
name = "League"
date = 2027-07-02
timezone = "Europe/Madrid"
language = "en"
start = "10:00"
{contest}

[[categories]]
id = "solo"
name = "Individual"
members = 1
slots = [{{}}]
puzzles = [500, 500, 500]
time_limit = "3:00:00"
fee = 0
{solo}

[[categories]]
id = "kids"
name = "Kids"
members = 1
slots = [{{}}]
pieces = 300
time_limit = "1:00:00"
fee = 0
{kids}
"""


def parsed(contest: str = "", solo: str = "", kids: str = "") -> tuple[Category, Category]:
    c = parse_contest(tomllib.loads(FILE.format(contest=contest, solo=solo, kids=kids)),
                      "league.toml")
    return c.categories[0], c.categories[1]


def test_the_contest_sets_the_order_and_a_category_may_set_its_own() -> None:
    assert [c.unfinished_order for c in parsed()] == [("pieces",), ("pieces",)]
    solo, kids = parsed(contest='unfinished_order = ["pieces", "time"]')
    assert solo.unfinished_order == kids.unfinished_order == ("pieces", "time")
    solo, kids = parsed(solo='unfinished_order = ["puzzles", "time", "pieces"]')
    assert solo.unfinished_order == ("puzzles", "time", "pieces")
    assert kids.unfinished_order == ("pieces",)


@pytest.mark.parametrize("where, text, problem", [
    ("solo", 'unfinished_order = ["pieces", "speed"]',
     "categories[1].unfinished_order[2]: must be one of pieces, puzzles, time (pieces placed, "
     "puzzles finished, the time the last of them was finished), not 'speed'"),
    ("solo", 'unfinished_order = ["time", "time"]',
     "categories[1].unfinished_order[2]: says 'time' twice"),
    ("solo", "unfinished_order = []",
     "categories[1].unfinished_order: needs one or more of pieces, puzzles, time"),
    ("kids", 'unfinished_order = ["pieces", "time"]',
     "categories[2].unfinished_order: orders by 'time', which counts the puzzles finished of "
     "several played one after the other (puzzles = [...]), and this category plays one "
     "puzzle at a time"),
])
def test_a_wrong_order_is_refused_in_the_organisers_words(where: str, text: str,
                                                          problem: str) -> None:
    with pytest.raises(ContestFileError) as exc:
        parsed(**{where: text})
    assert str(exc.value) == f"league.toml: {problem}"


def test_an_order_by_time_where_no_category_plays_puzzles_in_sequence_is_refused() -> None:
    text = FILE.format(contest='unfinished_order = "time"', solo="", kids="").replace(
        "puzzles = [500, 500, 500]", "pieces = 1500")
    with pytest.raises(ContestFileError) as exc:
        parse_contest(tomllib.loads(text), "league.toml")
    assert str(exc.value) == (
        "league.toml: contest.unfinished_order: orders by 'time', which counts the puzzles "
        "finished of several played one after the other (puzzles = [...]), and every "
        "category plays one puzzle at a time")


# -- in the chat ------------------------------------------------------------------------------

ROUNDS = """
[[categories.rounds]]
id = "final"
name = { en = "Final" }
start = "10:00"
puzzles = [500, 500, 500]
time_limit = "1:00:00"
"""


async def test_the_final_ranks_its_non_finishers_by_pieces_then_time(tmp_path: Path) -> None:
    text = FILE.format(contest='unfinished_order = ["pieces", "time"]', solo="",
                       kids="").replace("time_limit = \"3:00:00\"\nfee = 0\n",
                                        "time_limit = \"3:00:00\"\nfee = 0\n" + ROUNDS)
    h = await open_day(tmp_path, text, entries=3)
    try:
        await h.send(BOSS, "/inicio solo", DAY1)
        at = DAY1 + timedelta(hours=1, minutes=1)
        # each two puzzles done and 100 pieces of the third (1,100 pieces), the second
        # puzzle done at 0:50:00 (1), 0:40:00 (2) and 0:30:00 (3)
        for n, first, second in ((1, "0:20:00", "0:50:00"), (2, "0:15:00", "0:40:00"),
                                 (3, "0:10:00", "0:30:00")):
            await h.send(VIC, f"/parcial {n} {first}", at)
            await h.send(VIC, f"/parcial {n} {second}", at)
            await h.send(VIC, f"/piezas {n} 100", at)
        ranking = said(await h.send(BOSS, "/clasificacion solo", at), BOSS)[0]
        lines = [line.split(":")[0] for line in ranking.splitlines()[1:4]]
        assert lines == ["1. #3 Player 3", "2. #2 Player 2", "3. #1 Player 1"], ranking
    finally:
        await h.stop()


def test_a_one_puzzle_category_or_round_goes_by_pieces_whatever_the_order() -> None:
    """The contest's order says puzzles then time; a category (or a final) played with one
    puzzle has no finished puzzle to count: pieces decide, as they would by default."""
    one = Category("solo", "Solo", 1, 500, 3600, 0, (Slot(),),
                   unfinished_order=("puzzles", "time"))
    field = [Competitor(1, ("A",), pieces=100), Competitor(2, ("B",), pieces=450),
             Competitor(3, ("C",), pieces=300)]
    assert places(one, field) == [(1, 2), (2, 3), (3, 1)]
