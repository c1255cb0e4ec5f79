"""The projector scoreboard: a read-only web page with every category's clock and live ranking.

With ``PUZZLEBOT_WEB_PORT`` set, the bot process also serves, over plain HTTP:

- ``/``: the page for the hall's projector (``bot/static/scoreboard.html``): large type on a dark
  background, every clock on top, the rankings in views shown in turn (on a wide screen two
  columns, each a page of a category or small categories one under the other); a tap on a
  clock shows its category for a minute. It polls ``/data.json`` every second and ticks the
  clocks locally in between.
  Options in the address: ``?cat=parejas,adultos`` (only those categories), ``?start=parejas``
  (shown first), ``?rotate=15`` (seconds per view), ``?scale=1.3`` (bigger or smaller type).
- ``/data.json``: what the page shows (see ``scoreboard_data``).

It listens on ``PUZZLEBOT_WEB_HOST`` (default ``127.0.0.1``: only the laptop running the bot
can see it). ``PUZZLEBOT_WEB_HOST=0.0.0.0`` exposes it to every device on the hall's network
(a second laptop driving the projector, phones): names and results only, never join codes, but
anyone on that network can read them.

Nothing here writes: every answer is computed from the database through ``ContestDay`` at the
bot's "now" (``bot.support.wallclock.CLOCK``, fast in a rehearsal), cached for half a second so that
many viewers cost one computation.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import logging
import re
import time
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol
from zoneinfo import ZoneInfo

from aiohttp import web

from bot.delivery.services import Services
from bot.domain.clock import CategoryClock, format_duration
from bot.domain.contest import Category, Contest
from bot.domain.ranking import Row
from bot.domain.rounds import Heat, table_number
from bot.services.contest_day import ContestDay
from bot.services.standings import is_final
from bot.services.state import EntryState, standings
from bot.services.tables import hall_seats
from bot.support import wallclock
from bot.support.config import environment
from bot.texts.names import heat_name, round_name

log = logging.getLogger(__name__)

ENV_PORT = "PUZZLEBOT_WEB_PORT"
ENV_HOST = "PUZZLEBOT_WEB_HOST"
DEFAULT_HOST = "127.0.0.1"
PAGE = Path(__file__).resolve().parents[1] / "static" / "scoreboard.html"
CACHE_SECONDS = 0.5

# Small fixed texts, in the contest's language. Category names come from the contest file.
LABELS: dict[str, dict[str, str]] = {
    "es": {
        "running": "En marcha",
        "paused": "Pausa",
        "paused_until": "Pausa hasta las {time}",
        "left": "Quedan {time}",
        "time_up": "Tiempo",
        "not_started": "Sin empezar",
        "limit": "Límite {time}",
        "ranking": "Clasificación",
        "no_entries": "Sin inscritos",
        "offline": "Sin conexión",
        "escape_left": "Escape: quedan {time}",
        "finished_count": "{finished}/{entries} terminados",
        "playing": "En juego",
        "table": "mesa",
        "waiting": "Esperando",
        "pending": "Sin resultado",
        "ready": "¡Listo!",
        "pieces": "{pieces} piezas",
        "stage": "Etapa {stage}/{stages}",
        "escape_solved": "Escape {time} ✓",
        "escape_over": "Escape: etapa {stage}/{stages}",
        "real_time": "reloj {time}",
        "starts_at": "Empieza a las {time}",
        "starts_in": "en {time}",
        "resumes_in": "sigue en {time}",
        "paused_row": "En pausa",
        "provisional": "Provisional",
        "final": "Definitiva",
        "pos_header": "Pos.",
        "number_header": "Nº",
        "names_header": "Nombres",
        "clock_header": "Reloj",
        "result_header": "Tiempo",
        "seating": "Mesas",
    },
    "fr": {
        "running": "En cours",
        "paused": "Pause",
        "paused_until": "Pause jusqu'à {time}",
        "left": "Reste {time}",
        "time_up": "Temps écoulé",
        "not_started": "Pas commencé",
        "limit": "Limite {time}",
        "ranking": "Classement",
        "no_entries": "Aucune inscription",
        "offline": "Hors ligne",
        "escape_left": "Escape : reste {time}",
        "finished_count": "{finished}/{entries} terminés",
        "playing": "En jeu",
        "table": "table",
        "waiting": "En attente",
        "pending": "Sans résultat",
        "ready": "Fini !",
        "pieces": "{pieces} pièces",
        "stage": "Étape {stage}/{stages}",
        "escape_solved": "Escape {time} ✓",
        "escape_over": "Escape : étape {stage}/{stages}",
        "real_time": "chrono {time}",
        "starts_at": "Début à {time}",
        "starts_in": "dans {time}",
        "resumes_in": "reprise dans {time}",
        "paused_row": "En pause",
        "provisional": "Provisoire",
        "final": "Définitif",
        "pos_header": "Pl.",
        "number_header": "N°",
        "names_header": "Noms",
        "clock_header": "Chrono",
        "result_header": "Temps",
        "seating": "Tables",
    },
    "en": {
        "running": "Running",
        "paused": "Paused",
        "paused_until": "Paused until {time}",
        "left": "{time} left",
        "time_up": "Time's up",
        "not_started": "Not started",
        "limit": "Limit {time}",
        "ranking": "Ranking",
        "no_entries": "No entries",
        "offline": "Offline",
        "escape_left": "Escape: {time} left",
        "finished_count": "{finished}/{entries} finished",
        "playing": "Playing",
        "table": "table",
        "waiting": "Waiting",
        "pending": "No result",
        "ready": "Done!",
        "pieces": "{pieces} pieces",
        "stage": "Stage {stage}/{stages}",
        "escape_solved": "Escape {time} ✓",
        "escape_over": "Escape: stage {stage}/{stages}",
        "real_time": "clock {time}",
        "starts_at": "Starts at {time}",
        "starts_in": "in {time}",
        "resumes_in": "resumes in {time}",
        "paused_row": "Paused",
        "provisional": "Provisional",
        "final": "Final",
        "pos_header": "Pos.",
        "number_header": "No.",
        "names_header": "Names",
        "clock_header": "Clock",
        "result_header": "Time",
        "seating": "Tables",
    },
}


def labels(language: str) -> dict[str, str]:
    return LABELS.get(language[:2].lower(), LABELS["en"])


class Clock(Protocol):
    """What the scoreboard needs of ``bot.support.wallclock.WallClock``."""

    @property
    def speed(self) -> float: ...  # contest seconds per real second (a rehearsal runs fast)

    def now(self) -> datetime: ...


# -- the data ------------------------------------------------------------------------------------


def clock_data(category: Category, clock: CategoryClock, now: datetime,
               rate: float, timezone: str = "UTC",
               scheduled: datetime | None = None) -> dict[str, Any]:
    """A category's clock at ``now``: ``state`` is ``not_started``, ``running``, ``paused`` or
    ``time_up``; ``seconds`` the contest time (with its fraction, for the page to tick from);
    ``rate`` how many contest seconds pass per real second (0 unless running); ``left`` the
    contest seconds before the time limit (and ``left_text``); ``resumes_at`` the hall's time
    (``timezone``, ``15:30``) a pause ends, when it is known (a break of the contest file), None
    otherwise (an organiser's ``/pausa`` lasts until ``/reanudar``), and ``resumes_in`` the
    seconds until then. Before the start: ``starts_at``, the ``scheduled`` start on the hall's
    clock (``10:00``, with the day when it is another day: ``23/04 16:00``), and ``starts_in``
    the seconds until then (None once it is past). ``wall_rate``: how fast those countdowns
    run (a rehearsal runs fast)."""
    zone = ZoneInfo(timezone)
    whole = now.replace(microsecond=0)
    elapsed = clock.elapsed(whole)
    base: dict[str, Any] = {"starts_at": None, "starts_in": None, "resumes_in": None,
                            "wall_rate": rate}
    if elapsed is None:
        if scheduled is not None:
            local = scheduled.astimezone(zone)
            same_day = local.date() == now.astimezone(zone).date()
            base["starts_at"] = local.strftime("%H:%M" if same_day else "%d/%m %H:%M")
            ahead = (scheduled - now).total_seconds()
            base["starts_in"] = round(ahead, 3) if ahead > 0 else None
        return {"state": "not_started", "seconds": None, "text": None, "rate": 0.0,
                "left": None, "left_text": None, "resumes_at": None, **base}
    pause = next((p for p in clock.pauses
                  if p.start <= now and (p.end is None or now < p.end)), None)
    seconds = float(elapsed) if pause else elapsed + now.microsecond / 1_000_000
    resumes_at = None
    if seconds >= category.time_limit:
        state_ = "time_up"
        text = format_duration(category.time_limit)
    else:
        state_ = "paused" if pause else "running"
        text = format_duration(int(seconds))
        if pause is not None and pause.end is not None:
            resumes_at = pause.end.astimezone(zone).strftime("%H:%M")
            base["resumes_in"] = round((pause.end - now).total_seconds(), 3)
    left = max(0, category.time_limit - int(seconds))
    return {
        "state": state_,
        "seconds": round(seconds, 3),
        "text": text,
        "rate": rate if state_ == "running" else 0.0,
        "left": left,
        "left_text": format_duration(left),
        "resumes_at": resumes_at,
        **base,
    }


def _escape_data(state: EntryState, now_t: int | None) -> dict[str, Any] | None:
    led = state.ledger
    if led is None:
        return None
    return {
        "stages": led.rules.stages,
        "stage": led.stage,
        "confirmed_stage": led.confirmed_stage,
        "solved": led.solved_at is not None,
        "solved_at": format_duration(led.solved_at) if led.solved_at is not None else None,
        "over": now_t is not None and led.over(now_t),
        "tickets_left": led.tickets_left,
        "penalty": led.penalty,
    }


def _status(row: Row, state: EntryState | None, escape: dict[str, Any] | None,
            clock: dict[str, Any], words: dict[str, str]) -> tuple[str, str]:
    """A short code for the page's styling and the line shown for it."""
    c = row.competitor
    if row.finished:
        if escape is not None and c.finish is not None:
            return "finished", words["real_time"].format(time=format_duration(c.finish))
        return "finished", ""
    if c.pieces is not None:
        return "pieces", words["pieces"].format(pieces=c.pieces)
    if state is not None and state.ready is not None:
        return "ready", words["ready"]
    if clock["state"] == "not_started":
        return "waiting", words["waiting"]
    if clock["state"] == "time_up":
        return "pending", words["pending"]
    if clock["state"] == "paused":
        return "paused", words["paused_row"]
    if escape is not None:
        if escape["solved"]:
            return "puzzle", words["escape_solved"].format(time=escape["solved_at"])
        if escape["over"]:
            return "escape_over", words["escape_over"].format(**escape)
        return "escape", words["stage"].format(**escape)
    return "playing", words["playing"]


def _row_data(row: Row, state: EntryState | None, clock: dict[str, Any], now_t: int | None,
              category: Category, words: dict[str, str], settled: bool) -> dict[str, Any]:
    """``settled``: whether every row's result is in (time is up, or nobody still plays). Until
    then a pieces count has no place nor medal: those still playing may finish above it."""
    c = row.competitor
    escape = _escape_data(state, now_t) if state is not None else None
    status, text = _status(row, state, escape, clock, words)
    extras = {e.id: e.name for e in category.extra_prizes}
    early = status == "pieces" and not settled
    return {
        "position": None if early else row.position,
        "number": c.number,
        "names": list(c.names),
        "status": status,
        "status_text": text,
        "time": format_duration(row.time) if row.finished and row.time is not None else None,
        "seconds": row.time if row.finished else None,
        "finish": format_duration(c.finish) if c.finish is not None else None,
        "pieces": c.pieces,
        "escape": escape,
        "prize": None if early else row.prize,
        "extra_prizes": [] if early else [extras.get(x, x) for x in row.extra_prizes],
        # answers to the questions shown in rankings, only when there are some
        **({"shown": list(c.shown)} if c.shown else {}),
    }


def _scheduled(contest: Contest, heat: Heat | None) -> datetime | None:
    """When the category (or the heat) is due to start, by the contest file."""
    if heat is None:
        return contest.start
    return heat.round.when(heat.number).start


def _standing(clock: dict[str, Any], rows: list[dict[str, Any]], final: bool) -> str | None:
    """``final`` once the organiser made the results final; ``provisional`` once the clock is
    over or every entry has a result, before that; None while the contest is on."""
    if final:
        return "final"
    done = clock["state"] == "time_up" or (
        clock["state"] != "not_started" and rows and
        all(r["status"] in ("finished", "pieces") for r in rows))
    return "provisional" if done else None


async def category_data(day: ContestDay, contest: Contest, category: Category, now: datetime,
                        rate: float = 1.0) -> dict[str, Any]:
    words = labels(contest.language)
    clock = await day.clock(category.id)
    states = await day.states(category, now)
    heat = day.heats.get(category.id)
    rows = standings(contest, category, states) if heat is None else await day.ranking(category)
    by_number = {s.entry.number: s for s in states}
    clk = clock_data(category, clock, now, rate, contest.timezone, _scheduled(contest, heat))
    now_t = clock.elapsed(now)
    escape_limit = contest.escape.time_limit if category.escape and contest.escape else None
    tables: dict[int, int] = {}
    if heat is None:  # played in one round: the hall's tables (the contest file's seating)
        seats = await hall_seats(day)
        tables = {n: seats[n] for n in by_number if n in seats}
    else:  # each entry's table in its heat
        lineup = await day.lineups(heat.category)
        if heat.round_index < len(lineup):
            numbers = lineup[heat.round_index][heat.number - 1]
            tables = {n: table_number(i, heat.round.per_table) for i, n in enumerate(numbers)}
    settled = clk["state"] == "time_up" or all(
        r.finished or r.competitor.pieces is not None for r in rows)
    rows_data = [_row_data(r, by_number.get(r.number), clk, now_t, category, words, settled)
                 for r in rows]
    for row in rows_data:
        if row["number"] in tables:
            row["table"] = tables[row["number"]]
    if clk["state"] == "not_started" and tables:  # before the start: where everyone sits
        rows_data.sort(key=lambda r: (r.get("table", len(tables) + 1), r["number"]))
    if heat is None:
        final = await is_final(day, category)
    else:
        final = await day.confirmed_rounds(heat.category) > heat.round_index
    return {
        "id": category.id,
        "name": category.name if heat is None else
        f"{category.name} — {heat_name(contest.language, contest, heat)}",
        "escape": escape_limit is not None,
        "time_limit": category.time_limit,
        "time_limit_text": format_duration(category.time_limit),
        "escape_time_limit": escape_limit,
        "pieces": category.pieces,
        "clock": clk,
        "standing": _standing(clk, rows_data, final),
        "seating": clk["state"] == "not_started" and bool(tables),
        "columns": {
            "position": words["pos_header"], "number": words["number_header"],
            "names": words["names_header"], "result": words["result_header"],
            # a row with two times: the clock's, and the time ranked
            "detail": words["clock_header"] if escape_limit is not None else None,
        },
        "entries": len(rows),
        "finished": sum(1 for r in rows if r.finished),
        "rows": rows_data,
    }


def upcoming_data(contest: Contest, category: Category, round_index: int, now: datetime,
                  rate: float) -> dict[str, Any]:
    """A round not reached yet (its entrants come from the round before): its name and when
    it is due to start."""
    heat = Heat(category, round_index, 1)
    name = round_name(contest.language, contest, category, round_index)
    clk = clock_data(heat.play, CategoryClock(None), now, rate,
                     contest.timezone, heat.round.when(1).start)
    return {
        "id": f"{category.id}/{heat.round.id}", "name": f"{category.name} — {name}",
        "upcoming": True, "escape": False, "time_limit": heat.play.time_limit,
        "time_limit_text": format_duration(heat.play.time_limit), "escape_time_limit": None,
        "pieces": heat.play.pieces, "clock": clk, "standing": None, "seating": False,
        "columns": {}, "entries": 0, "finished": 0, "rows": [],
    }


async def shown_units(day: ContestDay) -> list[tuple[Category, bool]]:
    """What the projector shows, in the contest file's order: each category without rounds;
    for one in rounds, the heats of the latest round reached, with the round before's while
    none of the latest has begun (its results stay on screen until the next round starts),
    then the rounds still to come (``True``: not reached, nothing but a start to show)."""
    out: list[tuple[Category, bool]] = []
    for c in day.contest.categories:
        if not c.rounds:
            out.append((c, False))
            continue
        lineup = await day.lineups(c)
        latest = len(lineup) - 1
        heats = [Heat(c, latest, h).play for h in range(1, len(lineup[latest]) + 1)]
        begun = [(await day.clock(h.id)).started is not None for h in heats]
        if latest > 0 and not any(begun):
            out.extend((Heat(c, latest - 1, h).play, False)
                       for h in range(1, len(lineup[latest - 1]) + 1))
        out.extend((h, False) for h in heats)
        confirmed = await day.confirmed_rounds(c)
        first_to_come = max(len(lineup), confirmed + 1)
        out.extend((Heat(c, r, 1).play, True) for r in range(first_to_come, len(c.rounds)))
    return out


async def scoreboard_data(day: ContestDay, contest: Contest, now: datetime,
                          rate: float = 1.0) -> dict[str, Any]:
    """Everything the page shows, JSON-able, as the database holds it at ``now``.

    Per category: id, name, its clock (state, contest seconds, h:mm:ss, rate, time left, when
    a pause ends), time limit and the ranking rows (position, number, names, status and its
    text, time h:mm:ss, pieces, escape progress, prize). ``rate``: contest seconds per real
    second (a rehearsal runs fast).
    """
    return {
        "contest": contest.name,
        "language": contest.language,
        "labels": labels(contest.language),
        "now": now.isoformat(),
        "paused": await day.paused(),
        "categories": [
            upcoming_data(contest, day.heats[c.id].category, day.heats[c.id].round_index,
                          now, rate) if to_come else
            await category_data(day, contest, c, now, rate)
            for c, to_come in await shown_units(day)],
    }


# -- the web server ------------------------------------------------------------------------------


class ScoreboardSettingsError(ValueError):
    pass


def settings_from_env(env: Mapping[str, str] | None = None) -> tuple[str, int] | None:
    """(host, port) from the environment (and the settings file), None when the scoreboard is
    off."""
    env = environment() if env is None else env
    raw = env.get(ENV_PORT, "").strip()
    if not raw:
        return None
    try:
        port = int(raw)
    except ValueError:
        raise ScoreboardSettingsError(f"{ENV_PORT} must be a port number, not {raw!r}") from None
    if not 1 <= port <= 65535:
        raise ScoreboardSettingsError(f"{ENV_PORT} must be between 1 and 65535, not {port}")
    host = env.get(ENV_HOST, "").strip() or DEFAULT_HOST
    return host, port


def _csp(page: str) -> str:
    """A Content-Security-Policy allowing exactly the page's inline script and style."""
    def hashes(tag: str) -> str:
        found = re.findall(rf"<{tag}>(.*?)</{tag}>", page, flags=re.S)
        return " ".join(
            "'sha256-" + base64.b64encode(hashlib.sha256(s.encode()).digest()).decode() + "'"
            for s in found
        )

    return (f"default-src 'none'; script-src {hashes('script')}; style-src {hashes('style')}; "
            "connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; "
            "frame-ancestors 'none'")


class Scoreboard:
    """The read-only web server. ``port`` 0 picks a free one (see ``port`` after ``start``)."""

    def __init__(self, port: int = 0, host: str = DEFAULT_HOST, clock: Clock | None = None,
                 cache_seconds: float = CACHE_SECONDS) -> None:
        self.host = host
        self.port = port
        self._clock = clock
        self.cache_seconds = cache_seconds
        self.computations = 0  # how many times the data was computed (for tests and logs)
        self._services: Services | None = None
        self._runner: web.AppRunner | None = None
        self._lock = asyncio.Lock()
        self._page = PAGE.read_text(encoding="utf-8")
        self._page_headers = {
            "Content-Security-Policy": _csp(self._page),
            "Cache-Control": "no-cache",
            "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "no-referrer",
        }

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Scoreboard | None:
        settings = settings_from_env(env)
        if settings is None:
            return None
        return cls(port=settings[1], host=settings[0])

    @property
    def clock(self) -> Clock:
        if self._clock is not None:
            return self._clock
        return wallclock.CLOCK

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/", self._page_handler)
        app.router.add_get("/data.json", self._data_handler)
        return app

    async def start(self, services: Services) -> None:
        """Listen; raises OSError when the address can't be used (port taken...)."""
        self._services = services
        runner = web.AppRunner(self.app(), access_log=None, handle_signals=False,
                               shutdown_timeout=2.0)
        await runner.setup()
        try:
            site = web.TCPSite(runner, self.host, self.port)
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        for address in runner.addresses:
            if isinstance(address, tuple) and len(address) >= 2:
                self.port = int(address[1])
                break
        log.info("scoreboard at %s", self.url)

    async def stop(self) -> None:
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()
        if self._services is not None:
            self._services.day.read.projection("scoreboard", None).pop(self, None)

    async def data(self) -> dict[str, Any]:
        result: dict[str, Any] = json.loads(await self.data_bytes())
        return result

    async def data_bytes(self) -> bytes:
        """The JSON, computed at most once per ``cache_seconds`` while nothing is recorded
        (kept in the day's read model, stamped with every kind)."""
        svc = self._services
        assert svc is not None, "start() first"
        held = self._held(svc)
        if held is not None:
            return held
        async with self._lock:  # many viewers at once: one computation
            held = self._held(svc)
            if held is not None:
                return held
            pages = svc.day.read.projection("scoreboard", None)  # stamped before computing
            clock = self.clock
            data = await scoreboard_data(svc.day, svc.contest, clock.now(), clock.speed)
            body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
            self.computations += 1
            pages[self] = (time.monotonic(), body)
            return body

    def _held(self, svc: Services) -> bytes | None:
        """The JSON computed less than ``cache_seconds`` ago, if nothing was recorded since."""
        hit: tuple[float, bytes] | None = svc.day.read.projection("scoreboard", None).get(self)
        if hit is None or time.monotonic() - hit[0] >= self.cache_seconds:
            return None
        return hit[1]

    async def _page_handler(self, request: web.Request) -> web.Response:
        return web.Response(text=self._page, content_type="text/html", charset="utf-8",
                            headers=self._page_headers)

    async def _data_handler(self, request: web.Request) -> web.Response:
        headers = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}
        try:
            body = await self.data_bytes()
        except Exception:  # noqa: BLE001 - the page keeps its last data and says it is offline
            log.exception("scoreboard: could not compute the data")
            return web.json_response({"error": "unavailable"}, status=503, headers=headers)
        response = web.Response(body=body, content_type="application/json", charset="utf-8",
                                headers=headers)
        response.enable_compression()
        return response


# -- hooks for bot/app.py ------------------------------------------------------------------------


async def attach(app: Any) -> Scoreboard | None:
    """From ``post_init``: start the scoreboard when ``PUZZLEBOT_WEB_PORT`` is set.

    A bad setting or a port already in use is logged and the bot runs on without the page: the
    contest matters more than the projector.
    """
    try:
        board = Scoreboard.from_env()
    except ScoreboardSettingsError as exc:
        log.error("scoreboard off: %s", exc)
        return None
    if board is None:
        return None
    try:
        await board.start(app.bot_data["services"])
    except OSError as exc:
        log.error("scoreboard off: cannot listen on %s:%s (%s)", board.host, board.port, exc)
        return None
    app.bot_data["scoreboard"] = board
    return board


async def detach(app: Any) -> None:
    """From ``post_shutdown``, before the store is closed."""
    board = app.bot_data.pop("scoreboard", None)
    if board is not None:
        await board.stop()
