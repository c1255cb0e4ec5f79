"""Issue 48: a marathon's projector showed every team "En jeu" hours in, after dozens of split
times. While a category (or a heat) of several puzzles is played, each entry still at it
shows its puzzles done of those it plays ("2/3 puzzles", in the contest's language), beside
a pieces count or a pause, and the entries still playing come in order of progress: more
puzzles done first, then the earlier last split; never above a finisher. The same with
``play = N`` (N of the listed puzzles: N in all), in a heat of a round, and in a league where
each entry starts each puzzle itself (``own_start``)."""

from __future__ import annotations

import io
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.services.csvio import import_entries, read_entries
from tests.day.test_bot_commands import replies_to
from tests.exports.test_scoreboard import (
    Probed,
    board_data,
    category,
    chromium,
    needs_chromium,
    probe,
    row,
)
from tests.fakebot import FrozenClock, Harness, Person
from tests.rounds import test_rounds as rounds
from tests.rounds.test_rounds import BOSS, DAY1, VIC, open_day
from tests.selftimed.test_own_start import LEAGUE, ORGANISER, REVIEWER, League
from tests.selftimed.test_own_start import at as league_day

# one category, three puzzles of 500 played one after the other in four hours
MARATHON = """
[contest]
name = "Marathon"
date = 2027-07-02
timezone = "Europe/Madrid"
language = "LANG"
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


def clock(text: str) -> datetime:
    """The moment the marathon's clock (started at 10:00) shows ``text``."""
    h, m, s = (int(x) for x in text.split(":"))
    return DAY1 + timedelta(hours=h, minutes=m, seconds=s)


async def record(h: Harness, *commands: str, when: datetime) -> None:
    """Volunteers' commands, each of which must be recorded."""
    for text in commands:
        before = len(await h.services.store.events())
        await h.send(VIC, text, when)
        assert len(await h.services.store.events()) > before, f"{text} was not recorded"


def lines(section: dict[str, Any]) -> list[tuple[Any, ...]]:
    """Each row as the projector orders it: (position, number, status, its text)."""
    return [(r["position"], r["number"], r["status"], r["status_text"])
            for r in section["rows"]]


@pytest.mark.parametrize(("language", "puzzles", "pieces"),
                         [("fr", "puzzles", "pièces"), ("de", "Puzzles", "Teile")])
async def test_a_marathon_shows_each_entrys_puzzles_done_in_order_of_progress(
        tmp_path: Path, language: str, puzzles: str, pieces: str) -> None:
    h = await open_day(tmp_path, MARATHON.replace("LANG", language), entries=5)
    try:
        await h.send(BOSS, "/inicio", DAY1)
        # #1 nothing yet; #2 its first puzzle at 1:10:00; #4 its first at 0:55:00 (earlier);
        # #3 two puzzles; #5 all three: a finisher
        await record(h, "/parcial 2 1:10:00", "/parcial 4 0:55:00", "/parcial 3 0:50:00",
                     "/parcial 3 1:45:00", "/parcial 5 0:45:00", "/parcial 5 1:30:00",
                     "/fin 5 2:20:00", when=clock("2:30:00"))
        data = await board_data(h, clock("3:00:00"))
        solo = category(data, "solo")
        assert lines(solo) == [
            (1, 5, "finished", ""),
            (None, 3, "playing", f"2/3 {puzzles}"),
            (None, 4, "playing", f"1/3 {puzzles}"),  # its puzzle done before #2's
            (None, 2, "playing", f"1/3 {puzzles}"),
            (None, 1, "playing", f"0/3 {puzzles}"),
        ]
        assert row(data, "solo", 3)["progress"] == {
            "done": 2, "of": 3, "last": 105 * 60, "text": f"2/3 {puzzles}"}
        assert row(data, "solo", 1)["progress"]["last"] is None
        assert "progress" not in row(data, "solo", 5)  # finished: nothing left to count
        assert "En jeu" not in str(solo["rows"]) and "Im Spiel" not in str(solo["rows"])

        # #2 finishes its second puzzle: it goes up past #4, still under the finisher
        await record(h, "/parcial 2 3:05:00", when=clock("3:05:30"))
        solo = category(await board_data(h, clock("3:06:00")), "solo")
        assert [r["number"] for r in solo["rows"]] == [5, 3, 2, 4, 1]

        # time is up: #2's pieces counted (its two puzzles whole + 300), the others still
        # waiting for theirs, each with its puzzles done beside what the row says
        await record(h, "/piezas 2 300", when=clock("4:02:00"))
        data = await board_data(h, clock("4:03:00"))
        solo = category(data, "solo")
        assert [(r["position"], r["number"], r["status"]) for r in solo["rows"]] == [
            (1, 5, "finished"), (2, 2, "pieces"), (None, 3, "pending"), (None, 4, "pending"),
            (None, 1, "pending")]
        two = row(data, "solo", 2)
        assert (two["status_text"], two["progress"]["text"]) == (
            f"1300 {pieces}", f"2/3 {puzzles}")
        assert row(data, "solo", 3)["progress"]["text"] == f"2/3 {puzzles}"
    finally:
        await h.stop()


async def test_in_a_pause_each_row_still_says_its_puzzles_done(tmp_path: Path) -> None:
    h = await open_day(tmp_path, MARATHON.replace("LANG", "en"), entries=2)
    try:
        await h.send(BOSS, "/inicio", DAY1)
        await record(h, "/parcial 2 0:40:00", when=clock("0:41:00"))
        await h.send(BOSS, "/pausa", clock("1:00:00"))
        data = await board_data(h, clock("1:10:00"))
        assert lines(category(data, "solo")) == [
            (None, 2, "paused", "Paused"), (None, 1, "paused", "Paused")]
        assert row(data, "solo", 2)["progress"]["text"] == "1/3 puzzles"
    finally:
        await h.stop()


# puzzles in the order each entry chooses, two of the three listed each: two in all
PLAY_TWO = MARATHON.replace("puzzles = [500, 500, 500]", '''puzzles = [500, 300, 200]
puzzle_order = "any"
play = 2''').replace("LANG", "en")


async def test_playing_two_of_three_puzzles_counts_out_of_two(tmp_path: Path) -> None:
    h = await open_day(tmp_path, PLAY_TWO, entries=3)
    try:
        await h.send(BOSS, "/inicio", DAY1)
        await record(h, "/parcial 1 3 0:30:00", "/parcial 3 1 0:40:00", "/fin 3 1:10:00",
                     when=clock("1:15:00"))
        data = await board_data(h, clock("1:20:00"))
        assert lines(category(data, "solo")) == [
            (1, 3, "finished", ""), (None, 1, "playing", "1/2 puzzles"),
            (None, 2, "playing", "0/2 puzzles")]
        assert row(data, "solo", 1)["progress"]["of"] == 2
    finally:
        await h.stop()


# the heats play three puzzles of 300 (the rest of the rounds as tests/rounds has them)
HEATS_OF_PUZZLES = rounds.CONTEST.replace(
    "heats = 2\n", "heats = 2\npuzzles = [300, 300, 300]\n", 1)


async def test_a_heat_of_several_puzzles_shows_the_same(tmp_path: Path) -> None:
    h = await open_day(tmp_path, HEATS_OF_PUZZLES, entries=8)
    try:
        await h.send(BOSS, "/inicio", DAY1)  # heat 1: entries 1 to 4
        await record(h, "/parcial 1 0:10:00", "/parcial 1 0:20:00", "/fin 1 0:30:00",
                     "/parcial 4 0:12:00", "/parcial 2 0:15:00", "/parcial 2 0:31:00",
                     when=clock("0:35:00"))
        data = await board_data(h, clock("0:40:00"))
        heat = category(data, "solo-heats1")
        assert lines(heat) == [
            (1, 1, "finished", ""), (None, 2, "playing", "2/3 puzzles"),
            (None, 4, "playing", "1/3 puzzles"), (None, 3, "playing", "0/3 puzzles")]
        # the heat not started yet: its rows wait, by table
        assert [r["status"] for r in category(data, "solo-heats2")["rows"]] == ["waiting"] * 4
    finally:
        await h.stop()


# -- a league where each entry starts each puzzle itself ---------------------------------------

DORA = Person(104, "Dora", "en")
LEAGUE_CSV = """number,category,names,born,club
1,solo,Ann Archer,1990-03-01,Lynx
2,solo,Ben Brook,1985-07-12,
3,solo,Carl Cole,1979-05-05,Owls
4,solo,Dora Dale,1992-01-01,
"""


async def test_own_start_entries_show_their_puzzles_done(tmp_path: Path) -> None:
    h = await Harness(tmp_path, LEAGUE, organisers=frozenset({ORGANISER.id})).start()
    try:
        svc = h.services
        await import_entries(svc.store, read_entries(svc.contest, io.StringIO(LEAGUE_CSV),
                                                     "e.csv"))
        joins = {e.number: e.join_code for e in await svc.store.entries()}
        people = {1: Person(101, "Ann", "en"), 2: Person(102, "Ben", "en"),
                  3: Person(103, "Carl", "en"), 4: DORA}
        league = League(h)
        before = league_day(0, "0:00:00") - timedelta(days=2)
        for number, person in people.items():
            await league.send(person, f"/start {joins[number]}", before)
        await league.send(ORGANISER, "/start", before)
        link = replies_to(await league.send(ORGANISER, "/voluntario", before), ORGANISER)[0]
        await league.send(REVIEWER, f"/start {link.split('start=')[1].split()[0]}", before)
        await league.send(ORGANISER, "/inicio", league_day(0, "0:00:00"))
        # Ann: all three (a finisher), slower than the others' puzzles; Dora two; Carl one;
        # Ben none yet
        for k, puzzle in enumerate((2, 1, 3)):
            await league.puzzle(people[1], 1, puzzle, league_day(1 + k, "0:00:00"),
                                league_day(1 + k, "2:00:00"))
        for k, puzzle in enumerate((3, 1)):
            await league.puzzle(people[4], 4, puzzle, league_day(1 + k, "3:00:00"),
                                league_day(1 + k, "3:50:00"))
        await league.puzzle(people[3], 3, 1, league_day(2, "0:00:00"),
                            league_day(2, "0:40:00"))
        data = await board_data(h, league_day(6, "0:00:00"))
        solo = category(data, "solo")
        # a German league: the projector reads German
        assert [(r["number"], r["status"], r["status_text"]) for r in solo["rows"]] == [
            (1, "finished", ""), (4, "playing", "2/3 Puzzles"),
            (3, "playing", "1/3 Puzzles"), (2, "playing", "0/3 Puzzles")]
        # the league ranks who has not finished by puzzles done, then time: Dora and Carl
        # are placed as /clasificacion places them, Ben (nothing done) not yet
        assert [r["position"] for r in solo["rows"]] == [1, 2, 3, None]
        # a split of its own start: the sum of its puzzles' own times
        assert row(data, "solo", 4)["progress"]["last"] == 2 * 50 * 60
    finally:
        await h.stop()


# -- in a browser: the puzzles done are on screen, whole -----------------------------------------

# what each row of the category on screen shows in its result and detail columns, and whether
# either is cut
PROGRESS_PROBE = """<script>
setTimeout(() => {
  const cut = (e) => e.scrollWidth > e.clientWidth + 1;
  const rows = [...document.querySelectorAll(".cat.on ol .row:not(.off)")].map((row) => {
    const result = row.querySelector(".result");
    const detail = row.querySelector(".detail");
    return { number: Number(row.dataset.number), result: result.textContent,
      // the pips of the puzzles done as "done/of pips (what they say)"
      detail: [...detail.children].map((c) => c.classList.contains("pips")
        ? c.querySelectorAll(".pip.done").length + "/" + c.children.length + " pips ("
          + c.title + ")" : c.textContent),
      cut: cut(result) || cut(detail) };
  });
  const out = document.createElement("pre");
  out.id = "probe";
  out.hidden = true;
  out.textContent = JSON.stringify({ rows });
  document.body.append(out);
}, 2500);
</script>"""


class ProgressProbed(Probed):
    probe = PROGRESS_PROBE


async def seen_rows(h: Harness, when: datetime, tmp_path: Path, size: str
                    ) -> list[dict[str, Any]]:
    board = ProgressProbed(port=0, clock=FrozenClock(when))
    await board.start(h.services)
    try:
        dom = await chromium(board.url, tmp_path, "--dump-dom", size=size)
    finally:
        await board.stop()
    rows: list[dict[str, Any]] = probe(dom)["rows"]
    return rows


@needs_chromium
@pytest.mark.parametrize("size", ["1920,1080", "390,844"])
async def test_chromium_a_marathon_says_the_puzzles_done_on_every_row(tmp_path, size):
    h = await open_day(tmp_path, MARATHON.replace("LANG", "fr"), entries=4)
    try:
        await h.send(BOSS, "/inicio", DAY1)
        await record(h, "/parcial 2 1:10:00", "/parcial 3 0:50:00", "/parcial 3 1:45:00",
                     when=clock("2:30:00"))
        # the board, four hours in: no more "En jeu", each its puzzles done, said and
        # as a pip a puzzle
        rows = await seen_rows(h, clock("3:00:00"), tmp_path, size)
        assert [(r["number"], r["result"], r["detail"]) for r in rows] == [
            (3, "2/3 puzzles", ["table 3", "2/3 pips (2/3 puzzles)"]),
            (2, "1/3 puzzles", ["table 2", "1/3 pips (1/3 puzzles)"]),
            (1, "0/3 puzzles", ["table 1", "0/3 pips (0/3 puzzles)"]),
            (4, "0/3 puzzles", ["table 4", "0/3 pips (0/3 puzzles)"])]
        assert not [r for r in rows if r["cut"]]
        # time is up: a pieces count, and rows without a result yet, each with its puzzles
        await record(h, "/piezas 2 300", when=clock("4:02:00"))
        rows = await seen_rows(h, clock("4:03:00"), tmp_path, size)
        assert [(r["number"], r["result"], r["detail"]) for r in rows] == [
            (2, "800 pièces", ["table 2", "1/3 pips (1/3 puzzles)"]),
            (3, "Sans résultat", ["table 3", "2/3 pips (2/3 puzzles)"]),
            (1, "Sans résultat", ["table 1", "0/3 pips (0/3 puzzles)"]),
            (4, "Sans résultat", ["table 4", "0/3 pips (0/3 puzzles)"])]
        assert not [r for r in rows if r["cut"]]
    finally:
        await h.stop()


@needs_chromium
async def test_chromium_past_six_puzzles_a_phone_row_says_them_in_figures(tmp_path):
    eight = MARATHON.replace("[500, 500, 500]", "[100, 100, 100, 100, 100, 100, 100, 100]")
    h = await open_day(tmp_path, eight.replace("LANG", "fr"), entries=2)
    try:
        await h.send(BOSS, "/inicio", DAY1)
        await record(h, "/parcial 2 0:10:00", "/parcial 2 0:20:00", when=clock("0:30:00"))
        await h.send(BOSS, "/pausa", clock("0:40:00"))
        rows = await seen_rows(h, clock("0:50:00"), tmp_path, "390,844")
        assert [(r["number"], r["result"], r["detail"]) for r in rows] == [
            (2, "En pause", ["table 2", "2/8"]), (1, "En pause", ["table 1", "0/8"])]
        assert not [r for r in rows if r["cut"]]
    finally:
        await h.stop()
