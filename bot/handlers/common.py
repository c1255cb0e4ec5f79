"""Shared pieces of the handlers: services, the person's language and role, replies, fan-out."""

from __future__ import annotations

import asyncio
import logging
import math
import warnings
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from functools import partial

import httpx
from telegram import Bot, Update
from telegram.error import BadRequest, NetworkError, TelegramError, TimedOut
from telegram.ext import ContextTypes
from telegram.warnings import PTBUserWarning

from bot.domain.contest import Contest
from bot.services.config import Config
from bot.services.contest_day import ContestDay, Roles
from bot.services.texts import message_parts
from bot.storage.store import Store
from bot.support.i18n import pick_language, tr

log = logging.getLogger(__name__)


@dataclass
class Services:
    config: Config
    contest: Contest
    store: Store
    day: ContestDay


@dataclass(frozen=True)
class Caller:
    svc: Services
    user_id: int
    lang: str
    roles: Roles
    at: datetime  # when the person sent the message (Telegram's date)
    update_id: int


def services(context: ContextTypes.DEFAULT_TYPE) -> Services:
    svc: Services = context.bot_data["services"]
    return svc


async def language_of(svc: Services, user_id: int, telegram_code: str | None = None) -> str:
    row = await svc.store.person(user_id)
    chosen = row["language"] if row is not None else None
    stored = row["tg_language"] if row is not None else None
    return pick_language(chosen, telegram_code or stored)


def message_date(update: Update) -> datetime:
    """When the person sent it. A button press has no date of its own: the caller decides."""
    msg = update.effective_message
    assert msg is not None and msg.date is not None
    return msg.date


async def caller(update: Update, context: ContextTypes.DEFAULT_TYPE) -> Caller | None:
    svc = services(context)
    user = update.effective_user
    if user is None or update.effective_message is None:
        return None
    roles = await svc.day.roles(user.id)
    if roles.name != "stranger":
        # people we will write to later (notices, staff lines) are kept; a stranger's refused
        # command leaves the database untouched
        await svc.store.remember_person(user.id, user.full_name, user.language_code)
    lang = await language_of(svc, user.id, user.language_code)
    return Caller(svc, user.id, lang, roles, message_date(update), update.update_id)


async def organiser(update: Update, context: ContextTypes.DEFAULT_TYPE) -> Caller | None:
    """The caller of an organisers' read-only command, or None once refused (nothing written)."""
    who = await caller(update, context)
    if who is not None and not who.roles.organiser:
        await refuse_role(update, who, "organiser")
        return None
    return who


async def recorder(update: Update, context: ContextTypes.DEFAULT_TYPE,
                   needed: str) -> Caller | None:
    """The caller of a command that records something, once let through: refused with the
    reason when their role may not use it (``needed``: "volunteer" or "organiser"), answered
    "already recorded" for a redelivered update. None once answered."""
    who = await caller(update, context)
    if who is None:
        return None
    allowed = who.roles.organiser if needed == "organiser" else who.roles.staff
    if not allowed:
        await refuse_role(update, who, needed)
        return None
    if await already_handled(update, who):
        return None
    return who


async def remember(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Keep someone who just became a participant or volunteer (name, Telegram language)."""
    user = update.effective_user
    if user is not None:
        await services(context).store.remember_person(user.id, user.full_name,
                                                      user.language_code)


# _send_raw: PTB suggests send_message instead, which would parse the answer. Filtered once here
# (warnings.catch_warnings around each send would swap the process's filters at every call,
# and is not safe across the awaits of concurrent sends).
warnings.filterwarnings("ignore", message=r"Please use 'Bot\.sendMessage' instead",
                        category=PTBUserWarning)

RETRY_DELAYS = (0.5, 1.0, 2.0, 4.0)  # a flaky hall network: try again before giving up
MAYBE_DELIVERED_RETRIES = 1  # a send that may have gone through is sent again at most once

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


async def with_retries(call: Callable[[], Awaitable[object]]) -> None:
    """Send, retrying what failed on the way, without sending anyone the same message twice
    over a network that only looks broken (docs/invariants.md, "Sends that fail"):

    - a failure that proves the message was not delivered (``not_delivered``: could not
      connect, an HTTP 5xx answer) is retried after each of ``RETRY_DELAYS``;
    - one that may have delivered it (a timeout once the request was sent, a connection lost
      before the answer) is retried at most ``MAYBE_DELIVERED_RETRIES`` time(s) in all: when
      Telegram hangs, a reply may arrive twice, never five times;
    - ``BadRequest`` (400) is never retried; a 429 is ``RetryAfter``, retried by
      AIORateLimiter before it gets here.

    The last failure is raised once the delays or the one retry are spent."""
    maybe_delivered = 0
    for delay in (*RETRY_DELAYS, None):
        try:
            await call()
            return
        except NetworkError as exc:  # TimedOut and BadRequest are NetworkErrors too
            if isinstance(exc, BadRequest) or delay is None:
                raise
            if not not_delivered(exc):
                maybe_delivered += 1
                if maybe_delivered > MAYBE_DELIVERED_RETRIES:
                    raise
            log.warning("sending failed (%s), retrying in %.1f s", exc.__class__.__name__,
                        delay)
            await asyncio.sleep(delay)


async def reply(update: Update, text: str, **kwargs: object) -> None:
    """Answer in the chat the update came from (in its forum topic, if it has one)."""
    msg = update.effective_message
    assert msg is not None
    # it quotes the message it answers: in a volunteers' group several people ask at once, and an
    # answer that waited (a slow network) still says what it answers (JSON written here: the
    # library would encode a dict for every reply)
    where: dict[str, object] = {"chat_id": msg.chat_id, "reply_parameters": (
        f'{{"message_id":{int(msg.message_id)},"allow_sending_without_reply":true}}')}
    if msg.is_topic_message and msg.message_thread_id is not None:
        where["message_thread_id"] = msg.message_thread_id
    bot = msg.get_bot()
    parts = message_parts(text)
    for i, part in enumerate(parts):
        extra = kwargs if i == len(parts) - 1 else {}
        await with_retries(lambda part=part, extra=extra: _send_raw(  # type: ignore[misc]
            bot, {**where, "text": part, **extra}))


async def _send_raw(bot: Bot, api_kwargs: dict[str, object]) -> object:
    """sendMessage without building the Message Telegram answers with: nothing the bot does
    reads it, and parsing it costs more than the rest of a reply."""
    return await bot.do_api_request("sendMessage", api_kwargs=api_kwargs)


async def send(context: ContextTypes.DEFAULT_TYPE, chat_id: int, text: str) -> bool:
    """Send to one chat; a person who blocked the bot must not stop the others."""
    try:
        for part in message_parts(text):
            if not part.strip():
                continue  # nothing to say (Telegram refuses an empty message)
            # a line we only send: no need to build the Message Telegram answers with
            await with_retries(partial(_send_raw, context.bot, {"chat_id": chat_id, "text": part}))
        return True
    except TelegramError as exc:
        log.warning("could not send to chat %s: %s", chat_id, exc.__class__.__name__)
        return False


async def notify_staff(
    context: ContextTypes.DEFAULT_TYPE, make: Callable[[str], str], wait: bool = False
) -> int:
    """The volunteers' line: in the volunteer chat, or privately to each volunteer/organiser.

    Sent in the background unless ``wait``: a volunteer group takes 20 messages a minute, and
    the person who asked must not wait behind that queue (AIORateLimiter keeps the order)."""
    if wait:
        return await _notify_staff(context, make)
    outbox: StaffOutbox = context.bot_data.setdefault(STAFF_OUTBOX, StaffOutbox())
    outbox.pending.append(make)
    if outbox.task is None:
        outbox.task = context.application.create_task(_flush_staff(context, outbox),
                                                      name=STAFF_TASK)
    return 0


STAFF_TASK = "staff-line"
STAFF_OUTBOX = "staff_outbox"


class StaffOutbox:
    """The volunteers' lines waiting to go, sent in order by one task at a time, in rounds.

    When the bot is quiet a line goes out at once, alone. While updates keep coming, the lines
    wait and go out together, one message per chat, when the bot has nothing else to do or when
    the next round is due (``round_gap``), whichever comes first. At the start's rush 20
    volunteers get one message listing five requests instead of five messages each: Telegram
    asks for at most one message a second per chat and 30 a second in all, and every round to
    20 private chats spends 20 of those 30, which people waiting for an answer need."""

    def __init__(self) -> None:
        self.pending: list[Callable[[str], str]] = []
        self.task: asyncio.Task[None] | None = None
        self.last_round = -math.inf  # loop time the last round went out
        self.chats = 1  # how many chats the last round went to

    def round_gap(self) -> float:
        """Seconds between rounds while busy: one a second per chat (Telegram's per-chat
        limit), and rounds to many private chats spend at most half the 30 a second."""
        return max(1.0, self.chats / 15)


def _lines(makes: list[Callable[[str], str]], lang: str) -> str:
    out = []
    for make in makes:
        try:
            out.append(make(lang))
        except Exception:  # a line that cannot be written must not take the others with it
            log.exception("could not write a volunteers' line")
    return "\n".join(out)


async def _flush_staff(context: ContextTypes.DEFAULT_TYPE, outbox: StaffOutbox) -> None:
    loop = asyncio.get_running_loop()
    try:
        while outbox.pending:
            await asyncio.sleep(0)  # lines made by updates handled in this same moment join
            await _round_due(context, outbox)
            makes, outbox.pending = outbox.pending, []
            try:
                outbox.chats = max(1, await _notify_staff(context, partial(_lines, makes)))
            except Exception:  # one bad round must not keep the next lines waiting
                log.exception("could not send the volunteers' lines")
            outbox.last_round = loop.time()
    finally:
        outbox.task = None


async def _round_due(context: ContextTypes.DEFAULT_TYPE, outbox: StaffOutbox) -> None:
    """Return when the next round may go: at once if nothing else is being handled, else when
    the bot goes idle or the round is due (a gap after the last round; a gap from now if
    there was none lately), whichever comes first."""
    processor = context.application.update_processor
    idle = getattr(processor, "idle", None)
    if not isinstance(idle, asyncio.Event) or idle.is_set():
        return
    gap = outbox.round_gap()
    wait = outbox.last_round + gap - asyncio.get_running_loop().time()
    if wait <= 0:
        wait = gap
    try:
        await asyncio.wait_for(idle.wait(), wait)
    except TimeoutError:
        pass


async def _notify_staff(context: ContextTypes.DEFAULT_TYPE, make: Callable[[str], str]) -> int:
    """Returns how many chats got it."""
    svc = services(context)
    if svc.config.volunteer_chat is not None:
        return int(await send(context, svc.config.volunteer_chat, make(svc.contest.language)))
    people = set(await svc.day.volunteers()) | set(svc.config.organisers)
    sent = 0
    texts: dict[str, str] = {}  # written once per language, not once per volunteer
    for user_id in sorted(people):
        if await svc.store.person(user_id) is None:
            continue  # never talked to the bot: Telegram would refuse
        lang = await language_of(svc, user_id)
        if lang not in texts:
            texts[lang] = make(lang)
        sent += await send(context, user_id, texts[lang])
    return sent


async def notify_entry(
    context: ContextTypes.DEFAULT_TYPE, number: int, make: Callable[[str], str]
) -> int:
    svc = services(context)
    sent = 0
    for user_id in await svc.day.linked_users(number):
        if await send(context, user_id, make(await language_of(svc, user_id))):
            sent += 1
    return sent


async def refuse_role(update: Update, who: Caller, needed: str) -> None:
    texts = {
        "participant": tr(who.lang, "This command is for participants: open your entry's link "
                          "first (ask the organisers)."),
        "volunteer": tr(who.lang, "This command is for volunteers and organisers."),
        "organiser": tr(who.lang, "This command is for organisers."),
    }
    await reply(update, texts[needed])


async def already_handled(update: Update, who: Caller) -> bool:
    """A redelivered update (the bot stopped before Telegram heard it was handled)."""
    if await who.svc.day.already_handled(update.update_id):
        await reply(update, tr(who.lang, "Already recorded."))
        return True
    return False


def parse_int(text: str) -> int | None:
    """A plain whole number 0-999999999 (ASCII digits only: no "²" or "①")."""
    t = text.strip().lstrip("#")
    if not (t.isascii() and t.isdigit()) or len(t) > 9:
        return None
    return int(t)


def button_moment(update: Update) -> datetime | None:
    """When the message carrying the tapped button was sent, as Telegram tells it (button data
    can be forged by a modified client; this date cannot). None if Telegram did not say."""
    query = update.callback_query
    message = query.message if query is not None else None
    date = getattr(message, "date", None)
    if isinstance(date, datetime) and date.timestamp() > 0:
        return date
    return None
