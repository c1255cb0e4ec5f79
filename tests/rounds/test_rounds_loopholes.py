"""Loopholes of rounds found by a hostile probe, each closed: a confirmed round's results can't
change by any command (nor its clock be taken back), a round not reached can't be started nor
confirmed unplayed, a finalist without a result takes no place, the first round's heats don't
move once its clock runs, /inicio starts nothing early and says why."""

from __future__ import annotations

import io
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from bot.features.registration.day import Registrations
from bot.services import rounds
from bot.services.csvio import import_entries, read_entries
from tests.fakebot import Harness
from tests.rounds.test_rounds import BOSS, CONTEST, DAY1, DAY2, TZ, VIC, open_day, said

FINAL = datetime(2027, 7, 3, 16, 0, tzinfo=TZ)
AFTER = DAY1 + timedelta(hours=3, minutes=5)
PENALTY = CONTEST.replace("[[categories]]", '[[penalties]]\nid = "lost"\nname = "lost piece"\n'
                          "seconds = 600\n\n[[categories]]", 1)


async def heats(h: Harness) -> None:
    """Heats: #1-4 finish at 0:41-0:44, #5-8 at 0:35-0:38; qualifiers 5 6 7 1 2."""
    await h.send(BOSS, "/inicio", DAY1)
    for n in (1, 2, 3, 4):
        await h.send(VIC, f"/fin {n}", DAY1 + timedelta(minutes=40 + n))
    await h.send(BOSS, "/inicio", DAY1 + timedelta(hours=2))
    for n in (5, 6, 7, 8):
        await h.send(VIC, f"/fin {n}", DAY1 + timedelta(hours=2, minutes=30 + n))
    await h.send(BOSS, "/confirmar_ronda", DAY1 + timedelta(hours=3, minutes=1))


async def heats_ranking(h: Harness) -> list[Any]:
    cat = h.services.contest.categories[0]
    return [(r.position, r.number, r.time)
            for r in (await rounds.round_ranking(h.services.day, cat, 0))[1]]


async def test_nothing_changes_a_confirmed_rounds_results(tmp_path: Path) -> None:
    h = await open_day(tmp_path, PENALTY)
    try:
        await heats(h)
        before = await heats_ranking(h)
        closed = "Heats 2 is confirmed: its results can't change any more."
        for text in ("/fin 8 0:20:00", "/piezas 8 100", "/penalizacion 8 lost 2",
                     "/parcial 8 0:10:00", "/deshacer"):
            assert said(await h.send(VIC, text, AFTER), VIC) == [closed], text
        # the organiser's last act was the heat's clock: not taken back either
        assert said(await h.send(BOSS, "/deshacer", AFTER), BOSS) == [
            "Heats 2 is confirmed: its results can't change any more."]
        assert await heats_ranking(h) == before
        # a qualifier's penalty before its semi-final started goes nowhere
        assert said(await h.send(VIC, "/penalizacion 5 lost", AFTER), VIC) == [
            "The clock of entry 5's category has not started yet."]
    finally:
        await h.stop()


async def play_to_the_final(h: Harness) -> None:
    await heats(h)
    await h.send(BOSS, "/inicio", DAY2)
    for n, t in ((5, "0:30:00"), (6, "0:31:00"), (7, "0:32:00"), (1, "0:33:00"),
                 (2, "0:34:00")):
        await h.send(VIC, f"/fin {n} {t}", DAY2 + timedelta(minutes=40))
    await h.send(BOSS, "/confirmar_ronda", DAY2 + timedelta(minutes=46))
    await h.send(BOSS, "/inicio", FINAL)


async def test_a_confirmed_final_keeps_its_medals(tmp_path: Path) -> None:
    h = await open_day(tmp_path)
    try:
        await play_to_the_final(h)
        at = FINAL + timedelta(hours=1, minutes=30)
        for n in (5, 6):  # the final's first puzzle, then its finish
            await h.send(VIC, f"/parcial {n} 0:4{n}:00", at)
        await h.send(VIC, "/fin 5 1:20:00", at)
        await h.send(VIC, "/fin 6 1:25:00", at)
        await h.send(VIC, "/piezas 7 900", at)
        end = FINAL + timedelta(hours=2, minutes=1)
        await h.send(BOSS, "/confirmar_ronda", end)
        cat = h.services.contest.categories[0]
        medals = [(r.number, r.prize) for r in await h.services.day.classification(cat)][:3]
        assert medals == [(5, "Gold"), (6, "Silver"), (7, "Bronze")]
        assert said(await h.send(VIC, "/fin 6 1:00:00", end), VIC) == [
            "Final is confirmed: its results can't change any more."]
        assert [(r.number, r.prize)
                for r in await h.services.day.classification(cat)][:3] == medals
    finally:
        await h.stop()


async def test_a_finalist_without_a_result_takes_no_place(tmp_path: Path) -> None:
    h = await open_day(tmp_path)
    try:
        await play_to_the_final(h)  # finalists 5, 6, 7 (best 3 of the semi-final)
        at = FINAL + timedelta(hours=1, minutes=30)
        for n in (5, 6):  # the final's first puzzle, then its finish
            await h.send(VIC, f"/parcial {n} 0:4{n}:00", at)
        await h.send(VIC, "/fin 5 1:20:00", at)
        await h.send(VIC, "/fin 6 1:25:00", at)  # #7: nothing
        over = FINAL + timedelta(hours=2, minutes=1)
        asked = said(await h.send(BOSS, "/confirmar_ronda", over), BOSS)
        assert asked == ["Individual, Final: 1 entry has no result and would be left out of "
                         "the round's ranking: #7 Player 7. Record its pieces (/pieces N P) or "
                         "that it did not start, or confirm the round anyway."]
        text = said(await h.press(BOSS, "cr:2:solo", over + timedelta(seconds=20)), BOSS)[0]
        lines = text.splitlines()
        # the best semi-finalist out is third, with the bronze; #7 is listed last, unplaced
        assert lines[1:4] == ["1. #5 Player 5: 1:20:00 - Gold",
                              "2. #6 Player 6: 1:25:00 - Silver",
                              "3. #1 Player 1: 0:33:00 (Semi-final) - Bronze"], text
        assert lines[-1] == "- #7 Player 7: no result yet", text
    finally:
        await h.stop()


async def test_a_round_not_reached_cannot_be_started_nor_an_unplayed_one_confirmed(
        tmp_path: Path) -> None:
    h = await open_day(tmp_path)
    try:
        assert said(await h.send(BOSS, "/inicio solo-semi", DAY1), BOSS) == [
            "Semi-final has nobody in it yet: its entrants are known once the round before "
            "is confirmed (/confirm_round)."]
        await heats(h)
        for n in (5, 6, 7, 1, 2):  # pieces for the semi-finalists, the semi never started
            assert said(await h.send(VIC, f"/piezas {n} 10{n}", AFTER), VIC) == [
                f"The clock of entry {n}'s category has not started yet."]
        assert said(await h.send(BOSS, "/confirmar_ronda", AFTER), BOSS) == [
            "Semi-final has not been played: start its clock with /go solo-semi first."]
        await h.send(BOSS, "/inicio", DAY2)
        assert said(await h.send(VIC, "/fin 5", DAY2 + timedelta(minutes=30)), VIC) == [
            "Entry 5 finished at 0:30:00."]
    finally:
        await h.stop()


async def test_the_first_rounds_heats_stay_once_its_clock_runs(tmp_path: Path) -> None:
    h = await open_day(tmp_path)
    try:
        cat = h.services.contest.categories[0]
        early = DAY1 - timedelta(minutes=25)
        assert said(await h.send(BOSS, "/inicio solo", early), BOSS) == [
            "Clock started for: Heats 1 (Individual)."]
        before = await h.services.day.lineups(cat)
        assert before == [[[1, 2, 3, 4], [5, 6, 7, 8]]]
        await Registrations(h.services.contest, h.services.store).withdraw(
            102, "participant", 2, early + timedelta(minutes=20), None)
        assert await h.services.day.lineups(cat) == before
    finally:
        await h.stop()


async def test_the_first_round_counts_the_entries_confirmed_until_its_clock_starts(
        tmp_path: Path) -> None:
    h = await open_day(tmp_path)
    try:
        cat = h.services.contest.categories[0]
        await Registrations(h.services.contest, h.services.store).withdraw(
            102, "participant", 2, DAY1 - timedelta(hours=1), None)
        assert await h.services.day.lineups(cat) == [[[1, 3, 4, 5], [6, 7, 8]]]
    finally:
        await h.stop()


TWO = CONTEST + """
[[categories]]
id = "duo"
name = "Pairs"
members = 2
slots = [{}, {}]
pieces = 500
time_limit = "1:00:00"
fee = 0

[[categories.rounds]]
id = "heats"
name = "Heats"
start = "15:00"
"""


async def test_inicio_starts_nothing_early_and_says_what_waits(tmp_path: Path) -> None:
    h = await open_day(tmp_path, TWO)
    try:
        svc = h.services
        await import_entries(svc.store, read_entries(svc.contest, io.StringIO(
            "number,category,names,born\n20,duo,Ana; Bea,1990; 1991\n"), "x.csv"))
        assert said(await h.send(BOSS, "/inicio", DAY1), BOSS) == [
            "Clock started for: Heats 1 (Individual).\nNothing to start now: Heats starts at "
            "15:00. To start it now anyway: /go duo-heats"]
    finally:
        await h.stop()


ZERO = CONTEST.replace("advance = { per_heat = 2, best = 5 }",
                       'advance = { better_than = "0:00:10" }')


async def test_a_rule_letting_nobody_through_is_not_confirmed(tmp_path: Path) -> None:
    h = await open_day(tmp_path, ZERO)
    try:
        await heats(h)
        assert said(await h.send(BOSS, "/confirmar_ronda", AFTER), BOSS) == [
            "Nobody goes through from Heats by the contest file's rule (advance): check the "
            "results, or the rule, before confirming."]
        assert said(await h.send(BOSS, "/inicio", DAY2), BOSS) == [
            "That time is already up: nothing to start. Once its results are checked: "
            "/confirm_round"]
    finally:
        await h.stop()


async def test_nothing_to_start_says_so(tmp_path: Path) -> None:
    h = await open_day(tmp_path, entries=0)
    try:
        assert said(await h.send(BOSS, "/inicio", DAY1), BOSS) == [
            "Nothing to start: no category or heat is waiting for its clock."]
    finally:
        await h.stop()
