"""Shared pieces of the handlers: services, the person's language and role, replies, fan-out."""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from apscheduler.jobstores.base import JobLookupError  # type: ignore[import-untyped]
from telegram import Bot, TelegramObject, Update
from telegram.ext import Application, ContextTypes

from bot.delivery.sender import EVERY_VOLUNTEER, Sender
from bot.domain.contest import Contest
from bot.domain.numbers import parse_whole
from bot.services.contest_day import ContestDay, Roles
from bot.storage.store import (
    PRIORITY_ANSWER,
    PRIORITY_COPY,
    OutboxMessage,
    Store,
    Transaction,
)
from bot.support.commands import in_language
from bot.support.config import Config
from bot.support.i18n import LANGUAGES, pick_language, tr
from bot.support.wallclock import CLOCK
from bot.texts.common import message_parts

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
    return pick_language(chosen, telegram_code or stored, svc.contest.language)


async def person_name(svc: Services, user_id: int) -> str:
    """How a person is named to others: their Telegram name as last seen."""
    row = await svc.store.person(user_id)
    name = str(row["name"]) if row is not None and row["name"] else ""
    return name or f"#{user_id}"


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
    _SPEAKING.set(lang)  # this update's task only: ``reply``'s notice is in this language
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


ANSWER_WAIT = 15.0  # how long a handler waits for an answer that is not stored to be sent


def over_budget(lang: str) -> str:
    """What a chat over its budget of answers is told, once (``Sender.admit``, ``admit_answer``)."""
    return tr(lang, "You are sending messages faster than I can answer: I will answer again in "
              "a while.")


# the answers not stored of the update this task handles, set by the update processor
# (``chat/updates.py``): it waits for them once the handler has returned, having given up the
# update's handling place and its chat's turn, and only then reports the update finished (so
# it is confirmed to Telegram only once they are sent). Unset (a handler run by other means),
# ``reply`` waits for them itself
UPDATE_ANSWERS: ContextVar[list[asyncio.Future[str]] | None] = ContextVar(
    "puzzlebot_update_answers", default=None)
# the language of the person whose update this task handles (``caller``)
_SPEAKING: ContextVar[str | None] = ContextVar("puzzlebot_speaking", default=None)


# -- the outbox: every message goes through it ------------------------------------------------

_SENDERS: dict[int, Sender] = {}  # id(bot) -> its sender (``reply`` only has the update)


def attach_sender(bot: Bot, sender: Sender | None) -> None:
    """The sender of the messages ``bot`` sends (None: forget it)."""
    if sender is None:
        _SENDERS.pop(id(bot), None)
    else:
        _SENDERS[id(bot)] = sender


def sender_for(bot: Bot) -> Sender:
    sender = _SENDERS.get(id(bot))
    if sender is None:
        raise RuntimeError("no outbox sender: the application's post_init attaches it")
    return sender


@asynccontextmanager
async def recording(svc: Services) -> AsyncIterator[Transaction]:
    """One operation for what a handler records and the messages that report it: the
    services' own transactions inside it join it, and ``reply``, ``send``, ``notify_staff``
    and ``notify_entry`` post their messages in it (the transactional outbox). The messages
    are sent once it is committed; if it fails, nothing was recorded and nothing is said."""
    waiting: list[asyncio.Future[str]] = []
    token = _ANSWERS.set(waiting) if _ANSWERS.get() is None else None
    try:
        async with svc.store.transaction(joinable=True) as tx:
            yield tx
    finally:
        if token is not None:
            _ANSWERS.reset(token)
    if token is not None and waiting:
        await _answered(waiting[-1])


# answers queued inside ``recording`` that report nothing recorded: waited for once it ends
# (never while the writer's lock is held)
_ANSWERS: ContextVar[list[asyncio.Future[str]] | None] = ContextVar("puzzlebot_answers",
                                                                     default=None)


async def _answered(last: asyncio.Future[str]) -> None:
    try:
        await asyncio.wait_for(asyncio.shield(last), ANSWER_WAIT)
    except TimeoutError:
        log.warning("an answer is still waiting for Telegram")


async def answers_sent(answers: list[asyncio.Future[str]]) -> None:
    """Until an update's answers not stored are sent (each chat's go in order: the last one
    says it), at most ``ANSWER_WAIT``."""
    if answers and not answers[-1].done():
        await _answered(answers[-1])


def _jsonable(value: object) -> object:
    if isinstance(value, TelegramObject):
        return value.to_json()
    return value


async def _post(bot: Bot, chat_id: int, params: dict[str, object], priority: int,
                grouping: str | None = None) -> None:
    """One message owed: posted in the running ``recording`` operation if there is one (sent
    once it commits), else in an operation of its own."""
    sender = sender_for(bot)
    store = sender.store
    tx = store.current()
    if tx is not None:
        tx.post(chat_id, params, priority=priority, grouping=grouping)
        return
    async with store.transaction() as own:
        own.post(chat_id, params, priority=priority, grouping=grouping)


async def reply(update: Update, text: str, *, admitted: bool = False,
                **kwargs: object) -> None:
    """Answer in the chat the update came from (in its forum topic, if it has one).

    Inside ``recording``, once something was recorded: posted in its transaction, sent once
    it commits. Otherwise (the answer reports nothing recorded: a refusal, a question): within
    the chat's budget (``Sender.admit_answer``; ``admitted``: already decided), queued first in
    line, not stored, and waited for (up to ``ANSWER_WAIT``: by the update processor once the
    handler has returned, ``UPDATE_ANSWERS``; else after the operation if inside one) so that
    the update is confirmed to Telegram only once it is sent; if the bot stops before,
    Telegram delivers the update again. Over the budget, the chat is told once that it sends
    faster than the bot can answer, and the rest is not answered (nothing was recorded: asking
    again gets it)."""
    msg = update.effective_message
    assert msg is not None
    # it quotes the message it answers: in a volunteers' group several people ask at once, and an
    # answer that waited (a slow network) still says what it answers (JSON written here: the
    # library would encode a dict for every reply)
    where: dict[str, object] = {"reply_parameters": (
        f'{{"message_id":{int(msg.message_id)},"allow_sending_without_reply":true}}')}
    if msg.is_topic_message and msg.message_thread_id is not None:
        where["message_thread_id"] = msg.message_thread_id
    sender = sender_for(msg.get_bot())
    tx = sender.store.current()
    if tx is not None and not tx.recorded:
        tx = None
    parts = message_parts(text)
    if tx is None and not admitted:
        decision = sender.admit_answer(msg.chat_id, len(parts))
        if decision == "no":
            return
        if decision == "notice":
            user = update.effective_user
            lang = _SPEAKING.get() or pick_language(
                None, user.language_code if user is not None else None)
            parts, kwargs = [over_budget(lang)], {}
    last: asyncio.Future[str] | None = None
    for i, part in enumerate(parts):
        extra = {k: _jsonable(v) for k, v in kwargs.items()} if i == len(parts) - 1 else {}
        params = {**where, "text": part, **extra}
        if tx is not None:
            tx.post(msg.chat_id, params, priority=PRIORITY_ANSWER)
        else:
            last = sender.answer(OutboxMessage(None, msg.chat_id, PRIORITY_ANSWER,
                                               "sendMessage", params))
    if last is not None:
        owed = UPDATE_ANSWERS.get()
        if owed is not None:
            owed.append(last)  # waited for once the handler has returned
            return
        waiting = _ANSWERS.get()
        if waiting is not None and sender.store.current() is not None:
            waiting.append(last)  # waited for once the operation ends
        else:
            await _answered(last)


async def send(context: ContextTypes.DEFAULT_TYPE, chat_id: int, text: str,
               priority: int = PRIORITY_COPY) -> bool:
    """A message to one chat, posted to the outbox (see ``_post``); True if there was
    something to say. A person who blocked the bot does not stop the others: the sender
    marks that message refused."""
    return await post_text(context.bot, chat_id, text, priority)


async def post_text(bot: Bot, chat_id: int, text: str, priority: int,
                    grouping: str | None = None) -> bool:
    """``send`` with only the bot at hand (jobs given the application); ``grouping``: lines
    that may go out joined with the next ones to the same chat."""
    posted = False
    for part in message_parts(text):
        if not part.strip():
            continue  # nothing to say (Telegram refuses an empty message)
        await _post(bot, chat_id, {"text": part}, priority, grouping)
        posted = True
    return posted


async def notify_staff(context: ContextTypes.DEFAULT_TYPE, make: Callable[[str], str],
                       priority: int = PRIORITY_COPY) -> int:
    """The volunteers' line: in the volunteer chat, or privately to each volunteer/organiser.
    Posted to the outbox (see ``_post``); lines waiting for the same chat go out joined in
    one message (a volunteers' group takes 20 messages a minute). Returns how many chats it
    was posted for."""
    svc = services(context)

    def write(lang: str) -> str:
        try:
            return make(lang)
        except Exception:  # a line that cannot be written must not undo what it reports
            log.exception("could not write a volunteers' line")
            return ""

    if svc.config.volunteer_chat is not None:
        return int(await post_text(context.bot, svc.config.volunteer_chat,
                                   write(svc.contest.language), priority, grouping="staff"))
    # one row for every volunteer and organiser, the line in each language: the sender works
    # out who gets it (``staff_recipients``) when it sends it
    texts = {lang: text for lang in LANGUAGES if (text := write(lang)).strip()}
    if not texts:
        return 0
    await _post(context.bot, EVERY_VOLUNTEER, {"texts": texts}, priority, grouping="staff")
    return 1


async def staff_recipients(svc: Services) -> list[tuple[int, str]]:
    """Who gets the volunteers' lines without a volunteers' group, and in which language:
    every volunteer and organiser who has talked to the bot (Telegram refuses the others)."""
    people = set(await svc.day.volunteers()) | set(await svc.day.all_organisers())
    out = []
    for user_id in sorted(people):
        if await svc.store.person(user_id) is not None:
            out.append((user_id, await language_of(svc, user_id)))
    return out


async def organiser_recipients(svc: Services) -> list[tuple[int, str]]:
    """Every organiser who has talked to the bot, with their language (the sender tells them
    of messages Telegram refused for good)."""
    out = []
    for user_id in sorted(await svc.day.all_organisers()):
        if await svc.store.person(user_id) is not None:
            out.append((user_id, await language_of(svc, user_id)))
    return out


async def chat_name(svc: Services, chat_id: int) -> str | None:
    """How the sender names a chat to the organisers: the person's name, if known."""
    row = await svc.store.person(chat_id)
    return str(row["name"]) if row is not None and row["name"] else None


async def notify_entry(
    context: ContextTypes.DEFAULT_TYPE, number: int, make: Callable[[str], str],
    priority: int = PRIORITY_COPY,
) -> int:
    """To every phone following entry ``number``; returns how many it was posted for."""
    svc = services(context)
    sent = 0
    for user_id in await svc.day.linked_users(number):
        if await send(context, user_id, make(await language_of(svc, user_id)), priority):
            sent += 1
    return sent


async def show_usage(update: Update, who: Caller, line: str) -> None:
    """How to type a command (``/piezas N P``), with the command as the reader types it."""
    await reply(update, tr(who.lang, "Usage: {usage}", usage=in_language(who.lang, line)))


async def refuse_role(update: Update, who: Caller, needed: str) -> None:
    """A command this account may not use. Such refusals have a budget per chat
    (``Sender.admit``): an account sending them by the hundred is told a few times, then once
    that the bot will answer again in a while, and is not allowed to use up Telegram's shared
    limit, which everyone else's answers need."""
    msg = update.effective_message
    admitted = sender_for(msg.get_bot()).admit(msg.chat_id) if msg is not None else "yes"
    if admitted == "no":
        return
    if admitted == "notice":
        await reply(update, over_budget(who.lang), admitted=True)
        return
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
    """An entry number, a stage or a count as people type it: the one policy of
    ``bot.domain.numbers`` (digits of any script, at most 9, one leading "#" allowed)."""
    return parse_whole(text, hash_mark=True)


class TelegramTime:
    """The newest date of each person's messages, followed in the order updates arrive (the
    update processor tells it of each one before any is handled).

    A button press carries no date of its own. The message holding the buttons has one, but
    buttons can be kept for later: a pair showing three keyboards at 0:20, 0:25 and 0:30 and
    pressing them all at 0:31 would be charged three times, at those three moments, past the
    5-minute rule. So a press is stamped with the later of two of Telegram's dates: when its
    buttons were shown, and the newest message that the people of the same entry sent before the
    press arrived (a press cannot come before a message its own people sent ahead of it). Both
    are Telegram's, in Telegram's order, so a bot restarted during the contest stamps a waiting
    press exactly as it would have at once. Only the entry's own people count: what the rest of
    the hall sends never moves anyone's stamp.
    """

    KEEP = 8  # dates kept per person: enough for the presses in flight at once

    def __init__(self) -> None:
        self._count = 0
        self._dates: dict[int, deque[tuple[int, datetime]]] = {}
        self._presses: dict[int, int] = {}

    def seen(self, user_id: int, moment: datetime) -> None:
        """A message of ``user_id`` dated ``moment`` arrived (at start: the newest recorded)."""
        dates = self._dates.setdefault(user_id, deque(maxlen=self.KEEP))
        if not dates or moment > dates[-1][1]:
            dates.append((self._count, moment))

    def arrived(self, update: object) -> None:
        if not isinstance(update, Update):
            return
        self._count += 1
        if update.callback_query is not None:
            self._presses[update.update_id] = self._count
        elif update.message is not None and update.message.from_user is not None:
            self.seen(update.message.from_user.id, update.message.date)

    def handled(self, update: object) -> None:
        if isinstance(update, Update):
            self._presses.pop(update.update_id, None)

    def before(self, update_id: int, users: Iterable[int]) -> datetime | None:
        """The newest date of a message from ``users`` that arrived before this press."""
        press = self._presses.get(update_id)
        if press is None:
            return None
        newest = None
        for user in users:
            for count, moment in reversed(self._dates.get(user, ())):
                if count < press:
                    newest = moment if newest is None else max(newest, moment)
                    break
        return newest


def button_moment(update: Update, context: ContextTypes.DEFAULT_TYPE,
                  people: Iterable[int] = ()) -> datetime | None:
    """When a tapped button counts as pressed: the later of when its message was shown (Telegram's
    date; button data can be forged by a modified client, this date cannot) and the newest
    message that the presser or ``people`` (the entry's) sent before the press
    (``TelegramTime``). None if Telegram gave no date."""
    query = update.callback_query
    message = query.message if query is not None else None
    shown = getattr(message, "date", None)
    if not isinstance(shown, datetime) or shown.timestamp() <= 0:
        return None
    clock: TelegramTime | None = context.bot_data.get("telegram_time")
    who = {query.from_user.id} if query is not None and query.from_user else set()
    floor = clock.before(update.update_id, who | set(people)) if clock is not None else None
    return max(shown, floor) if floor is not None else shown


# -- timers ------------------------------------------------------------------------------------

# APScheduler skips a job more than a second late ("misfire"): a laptop that slept across the
# moment a notice was due would never send it. A late job still runs; each job checks in the
# database whether its announcement is still owed (and clock alerts whether it still helps).
LATE_IS_STILL_OWED: dict[str, Any] = {"misfire_grace_time": None, "coalesce": True}


def replace_job(app: Application[Any, Any, Any, Any, Any, Any], name: str, callback: Any,
                when: datetime, data: dict[str, Any]) -> None:
    """Schedule ``callback`` at ``when`` under ``name``, replacing the job of that name."""
    jq = app.job_queue
    assert jq is not None, "python-telegram-bot[job-queue] is required"
    named: dict[str, Any] = app.bot_data.setdefault("jobs_by_name", {})
    old = named.get(name)
    if old is not None and not old.removed:
        try:
            old.schedule_removal()  # kept by name: no scan of every job in the queue
        except JobLookupError:
            pass  # it already ran

    named[name] = jq.run_once(callback, when=CLOCK.seconds_until(when), name=name, data=data,
                              job_kwargs=LATE_IS_STILL_OWED)
