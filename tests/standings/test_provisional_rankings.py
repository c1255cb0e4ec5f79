"""Issue 47, item 7, in the chat: a ranking not final yet never looks final. /clasificacion
titles it provisional and gives no prize (no trophy beside a provisional leader, no "champion"
on the first evening of a series); once /publicar made it final (rounds: once the last round
is confirmed), the prizes. In Spanish and German."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from tests.conftest import CASTRILLO
from tests.exports.test_projector_today import EVENING1, EVENINGS, in_language
from tests.exports.test_scoreboard import CSV, ORGANISER, VOLUNTEER, at, ok, open_day
from tests.fakebot import Person, texts
from tests.rounds.test_rounds import BOSS, VIC
from tests.rounds.test_rounds import open_day as open_rounds

TITLE = {"es": ("Adultos individual - clasificación (provisional)",
                "Adultos individual - clasificación"),
         "de": ("Adultos individual - Rangliste (vorläufig)",
                "Adultos individual - Rangliste")}
CLASSIFICATION = {"es": "Individual - clasificación general (provisional)",
                  "de": "Individual - Gesamtwertung (vorläufig)"}


@pytest.mark.parametrize("lang", ["es", "de"])
async def test_a_ranking_is_provisional_and_wins_nothing_until_published(
        tmp_path: Path, lang: str) -> None:
    h, _ = await open_day(tmp_path, CSV, in_language(CASTRILLO, lang, tmp_path))
    provisional, final = TITLE[lang]
    boss = Person(ORGANISER.id, ORGANISER.name, lang)  # the organiser's phone in ``lang``
    try:
        await ok(h, ORGANISER, "/inicio adultos", at("0:00:00"))
        await ok(h, VOLUNTEER, "/fin 30 1:20:00", at("1:20:05"))
        [ranking] = texts(await h.send(boss, "/clasificacion adultos", at("1:21:00")))
        lines = ranking.splitlines()
        # the leader, with #31 still playing: a place, no trophy
        assert lines[0] == provisional
        assert lines[1] == "1. #30 Irene: 1:20:00", lines
        await ok(h, VOLUNTEER, "/fin 31 1:25:00", at("1:25:05"))
        await h.send(ORGANISER, "/publicar adultos", at("1:30:00"))
        await h.press(ORGANISER, "pub:adultos", at("1:30:10"))
        [ranking] = texts(await h.send(boss, "/clasificacion adultos", at("1:31:00")))
        lines = ranking.splitlines()
        assert lines[0] == final
        assert lines[1].startswith("1. #30 Irene: 1:20:00 - ") and len(lines[1]) > 25
    finally:
        await h.stop()


@pytest.mark.parametrize("lang", ["es", "de"])
async def test_after_one_evening_of_a_series_nobody_holds_the_trophy(
        tmp_path: Path, lang: str) -> None:
    h = await open_rounds(tmp_path, EVENINGS.replace('language = "en"', f'language = "{lang}"'),
                          entries=4)
    boss = Person(BOSS.id, BOSS.name, lang)
    try:
        await h.send(BOSS, "/inicio", EVENING1)
        for n, t in ((1, "0:40:00"), (2, "0:41:00")):
            await h.send(VIC, f"/fin {n} {t}", EVENING1 + timedelta(minutes=59))
        [ranking] = texts(await h.send(boss, "/clasificacion", EVENING1 + timedelta(hours=1)))
        assert CLASSIFICATION[lang] in ranking.splitlines(), ranking
        # the contest's first prize is "Gold": nobody's yet
        assert "Gold" not in ranking and "1. #1 Player 1: 0:40:00" in ranking
    finally:
        await h.stop()
