"""Where the day stands, as the projector's data says it (bot/tools/scoreboard.py): the
scheduled start and the time to it, a break's end and the rows paused, "provisional" once a
clock is over and "final" once the organiser says so, rounds to come with their start, a
finished round kept on screen until the next one begins, headers for a row with two times,
and no place for a pieces count while others still play."""

from __future__ import annotations

import html
import io
import json
import re
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from bot.services.csvio import import_entries, read_entries
from tests.conftest import BILLOM
from tests.exports.test_scoreboard import (
    CSV,
    LIVELY_CSV,
    ORGANISER,
    T0,
    VOLUNTEER,
    Probed,
    at,
    board_data,
    category,
    chromium,
    lively_day,
    needs_chromium,
    ok,
    open_day,
    row,
)
from tests.fakebot import FrozenClock, Harness
from tests.rounds import test_rounds as rounds


async def test_before_the_start_the_scheduled_time_and_the_time_to_it(tmp_path):
    h, _ = await open_day(tmp_path, CSV)
    try:
        # Castrillo's file says 10:00; at 9:40 every clock counts down to it
        data = await board_data(h, T0.replace(hour=9, minute=40))
        clock = category(data, "adultos")["clock"]
        assert clock["state"] == "not_started"
        assert (clock["starts_at"], clock["starts_in"]) == ("10:00", 20 * 60)
        assert data["labels"]["starts_at"] == "Empieza a las {time}"
        # past 10:00 and still not started: the time stays, the countdown goes
        clock = category(await board_data(h, T0), "adultos")["clock"]
        assert (clock["starts_at"], clock["starts_in"]) == ("10:00", None)
        # once started, nothing to count down to
        await ok(h, ORGANISER, "/inicio adultos", T0)
        clock = category(await board_data(h, at("0:05:00")), "adultos")["clock"]
        assert (clock["starts_at"], clock["starts_in"]) == (None, None)
    finally:
        await h.stop()


async def test_a_pieces_count_has_no_place_while_others_still_play(tmp_path):
    h, _ = await open_day(tmp_path, CSV)
    try:
        await ok(h, ORGANISER, "/inicio adultos", T0)
        await ok(h, VOLUNTEER, "/piezas 31 87", at("0:00:06"))
        early = row(await board_data(h, at("0:01:00")), "adultos", 31)
        assert (early["status"], early["position"], early["prize"]) == ("pieces", None, None)
        # time is up (2:30:00): #30 never finished, the count is first; its prize once the
        # results are final, not before (issue 47, item 7)
        late = row(await board_data(h, at("2:31:00")), "adultos", 31)
        assert late["position"] == 1 and late["prize"] is None
        await h.send(ORGANISER, "/publicar adultos", at("2:32:00"))
        await h.press(ORGANISER, "pub:adultos", at("2:32:10"))
        late = row(await board_data(h, at("2:33:00")), "adultos", 31)
        assert late["position"] == 1 and late["prize"] is not None
    finally:
        await h.stop()


async def test_provisional_once_time_is_up_final_once_published(tmp_path):
    h, _ = await open_day(tmp_path, CSV)
    try:
        await ok(h, ORGANISER, "/inicio adultos", T0)
        assert category(await board_data(h, at("1:00:00")), "adultos")["standing"] is None
        await ok(h, VOLUNTEER, "/fin 30 1:20:00", at("1:20:05"))
        await ok(h, VOLUNTEER, "/fin 31 1:25:00", at("1:25:05"))
        # everyone finished: provisional before the clock's limit
        assert category(await board_data(h, at("1:30:00")), "adultos")["standing"] == \
            "provisional"
        assert category(await board_data(h, at("2:40:00")), "parejas")["standing"] is None
        await h.send(ORGANISER, "/publicar adultos", at("1:40:00"))
        await h.press(ORGANISER, "pub:adultos", at("1:40:10"))
        data = await board_data(h, at("1:41:00"))
        assert category(data, "adultos")["standing"] == "final"
        assert data["labels"]["final"] == "Definitiva"
    finally:
        await h.stop()


async def test_a_row_with_two_times_has_headers_for_both(tmp_path):
    h, _ = await open_day(tmp_path, CSV)
    try:
        data = await board_data(h, T0)
        assert category(data, "parejas")["columns"] == {
            "position": "Pos.", "number": "Nº", "names": "Nombres", "detail": "Reloj",
            "result": "Tiempo"}
        assert category(data, "adultos")["columns"]["detail"] is None  # one time only
    finally:
        await h.stop()


async def test_in_a_break_the_time_left_to_it_and_every_row_paused(tmp_path):
    h = await Harness(tmp_path, BILLOM, organisers=frozenset({ORGANISER.id})).start()
    try:
        start = datetime(2012, 3, 10, 14, 0, tzinfo=ZoneInfo("Europe/Paris"))
        await import_entries(h.services.store, read_entries(h.services.contest, io.StringIO(
            "number,category,names,born\n1,junior,Léa; Tom,2002-05-01; 2003-06-01\n"), "x.csv"))
        await ok(h, ORGANISER, "/inicio", start)
        data = await board_data(h, start + timedelta(hours=1, minutes=20))  # 15:20
        junior = category(data, "junior")
        assert junior["clock"]["state"] == "paused"
        assert (junior["clock"]["resumes_at"], junior["clock"]["resumes_in"]) == ("15:30", 600)
        assert junior["rows"] and {(r["status"], r["status_text"]) for r in junior["rows"]} \
            == {("paused", "En pause")}
        # after the break they play again
        data = await board_data(h, start + timedelta(hours=1, minutes=31))
        assert {r["status"] for r in category(data, "junior")["rows"]} == {"playing"}
        assert category(data, "junior")["clock"]["resumes_in"] is None
    finally:
        await h.stop()


async def test_rounds_to_come_show_their_start_and_a_finished_round_stays(tmp_path):
    h = await rounds.open_day(tmp_path, entries=4)
    day1, boss = rounds.DAY1, rounds.BOSS
    try:
        data = await board_data(h, day1 - timedelta(minutes=20))
        # today's heats only: tomorrow's semi-final and final are left off, the first of
        # them in one line (issue 47, item 7)
        assert [(c["id"], c.get("upcoming", False)) for c in data["categories"]] == [
            ("solo-heats1", False), ("solo-heats2", False)]
        heat1 = category(data, "solo-heats1")["clock"]
        assert (heat1["starts_at"], heat1["starts_in"]) == ("10:00", 20 * 60)
        assert data["next"] == {"name": "Individual — Semi-final", "day": "Saturday 3 July",
                                "time": "10:00"}

        await rounds.play_heats(h, [(1, "0:40:00"), (2, "0:41:00")],
                                [(3, "0:42:00"), (4, "0:43:00")])
        over = day1 + timedelta(hours=3, minutes=5)
        data = await board_data(h, over)
        assert category(data, "solo-heats2")["standing"] == "provisional"
        await h.send(boss, "/confirmar_ronda solo", over)
        data = await board_data(h, over + timedelta(minutes=1))
        ids = [c["id"] for c in data["categories"]]
        # the heats' results stay on screen; the semi-final is tomorrow's
        assert ids == ["solo-heats1", "solo-heats2"]
        assert data["next"]["name"] == "Individual — Semi-final"
        heats = category(data, "solo-heats1")
        assert heats["standing"] == "final"
        assert [(r["position"], r["time"]) for r in heats["rows"]] == [
            (1, "0:40:00"), (2, "0:41:00")]
        # the next morning: the semi-final, before its start sorted by table, and said so
        # (the seeds: fastest at the front); yesterday's heats are gone
        data = await board_data(h, rounds.DAY2 - timedelta(minutes=30))
        assert [c["id"] for c in data["categories"]] == ["solo-semi", "solo/final"]
        semi = category(data, "solo-semi")
        assert semi["seating"] is True
        tables = [r["table"] for r in semi["rows"]]
        assert tables == sorted(tables) and len(tables) == 4
        assert (semi["clock"]["starts_at"], semi["clock"]["starts_day"]) == ("10:00", None)
        assert semi["clock"]["starts_in"] == 30 * 60
        assert data["next"] is None
        # the semi-final starts: the heats give way to it
        await h.send(boss, "/inicio", rounds.DAY2)
        data = await board_data(h, rounds.DAY2 + timedelta(minutes=1))
        assert [c["id"] for c in data["categories"]] == ["solo-semi", "solo/final"]
        assert category(data, "solo-semi")["seating"] is False
    finally:
        await h.stop()


# -- in a browser, at the three sizes: what the page lays out --------------------------------

# a script added to the page (its hash in the page's Content-Security-Policy) writes what is
# on screen into <pre id="probe">, then taps the last clock tile of a category with entries
# and says what it shows then
LAYOUT_PROBE = """<script>
setTimeout(() => {
  const box = (e) => { const r = e.getBoundingClientRect();
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom }; };
  const on = () => [...document.querySelectorAll(".cat.on")].map((s) => s.dataset.cat);
  const rows = [...document.querySelectorAll(".cat.on ol .row:not(.off)")].map((row) => ({
    number: Number(row.dataset.number), box: box(row),
    cut: [...row.querySelectorAll(".who")].some((w) => w.scrollWidth > w.clientWidth + 1),
    text: row.textContent }));
  const heads = [...document.querySelectorAll(".cat.on h2")].map((h) => ({
    box: box(h), text: h.textContent,
    over: [...h.children].some((c) => c.getBoundingClientRect().right > box(h).right + 1) }));
  const tiles = [...document.querySelectorAll(".tile")];
  const seen = { width: innerWidth, height: innerHeight,
    next: document.getElementById("next").textContent,
    board: box(document.getElementById("board")),
    clocks: box(document.getElementById("clocks")), rows, heads, on: on(),
    tiles: tiles.map((t) => t.textContent),
    colheads: [...document.querySelectorAll(".cat.on .colhead .row")].filter(
      (r) => r.offsetHeight > 0).map((r) => r.textContent) };
  const withRows = tiles.filter((t) => document.querySelector(
    '.cat[data-cat="' + CSS.escape(t.dataset.cat) + '"] ol .row'));
  const last = withRows[withRows.length - 1];
  last.click();
  seen.tapped = last.dataset.cat;
  seen.after = on();
  const out = document.createElement("pre");
  out.id = "probe";
  out.hidden = true;
  out.textContent = JSON.stringify(seen);
  document.body.append(out);
}, 2500);
</script>"""


class LayoutProbed(Probed):
    probe = LAYOUT_PROBE


async def looked_at(h: Harness, when: datetime, tmp_path, size: str) -> dict:
    board = LayoutProbed(port=0, clock=FrozenClock(when))
    await board.start(h.services)
    try:
        dom = await chromium(board.url, tmp_path, "--dump-dom", size=size)
    finally:
        await board.stop()
    found = re.search(r'<pre id="probe"[^>]*>(.*?)</pre>', dom, flags=re.S)
    assert found, "the probe did not run"
    return json.loads(html.unescape(found.group(1)))


def laid_out_well(seen: dict, phone: bool) -> None:
    """Rows on screen, whole, inside the board; the clocks leave the ranking most of it."""
    assert seen["rows"], "no row on screen"
    board = seen["board"]
    for r in seen["rows"]:
        assert r["box"]["left"] >= -0.5 and r["box"]["right"] <= seen["width"] + 0.5, r
        assert r["box"]["bottom"] <= board["bottom"] + 0.5, r
        assert r["box"]["top"] >= board["top"] - 0.5, r
    for head in seen["heads"]:
        assert not head["over"], head["text"]
    if not phone:  # short names are never cut on a projector
        assert not [r["text"] for r in seen["rows"] if r["cut"]]
    clocks = seen["clocks"]["bottom"] - seen["clocks"]["top"]
    assert clocks <= seen["height"] * (0.15 if phone else 0.3), clocks
    # a tap on a tile shows that category
    assert seen["tapped"] in seen["after"]


SIZES = ["1920,1080", "1280,720", "390,844"]


@needs_chromium
@pytest.mark.parametrize("size", SIZES)
async def test_chromium_castrillo_before_during_and_after(tmp_path, size):
    phone = size == "390,844"
    # before the start: when it starts and the time to it, rows waiting
    (tmp_path / "before").mkdir()
    (tmp_path / "day").mkdir()
    h, _ = await open_day(tmp_path / "before", LIVELY_CSV)
    try:
        seen = await looked_at(h, T0.replace(hour=9, minute=40), tmp_path, size)
        laid_out_well(seen, phone)
        assert all("Empieza a las 10:00" in t and "en 0:20:00" in t for t in seen["tiles"])
        assert all("Esperando" in r["text"] for r in seen["rows"])
    finally:
        await h.stop()
    h, now = await lively_day(tmp_path / "day")
    try:
        # mid-contest: every row on screen inside the board, two times under their headers
        seen = await looked_at(h, now, tmp_path, size)
        laid_out_well(seen, phone)
        if not phone:
            assert seen["colheads"] and all("Pos." in c for c in seen["colheads"])
            # with a few entries a category, several share the screen
            assert len(seen["on"]) >= 2
        # after the end: provisional, then final once published
        over = at("3:30:00")
        seen = await looked_at(h, over, tmp_path, size)
        laid_out_well(seen, phone)
        assert all("Provisional" in t for t in seen["tiles"] if "Infantil C" not in t)
        await h.send(ORGANISER, "/publicar adultos", over)
        await h.press(ORGANISER, "pub:adultos", over + timedelta(seconds=10))
        seen = await looked_at(h, over + timedelta(minutes=1), tmp_path, size)
        [adults] = [t for t in seen["tiles"] if t.startswith("Adultos individual")]
        assert "Definitiva" in adults and "Provisional" not in adults
    finally:
        await h.stop()


@needs_chromium
@pytest.mark.parametrize("size", SIZES)
async def test_chromium_billom_in_the_break(tmp_path, size):
    h = await Harness(tmp_path, BILLOM, organisers=frozenset({ORGANISER.id})).start()
    try:
        rows = "".join(f"{n},junior,Léa {n}; Tom {n},2002-05-01; 2003-06-01\n"
                       for n in range(1, 7))
        await import_entries(h.services.store, read_entries(h.services.contest, io.StringIO(
            "number,category,names,born\n" + rows), "x.csv"))
        start = datetime(2012, 3, 10, 14, 0, tzinfo=ZoneInfo("Europe/Paris"))
        await ok(h, ORGANISER, "/inicio", start)
        seen = await looked_at(h, start + timedelta(hours=1, minutes=20), tmp_path, size)
        laid_out_well(seen, size == "390,844")
        assert all("Pause jusqu'à 15:30" in t and "reprise dans 0:10:00" in t
                   for t in seen["tiles"])
        assert all("En pause" in r["text"] for r in seen["rows"])
    finally:
        await h.stop()


@needs_chromium
@pytest.mark.parametrize("size", SIZES)
async def test_chromium_a_round_to_come_and_the_round_before(tmp_path, size):
    h = await rounds.open_day(tmp_path, entries=4)
    try:
        await rounds.play_heats(h, [(1, "0:40:00"), (2, "0:41:00")],
                                [(3, "0:42:00"), (4, "0:43:00")])
        over = rounds.DAY1 + timedelta(hours=3, minutes=5)
        await h.send(rounds.BOSS, "/confirmar_ronda solo", over)
        seen = await looked_at(h, over + timedelta(minutes=1), tmp_path, size)
        laid_out_well(seen, size == "390,844")
        # tomorrow's rounds: not on today's board, the first of them in one line
        assert not any("Semi-final" in t or "Starts" in t for t in seen["tiles"])
        assert seen["next"] == "Next: Individual — Semi-final, Saturday 3 July at 10:00"
        # the heats, confirmed: final, and their times still on screen
        assert sum("Heats" in t and "Final" in t for t in seen["tiles"]) == 2, seen["tiles"]
        assert "solo-heats1" in seen["on"] or "solo-heats1" in seen["after"]
        shown = " ".join(r["text"] for r in seen["rows"])
        assert "solo-heats1" not in seen["on"] or "0:40:00" in shown
    finally:
        await h.stop()
