"""A fake Telegram Bot API server of our own, on loopback (aiohttp).

It speaks the methods the bot uses, accepts python-telegram-bot's form-encoded and multipart
requests, long-polls ``getUpdates`` with offsets, and checks every call against the official
spec (``bot/apispec/methods.json``, trimmed from the MIT-licensed telegram-bot-api-spec): an
unknown method, a missing required or unknown parameter, a text over 4096 characters or callback
data over 64 bytes is recorded as a violation and answered 400. Tests and the rehearsal inject
messages and button presses from any user with any date, read what the bot sent to any chat,
and can make it answer 429 (retry_after), 5xx, 409, slowly, or drop the connection. As Telegram
does, a getUpdates that arrives while another still waits ends the waiting one with 409
Conflict (two processes polling with one token).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import BodyPartReader, web
from telegram.request import BaseRequest, RequestData

from bot.rehearsal.apicheck import check_call, load_spec, spec

BOT_USER = {"id": 7000000001, "is_bot": True, "first_name": "PuzzleBot",
            "username": "puzzle_rehearsal_bot", "can_join_groups": True,
            "can_read_all_group_messages": False, "supports_inline_queries": False}
CONFLICT = ("Conflict: terminated by other getUpdates request; make sure that only one bot "
            "instance is running")
MESSAGE_RESULT = {"sendMessage", "editMessageText", "editMessageReplyMarkup", "sendDocument",
                  "sendPhoto", "editMessageCaption", "sendInvoice"}


@dataclass
class Call:
    method: str
    params: dict[str, Any]
    at: datetime
    update: tuple[int, str] | None = None  # the update being handled, when the caller knows

    @property
    def chat_id(self) -> int | None:
        v = self.params.get("chat_id")
        try:
            return int(v) if v is not None else None
        except (TypeError, ValueError):
            return None

    @property
    def text(self) -> str:
        return str(self.params.get("text", ""))

    @property
    def replies_to(self) -> int | None:
        """The message this one answers (``reply_parameters.message_id``), if it says."""
        found = self.params.get("reply_parameters")
        if isinstance(found, str):
            try:
                found = json.loads(found)
            except ValueError:
                return None
        if isinstance(found, dict) and isinstance(found.get("message_id"), int):
            return int(found["message_id"])
        return None

    def buttons(self) -> list[tuple[str, str]]:
        markup = self.params.get("reply_markup")
        if isinstance(markup, str):
            markup = json.loads(markup)
        out: list[tuple[str, str]] = []
        if isinstance(markup, dict):
            for row in markup.get("inline_keyboard", []):
                out.extend((b["text"], b.get("callback_data", "")) for b in row)
        return out


@dataclass
class Failure:
    """Answer the next ``count`` calls matching ``method`` (None: any but getUpdates; name
    ``getUpdates`` to fail polls) badly."""

    kind: str  # "429", "502", "404", "500" (a page echoing the token), "409", "delay", "drop"
    count: int = 1
    method: str | None = None
    retry_after: int = 1
    delay: float = 0.0
    # what a proxy or Telegram itself may answer instead (``FakeBotAPI._refuse``): "html200",
    # "html404", "html401" (a page from something in between), "json401" (Telegram refusing the
    # token), "blocked" (403: the person blocked the bot), "notmember" (403: the bot is not a
    # member of that channel), "notfound" (400: chat not found), "migrate" (400 with
    # migrate_to_chat_id ``new_chat_id``: from then on every call to that chat answers so, and
    # the new id is accepted), "429chat" (a 429 for one chat only: set ``chat_id``)
    chat_id: int | None = None  # only calls to this chat fail (None: any)
    seconds: float = 0.0  # > 0: every matching call fails for this long from the first, count aside
    new_chat_id: int = -1001234567890
    ends: float | None = field(default=None, repr=False)  # loop time a ``seconds`` window ends
    hits: int = field(default=0, repr=False)  # calls answered so


def answer(method: str, params: dict[str, Any], message_id: int,
           bot_user: dict[str, Any] = BOT_USER) -> Any:
    """What Telegram answers a valid call with (getUpdates: no update waiting)."""
    if method == "getMe":
        return bot_user
    if method in MESSAGE_RESULT:
        chat_id = int(params.get("chat_id", 0) or 0)
        message: dict[str, Any] = {
            "message_id": message_id,
            "date": int(datetime.now(UTC).timestamp()),
            "chat": {"id": chat_id, "type": "private" if chat_id > 0 else "group"},
            "from": bot_user,
        }
        if "text" in params:
            message["text"] = params["text"]
        if "caption" in params:
            message["caption"] = params["caption"]
        _sent_file(method, params, message, message_id)
        return message
    if method in ("getMyCommands", "getUpdates"):
        return []
    if method == "getWebhookInfo":
        return {"url": "", "has_custom_certificate": False, "pending_update_count": 0}
    return True


def _sent_file(method: str, params: dict[str, Any], message: dict[str, Any],
               message_id: int) -> None:
    """A photo or document sent: the file Telegram now holds, as it answers it (an id of its
    own for an upload, the same id for a file sent again by its id)."""
    field = {"sendPhoto": "photo", "sendDocument": "document"}.get(method)
    sent = params.get(field) if field else None
    if field is None or sent is None:
        return
    known = isinstance(sent, str) and not sent.startswith("attach://")
    file_id = sent if known else f"uploaded-{message_id}"
    held = {"file_id": file_id, "file_unique_id": f"u-{file_id}"}
    message[field] = [{**held, "width": 480, "height": 320}] if field == "photo" else held


class LocalBotAPI(BaseRequest):
    """The same fake Bot API as a python-telegram-bot request object, for an Application driven
    in-process (the tests' harness, the benchmark): every call answered locally, checked against
    the spec (a violation is recorded and answered 400) and recorded in ``calls`` (only counted
    with ``keep=False``). Subclasses can tag calls with the update being handled (``tag``) and
    see each one as it is made (``made``)."""

    def __init__(self, bot_user: dict[str, Any] = BOT_USER, keep: bool = True) -> None:
        self.bot_user = bot_user
        self.keep = keep
        self.calls: list[Call] = []
        self.count = 0
        self.violations: list[str] = []
        self._message_id = 10_000
        self._spec = spec()

    async def initialize(self) -> None:
        return None

    async def shutdown(self) -> None:
        return None

    @property
    def read_timeout(self) -> float | None:
        return 1.0

    def tag(self, params: dict[str, Any]) -> tuple[int, str] | None:
        return None

    def made(self, call: Call) -> None:
        return None

    async def do_request(
        self, url: str, method: str, request_data: RequestData | None = None,
        read_timeout: Any = None, write_timeout: Any = None, connect_timeout: Any = None,
        pool_timeout: Any = None,
    ) -> tuple[int, bytes]:
        api_method = url.rsplit("/", 1)[-1]
        params = dict(request_data.parameters) if request_data is not None else {}
        if request_data is not None and request_data.contains_files:
            for name, part in (request_data.multipart_data or {}).items():
                if name not in params:
                    params[name] = {"file": part[0], "bytes": part[1]}  # (filename, content, ..)
        problem = check_call(self._spec, api_method, params)
        if problem is not None:
            self.violations.append(problem)
            return 400, json.dumps({"ok": False, "error_code": 400,
                                    "description": f"Bad Request: {problem}"}).encode()
        self.count += 1
        call = Call(api_method, params, datetime.now(UTC), self.tag(params))
        if self.keep:
            self.calls.append(call)
        if api_method in MESSAGE_RESULT:
            self._message_id += 1
        result = answer(api_method, params, self._message_id, self.bot_user)
        self.made(call)
        return 200, json.dumps({"ok": True, "result": result}).encode()

    def sent(self, chat_id: int | None = None) -> list[str]:
        return [c.text for c in self.calls
                if c.method == "sendMessage" and (chat_id is None or c.chat_id == chat_id)]


@dataclass
class FakeBotAPI:
    token: str = "123456:REHEARSAL-token-not-secret-abcdefghij"
    host: str = "127.0.0.1"
    calls: list[Call] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)
    failures: deque[Failure] = field(default_factory=deque)
    on_call: Callable[[Call], None] | None = None
    max_poll: float = 1.0  # longest a getUpdates long poll is held (Telegram: the bot's timeout)
    quiet: float = 0.05  # how long the bot must be silent before the next message is sent
    webhook_url: str = ""  # a webhook someone set on the bot (getWebhookInfo says it)

    def __post_init__(self) -> None:
        self.spec = load_spec()
        self._updates: list[dict[str, Any]] = []
        self._confirmed = 0  # highest update_id the bot confirmed with an offset
        self.deliveries: dict[int, int] = {}  # update_id -> times handed out by getUpdates
        self._next_update = 1
        self._next_message = 1
        self.last_message = 0  # the last message a person sent (or whose button they pressed)
        self.last_update = 0  # the update that carried it
        self._changed = asyncio.Event()
        self._polls = 0  # getUpdates calls begun: a waiting one that is not the last is ended
        self.conflicts = 0  # polls answered 409 Conflict
        self._runner: web.AppRunner | None = None
        self.port = 0
        self.migrated: dict[int, int] = {}  # groups upgraded to a supergroup: old id -> new
        self._quiet_at = -1  # len(calls) when the bot was last found silent (settle)

    # -- server --------------------------------------------------------------------------------

    async def start(self, port: int = 0) -> str:
        app = web.Application(client_max_size=20 * 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, port)
        await site.start()
        server = site._server
        assert server is not None
        sockets = getattr(server, "sockets", None) or []
        self.port = sockets[0].getsockname()[1]
        return self.base_url

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}/bot"

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _params(self, request: web.Request) -> dict[str, Any]:
        params: dict[str, Any] = dict(request.query)
        if request.method != "POST" or not request.can_read_body:
            return params
        ctype = request.content_type
        if ctype == "application/json":
            body = await request.json()
            if isinstance(body, dict):
                params.update(body)
        elif ctype.startswith("multipart/"):
            reader = await request.multipart()
            async for part in reader:
                if not isinstance(part, BodyPartReader) or part.name is None:
                    continue
                if getattr(part, "filename", None):
                    params[part.name] = {"filename": part.filename, "bytes": await part.read()}
                else:
                    params[part.name] = await part.text()
        else:
            form = await request.post()
            params.update({k: v for k, v in form.items() if isinstance(v, str)})
        return params

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        method = request.match_info["method"]
        if request.match_info["token"] != self.token:
            return web.json_response({"ok": False, "error_code": 401,
                                      "description": "Unauthorized"}, status=401)
        params = await self._params(request)
        moved = self._moved_answer(params)
        if moved is not None:
            return moved
        if method != "getUpdates" or (self.failures and self.failures[0].method == method):
            failure = self._take_failure(method, params)
            if failure is not None and failure.kind == "delay":
                await asyncio.sleep(failure.delay)
            elif failure is not None:
                return await self._fail(request, failure)
        problem = check_call(self.spec, method, params)
        if problem is not None:
            self.violations.append(problem)
            return web.json_response({"ok": False, "error_code": 400,
                                      "description": f"Bad Request: {problem}"}, status=400)
        if method == "getUpdates":
            updates = await self._get_updates(params)
            if updates is None:
                return self._conflict()
            return web.json_response({"ok": True, "result": updates})
        call = Call(method, params, datetime.now(UTC))
        self.calls.append(call)
        self._changed.set()
        if self.on_call is not None:
            self.on_call(call)
        return web.json_response({"ok": True, "result": self._result(method, params)})

    def _take_failure(self, method: str, params: dict[str, Any] | None = None) -> Failure | None:
        if not self.failures:
            return None
        f = self.failures[0]
        if f.method is not None and f.method != method:
            return None
        if f.chat_id is not None and str((params or {}).get("chat_id")) != str(f.chat_id):
            return None
        if f.seconds > 0:
            now = asyncio.get_running_loop().time()
            if f.ends is None:
                f.ends = now + f.seconds
            if now < f.ends:
                f.hits += 1
                return f
            self.failures.popleft()
            return self._take_failure(method, params)
        f.count -= 1
        if f.count <= 0:
            self.failures.popleft()
        return f

    async def _fail(self, request: web.Request, f: Failure) -> web.StreamResponse:
        if f.kind == "429":
            return web.json_response(
                {"ok": False, "error_code": 429, "description": "Too Many Requests: retry "
                 f"after {f.retry_after}", "parameters": {"retry_after": f.retry_after}},
                status=429)
        if f.kind == "502":
            return web.Response(status=502, text="Bad Gateway")
        if f.kind == "409":
            return self._conflict()
        if f.kind == "404":
            return web.json_response({"ok": False, "error_code": 404,
                                      "description": "Not Found"}, status=404)
        refused = self._refuse(f)
        if refused is not None:
            return refused
        if f.kind == "500":  # an error page that echoes the request, token included
            return web.Response(status=500, text=f"<html>Internal error at {request.path} "
                                f"(token {self.token})</html>")
        transport = request.transport
        if transport is not None:
            transport.close()
        return web.Response(status=500)

    def _refuse(self, f: Failure) -> web.StreamResponse | None:
        """The kinds a proxy in between or Telegram's own refusals answer (see ``Failure``)."""
        page = "<html><head><title>{}</title></head><body>nginx</body></html>"
        if f.kind in ("html200", "html404", "html401"):
            status = int(f.kind[4:])
            return web.Response(status=status, text=page.format(status),
                                content_type="text/html")
        if f.kind == "json401":
            return web.json_response({"ok": False, "error_code": 401,
                                      "description": "Unauthorized"}, status=401)
        if f.kind == "blocked":
            return web.json_response({"ok": False, "error_code": 403, "description":
                                      "Forbidden: bot was blocked by the user"}, status=403)
        if f.kind == "notmember":
            return web.json_response({"ok": False, "error_code": 403, "description":
                                      "Forbidden: bot is not a member of the channel chat"},
                                     status=403)
        if f.kind == "notfound":
            return web.json_response({"ok": False, "error_code": 400, "description":
                                      "Bad Request: chat not found"}, status=400)
        if f.kind == "429chat":
            return web.json_response(
                {"ok": False, "error_code": 429, "description": "Too Many Requests: retry "
                 f"after {f.retry_after}", "parameters": {"retry_after": f.retry_after}},
                status=429)
        if f.kind == "migrate" and f.chat_id is not None:
            self.migrated[f.chat_id] = f.new_chat_id
            return self._migrate_answer(f.new_chat_id)
        return None

    @staticmethod
    def _migrate_answer(new_chat_id: int) -> web.StreamResponse:
        return web.json_response(
            {"ok": False, "error_code": 400, "description": "Bad Request: group chat was "
             "upgraded to a supergroup chat", "parameters": {"migrate_to_chat_id": new_chat_id}},
            status=400)

    def _moved_answer(self, params: dict[str, Any]) -> web.StreamResponse | None:
        """A group upgraded to a supergroup answers every call to its old id so."""
        if not self.migrated:
            return None
        with contextlib.suppress(ValueError, TypeError):
            new = self.migrated.get(int(params.get("chat_id", 0) or 0))
            if new is not None:
                return self._migrate_answer(new)
        return None

    def _result(self, method: str, params: dict[str, Any]) -> Any:
        if method == "getWebhookInfo" and self.webhook_url:
            return {"url": self.webhook_url, "has_custom_certificate": False,
                    "pending_update_count": len(self._updates)}
        if method in MESSAGE_RESULT:
            self._next_message += 1
        return answer(method, params, self._next_message)

    def _conflict(self) -> web.Response:
        """Telegram's answer to a poll ended by a newer one (the same token polled twice)."""
        self.conflicts += 1
        return web.json_response({"ok": False, "error_code": 409, "description": CONFLICT},
                                 status=409)

    def _new_poll(self) -> int:
        """A getUpdates begins: as Telegram does, the one still waiting, if any, is ended and
        answered 409 Conflict (the newer poll wins). Returns this poll's number."""
        self._polls += 1
        self._changed.set()  # wakes the waiting one, which sees it is no longer the newest
        return self._polls

    async def _get_updates(self, params: dict[str, Any]) -> list[dict[str, Any]] | None:
        """The updates for this poll; None when a newer poll ended it (409 Conflict)."""
        poll = self._new_poll()
        offset = int(params.get("offset", 0) or 0)
        if offset > 0:
            self._confirmed = max(self._confirmed, offset - 1)
            self._updates = [u for u in self._updates if u["update_id"] >= offset]
        timeout = float(params.get("timeout", 0) or 0)
        limit = int(params.get("limit", 100) or 100)
        deadline = asyncio.get_running_loop().time() + min(timeout, self.max_poll)
        while not self._updates:
            if poll != self._polls:
                return None
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                return []
            self._changed.clear()
            try:
                await asyncio.wait_for(self._changed.wait(), remaining)
            except TimeoutError:
                return [] if poll == self._polls else None
        if poll != self._polls:
            return None
        batch = self._updates[:limit]
        for u in batch:
            self.deliveries[u["update_id"]] = self.deliveries.get(u["update_id"], 0) + 1
        return batch

    # -- what tests and the rehearsal do -------------------------------------------------------

    def _push(self, payload: dict[str, Any]) -> int:
        update_id = self._next_update
        self._next_update += 1
        payload["update_id"] = update_id
        self.last_update = update_id
        self._updates.append(payload)
        self._changed.set()
        return update_id

    @staticmethod
    def user(user_id: int, name: str, lang: str = "es") -> dict[str, Any]:
        return {"id": user_id, "is_bot": False, "first_name": name, "language_code": lang}

    def send_message(self, user: dict[str, Any], text: str, date: datetime,
                     chat_id: int | None = None) -> int:
        """A person sends ``text`` to the bot at ``date``; returns the update id."""
        self._next_message += 1
        message: dict[str, Any] = {
            "message_id": self._next_message, "date": int(date.timestamp()),
            "chat": {"id": chat_id if chat_id is not None else user["id"], "type": "private"},
            "from": user, "text": text,
        }
        if text.startswith("/"):
            message["entities"] = [{"type": "bot_command", "offset": 0,
                                    "length": len(text.split()[0])}]
        self.last_message = self._next_message
        return self._push({"message": message})

    def send_photo(self, user: dict[str, Any], file_id: str, date: datetime,
                   caption: str | None = None) -> int:
        """A person sends a photo at ``date`` (Telegram's sizes, smallest first; the largest
        is ``file_id``, which the bot may send on by that id); returns the update id."""
        self._next_message += 1
        message: dict[str, Any] = {
            "message_id": self._next_message, "date": int(date.timestamp()),
            "chat": {"id": user["id"], "type": "private"}, "from": user,
            "photo": [{"file_id": f"{file_id}-s", "file_unique_id": f"u{file_id}-s",
                       "width": 90, "height": 67},
                      {"file_id": file_id, "file_unique_id": f"u{file_id}",
                       "width": 1280, "height": 960}],
        }
        if caption is not None:
            message["caption"] = caption
        self.last_message = self._next_message
        return self._push({"message": message})

    def press(self, user: dict[str, Any], data: str, date: datetime | None = None) -> int:
        """A person taps an inline button with ``data`` (on a message dated ``date``)."""
        self._next_message += 1
        self.last_message = self._next_message
        when = date or datetime.now(UTC)
        return self._push({"callback_query": {
            "id": str(self._next_message), "from": user, "chat_instance": "1", "data": data,
            "message": {"message_id": self._next_message, "date": int(when.timestamp()),
                        "chat": {"id": user["id"], "type": "private"}, "from": BOT_USER,
                        "text": "?"},
        }})

    def pre_checkout(self, user: dict[str, Any], payload: str, amount: int,
                     currency: str = "EUR") -> int:
        """The person confirms paying an invoice: Telegram's pre-checkout query (answered by
        ``answerPreCheckoutQuery`` with its id, the update id as text); returns the update id."""
        return self._push({"pre_checkout_query": {
            "id": f"pcq{self._next_update}", "from": user, "currency": currency,
            "total_amount": amount, "invoice_payload": payload}})

    def checkout_answer(self, update_id: int) -> Call | None:
        """The bot's answer to the pre-checkout query of update ``update_id``, if given."""
        return next((c for c in self.calls if c.method == "answerPreCheckoutQuery"
                     and c.params.get("pre_checkout_query_id") == f"pcq{update_id}"), None)

    def successful_payment(self, user: dict[str, Any], payload: str, amount: int,
                           date: datetime, charge: str, currency: str = "EUR") -> int:
        """Telegram took the payment: its service message, dated ``date``, in the payer's
        chat; returns the update id."""
        self._next_message += 1
        self.last_message = self._next_message
        return self._push({"message": {
            "message_id": self._next_message, "date": int(date.timestamp()),
            "chat": {"id": user["id"], "type": "private"}, "from": user,
            "successful_payment": {
                "currency": currency, "total_amount": amount, "invoice_payload": payload,
                "telegram_payment_charge_id": charge,
                "provider_payment_charge_id": f"provider-{charge}"}}})

    def sent(self, chat_id: int | None = None) -> list[Call]:
        return [c for c in self.calls if c.method in ("sendMessage", "sendDocument")
                and (chat_id is None or c.chat_id == chat_id)]

    def pending_updates(self) -> int:
        return len(self._updates)

    def confirmed_update(self) -> int:
        return self._confirmed

    def handled(self) -> bool:
        """Whether the bot has confirmed every update it was given (an offset past the last
        one): it confirms an update once it is handled and its answers sent
        (``bot.chat.polling``)."""
        return self._confirmed >= self._next_update - 1

    async def wait_until(self, condition: Callable[[], bool], timeout: float = 10.0) -> bool:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not condition():
            if loop.time() >= deadline:
                return False
            self._changed.clear()
            try:
                # woken by any call; also looked at every 5 ms, for a condition on the bot's
                # own state (its database: an outbox row marked sent just after its call)
                await asyncio.wait_for(self._changed.wait(), min(0.005, deadline - loop.time()))
            except TimeoutError:
                pass
        return True

    async def settle(self, quiet: float | None = None, timeout: float = 5.0) -> None:
        """Wait until the bot has been silent for ``quiet`` seconds (its copies to partners,
        staff lines and other follow-ups of the last message have arrived)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            seen = len(self.calls)
            await asyncio.sleep(self.quiet if quiet is None else quiet)
            if len(self.calls) == seen and not self._updates:
                self._quiet_at = seen
                return

    async def _settle_unless_quiet(self) -> None:
        """``settle`` unless the bot was found silent since its last call, nothing sent since:
        the quiet period after one answer is the one before the next message."""
        if self._quiet_at != len(self.calls) or self._updates:
            await self.settle()

    async def reply_to(self, user: dict[str, Any], text: str, date: datetime,
                       timeout: float = 10.0, done: Callable[[], bool] | None = None
                       ) -> list[Call]:
        """Send a message and wait for the bot's answer to it; returns the calls made to that
        person's chat, the answers first (those replying to this message: the bot quotes the
        message it answers, so a volunteers' line or a notice sent to the same chat meanwhile is
        never taken for the answer). ``done``: the bot has said all it will about it (its
        state, read by the caller), so waiting longer would find nothing more."""
        await self._settle_unless_quiet()
        before = len(self.calls)
        self.send_message(user, text, date)
        return await self._answers(user["id"], self._next_message, before, timeout, done)

    async def photo_and_wait(self, user: dict[str, Any], file_id: str, date: datetime,
                             timeout: float = 10.0, done: Callable[[], bool] | None = None
                             ) -> list[Call]:
        """Send a photo and wait for the bot's answer to it (as ``reply_to``)."""
        await self._settle_unless_quiet()
        before = len(self.calls)
        self.send_photo(user, file_id, date)
        return await self._answers(user["id"], self._next_message, before, timeout, done)

    async def pay_and_wait(self, user: dict[str, Any], payload: str, amount: int, date: datetime,
                           charge: str, currency: str = "EUR", timeout: float = 10.0,
                           done: Callable[[], bool] | None = None) -> list[Call]:
        """The person pays an invoice: Telegram's pre-checkout query, answered (Telegram charges
        only on ``ok``), then the successful payment's message dated ``date``; the calls to
        that person's chat, the bot's answer to the payment first (none when the checkout was
        refused)."""
        await self._settle_unless_quiet()
        query = self.pre_checkout(user, payload, amount, currency)
        await self.wait_until(lambda: self.checkout_answer(query) is not None, timeout)
        answer = self.checkout_answer(query)
        if answer is None or str(answer.params.get("ok")).lower() not in ("true", "1"):
            return []
        before = len(self.calls)
        self.successful_payment(user, payload, amount, date, charge, currency)
        return await self._answers(user["id"], self._next_message, before, timeout, done)

    async def press_and_wait(self, user: dict[str, Any], data: str,
                             date: datetime | None = None, timeout: float = 10.0,
                             answer_timeout: float = 3.0, done: Callable[[], bool] | None = None
                             ) -> list[Call]:
        """Tap a button and wait for the bot's answer (replying to the message carrying it);
        a tap answered only by a toast or an edited keyboard waits ``answer_timeout`` once its
        update is confirmed."""
        await self._settle_unless_quiet()
        before = len(self.calls)
        update_id = self.press(user, data, date)
        message_id = self._next_message  # the message carrying the button
        await self.wait_until(lambda: self._confirmed >= update_id, timeout)
        return await self._answers(user["id"], message_id, before,
                                   answer_timeout if done is None else timeout, done)

    async def _answers(self, chat: int, message_id: int, before: int, timeout: float,
                       done: Callable[[], bool] | None = None) -> list[Call]:
        def answered() -> bool:
            return any(c.chat_id == chat and c.replies_to == message_id
                       for c in self.calls[before:])

        # answered, or ``done`` (the bot's state: nothing more to come), so a slow machine
        # waits longer, never gives up sooner; ``timeout`` bounds a bot that hangs
        await self.wait_until(lambda: answered() or (done is not None and done()), timeout)
        # a long answer comes in several parts: the rest follow at once
        await self.settle()
        mine = [c for c in self.calls[before:] if c.chat_id == chat]
        return ([c for c in mine if c.replies_to == message_id]
                + [c for c in mine if c.replies_to != message_id])
