"""How a failed send is retried (issue 13, docs/invariants.md "Sends that fail"): a send that
may have been delivered (timed out after it went out) is sent again at most once; one that
provably was not (could not connect, a 5xx answer, the server hanging up before answering) is
retried through every delay. Checked with python-telegram-bot's own HTTP client against a
local server (the errors are the ones PTB really raises), and end to end: the real bot process
against the fake Bot API over HTTP."""

from __future__ import annotations

import asyncio
import socket
from datetime import UTC, datetime

import httpx
import pytest
from aiohttp import web
from telegram import Bot
from telegram.error import NetworkError, TelegramError, TimedOut
from telegram.request import HTTPXRequest

from bot.delivery import sender as outbox
from bot.delivery.requests import not_delivered
from bot.delivery.sender import Sender
from bot.rehearsal.fakeapi import BOT_USER, Failure
from bot.storage.store import PRIORITY_ANSWER, Store
from bot.support.config import ConfigError, parse_settings
from tests.conftest import CASTRILLO
from tests.e2e import BotProcess, Phone, say

TOKEN = "123456:retries-token-abcdefghijklmnopqrstuvwxyz"


@pytest.fixture(autouse=True)
def short_pauses(monkeypatch):
    """The pauses are not what is tested here: how many attempts are."""
    monkeypatch.setattr(outbox, "PROBE_EVERY", 0.01)


class Server:
    """A Bot API that answers each sendMessage as the script says: "ok", "502", "400",
    "hang" (never answers), "drop" (closes the connection without answering)."""

    def __init__(self, script: list[str]) -> None:
        self.script = script
        self.attempts = 0
        self.delivered = 0  # sendMessage calls that reached the server and were not refused
        self.forever = asyncio.Event()
        self.runner: web.AppRunner | None = None
        self.port = 0

    async def handle(self, request: web.Request) -> web.StreamResponse:
        method = request.match_info["method"]
        if method == "getMe":
            return web.json_response({"ok": True, "result": BOT_USER})
        self.attempts += 1
        step = self.script.pop(0) if self.script else "ok"
        if step == "502":
            return web.Response(status=502, text="<html>Bad Gateway</html>")
        if step == "400":
            return web.json_response({"ok": False, "error_code": 400,
                                      "description": "Bad Request: chat not found"}, status=400)
        if step == "drop":
            assert request.transport is not None
            request.transport.close()
            return web.Response(status=500)
        self.delivered += 1  # a hang: the message went out, only the answer never comes
        if step == "hang":
            await self.forever.wait()
        return web.json_response({"ok": True, "result": {
            "message_id": 1, "date": 0, "chat": {"id": 7, "type": "private"}, "text": "hi"}})

    async def __aenter__(self) -> Server:
        app = web.Application()
        app.router.add_route("*", "/bot{token}/{method}", self.handle)
        self.runner = web.AppRunner(app, access_log=None)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.forever.set()
        assert self.runner is not None
        await self.runner.cleanup()


async def real_bot(port: int) -> Bot:
    # short timeouts: a hang is an answer that never comes, so the timeout always fires
    request = HTTPXRequest(read_timeout=0.3, connect_timeout=2.0)
    bot = Bot(TOKEN, base_url=f"http://127.0.0.1:{port}/bot", request=request)
    await request.initialize()
    return bot


async def send_through(port: int, tmp_path, wait: float | None = None) -> tuple[str | None, Sender]:
    """One message posted to the outbox and sent by the sender with python-telegram-bot's own
    HTTP client; its outcome once done (None: still owed after ``wait`` seconds)."""
    bot = await real_bot(port)
    store = await Store.open(tmp_path / "retries.sqlite3")
    sender = Sender(bot, store, None)
    await sender.start()
    try:
        async with store.transaction() as tx:
            tx.post(7, {"text": "hi"}, priority=PRIORITY_ANSWER)
        try:
            await asyncio.wait_for(sender.settled(), wait)
        except TimeoutError:
            return None, sender
        rows = await store.outbox_counts()
        assert sum(rows.values()) == 1
        return next(iter(rows)), sender
    finally:
        await sender.stop(grace=0.1)
        await store.close()
        await bot.request.shutdown()


async def send_with(script: list[str], tmp_path) -> tuple[Server, str | None]:
    tmp_path.mkdir(exist_ok=True)
    async with Server(script) as server:
        outcome, _ = await send_through(server.port, tmp_path)
    return server, outcome


async def test_a_send_that_times_out_is_attempted_at_most_twice(tmp_path):
    server, outcome = await send_with(["hang", "hang", "hang", "hang", "hang"], tmp_path)
    assert outcome == "unconfirmed"
    assert server.attempts == 2 and server.delivered == 2


async def test_a_send_that_timed_out_once_then_goes_through_is_sent_twice(tmp_path):
    server, outcome = await send_with(["hang", "ok"], tmp_path)
    assert outcome == "sent" and server.attempts == 2


async def test_a_send_refused_with_502_is_retried_until_it_goes_through(tmp_path):
    server, outcome = await send_with(["502"] * 12, tmp_path)
    assert outcome == "sent"
    assert server.attempts == 13 and server.delivered == 1


async def test_a_server_hanging_up_before_answering_is_retried(tmp_path):
    server, outcome = await send_with(["drop"] * 6, tmp_path)
    assert outcome == "sent" and server.attempts == 7 and server.delivered == 1


async def test_502s_do_not_spend_the_one_retry_of_a_timeout(tmp_path):
    server, outcome = await send_with(["hang", "502", "502", "ok"], tmp_path)
    assert outcome == "sent" and server.attempts == 4 and server.delivered == 2
    server, outcome = await send_with(["502", "hang", "502", "hang", "ok"], tmp_path / "b")
    assert outcome == "unconfirmed"
    assert server.attempts == 4 and server.delivered == 2


async def test_a_bad_request_is_not_retried(tmp_path):
    server, outcome = await send_with(["400", "ok"], tmp_path)
    assert outcome == "refused" and server.attempts == 1


async def test_connection_refused_is_retried_for_as_long_as_it_lasts(tmp_path, monkeypatch):
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    errors: list[BaseException] = []
    real = Sender._outage

    def seen(self: Sender, exc: Exception) -> None:
        errors.append(exc)
        real(self, exc)

    monkeypatch.setattr(Sender, "_outage", seen)
    outcome, sender = await send_through(port, tmp_path, wait=1.0)
    assert outcome is None  # still owed: never given up
    assert sender._down  # the probes (getMe) still find nobody: the message waits
    assert len(errors) == 1 and isinstance(errors[0].__cause__, httpx.ConnectError)


def raised(exc: NetworkError, cause: BaseException | None) -> NetworkError:
    """``exc`` as python-telegram-bot raises it: ``raise exc from cause``."""
    try:
        raise exc from cause
    except NetworkError as e:
        return e


@pytest.mark.parametrize(("exc", "cause", "proven"), [
    (TimedOut(), httpx.ReadTimeout("read"), False),
    (TimedOut(), httpx.WriteTimeout("write"), False),
    (TimedOut(), httpx.ConnectTimeout("connect"), True),
    (TimedOut("Pool timeout"), httpx.PoolTimeout("pool"), True),
    (TimedOut(), None, False),
    (NetworkError("httpx.ConnectError"), httpx.ConnectError("refused"), True),
    (NetworkError("httpx.ReadError"), httpx.ReadError("reset"), False),
    (NetworkError("httpx.WriteError"), httpx.WriteError("broken pipe"), False),
    (NetworkError("httpx.RemoteProtocolError"),
     httpx.RemoteProtocolError("Server disconnected without sending a response."), True),
    (NetworkError("httpx.RemoteProtocolError"),
     httpx.RemoteProtocolError("peer closed connection without sending complete message body"),
     False),
    (NetworkError("Bad Gateway (502)"), None, True),  # an HTTP answer: no httpx cause
    (NetworkError("Bad Gateway (502)"), TelegramError("Invalid server response"), True),
    (NetworkError("Unknown error in HTTP implementation"), RuntimeError("?"), False),
])
def test_what_proves_a_message_was_not_delivered(exc, cause, proven):
    assert not_delivered(raised(exc, cause)) is proven


BOSS = Phone(1, "Olga")
READ_TIMEOUT = 1.0


@pytest.fixture
async def running(api, tmp_path):
    """The real bot against the fake Bot API, its organiser already greeted; stopped after."""
    # a 1 s read timeout (python-telegram-bot's is 5 s): the slow answers below take 2 s
    bot = BotProcess(api, tmp_path / "retries.sqlite3", CASTRILLO,
                     extra_env={"PUZZLEBOT_READ_TIMEOUT": str(READ_TIMEOUT)})
    await bot.start()
    try:
        assert await say(api, BOSS, "/start", datetime.now(UTC))
        yield bot
    finally:
        await bot.stop()


async def test_end_to_end_a_reply_that_times_out_is_sent_at_most_twice(api, running):
    """The real bot against the fake Bot API: Telegram takes longer than the bot's read
    timeout (PUZZLEBOT_READ_TIMEOUT, here 1 s) to answer, but does deliver. The bot sends the reply
    twice, then marks it "unconfirmed" (and logs it) instead of sending four more copies."""
    bot = running
    asked = await api.reply_to(BOSS.user(), "/voluntario", datetime.now(UTC))
    assert [c.method for c in asked] == ["sendMessage"]  # one message, the reply
    reply = asked[0].text
    api.failures.append(Failure("delay", count=2, delay=2 * READ_TIMEOUT,
                                method="sendMessage"))
    before = len(api.calls)
    api.send_message(BOSS.user(), "/voluntario", datetime.now(UTC))
    message = api._next_message

    def replies() -> list[str]:
        return [c.text for c in api.calls[before:]
                if c.chat_id == BOSS.id and c.replies_to == message]

    def gave_up() -> bool:
        return b"may not have arrived (TimedOut twice)" in bot.log

    assert await api.wait_until(lambda: len(replies()) >= 2 and gave_up(), 40)
    await api.settle(quiet=1.0, timeout=10)
    assert len(replies()) == 2, replies()  # both slow attempts got through, no third
    # the same reply twice (a second invitation: the link alone; the first also said where
    # the volunteers' lines go)
    assert len({r.split("start=")[0] for r in replies()}) == 1
    assert reply.split("start=")[0].endswith(replies()[0].split("start=")[0])
    assert not api.failures
    await bot.stop()
    assert bot.log.count(b"sending failed (TimedOut)") == 1
    assert b"error while handling an update" not in bot.log  # the handler was not held up


async def test_end_to_end_a_reply_refused_with_502_goes_through(api, running):
    bot = running
    api.failures.append(Failure("502", count=4, method="sendMessage"))
    # the invitation, once (a notice the bot owed the organiser since its start, such as
    # "Registrations are closed", may arrive in the same moment: it is not the reply)
    answer = [t for t in await say(api, BOSS, "/voluntario", datetime.now(UTC))
              if "start=" in t]
    assert len(answer) == 1
    assert not api.failures
    await bot.stop()
    # a 502 page is not Telegram's JSON: an outage (NotTelegram, a NetworkError), never a refusal
    assert bot.log.count(b"sending failed (NotTelegram)") == 1  # one line for the run of 4


def test_the_read_timeout_is_five_seconds_unless_set():
    env = {"TELEGRAM_BOT_TOKEN": "1:abc", "PUZZLEBOT_CONTEST": str(CASTRILLO)}
    assert parse_settings(env).read_timeout == 5.0
    assert parse_settings({**env, "PUZZLEBOT_READ_TIMEOUT": "0.5"}).read_timeout == 0.5
    for bad in ("0", "-1", "soon", "inf", "nan"):
        with pytest.raises(ConfigError, match="PUZZLEBOT_READ_TIMEOUT"):
            parse_settings({**env, "PUZZLEBOT_READ_TIMEOUT": bad})
