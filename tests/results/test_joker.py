"""Issue 48: a marathon's joker. A category may let each entry give up puzzles (``jokers``,
``/comodin N [PUZZLE]``): the puzzle counts nothing, the entry goes on to the next, and it is
ranked by its pieces (its other puzzles whole) even when it finishes the rest; a joker kept
adds ``joker_bonus`` pieces where pieces rank it. Every place below is worked out by hand from
docs/rules.md, "A marathon's joker"."""

from __future__ import annotations

import tomllib
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from bot.domain.contest import Category
from bot.services.contest_file import ContestFileError, parse_contest
from tests.fakebot import Person
from tests.rounds.test_rounds import BOSS, DAY1, VIC, open_day, said

# -- the contest file ------------------------------------------------------------------------

FILE = """
[contest]
name = "Marathon"
date = 2027-07-02
timezone = "Europe/Madrid"
language = "en"
start = "10:00"

[[categories]]
id = "solo"
name = "Marathon"
members = 1
slots = [{}]
puzzles = [500, 500, 500]
time_limit = "4:00:00"
fee = 0
prizes = ["Gold", "Silver", "Bronze"]
"""


def category(extra: str, text: str = FILE) -> Category:
    return parse_contest(tomllib.loads(text.replace('fee = 0\n', 'fee = 0\n' + extra)),
                         "m.toml").categories[0]


def test_the_file_gives_jokers_and_their_bonus() -> None:
    c = category("jokers = 1\njoker_bonus = 250\n")
    assert (c.jokers, c.joker_bonus) == (1, 250)
    assert (category("").jokers, category("").joker_bonus) == (0, 0)


@pytest.mark.parametrize(("extra", "problem"), [
    ("jokers = 3\n", "categories[1].jokers: is 3, but an entry plays 3 puzzles: at least one "
     "is left to play"),
    ("joker_bonus = 250\n", "categories[1].joker_bonus: needs jokers (how many puzzles an "
     "entry may give up)"),
    ('jokers = 1\njoker_bonus = 250\nunfinished_order = ["puzzles", "time"]\n',
     'categories[1].joker_bonus: adds pieces, but unfinished_order leaves pieces out: add '
     '"pieces" to it, or leave the bonus out'),
    ('jokers = 1\ntiming = "self"\nown_start = true\n', 'categories[1].jokers: needs '
     'volunteers at the table: not with timing = "self"'),
    ('jokers = 1\npuzzle_order = "any"\nplay = 2\n', "categories[1].jokers: is not with play "
     "(each entry already chooses which puzzles it plays)"),
    ("jokers = -1\n", "categories[1].jokers: must be at least 0, not -1"),
])
def test_a_joker_the_day_could_not_play_is_refused_saying_why(extra: str, problem: str) -> None:
    with pytest.raises(ContestFileError) as exc:
        category(extra)
    assert str(exc.value) == f"m.toml: {problem}"


def test_a_joker_needs_puzzles_and_a_category_played_once() -> None:
    one = FILE.replace("puzzles = [500, 500, 500]", "pieces = 500")
    with pytest.raises(ContestFileError) as exc:
        category("jokers = 1\n", one)
    assert "jokers: needs puzzles (two or more)" in str(exc.value)
    rounds = FILE + '[[categories.rounds]]\nid = "final"\nname = { en = "Final" }\n'
    with pytest.raises(ContestFileError) as exc:
        category("jokers = 1\n", rounds)
    assert "jokers: is for a category played once: not with rounds" in str(exc.value)


# -- in the chat ------------------------------------------------------------------------------


def clock(text: str) -> datetime:
    h, m, s = (int(x) for x in text.split(":"))
    return DAY1 + timedelta(hours=h, minutes=m, seconds=s)


async def test_a_marathon_day_with_jokers_ranks_as_worked_out_by_hand(tmp_path: Path) -> None:
    h = await open_day(tmp_path, FILE.replace("fee = 0\n", "fee = 0\njokers = 1\n"
                                              "joker_bonus = 250\n"), entries=6)
    try:
        store = h.services.store

        async def recorded(text: str, when: datetime) -> list[str]:
            before = len(await store.events())
            answer = said(await h.send(VIC, text, when), VIC)
            assert len(await store.events()) == before + 1, (text, answer)
            return answer

        async def refused(text: str, when: datetime) -> str:
            before = len(await store.events())
            answer = said(await h.send(VIC, text, when), VIC)
            assert len(await store.events()) == before, (text, answer)
            return answer[0]

        await h.send(BOSS, "/inicio", DAY1)
        # #1 plays all three: 2:00:00
        await recorded("/parcial 1 0:40:00", clock("0:41:00"))
        await recorded("/parcial 1 1:20:00", clock("1:21:00"))
        assert "last puzzle of 3" in await refused("/comodin 1", clock("1:30:00"))
        await recorded("/fin 1 2:00:00", clock("2:00:10"))
        # #2 gives up puzzle 1 at 0:30:00, then does puzzles 2 and 3 by 1:50:00
        calls = await h.send(VIC, "/comodin 2", clock("0:30:00"))
        assert said(calls, VIC) == ["Entry 2: puzzle 1 given up at 0:30:00 with its joker "
                                    "(0 jokers left); it counts nothing. On to the next "
                                    "puzzle."]
        assert said(calls, Person(102, "P2", "en")) == [
            "Puzzle 1 given up at 0:30:00 with your joker: it counts nothing. On to the next "
            "one!"]
        assert "no joker left" in await refused("/comodin 2", clock("0:31:00"))
        # its next puzzle's split comes after the moment it gave the first one up
        assert "0:30:00" in await refused("/parcial 2 0:20:00", clock("0:32:00"))
        await recorded("/parcial 2 1:10:00", clock("1:11:00"))
        await recorded("/fin 2 1:50:00", clock("1:50:05"))
        # #3 one puzzle and 300 pieces, joker kept; #4 200 pieces, joker kept; #5 joker on
        # puzzle 1 then 400 pieces of puzzle 2; #6 nothing
        await recorded("/parcial 3 1:00:00", clock("1:00:30"))
        await recorded("/comodin 5", clock("0:50:00"))
        for text in ("/piezas 3 300", "/piezas 4 200", "/piezas 5 400"):
            await recorded(text, clock("4:01:00"))
        ranking = said(await h.send(BOSS, "/clasificacion", clock("4:05:00")), BOSS)[0]
        lines = ranking.splitlines()[1:7]
        assert lines == [
            "1. #1 Player 1: 2:00:00",
            "2. #3 Player 3: 1050 pieces (800 placed + 250 joker bonus)",
            "3. #2 Player 2: 1000 pieces (1 joker used)",
            "4. #4 Player 4: 450 pieces (200 placed + 250 joker bonus)",
            "5. #5 Player 5: 400 pieces (1 joker used)",
            "- #6 Player 6: no result yet",
        ], ranking
        history = said(await h.send(VIC, "/historial 2", clock("4:06:00")), VIC)[0]
        assert "joker: puzzle 1 given up" in history
    finally:
        await h.stop()


async def test_a_joker_in_a_contest_without_one_and_a_wrong_command(tmp_path: Path) -> None:
    h = await open_day(tmp_path, FILE, entries=2)
    try:
        await h.send(BOSS, "/inicio", DAY1)
        store = h.services.store
        before = len(await store.events())
        answer = said(await h.send(VIC, "/comodin 1", clock("0:30:00")), VIC)
        assert answer == ["Entry 1's category has no joker: every puzzle is played. Nothing "
                          "recorded."]
        answer = said(await h.send(VIC, "/comodin uno", clock("0:30:00")), VIC)
        assert "Usage: /joker N [PUZZLE]" in answer[0], answer  # in English
        assert "For example /joker 12 (entry 12" in answer[0], answer
        assert len(await store.events()) == before
    finally:
        await h.stop()


async def test_a_count_stops_a_joker_and_the_board_and_export_count_what_ranks(
        tmp_path: Path) -> None:
    from bot.services.exports import result_rows
    from tests.exports.test_scoreboard import board_data, row

    text = FILE.replace("fee = 0\n", 'fee = 0\njokers = 1\njoker_bonus = 250\n'
                        'puzzle_order = "any"\n')
    h = await open_day(tmp_path, text, entries=3)
    try:
        store = h.services.store
        await h.send(BOSS, "/inicio", DAY1)

        async def answer(text: str, when: datetime, recorded: bool) -> str:
            before = len(await store.events())
            said_now = said(await h.send(VIC, text, when), VIC)
            assert (len(await store.events()) == before + 1) == recorded, (text, said_now)
            return said_now[0]

        # in any order the puzzle given up is named; a wrong one is asked again, in words
        # about giving up
        assert await answer("/comodin 1", clock("0:10:00"), False) == (
            "Which puzzle does entry 1 give up? Puzzles left: 1, 2, 3. For example: /joker 1 1")
        await answer("/comodin 1 3", clock("0:10:00"), True)
        await answer("/parcial 2 2 0:20:00", clock("0:20:30"), True)
        await answer("/piezas 3 100", clock("0:25:00"), True)
        assert "counted already" in await answer("/comodin 3 1", clock("0:26:00"), False)
        # the board: #1 gave puzzle 3 up (no puzzle done), #2 finished one
        board = await board_data(h, clock("0:30:00"))
        assert row(board, "solo", 1)["progress"]["done"] == 0
        assert row(board, "solo", 2)["progress"]["done"] == 1
        # time's up: the counts, the bonus of a joker kept in the ranking and the export
        await answer("/piezas 1 700", clock("4:01:00"), True)  # of puzzles 1 and 2: no bonus
        await answer("/piezas 2 600", clock("4:01:00"), True)  # 500 + 600 + 250 = 1350
        rows = await result_rows(h.services.contest, h.services.day)
        pieces = {r[rows[0].index("number")]: r[rows[0].index("pieces")] for r in rows[1:]}
        assert pieces == {1: 700, 2: 1350, 3: 350}
    finally:
        await h.stop()
