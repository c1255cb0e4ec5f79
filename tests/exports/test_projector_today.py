"""Issue 47, item 7, on the projector: nothing looks final before it is (no prize, no medal, no
badge until the results are made final; a place shown is "provisional"), only today's clocks
(another evening's heat is left off, the first still to come in one line), and a start more
than a day away is given as its day and time, never counted down in thousands of hours. In
Spanish and German, over the projector's data and, in a browser, its page."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest

from tests.conftest import CASTRILLO
from tests.exports.test_scoreboard import (
    CSV,
    ORGANISER,
    T0,
    VOLUNTEER,
    Probed,
    at,
    board_data,
    category,
    chromium,
    needs_chromium,
    ok,
    open_day,
    row,
)
from tests.fakebot import FrozenClock, Harness
from tests.rounds.test_rounds import BOSS, CONTEST, TZ, VIC
from tests.rounds.test_rounds import open_day as open_rounds

HEATS = '''heats = 2
advance = { per_heat = 2, best = 5 }
'''
# a library series: each heat on its own evening, three weeks apart
EVENINGS = CONTEST.replace(HEATS, HEATS + '''
[[categories.rounds.heat]]
date = 2027-07-02
start = "18:00"
venue = "Fitchburg Library"

[[categories.rounds.heat]]
date = 2027-07-23
start = "18:00"
venue = "Oregon Library"
''').replace("date = 2027-07-03", "date = 2027-07-30")  # the semi-final and final after
EVENING1 = datetime(2027, 7, 2, 18, 0, tzinfo=TZ)

EVENING2_DAY = {"es": "viernes 23 de julio", "de": "Freitag, 23. Juli"}
WORDS = {"es": ("Provisional", "En juego", "Próximo: "),
         "de": ("Vorläufig", "Im Spiel", "Als Nächstes: ")}


def in_language(path: Path, lang: str, tmp_path: Path) -> Path:
    """The contest file ``path`` with the bot speaking ``lang``."""
    text = path.read_text(encoding="utf-8")
    out = tmp_path / f"{lang}-{path.name}"
    out.write_text(text.replace('language = "es"', f'language = "{lang}"', 1), encoding="utf-8")
    return out


@pytest.mark.parametrize("lang", ["es", "de"])
async def test_an_evening_shows_its_own_heat_and_the_next_evening_in_one_line(
        tmp_path: Path, lang: str) -> None:
    h = await open_rounds(tmp_path, EVENINGS.replace('language = "en"', f'language = "{lang}"'),
                          entries=4)
    provisional, playing, next_ = WORDS[lang]
    try:
        data = await board_data(h, EVENING1 - timedelta(minutes=30))
        # the Oregon evening, three weeks away, is not on Fitchburg's projector
        assert [c["id"] for c in data["categories"]] == ["solo-heats1"]
        assert category(data, "solo-heats1")["clock"]["starts_in"] == 30 * 60
        assert data["next"]["day"] == EVENING2_DAY[lang]
        assert data["next"]["time"] == "18:00"
        line = data["labels"]["next"].format(**data["next"])
        assert line.startswith(next_) and EVENING2_DAY[lang] in line and "18:00" in line
        # the evening: a first finish has a place, provisional, no medal; the rest play on
        await ok(h, BOSS, "/inicio", EVENING1)
        await ok(h, VIC, "/fin 1 0:40:00", EVENING1 + timedelta(minutes=40, seconds=5))
        data = await board_data(h, EVENING1 + timedelta(minutes=45))
        heat = category(data, "solo-heats1")
        assert heat["standing"] == "provisional"
        assert data["labels"]["provisional"] == provisional
        first = row(data, "solo-heats1", 1)
        assert (first["position"], first["prize"]) == (1, None)
        still = row(data, "solo-heats1", 2)
        assert (still["status_text"], still["position"], still["prize"]) == (playing, None,
                                                                             None)
        # the evening after: the first heat's results are last week's, not today's
        data = await board_data(h, datetime(2027, 7, 23, 17, 30, tzinfo=TZ))
        assert [c["id"] for c in data["categories"]] == ["solo-heats2"]
        assert data["next"]["day"] == {"es": "viernes 30 de julio", "de": "Freitag, 30. Juli"
                                       }[lang]  # the semi-final
    finally:
        await h.stop()


@pytest.mark.parametrize("lang", ["es", "de"])
async def test_no_prize_nor_badge_until_the_results_are_final(tmp_path: Path, lang: str) -> None:
    h, _ = await _castrillo(tmp_path, lang)
    provisional, playing, _ = WORDS[lang]
    try:
        await ok(h, ORGANISER, "/inicio parejas", T0)
        await ok(h, VOLUNTEER, "/fin 7 1:30:00", at("1:30:05"))  # the local pair
        data = await board_data(h, at("1:35:00"))
        seven = row(data, "parejas", 7)
        # first, the best local pair, yet nothing is won before the results are final
        assert seven["position"] == 1
        assert (seven["prize"], seven["extra_prizes"]) == (None, [])
        assert category(data, "parejas")["standing"] == "provisional"
        assert data["labels"]["provisional"] == provisional
        # still playing: no place, no medal
        three = row(data, "parejas", 3)
        assert (three["position"], three["prize"]) == (None, None)
        for n in (3, 12, 20):
            await ok(h, VOLUNTEER, f"/fin {n} 2:0{n % 10}:00", at("2:10:00"))
        await h.send(ORGANISER, "/publicar parejas", at("2:20:00"))
        await h.press(ORGANISER, "pub:parejas", at("2:20:10"))
        data = await board_data(h, at("2:21:00"))
        assert category(data, "parejas")["standing"] == "final"
        seven = row(data, "parejas", 7)
        assert seven["prize"] is not None and seven["extra_prizes"]
    finally:
        await h.stop()


async def _castrillo(tmp_path: Path, lang: str) -> tuple[Harness, dict]:
    """Castrillo's day with the bot speaking ``lang``."""
    return await open_day(tmp_path, CSV, in_language(CASTRILLO, lang, tmp_path))


@pytest.mark.parametrize("lang", ["es", "de"])
async def test_a_start_days_away_is_its_day_and_time_not_a_countdown(
        tmp_path: Path, lang: str) -> None:
    h, _ = await _castrillo(tmp_path, lang)
    try:
        data = await board_data(h, T0 - timedelta(days=2, hours=3))
        clock = category(data, "adultos")["clock"]
        day = {"es": "sábado 22 de abril", "de": "Samstag, 22. April"}[lang]
        assert (clock["starts_at"], clock["starts_day"], clock["starts_in"]) == (
            "10:00", day, None)
        # within a day, the countdown as well
        clock = category(await board_data(h, T0 - timedelta(hours=20)), "adultos")["clock"]
        assert clock["starts_day"] == day and clock["starts_in"] == 19 * 3600
    finally:
        await h.stop()


@needs_chromium
async def test_chromium_says_the_day_of_a_start_days_away_in_german(tmp_path: Path) -> None:
    h, _ = await _castrillo(tmp_path, "de")
    board = Probed(port=0, clock=FrozenClock(T0 - timedelta(days=21)))
    await board.start(h.services)
    try:
        dom = await chromium(board.url + "?cat=adultos", tmp_path, "--dump-dom")
        assert "Beginn am Samstag, 22. April um 10:00" in dom
        # no countdown of 500 hours beside it
        assert '<span class="when num"></span>' in dom and "in 50" not in dom
    finally:
        await board.stop()
        await h.stop()
