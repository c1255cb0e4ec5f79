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

from aiohttp import web

from bot.delivery.services import Services
from bot.services.scoreboard import LABELS, labels, scoreboard_data
from bot.support import wallclock
from bot.support.config import environment

log = logging.getLogger(__name__)

ENV_PORT = "PUZZLEBOT_WEB_PORT"
ENV_HOST = "PUZZLEBOT_WEB_HOST"
DEFAULT_HOST = "127.0.0.1"
PAGE = Path(__file__).resolve().parents[1] / "static" / "scoreboard.html"
CACHE_SECONDS = 0.5

class Clock(Protocol):
    """What the scoreboard needs of ``bot.support.wallclock.WallClock``."""

    @property
    def speed(self) -> float: ...  # contest seconds per real second (a rehearsal runs fast)

    def now(self) -> datetime: ...


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


__all__ = ["LABELS", "Scoreboard", "labels", "scoreboard_data"]  # the data comes from services


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
