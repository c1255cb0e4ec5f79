"""The sender: every message the bot owes, sent from the outbox in priority order within
Telegram's limits, retried for as long as Telegram is unreachable, in order within each chat.

Where messages come from (docs/invariants.md, "The outbox"):

- A handler that records something posts the messages reporting it (the answer, the partner's
  copy, the volunteers' line...) with ``Transaction.post``, in the same transaction as the
  event. The store hands them here once that transaction is committed (``Store.on_posted``):
  a message exists if and only if what it reports does. At start, every message still owed
  is read back from the database (``Sender.start``).
- An answer that reports nothing recorded (a refusal, ``/billetes``, ``/clasificacion``) is
  not stored: within its chat's budget (``admit_answer``), ``Sender.answer`` queues it first in
  line, and the update processor waits (a while, once the handler has returned, holding no
  handling place and not its chat's turn) until it is sent, so the update is confirmed to
  Telegram only after that; a crash before then means Telegram delivers the update again and
  it is answered again.

How they go:

- One message in flight per chat, each chat's messages in the order they came.
- Among the chats with something to send, the one holding the most urgent message goes first:
  priority 0, the answer to the person who just asked, then 1 (partners' copies, volunteers'
  lines), then 2 (notices and announcements to many). A chat inherits the priority of the
  most urgent message it holds, since its earlier messages must go before it. While several
  kinds wait, each has its share of the sends (``SHARES``, 4:2:1): answers by the hundred
  never hold back the copies and the volunteers' lines.
- ``Limits``: at most ``overall`` messages a second in all, ``private`` a second per private
  chat and ``group`` a second per group (Telegram's 30/s, 1/s and 20/min), each with a small
  burst; answers to a chat may use a bigger burst (``answer_burst``). Volunteers' lines
  waiting for the same chat go out joined in one message. Among answers, the chat answered
  least recently goes first: one account sending 150 messages does not push anyone else's
  answer back.
- Answers that report nothing recorded have a budget per chat (``admit_answer``): that chat's
  pace with ``answer_burst``. A chat sending faster than that (a phone sending ``/billetes``
  ten times a second) is told once that the bot will answer again in a while, and the rest of
  such answers are dropped (nothing was recorded: asking again gets it) until it slows down;
  it gets about what Telegram allows a chat, and no answer of it waits long.
- Refusals of commands an account may not use (a stranger's /pista) have a budget per chat
  (``admit``): ``refusal_burst`` at once, then one every ``refusal_every`` seconds. A chat
  over it is told once that the bot will answer again in a while, then not answered until its
  budget comes back: refusals to a flooding account are not worth Telegram's shared 30 a
  second, and its updates, answered or not, end at once (Telegram hands the bot the next ones
  only as the first ones end).
- Failures, each by what it proves (``_send``):
  - Telegram's own refusal of the message for that chat (its JSON with 403: blocked, kicked;
    400: chat not found, message too long, entities it cannot parse...): the message is
    dropped, marked "refused: ..." and logged, and the organisers are told, one line per drop
    (joined when several wait), at the lowest priority (never about a message to an
    organiser: no loop);
  - an outage: no answer, a 5xx, a timeout before anything was sent, or an answer that is not
    Telegram's JSON (a proxy's or a hotel network's page, with any status: 200, 401, 404...,
    ``NotTelegram``, raised by ``TelegramOnlyRequest``): nothing is marked; sending stops and
    a cheap ``getMe`` probes every ``PROBE_EVERY`` seconds; the first probe Telegram answers
    resumes sending at once, at the flood limit, the most urgent first;
  - a failure that may have delivered the message (a timeout once sent) is retried once,
    then the message is marked "unconfirmed" (logged), never sent a third time;
  - a 429 waits what Telegram asks (at most ``RETRY_AFTER_CAP``), for the chat it was for;
    every chat waits only when several chats got one within a second (the overall limit);
  - ``ChatMigrated`` (a group upgraded to a supergroup): the move is kept in the database,
    the message and every later one go to the new id (also after a restart), and the
    organisers are told;
  - the token refused by Telegram itself (its JSON with 401, or 404 for a malformed token):
    sending stops for good, with one ERROR line; what is owed stays in the database.
- Every message that was stored is marked done in the database (in batches, through the
  writer's group commit); rows done over an hour ago are pruned. A crash after Telegram took
  a message and before its mark is written sends it again at start: at least once, never
  lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import json
import logging
import re
import warnings
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from telegram import Bot
from telegram.error import (
    BadRequest,
    ChatMigrated,
    EndPointNotFound,
    Forbidden,
    InvalidToken,
    NetworkError,
    RetryAfter,
    TelegramError,
    TimedOut,
)
from telegram.request import HTTPXRequest
from telegram.warnings import PTBDeprecationWarning, PTBUserWarning

from bot.storage.store import (
    OUTBOX_KEEP_SECONDS,
    PRIORITY_ANSWER,
    PRIORITY_BULK,
    OutboxMessage,
    Store,
)
from bot.support.i18n import tr
from bot.texts.common import message_parts

log = logging.getLogger(__name__)

# The sender calls ``Bot.do_api_request``, which builds no Message from Telegram's answer
# (nothing reads it, and parsing it costs more than the rest of a reply); PTB suggests
# ``send_message`` instead. Filtered once here: ``warnings.catch_warnings`` around each send
# would swap the process's filters at every call, and is not safe across concurrent sends.
warnings.filterwarnings("ignore", message=r"Please use 'Bot\.\w+' instead",
                        category=PTBUserWarning)

MAYBE_DELIVERED_RETRIES = 1  # a send that may have gone through is sent again at most once
# while Telegram is out of reach, a getMe every this many seconds (each given at most
# PROBE_TIMEOUT): the first one answered resumes sending
PROBE_EVERY, PROBE_TIMEOUT = 0.5, 1.5
RETRY_AFTER_CAP = 60.0  # the longest a 429's retry_after is waited
# 429s for this many different chats within GLOBAL_429_WINDOW seconds: the overall limit, so
# every chat waits; fewer: only the chats they were for
GLOBAL_429_CHATS, GLOBAL_429_WINDOW = 3, 1.0
# the sender's sends pass this as ``rate_limit_args``: the application's rate limiter lets
# them through untouched (the sender keeps to Telegram's limits itself, and a 429 for one chat
# must not hold every request, as AIORateLimiter's retries do)
SELF_PACED = -1
DROPPED = "dropped"  # the grouping of the organisers' lines about messages dropped
Organisers = Callable[[], Awaitable[list[tuple[int, str]]]]
NameOf = Callable[[int], Awaitable[str | None]]
MESSAGE_LIMIT = 4096  # Telegram's longest message: joined lines stay under it
IN_FLIGHT = 16  # sends under way at once (to different chats)
PRUNE_EVERY = 600.0  # seconds between prunings of the rows done long ago
BUDGETS_KEPT = 10_000  # chats' answer budgets kept before the whole ones are forgotten
# Marks wait (at most this long) for a batch of the writer's to join, sharing its fsync, rather
# than costing one each: longer while messages are still going out, short once all are out. A
# crash in that window sends those messages again at start (at least once, never lost).
MARK_WAIT_BUSY, MARK_WAIT_IDLE = 0.25, 0.02
STAFF_GAP = 1.0  # while updates are being handled, volunteers' lines go at most this often
# Each kind of message's share of the overall limit while every kind has something waiting
# (priority 0 answers, 1 partners' copies and volunteers' lines, 2 announcements): 4/7, 2/7 and
# 1/7 of Telegram's 28 a second. A kind with nothing waiting leaves its share to the others,
# and banks nothing meanwhile: an answer after a quiet moment still goes first
SHARES = (4, 2, 1)
# The chat id of a volunteers' line for every volunteer and organiser, one row for all of them
# (Telegram's chat ids are never 0): ``params["texts"]`` holds the line in each language, and
# the sender works out who gets it, in which language, when it sends it (``recipients``). One
# row, not one per volunteer, is written while the writer's lock is held. A crash half-way
# through sends it again to all of them.
EVERY_VOLUNTEER = 0
Recipients = Callable[[], Awaitable[list[tuple[int, str]]]]

# httpx errors that python-telegram-bot 22 (HTTPXRequest.do_request) turns into NetworkError or
# TimedOut and that prove the request never reached Telegram: no connection was made, or none
# was free in the pool (PTB's own message says "Request was *not* sent to Telegram")
_NEVER_SENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)
# httpcore's words when the server closes the connection before the first byte of an answer
# (httpcore/_async/http11.py, which says it treats the case "as a ConnectError"): what a server
# does with a keep-alive connection it had already closed when our request went out. Telegram
# answers what it accepted, and a proxy that lost its backend answers 502; a connection lost
# on the way (the hall's 4G) ends in a read timeout instead, or a reset, both counted below as
# possibly delivered
_HUNG_UP = "Server disconnected without sending a response"


class NotTelegram(NetworkError):
    """An HTTP answer that is not Telegram's JSON, whatever its status (a proxy's page, a hotel
    network's login page): it proves nothing about the message, so it is retried as an
    outage (``not_delivered``: nothing was delivered, no cause)."""


_TELEGRAM_JSON = re.compile(rb'\s*\{\s*"ok"\s*:')


def telegram_json(payload: bytes) -> bool:
    """Whether an HTTP answer is Telegram's JSON: an object with a boolean "ok" (Telegram's
    answers start with it: checked first, without parsing the whole answer)."""
    if _TELEGRAM_JSON.match(payload):
        return True
    try:
        data = json.loads(payload)
    except ValueError:
        return False
    return isinstance(data, dict) and isinstance(data.get("ok"), bool)


class TelegramOnlyRequest(HTTPXRequest):
    """PTB's HTTPX request, but an answer that is not Telegram's JSON raises ``NotTelegram``
    (a ``NetworkError``). PTB itself turns a 200 HTML page into a bare ``TelegramError``
    ("Invalid server response"), a 404 or 401 page into ``InvalidToken`` (``EndPointNotFound``
    from ``do_api_request``) and a 400 page into ``BadRequest``: all of which read as
    Telegram's refusals, though Telegram never saw the request."""

    async def do_request(self, *args: Any, **kwargs: Any) -> tuple[int, bytes]:
        code, payload = await super().do_request(*args, **kwargs)
        if not telegram_json(payload):
            raise NotTelegram(f"HTTP {code} with an answer that is not Telegram's (something "
                              "between the bot and Telegram answered)")
        return code, payload


def not_delivered(exc: NetworkError) -> bool:
    """Whether a failed send proves the message was not delivered, so that sending it again
    cannot make a duplicate. How python-telegram-bot 22 raises what we catch:

    - ``HTTPXRequest.do_request``: an ``httpx.TimeoutException`` becomes ``TimedOut`` and any
      other ``httpx.HTTPError`` a ``NetworkError``, each ``from`` the httpx error;
    - ``BaseRequest._request_wrapper``: an HTTP answer that is not 2xx (nor 400 ``BadRequest``,
      401/403/404/409, nor a 429 with ``retry_after``, ``RetryAfter``) becomes a
      ``NetworkError`` raised with no httpx cause (at most the ``TelegramError`` of an answer
      that was not JSON, such as a proxy's 502 page).

    Proof that it was not delivered: could not connect (refused, unreachable, DNS, connect
    timeout), no free connection (pool timeout), an error answer from the server (5xx), or
    the server hanging up before answering anything (``_HUNG_UP``). Anything else may have
    been delivered: a read timeout (Telegram may still be sending it), a write that failed
    half-way, a connection reset or cut in the middle of the answer, an unknown error.
    """
    cause = exc.__cause__
    if isinstance(cause, _NEVER_SENT):
        return True
    if isinstance(cause, httpx.RemoteProtocolError) and str(cause).startswith(_HUNG_UP):
        return True
    if isinstance(exc, TimedOut):
        return False
    return cause is None or isinstance(cause, TelegramError)  # the server answered an error


@dataclass(frozen=True)
class Limits:
    """Telegram's flood limits, as rates (messages a second) with a small burst each."""

    overall: float = 28.0  # Telegram: about 30 a second in all; AIORateLimiter holds 30
    private: float = 1.0  # a private chat: about one a second
    group: float = 20 / 60  # a group: 20 a minute
    burst: int = 3  # per chat; overall: ``overall_burst``
    overall_burst: int = 5
    # answers may dip further into their chat's burst than what the bot sends by itself (a
    # person asking three things at once gets three answers at once): this many at once in a
    # private chat, ``group_answer_burst`` in a group (python-telegram-bot's AIORateLimiter
    # lets a group have its 20 a minute at once). Answers that report nothing recorded are
    # admitted to the same budget (``Sender.admit_answer``): the rest are told once and dropped
    answer_burst: int = 5
    group_answer_burst: int = 20
    refusal_burst: int = 5  # refusals of commands an account may not use, per chat...
    refusal_every: float = 15.0  # ...then one every this many seconds (``Sender.admit``)

    def faster(self, speed: float) -> Limits:
        """The same limits for a clock running ``speed`` times faster (a rehearsal's): Telegram's
        rates per simulated second, so that a notice waits in the rehearsal what it would wait on
        the day (at real rates, one second between two messages to a chat would be ten
        simulated minutes)."""
        return replace(self, overall=self.overall * speed, private=self.private * speed,
                       group=self.group * speed, refusal_every=self.refusal_every / speed)


TELEGRAM_LIMITS = Limits()


class _Pace:
    """One rate with a burst (the generic cell rate algorithm): ``wait(now)`` says how long
    until the next message may go, ``took(now)`` counts one."""

    __slots__ = ("_interval", "_slack", "_tat")

    def __init__(self, rate: float, burst: int) -> None:
        self._interval = 1.0 / rate
        self._slack = self._interval * (burst - 1)
        self._tat = 0.0  # theoretical arrival time of the next message

    def wait(self, now: float, extra: int = 0) -> float:
        """``extra``: messages more than the burst that this one may dip into."""
        return max(0.0, self._tat - self._slack - extra * self._interval - now)

    def took(self, now: float) -> None:
        self._tat = max(self._tat, now) + self._interval

    def give_back(self) -> None:
        """The last one taken did not go (Telegram out of reach): it costs nothing."""
        self._tat -= self._interval

    def whole(self, now: float) -> bool:
        """Nothing taken lately: the full burst is available."""
        return self._tat <= now


class _Item:
    __slots__ = ("ambiguous", "answered", "message", "row")

    def __init__(self, message: OutboxMessage, answered: asyncio.Future[str] | None = None,
                 row: int | None = None) -> None:
        self.message = message
        self.answered = answered  # an answer not stored: its handler waits on this
        self.ambiguous = 0  # failures that may have delivered it
        self.row = message.id if row is None else row  # the outbox row it comes from


class Sender:
    """Sends what the bot owes (see the module's doc). ``limits`` None: no pacing (the tests'
    and the benchmark's fake Bot API, which has no flood limits)."""

    def __init__(self, bot: Bot, store: Store, limits: Limits | None = TELEGRAM_LIMITS,
                 quiet: asyncio.Event | None = None,
                 recipients: Recipients | None = None, staff_gap: float = STAFF_GAP,
                 organisers: Organisers | None = None, name_of: NameOf | None = None,
                 on_moved: Callable[[int, int], None] | None = None) -> None:
        self._bot = bot
        self.store = store
        self._limits = limits
        self._chats: dict[int, deque[_Item]] = {}
        # each chat's most urgent priority waiting (kept as items come and go: a chat's
        # earlier messages go first, so the chat as a whole has that urgency)
        self._urgency: dict[int, int] = {}
        self._busy: set[int] = set()  # chats with a send under way
        self._paces: dict[int, _Pace] = {}
        # answers reporting nothing recorded, per chat (``admit``); and the chats told that
        # they were over it, until their budget is whole again
        self._budgets: dict[int, _Pace] = {}
        self._told_over: set[int] = set()
        # every answer reporting nothing recorded, per chat (``admit_answer``): the chat's own
        # Telegram rate; and the chats told they were over it
        self._answer_budgets: dict[int, _Pace] = {}
        self._told_answers: set[int] = set()
        # the send budget's shares (``SHARES``), as self-clocked fair queuing: each waiting
        # kind's tag is when its next send would end in virtual time (a send of a kind costs
        # 1/share of it), fixed while the kind keeps waiting; the lowest tag goes next, the
        # most urgent among equals. A kind that starts waiting (nothing of it was waiting at
        # the last look) is tagged from the tag of the last send (``_vtime``) or its own last
        # one, whichever is later: it banks nothing while idle, and an answer arriving with
        # the volunteers' line it comes with goes first
        self._tags = [0.0] * len(SHARES)  # each kind's next send's tag, while it waits
        self._last_tag = [0.0] * len(SHARES)  # each kind's last send's tag
        self._waiting_kinds: set[int] = set()  # the kinds waiting at the last look
        self._vtime = 0.0
        self._last_sent: dict[int, float] = {}  # loop time of each chat's last send
        self._overall = _Pace(limits.overall, limits.overall_burst) if limits else None
        self._wake = asyncio.Event()
        self._changed = asyncio.Event()  # anything moved: ``settled`` looks again
        self._sends: set[asyncio.Task[None]] = set()
        self._done: list[tuple[int, str]] = []  # stored messages done, to be marked
        self._marking: asyncio.Task[None] | None = None
        self._task: asyncio.Task[None] | None = None
        self._paused_until = 0.0  # loop time: nothing is sent before (a 429 for every chat)
        # Telegram out of reach: nothing is sent until a probe (``_probe``) gets an answer
        self._down = False
        self._down_since = 0.0
        self._streak = 0  # outages since the last send that went through
        self._probing: asyncio.Task[None] | None = None
        self._halted = False  # Telegram refused the token: nothing more is sent
        self._holds: dict[int, asyncio.TimerHandle] = {}  # chats waiting out a 429
        self._recent_429: list[tuple[float, int]] = []
        self._rl: dict[str, Any] = ({"rate_limit_args": SELF_PACED}
                                    if getattr(bot, "rate_limiter", None) is not None else {})
        # chats Telegram moved (a group upgraded to a supergroup): old id -> new id
        self._moves: dict[int, int] = {}
        self._on_moved = on_moved
        self._organisers = organisers
        self._name_of = name_of
        # what the organisers are to be told, posted with the next marks: ("drop", chat, why)
        # or ("moved", old chat, new chat)
        self._notes: list[tuple[str, int, str]] = []
        self._last_prune = -PRUNE_EVERY
        self._held = False  # the last look held volunteers' lines for a quiet moment
        # set while no update is being handled (the update processor's): volunteers' lines
        # made meanwhile wait for it, or for STAFF_GAP after their chat's last line, and go
        # out joined (at the start's rush, one message listing five requests, not five)
        self._quiet = quiet
        self._last_line: dict[int, float] = {}
        self._staff_gap = staff_gap
        self._recipients = recipients
        # rows for every volunteer, to expand, and the messages that came after them
        self._fanouts: list[_Item] = []
        self._children: dict[int, int] = {}  # such a row -> its messages not yet done
        self.sent = 0  # messages Telegram took since start (joined lines count one each)

    # -- in ----------------------------------------------------------------------------------

    def accept(self, messages: Iterable[OutboxMessage]) -> None:
        """Stored messages, committed (``Store.on_posted``; at start, what is still owed)."""
        for message in messages:
            if self._moves and message.chat_id in self._moves:
                message = replace(message, chat_id=self._moved_to(message.chat_id))
            self._arrive(_Item(message))
        self._poke()

    def _arrive(self, item: _Item) -> None:
        if item.message.chat_id == EVERY_VOLUNTEER or self._fanouts:
            # a row for every volunteer is expanded by the loop; what comes after it waits
            # with it, so that each chat still gets its messages in the order they came
            self._fanouts.append(item)
        else:
            self._enqueue(item)

    async def _expand(self) -> None:
        """Rows for every volunteer become one message per volunteer, in their language (the
        messages that came after them are queued after them)."""
        people = await self._recipients() if self._recipients is not None else []
        fanouts, self._fanouts = self._fanouts, []  # after the await: none comes between
        for item in fanouts:
            m = item.message
            if m.chat_id != EVERY_VOLUNTEER:
                self._enqueue(item)
                continue
            assert m.id is not None
            texts: dict[str, str] = m.params.get("texts", {})
            children = 0
            for chat, lang in people:
                text = texts.get(lang) or next(iter(texts.values()), "")
                for part in message_parts(text):
                    if part.strip():
                        child = OutboxMessage(None, chat, m.priority, m.method,
                                              {"text": part}, m.grouping)
                        self._enqueue(_Item(child, row=m.id))
                        children += 1
            if children:
                self._children[m.id] = children
            else:
                self._done.append((m.id, "refused: nobody to send it to"))
        self._schedule_marks()

    def admit(self, chat_id: int) -> str:
        """Whether a refusal may go to ``chat_id``: "yes", "notice" (the first one over the
        budget: say that the bot will answer again in a while) or "no". Without ``limits``
        (the tests' fake Bot API, nothing to save) always "yes"."""
        limits = self._limits
        if limits is None:
            return "yes"
        now = asyncio.get_running_loop().time()
        budget = self._budgets.get(chat_id)
        if budget is None:
            if len(self._budgets) >= BUDGETS_KEPT:
                self._forget_budgets(now)
            budget = self._budgets[chat_id] = _Pace(1.0 / limits.refusal_every,
                                                    limits.refusal_burst)
        if budget.wait(now) <= 0:
            if budget.whole(now):  # a while without refusals: told again if it floods again
                self._told_over.discard(chat_id)
            budget.took(now)
            return "yes"
        if chat_id in self._told_over:
            return "no"
        self._told_over.add(chat_id)
        return "notice"

    def admit_answer(self, chat_id: int, parts: int = 1) -> str:
        """Whether an answer that reports nothing recorded may go to ``chat_id`` (``parts``
        messages): "yes", "notice" (the first one over the chat's budget, Telegram's pace for
        that chat with ``answer_burst``: say that the bot will answer again in a while, and
        nothing else) or "no" (dropped: nothing recorded, the person can ask again). So a chat
        sending faster than Telegram lets the bot answer it gets about what Telegram allows,
        and none of its answers waits long. Without ``limits`` always "yes"."""
        limits = self._limits
        if limits is None:
            return "yes"
        now = asyncio.get_running_loop().time()
        budget = self._answer_budgets.get(chat_id)
        if budget is None:
            if len(self._answer_budgets) >= BUDGETS_KEPT:
                self._forget_budgets(now)
            group = chat_id < 0
            budget = self._answer_budgets[chat_id] = _Pace(
                limits.group if group else limits.private,
                limits.group_answer_burst if group else limits.answer_burst)
        if budget.wait(now) <= 0:
            if budget.whole(now):
                self._told_answers.discard(chat_id)
            for _ in range(parts):
                budget.took(now)
            return "yes"
        if chat_id in self._told_answers:
            return "no"
        self._told_answers.add(chat_id)
        return "notice"

    def _forget_budgets(self, now: float) -> None:
        """Budgets back to whole are forgotten (a new one is whole too)."""
        for chat in [c for c, b in self._budgets.items() if b.whole(now)]:
            del self._budgets[chat]
            self._told_over.discard(chat)
        for chat in [c for c, b in self._answer_budgets.items() if b.whole(now)]:
            del self._answer_budgets[chat]
            self._told_answers.discard(chat)
        for chat in [c for c, t in self._last_sent.items() if c not in self._chats]:
            del self._last_sent[chat]

    def answer(self, message: OutboxMessage) -> asyncio.Future[str]:
        """An answer that is not stored: queued now; the future gives its outcome."""
        future: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        if self._moves and message.chat_id in self._moves:
            message = replace(message, chat_id=self._moved_to(message.chat_id))
        self._arrive(_Item(message, future))
        self._poke()
        return future

    def _enqueue(self, item: _Item) -> None:
        chat = item.message.chat_id
        queue = self._chats.get(chat)
        if queue is None:
            queue = self._chats[chat] = deque()
            self._urgency[chat] = item.message.priority
        elif item.message.priority < self._urgency[chat]:
            self._urgency[chat] = item.message.priority
        queue.append(item)

    def _poke(self) -> None:
        self._wake.set()
        self._changed.set()

    # -- lifecycle ---------------------------------------------------------------------------

    async def start(self) -> None:
        """Send what was owed when the bot stopped, then whatever the store hands over."""
        self.store.on_posted = self.accept
        self._moves.update(await self.store.chat_moves())
        owed = await self.store.owed_messages()
        if owed:
            log.info("%d message(s) owed from before the start: sending them", len(owed))
        self.accept(owed)
        self._task = asyncio.get_running_loop().create_task(self._run(), name="outbox")

    async def stop(self, grace: float = 3.0) -> None:
        """Stop sending: what is owed gets ``grace`` seconds to go (the organiser closing the
        laptop at the end of the day), then the sends under way end and the marks are
        written. What is still owed stays in the database for the next start."""
        if self.store.on_posted == self.accept:
            self.store.on_posted = None
        if self._task is not None and not self._task.done():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.settled(), grace)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._probing is not None:
            self._probing.cancel()
        for hold in self._holds.values():
            hold.cancel()
        if self._sends:
            await asyncio.wait(list(self._sends), timeout=grace)
        for task in list(self._sends):
            task.cancel()
        if self._marking is not None:
            with contextlib.suppress(Exception):
                await self._marking
        if self._done or self._notes:
            with contextlib.suppress(Exception):
                await self._mark(self._take_done(), self._take_notes())

    def owed(self) -> int:
        """Messages waiting or under way."""
        return (sum(len(q) for q in self._chats.values()) + len(self._sends)
                + len(self._fanouts))

    async def settled(self) -> None:
        """Until nothing is waiting, under way or left to mark (the tests' and the benchmark's
        "everything the bot had to say is said")."""
        while self.owed() or self._done or self._notes or (self._marking is not None
                                            and not self._marking.done()):
            self._changed.clear()
            await self._changed.wait()

    # -- the loop ----------------------------------------------------------------------------

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            if self._fanouts:
                try:
                    await self._expand()
                except Exception:  # noqa: BLE001 - tried again at the next wake
                    log.exception("could not work out who gets the volunteers' lines")
            now = loop.time()
            wait: float | None = self._paused_until - now
            if self._down or self._halted:
                wait = None  # until the probe finds Telegram again (never: the token refused)
            self._held = False
            if wait is not None and wait <= 0:
                wait = None
                room = IN_FLIGHT - len(self._sends)
                if room > 0:
                    chats, wait = self._pick(now, room)
                    if chats:
                        for chat in chats:
                            if self._overall is not None and self._overall.wait(now) > 0:
                                break  # the flood limit: the rest at the next turn
                            self._launch(chat, now)
                        continue
            self._wake.clear()
            waits = [self._wake.wait()]
            if self._held and self._quiet is not None:
                waits.append(self._quiet.wait())  # lines held for a quiet moment
            tasks = [asyncio.ensure_future(w) for w in waits]
            try:
                await asyncio.wait(tasks, timeout=wait, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for t in tasks:
                    t.cancel()

    def _pick(self, now: float, room: int) -> tuple[list[int], float | None]:
        """The chats to send to now, in the order they go (at most ``room``), and how long
        until another may go (None: nothing waits). Each kind of message (the urgency of the
        chat: its most urgent message) has its share of the sends (``SHARES``), the most urgent
        first among equals."""
        ready: dict[int, list[tuple[tuple[int, float], int]]] = {}
        waiting_kinds: set[int] = set()
        able: set[int] = set()  # kinds with a chat that could go now, but for the flood limit
        soonest: float | None = None
        overall = self._overall.wait(now) if self._overall is not None else 0.0
        busy = self._quiet is not None and not self._quiet.is_set()
        limits = self._limits
        extra = extra_group = 0
        if limits is not None:  # how much further than the burst an answer may dip: its
            # budget's burst (``admit_answer``) and the notice of a chat over it, so that an
            # answer admitted goes at once
            extra = max(0, limits.answer_burst + 1 - limits.burst)
            extra_group = max(0, limits.group_answer_burst + 1 - limits.burst)
        for chat, queue in self._chats.items():
            if not queue:
                continue
            urgency = self._urgency[chat]
            waiting_kinds.add(min(urgency, len(SHARES) - 1))
            if chat in self._busy:
                continue
            head = queue[0].message
            if busy and head.grouping is not None and urgency >= head.priority:
                # held (unless something more urgent waits behind it): more lines may join
                gap = self._last_line.get(chat, -self._staff_gap) + self._staff_gap - now
                if gap > 0:
                    self._held = True
                    soonest = gap if soonest is None else min(soonest, gap)
                    continue
            pace = self._paces.get(chat)
            # every message keeps to its chat's pace (Telegram's one a second, 20 a minute in a
            # group); an answer may use a bigger burst (a person asking three things at once)
            paced = 0.0 if pace is None else pace.wait(now, 0 if urgency > PRIORITY_ANSWER
                                                       else extra_group if chat < 0 else extra)
            if paced <= 0:
                able.add(min(urgency, len(SHARES) - 1))
            wait = max(overall, paced)
            if wait > 0:
                soonest = wait if soonest is None else min(soonest, wait)
                continue
            # the least recently answered chat first among answers not stored (one flooding
            # account does not go ahead of everyone else); stored messages by their order
            ready.setdefault(min(urgency, len(SHARES) - 1), []).append((
                (0 if head.id is None else 1, head.id or self._last_sent.get(chat, -1.0)),
                chat))
        for kind in waiting_kinds - self._waiting_kinds:  # waiting again: tagged from now
            self._tags[kind] = max(self._last_tag[kind], self._vtime) + 1.0 / SHARES[kind]
        self._waiting_kinds = waiting_kinds
        for kind in waiting_kinds - able:  # waiting, but unable to send: it earns nothing
            self._tags[kind] = max(self._tags[kind], self._vtime + 1.0 / SHARES[kind])
        if not ready:
            return [], soonest
        kinds = {kind: heapq.nsmallest(room, chats) if len(chats) > room else sorted(chats)
                 for kind, chats in ready.items()}
        if len(kinds) == 1:
            return [chat for _, chat in next(iter(kinds.values()))], soonest
        # the order the shares give (as ``_launch`` will count them)
        tags = {kind: self._tags[kind] for kind in kinds}
        heads = dict.fromkeys(kinds, 0)
        order: list[int] = []
        while len(order) < room and tags:
            kind = min(tags, key=lambda k: (tags[k], k))
            order.append(kinds[kind][heads[kind]][1])
            heads[kind] += 1
            tags[kind] += 1.0 / SHARES[kind]
            if heads[kind] == len(kinds[kind]):
                del tags[kind]
        return order, soonest

    def _share(self, urgency: int) -> None:
        """One send of this kind counted against its share."""
        kind = min(urgency, len(SHARES) - 1)
        if kind not in self._waiting_kinds:  # not seen waiting by ``_pick``: tagged now
            self._tags[kind] = max(self._last_tag[kind], self._vtime) + 1.0 / SHARES[kind]
            self._waiting_kinds.add(kind)
        self._last_tag[kind] = self._tags[kind]
        self._vtime = max(self._vtime, self._tags[kind])  # virtual time never goes back
        self._tags[kind] += 1.0 / SHARES[kind]

    def _launch(self, chat: int, now: float) -> None:
        queue = self._chats[chat]
        self._share(self._urgency[chat])
        items = self._take(queue)
        if not queue:
            del self._chats[chat]
            del self._urgency[chat]
        elif items[0].message.priority == self._urgency[chat]:
            self._urgency[chat] = min(item.message.priority for item in queue)
        if items[0].message.grouping is not None:
            self._last_line[chat] = now
        self._last_sent[chat] = now
        if self._limits is not None:
            assert self._overall is not None
            self._overall.took(now)
            pace = self._paces.get(chat)
            if pace is None:
                rate = self._limits.group if chat < 0 else self._limits.private
                pace = self._paces[chat] = _Pace(rate, self._limits.burst)
            pace.took(now)
        self._busy.add(chat)
        task = asyncio.get_running_loop().create_task(self._send(chat, items))
        self._sends.add(task)
        task.add_done_callback(self._sends.discard)

    @staticmethod
    def _take(queue: deque[_Item]) -> list[_Item]:
        """The chat's next message, joined with the lines of the same kind waiting after it."""
        first = queue.popleft()
        items = [first]
        m = first.message
        if m.grouping is None or first.row is None or m.method != "sendMessage":
            return items
        length = len(str(m.params.get("text", "")))
        while queue:
            n = queue[0].message
            same = {k: v for k, v in n.params.items() if k != "text"} == {
                k: v for k, v in m.params.items() if k != "text"}
            extra = len(str(n.params.get("text", ""))) + 1
            if n.grouping != m.grouping or n.method != m.method or not same or (
                    length + extra > MESSAGE_LIMIT):
                break
            items.append(queue.popleft())
            length += extra
        return items

    # -- one send ----------------------------------------------------------------------------

    async def _send(self, chat: int, items: list[_Item]) -> None:
        m = items[0].message
        to = self._moved_to(chat)
        params: dict[str, Any] = {**m.params, "chat_id": to}
        if len(items) > 1:
            params["text"] = "\n".join(str(i.message.params.get("text", "")) for i in items)
        outcome: str | None = None
        spent = False  # whether the attempt may have reached Telegram (it counts for the pace)
        try:
            await self._bot.do_api_request(m.method, api_kwargs=params, **self._rl)
            outcome = "sent"
            self.sent += len(items)
            self._streak = 0
            if self._down:
                self._recovered()
        except RetryAfter as exc:
            self._wait_asked(chat, exc)
        except ChatMigrated as exc:  # sent again at once, to the new id
            new = int(exc.new_chat_id)
            # nothing goes to the new id while the move is written: these go first there
            held_new = new not in self._busy
            self._busy.add(new)
            try:
                await self._move(to, new)
            finally:
                if held_new:
                    self._busy.discard(new)
        except (BadRequest, Forbidden) as exc:  # Telegram's own answer: for good (a
            # BadRequest is a NetworkError too: first). A page from something in between is
            # ``NotTelegram``, below
            outcome = f"refused: {exc.message}"
            if m.grouping != DROPPED:
                self._notes.append(("drop", to, exc.message))
        except (InvalidToken, EndPointNotFound) as exc:  # Telegram's JSON 401 (or 404)
            self._halt(exc)
        except NetworkError as exc:
            if not_delivered(exc):
                self._outage(exc)
            else:
                spent = True
                for item in items:
                    item.ambiguous += 1
                if max(i.ambiguous for i in items) > MAYBE_DELIVERED_RETRIES:
                    outcome = "unconfirmed"
                    log.warning("a message to chat %s may not have arrived (%s twice): not "
                                "sent a third time", to, exc.__class__.__name__)
                else:
                    self._outage(exc)
        except TelegramError as exc:  # PTB's "Invalid server response" and the like: not
            # Telegram's refusal of this message, so retried as an outage
            self._outage(exc)
        except Exception as exc:  # noqa: BLE001 - a message we cannot send must not stop others
            log.exception("could not send a message to chat %s", to)
            outcome = f"refused: {exc.__class__.__name__}"
            if m.grouping != DROPPED:
                self._notes.append(("drop", to, exc.__class__.__name__))
        finally:
            if chat not in self._holds:  # a chat waiting out a 429 stays out of turn
                self._busy.discard(chat)
            # out of the count now, not in a done-callback after the poke: the loop would
            # wake, still see every slot taken, and sleep for good
            self._sends.discard(asyncio.current_task())  # type: ignore[arg-type,unused-ignore]
            if outcome is None and not spent:
                # a minute of outage retried every half second must not leave the chat's pace
                # owing minutes once Telegram is back
                self._give_back(chat)
            if outcome is None:  # not sent: first in its chat again
                self._requeue(chat, items)
            self._poke()
        if outcome is None:
            self._schedule_marks()  # a move to tell
            return
        if outcome.startswith("refused"):
            log.warning("Telegram refused a message to chat %s: %s", to, outcome[9:])
        for item in items:
            if item.answered is not None and not item.answered.done():
                item.answered.set_result(outcome)
            if item.row is not None and item.row != item.message.id:
                left = self._children.get(item.row, 1) - 1  # one message of a row for all
                if left > 0:
                    self._children[item.row] = left
                else:
                    self._children.pop(item.row, None)
                    self._done.append((item.row, "sent"))
            elif item.row is not None:
                self._done.append((item.row, outcome))
        self._schedule_marks()

    def _give_back(self, chat: int) -> None:
        if self._overall is not None:
            self._overall.give_back()
        pace = self._paces.get(chat)
        if pace is not None:
            pace.give_back()

    def _schedule_marks(self) -> None:
        if (self._done or self._notes) and (self._marking is None or self._marking.done()):
            self._marking = asyncio.get_running_loop().create_task(self._mark_all(),
                                                                   name="outbox-marks")

    # -- failures ----------------------------------------------------------------------------

    def _outage(self, exc: Exception) -> None:
        """Nothing was delivered and nothing says Telegram refused it: sending stops until a
        probe gets an answer."""
        if self._down or self._halted:
            return
        self._down = True
        loop = asyncio.get_running_loop()
        self._down_since = loop.time()
        # one line for a run of failures (Telegram answering the probes, not the sends, would
        # log two lines a second otherwise)
        self._streak += 1
        log.log(logging.WARNING if self._streak == 1 else logging.DEBUG,
                "sending failed (%s), Telegram out of reach: checking every %.1f s, messages "
                "wait (%s)", exc.__class__.__name__, PROBE_EVERY, exc)
        if self._probing is None or self._probing.done():
            self._probing = loop.create_task(self._probe(), name="outbox-probe")

    async def _probe(self) -> None:
        """A getMe every ``PROBE_EVERY`` seconds while Telegram is out of reach: the first one
        answered (anything Telegram answers, not only a success) resumes sending."""
        while self._down and not self._halted:
            await asyncio.sleep(PROBE_EVERY)
            try:
                await self._bot.do_api_request(
                    "getMe", connect_timeout=PROBE_TIMEOUT, read_timeout=PROBE_TIMEOUT,
                    write_timeout=PROBE_TIMEOUT, pool_timeout=PROBE_TIMEOUT, **self._rl)
            except (InvalidToken, EndPointNotFound) as exc:
                self._halt(exc)
                return
            except RetryAfter:
                pass  # Telegram answers: the sends wait what it asks, if it asks them too
            except Exception:  # noqa: BLE001 - still out of reach
                continue
            if self._down:
                self._recovered()

    def _recovered(self) -> None:
        self._down = False
        log.log(logging.INFO if self._streak <= 1 else logging.DEBUG,
                "Telegram answers again (out of reach for %.1f s): sending what is owed",
                asyncio.get_running_loop().time() - self._down_since)
        self._poke()

    def _halt(self, exc: TelegramError) -> None:
        if self._halted:
            return
        self._halted = True
        log.error("Telegram refuses the bot's token (%s): nothing more is sent. What is owed "
                  "stays in the database and goes at the next start: check the token "
                  "(python -m bot setup), then start the bot again", exc.message)

    def _wait_asked(self, chat: int, exc: RetryAfter) -> None:
        """A 429: wait what Telegram asks (at most ``RETRY_AFTER_CAP``), for the chat it was
        for; for every chat when several chats got one at once (the overall limit)."""
        with warnings.catch_warnings(action="ignore", category=PTBDeprecationWarning):
            after = exc.retry_after  # a number of seconds today, a timedelta later
        seconds = after.total_seconds() if isinstance(after, timedelta) else float(after)
        seconds = min(RETRY_AFTER_CAP, max(0.0, seconds))
        loop = asyncio.get_running_loop()
        now = loop.time()
        self._recent_429 = [(t, c) for t, c in self._recent_429 if now - t < GLOBAL_429_WINDOW]
        self._recent_429.append((now, chat))
        if len({c for _, c in self._recent_429}) >= GLOBAL_429_CHATS:
            log.warning("Telegram asks to wait %.0f s before sending more", seconds)
            self._paused_until = max(self._paused_until, now + seconds)
            return
        log.warning("Telegram asks to wait %.0f s before sending more to chat %s", seconds,
                    chat)
        hold = self._holds.pop(chat, None)
        if hold is not None:
            hold.cancel()
        self._holds[chat] = loop.call_later(seconds, self._release, chat)

    def _requeue(self, chat: int, items: list[_Item]) -> None:
        """Messages not sent, first in their chat again; a chat Telegram moved meanwhile has
        one queue (and one pace) under its new id, these first, so its order holds."""
        key = self._moved_to(chat)
        queue = self._chats.pop(chat, None) or deque()
        queue.extendleft(reversed(items))
        if key != chat:
            queue.extend(self._chats.pop(key, ()))
            self._urgency.pop(chat, None)
            if chat in self._paces and key not in self._paces:
                self._paces[key] = self._paces.pop(chat)
        self._chats[key] = queue
        self._urgency[key] = min(item.message.priority for item in queue)

    def _release(self, chat: int) -> None:
        self._holds.pop(chat, None)
        self._busy.discard(chat)
        self._poke()

    def _moved_to(self, chat: int) -> int:
        for _ in range(8):  # a chain of moves, never a loop
            moved = self._moves.get(chat)
            if moved is None:
                break
            chat = moved
        return chat

    async def _move(self, old: int, new: int) -> None:
        """Telegram moved chat ``old`` to ``new``: kept in the database (sent there after a
        restart too), told to the organisers and to ``on_moved`` (the volunteers' group)."""
        if old == new or self._moves.get(old) == new:
            return
        self._moves[old] = new
        log.warning("Telegram moved chat %s to %s (a group upgraded to a supergroup): "
                    "sending there from now on", old, new)
        try:
            async with self.store.transaction() as tx:
                tx.move_chat(old, new, datetime.now(UTC))
        except Exception:  # noqa: BLE001 - followed until the restart all the same
            log.exception("could not keep the move of chat %s to %s", old, new)
        if self._on_moved is not None:
            self._on_moved(old, new)
        self._notes.append(("moved", old, str(new)))

    # -- marks -------------------------------------------------------------------------------

    def _take_done(self) -> list[tuple[int, str]]:
        done, self._done = self._done, []
        return done

    def _take_notes(self) -> list[tuple[str, int, str]]:
        notes, self._notes = self._notes, []
        return notes

    async def _organisers_lines(self, notes: list[tuple[str, int, str]]
                                ) -> list[tuple[int, str]]:
        """What the organisers are told about ``notes``: (chat, line), each in its reader's
        language; nothing about a message to an organiser (no loop)."""
        if not notes or self._organisers is None:
            return []
        people = await self._organisers()
        organisers = {chat for chat, _ in people}
        lines = []
        for kind, chat, detail in notes:
            if kind == "drop" and chat in organisers:
                continue
            name = await self._name_of(chat) if self._name_of is not None else None
            for to, lang in people:
                who = name or tr(lang, "chat {chat}", chat=chat)
                lines.append((to, dropped_line(lang, kind, who, detail)))
        return lines

    async def _mark_all(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while self._done or self._notes:
                start = loop.time()
                while not self.store.batch_open:  # else join it now: its fsync is shared
                    left = start + (MARK_WAIT_BUSY if self.owed() else MARK_WAIT_IDLE) \
                        - loop.time()
                    if left <= 0:
                        break
                    self._changed.clear()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._changed.wait(), left)
                done, notes = self._take_done(), self._take_notes()
                try:
                    await self._mark(done, notes)
                except Exception:  # noqa: BLE001 - tried again with the next ones
                    log.exception("could not mark %d sent message(s)", len(done))
                    self._done[:0] = done
                    self._notes[:0] = notes
                    await asyncio.sleep(1.0)
        finally:
            self._changed.set()

    async def _mark(self, done: list[tuple[int, str]],
                    notes: list[tuple[str, int, str]] | None = None) -> None:
        """The marks, with the organisers' lines about ``notes`` in the same transaction."""
        try:
            lines = await self._organisers_lines(notes or [])
        except Exception:  # noqa: BLE001 - the marks must not wait for the organisers' lines
            log.exception("could not word the organisers' lines about %d message(s)",
                          len(notes or []))
            lines = []
        now = datetime.now(UTC)
        loop = asyncio.get_running_loop()
        async with self.store.transaction() as tx:
            tx.mark_done(done, now)
            for chat, text in lines:
                tx.post(chat, {"text": text}, priority=PRIORITY_BULK, grouping=DROPPED)
            if loop.time() - self._last_prune >= PRUNE_EVERY:
                self._last_prune = loop.time()
                tx.prune_outbox(now - timedelta(seconds=OUTBOX_KEEP_SECONDS))


def dropped_line(lang: str, kind: str, who: str, detail: str) -> str:
    """The organisers' line about a message Telegram refused for good (``kind`` "drop", with
    Telegram's words ``detail``) or a chat it moved ("moved": ``detail`` the new id)."""
    if kind == "moved":
        return tr(lang, "Telegram moved {who} to a new id, {new} (a group upgraded to a "
                  "supergroup): the bot writes there from now on. If it is the volunteers' "
                  "group, set PUZZLEBOT_VOLUNTEER_CHAT = {new} in the settings.",
                  who=who, new=detail)
    words = detail.lower()
    if "blocked" in words:
        return tr(lang, "A message to {who} could not be delivered: Telegram says the bot was "
                  "blocked.", who=who)
    if "kicked" in words or "not a member" in words:
        return tr(lang, "A message to {who} could not be delivered: Telegram says the bot was "
                  "removed from the chat.", who=who)
    if "chat not found" in words:
        return tr(lang, "A message to {who} could not be delivered: Telegram says the chat "
                  "does not exist.", who=who)
    return tr(lang, "A message to {who} could not be delivered: Telegram says: {detail}",
              who=who, detail=detail)


__all__ = ["PRIORITY_ANSWER", "SELF_PACED", "STAFF_GAP", "Limits", "NotTelegram", "Sender",
           "TELEGRAM_LIMITS", "TelegramOnlyRequest", "not_delivered"]
