"""An online league over weeks (issue 29): each entry starts each puzzle when it wants, in any
order (``/empiezo P``: a code for that puzzle), claims it (``/listo`` and a photo), and a
reviewer confirms it; the entry's time is the sum of its puzzles' own times, and at the
season's end those with fewer puzzles done rank after, by puzzles then time
(contests/online-league-2026.toml)."""

from __future__ import annotations

import io
import re
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from bot.features.selftimed.rules import StartRefused, by_pace, own_total, per_hour, puzzle_to_start
from bot.services.csvio import import_entries, read_entries
from bot.texts.names import span_text
from tests.day.test_bot_commands import event_rows, events, replies_to
from tests.fakebot import Call, Harness, Person
from tests.selftimed.test_selftimed import keyboard, photos_to

ROOT = Path(__file__).resolve().parents[2]
LEAGUE = ROOT / "contests" / "online-league-2026.toml"
BERLIN = ZoneInfo("Europe/Berlin")
T0 = datetime(2026, 10, 3, 10, 0, tzinfo=BERLIN)  # the season opens

ORGANISER = Person(1, "Olga", "en")
REVIEWER = Person(2, "Rita", "en")
ANN = Person(101, "Ann", "en")
BEN = Person(102, "Ben", "en")
CARL = Person(103, "Carl", "en")
CSV = """number,category,names,born,club
1,solo,Ann Archer,1990-03-01,Lynx
2,solo,Ben Brook,1985-07-12,
3,solo,Carl Cole,1979-05-05,Owls
"""
CODE = re.compile(r"Your code is ([A-Z0-9]{5}):")


def at(days: int, clock: str) -> datetime:
    """``days`` after the season opened, at contest time ``clock`` past 10:00 that day."""
    h, m, s = (int(x) for x in clock.split(":"))
    return T0 + timedelta(days=days, hours=h, minutes=m, seconds=s)


class League:
    def __init__(self, h: Harness) -> None:
        self.h = h

    async def send(self, who: Person, text: str, when: datetime) -> list[Call]:
        return await self.h.send(who, text, when)

    async def say(self, who: Person, text: str, when: datetime) -> list[str]:
        return replies_to(await self.send(who, text, when), who)

    async def puzzle(self, who: Person, number: int, puzzle: int | None, start: datetime,
                     done: datetime, confirm: bool = True) -> str:
        """``who`` starts ``puzzle``, claims it at ``done``, sends the photo a minute later;
        the reviewer confirms it from the photo's button (when ``confirm``). The code."""
        said = await self.say(who, "/empiezo" + (f" {puzzle}" if puzzle else ""), start)
        found = CODE.search(said[0])
        assert found is not None, said
        await self.send(who, "/listo", done)
        (review,) = photos_to(await self.h.send_photo(who, done + timedelta(minutes=1)),
                              REVIEWER)
        assert found.group(1) in review.params["caption"]
        if confirm:
            (ok,) = [d for _, d in keyboard(review) if d.startswith("ready:ok:")]
            await self.h.press(REVIEWER, ok, done + timedelta(minutes=5))
        return found.group(1)


@pytest.fixture
async def league(tmp_path: Any):
    h = await Harness(tmp_path, LEAGUE, organisers=frozenset({ORGANISER.id})).start()
    svc = h.services
    await import_entries(svc.store, read_entries(svc.contest, io.StringIO(CSV), "e.csv"))
    joins = {e.number: e.join_code for e in await svc.store.entries()}
    day = League(h)
    for person, number in ((ANN, 1), (BEN, 2), (CARL, 3)):
        await day.send(person, f"/start {joins[number]}", T0 - timedelta(days=2))
    await day.send(ORGANISER, "/start", T0 - timedelta(days=3))
    link = replies_to(await day.send(ORGANISER, "/voluntario", T0 - timedelta(days=3)),
                      ORGANISER)[0]
    await day.send(REVIEWER, f"/start {link.split('start=')[1].split()[0]}",
                   T0 - timedelta(days=3))
    opened = await day.send(ORGANISER, "/inicio", T0)
    (notice,) = replies_to(opened, ANN)
    assert notice.startswith("Solo is open! You have 4 weeks to play.")
    yield day
    await h.stop()


def test_which_puzzle_an_entry_starts() -> None:
    kw = {"playing": False, "waiting": False, "over": False}
    assert puzzle_to_start(True, 3, 3, (), 2, **kw) == 2
    assert puzzle_to_start(True, 3, 3, (), None, **kw) == StartRefused("which", (1, 2, 3))
    assert puzzle_to_start(True, 3, 3, (1, 3), None, **kw) == 2  # the one left
    assert puzzle_to_start(True, 3, 3, (2,), 2, **kw) == StartRefused("which", (1, 3))
    assert puzzle_to_start(False, 3, 3, (1,), None, **kw) == 2  # in order: the next
    assert puzzle_to_start(False, 3, 3, (1,), 3, **kw) == StartRefused("which", (2,))
    assert puzzle_to_start(True, 3, 3, (1, 2, 3), 1, **kw) == StartRefused("done")
    assert puzzle_to_start(True, 3, 3, (), 1, **{**kw, "over": True}) == StartRefused("over")
    assert puzzle_to_start(True, 3, 3, (), 1, **{**kw, "waiting": True}) == \
        StartRefused("waiting")
    assert puzzle_to_start(True, 3, 3, (), 1, **{**kw, "playing": True}) == \
        StartRefused("playing")
    assert own_total(3600, 100.0, 1900.9) == 3600 + 1800


async def test_an_entrys_time_is_the_sum_of_its_own_puzzles(league):
    # Ann: puzzle 2 on day 1 (1:10:00), puzzle 1 on day 5 (0:35:30), puzzle 3 on day 9
    # (1:20:15): 3:05:45 in all, whatever the days between
    code2 = await league.puzzle(ANN, 1, 2, at(1, "8:00:00"), at(1, "9:10:00"))
    code1 = await league.puzzle(ANN, 1, 1, at(5, "1:00:00"), at(5, "1:35:30"))
    assert code1 != code2  # each puzzle its own code
    last = await league.send(ANN, "/empiezo", at(9, "2:00:00"))  # the one left: puzzle 3
    assert replies_to(last, ANN)[0].startswith("Puzzle 3 of 3 (1000 pieces) started at ")
    await league.send(ANN, "/listo", at(9, "3:20:15"))
    (review,) = photos_to(await league.h.send_photo(ANN, at(9, "3:21:00")), REVIEWER)
    assert "finished in 1:20:15" in review.params["caption"]  # the puzzle's own time
    (ok,) = [d for _, d in keyboard(review) if d.startswith("ready:ok:")]
    pressed = await league.h.press(REVIEWER, ok, at(9, "3:30:00"))
    assert replies_to(pressed, ANN) == ["Your finish is recorded: 3:05:45. Well done!"]
    # Ben: all three, 3:30:00 in all; Carl: two puzzles only (1:50:00) at the season's end
    await league.puzzle(BEN, 2, 3, at(2, "0:00:00"), at(2, "1:00:00"))
    await league.puzzle(BEN, 2, 1, at(3, "0:00:00"), at(3, "0:40:00"))
    await league.puzzle(BEN, 2, 2, at(4, "0:00:00"), at(4, "1:50:00"))
    await league.puzzle(CARL, 3, 1, at(2, "0:00:00"), at(2, "0:50:00"))
    await league.puzzle(CARL, 3, 3, at(20, "0:00:00"), at(20, "1:00:00"))
    ranking = (await league.say(ORGANISER, "/clasificacion", at(27, "1:00:00")))[0]
    # a season over weeks: a start is written with its day
    assert "started at Monday 12 October 12:00:00" in replies_to(last, ANN)[0]
    lines = [line for line in ranking.splitlines() if re.match(r"\d+\. #", line)]
    assert lines[0].startswith("1. #1 Ann Archer: 3:05:45")
    assert lines[1].startswith("2. #2 Ben Brook: 3:30:00")
    assert lines[2].startswith("3. #3 Carl Cole: 2 of 3 puzzles, 1:50:00"), lines


async def test_one_puzzle_at_a_time_and_only_its_own_times(league):
    assert await league.say(ANN, "/listo", at(1, "0:00:00")) == [
        "Start a puzzle first with /begin (the bot gives you its code), then /done when it "
        "is done."]
    assert await league.say(ANN, "/empiezo", at(1, "0:00:00")) == [
        "Which puzzle do you start? Puzzles left: 1, 2, 3. For example: /begin 1"]
    before = events(league.h)
    await league.say(ANN, "/empiezo 2", at(1, "0:00:10"))
    assert len(events(league.h)) == len(before) + 1
    assert await league.say(ANN, "/empiezo 1", at(1, "0:10:00")) == [
        "You have a puzzle started and not claimed yet: send /done when it is done (one "
        "puzzle at a time)."]
    await league.send(ANN, "/listo", at(1, "1:00:00"))
    assert (await league.say(ANN, "/empiezo 1", at(1, "1:01:00")))[0].startswith(
        "Your time of 0:59:50 already waits for review")
    # a volunteer's typed times make no sense here: refused, nothing recorded
    before = events(league.h)
    assert await league.say(REVIEWER, "/fin 1 1:00:00", at(1, "1:02:00")) == [
        "Entry 1 starts each puzzle itself: its times are its own. Confirm its claim with the "
        "button under its photo, or /finish 1 without a time."]
    assert await league.say(REVIEWER, "/parcial 1 2", at(1, "1:02:00")) == [
        "Entry 1 starts each puzzle itself: its times are its own. Confirm its claim with the "
        "button under its photo, or /finish 1 without a time."]
    assert events(league.h) == before
    # /fin N without a time confirms the claim: puzzle 2's own time, as a split time
    confirmed = await league.say(REVIEWER, "/fin 1", at(1, "1:03:00"))
    assert "0:59:50" in confirmed[0]
    (split,) = event_rows(league.h, "split")
    assert (split["stage"], split["value"]) == (2, 3590)
    # turned down: the same puzzle goes on, its time from its own start
    await league.send(ANN, "/empiezo 1", at(2, "0:00:00"))
    await league.send(ANN, "/listo", at(2, "0:30:00"))
    await league.send(REVIEWER, "/rechazar 1 the border is not finished", at(2, "0:31:00"))
    await league.send(ANN, "/listo", at(2, "0:40:00"))
    assert await league.say(REVIEWER, "/fin 1", at(2, "0:41:00")) != []
    assert [(r["stage"], r["value"]) for r in event_rows(league.h, "split")] == [
        (2, 3590), (1, 3590 + 2400)]


async def test_no_puzzle_starts_after_the_season(league):
    assert await league.say(ANN, "/empiezo 1", at(28, "0:00:01")) == [
        "The time to play is over (4 weeks from the start): nothing changed."]


def test_the_pace_ranking_by_pieces_per_hour() -> None:
    assert per_hour(1000, 3600) == 1000 and per_hour(500, 0) == 0
    # 1,500 in 1:30:00 and 1,000 in 1:00:00 are the same pace: one place for both
    assert by_pace([(1, 1500, 5400), (2, 1000, 3600), (3, 2500, 3000), (4, 0, 0)]) == [
        (1, 3, 2500, 3000), (2, 1, 1500, 5400), (2, 2, 1000, 3600)]


async def test_an_interim_ranking_by_pace_compares_entries_at_different_puzzles(league):
    await league.puzzle(ANN, 1, 2, at(1, "0:00:00"), at(1, "1:00:00"))  # 1,000 in 1:00:00
    await league.puzzle(BEN, 2, 1, at(1, "0:00:00"), at(1, "0:20:00"))  # 500 in 0:20:00
    await league.puzzle(BEN, 2, 2, at(2, "0:00:00"), at(2, "1:40:00"))  # 1,500 in 2:00:00
    ranking = (await league.say(ANN, "/clasificacion", at(3, "0:00:00")))[0]
    assert ranking.split("\n")[-3:] == [
        "Pace so far (pieces per hour of the puzzles confirmed):",
        "1. #1 Ann Archer: 1000 per hour (1000 pieces in 1:00:00)",
        "2. #2 Ben Brook: 750 per hour (1500 pieces in 2:00:00)"]


def test_a_long_span_reads_as_people_say_it() -> None:
    """Issue 47: "Tienes 672:00:00", "You have 504:00:00 to play": from a day up, weeks, days
    or hours; under a day, as the clock shows it."""
    assert span_text("es", 672 * 3600) == "4 semanas"
    assert span_text("en", 504 * 3600) == "3 weeks"
    assert span_text("de", 10 * 86400) == "10 Tage"
    assert span_text("it", 36 * 3600) == "36 ore"
    assert span_text("fr", 86400 + 90) == "1\u00a0jour 0:01:30"  # a no-break space
    assert span_text("nl", 5400) == "1:30:00"
