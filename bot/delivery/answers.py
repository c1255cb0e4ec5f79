"""Answering the person who asked, and ``recording``: what a handler records and the messages
reporting it, in one transaction (docs/invariants.md, section 12).

Two calls, by what the answer reports: ``answer`` (something the handler recorded: stored in
its transaction, sent once it commits) and ``answer_now`` (nothing recorded: a refusal, a
question; not stored, sent first in line and waited for before the update is confirmed)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from contextvars import ContextVar

from telegram import Message, TelegramObject, Update

from bot.delivery.services import Services
from bot.storage.store import PRIORITY_ANSWER, OutboxMessage, Transaction
from bot.support.i18n import pick_language, tr
from bot.texts.common import message_parts

log = logging.getLogger(__name__)

ANSWER_WAIT = 15.0  # how long a handler waits for an answer that is not stored to be sent


def over_budget(lang: str) -> str:
    """What a chat over its budget of answers is told, once (``Sender.admit``, ``admit_answer``)."""
    return tr(lang, "You are sending messages faster than I can answer: I will answer again in "
              "a while.")


# the answers not stored of the update this task handles, set by the update processor
# (``chat/updates.py``): it waits for them once the handler has returned, having given up the
# update's handling place and its chat's turn, and only then reports the update finished (so
# it is confirmed to Telegram only once they are sent). Unset (a handler run by other means),
# ``answer_now`` waits for them itself
UPDATE_ANSWERS: ContextVar[list[asyncio.Future[str]] | None] = ContextVar(
    "puzzlebot_update_answers", default=None)
# the language of the person whose update this task handles (``handlers.common.caller``)
SPEAKING: ContextVar[str | None] = ContextVar("puzzlebot_speaking", default=None)
# answers queued inside ``recording`` that report nothing recorded: waited for once it ends
# (never while the writer's lock is held)
_ANSWERS: ContextVar[list[asyncio.Future[str]] | None] = ContextVar("puzzlebot_answers",
                                                                     default=None)


@asynccontextmanager
async def recording(svc: Services) -> AsyncIterator[Transaction]:
    """One operation for what a handler records and the messages that report it: the
    services' own transactions inside it join it, and ``answer``, ``send``, ``notify_staff``
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


def answered_message(update: Update) -> tuple[Message, dict[str, object]]:
    """The message answered, and where the answer goes: in the chat the update came from (in
    its forum topic, if it has one), quoting it (in a volunteers' group several people ask at
    once, and an answer that waited still says what it answers; JSON written here: the library
    would encode a dict for every answer)."""
    msg = update.effective_message
    assert msg is not None
    where: dict[str, object] = {"reply_parameters": (
        f'{{"message_id":{int(msg.message_id)},"allow_sending_without_reply":true}}')}
    if msg.is_topic_message and msg.message_thread_id is not None:
        where["message_thread_id"] = msg.message_thread_id
    return msg, where


def _params(where: dict[str, object], parts: list[str],
            kwargs: dict[str, object]) -> list[dict[str, object]]:
    """Each part's message; the extra parameters (a keyboard) go with the last one."""
    out = []
    for i, part in enumerate(parts):
        extra = {k: _jsonable(v) for k, v in kwargs.items()} if i == len(parts) - 1 else {}
        out.append({**where, "text": part, **extra})
    return out


def recorded_transaction(svc: Services) -> Transaction | None:
    """The running ``recording`` operation, if it has recorded something."""
    tx = svc.store.current()
    return tx if tx is not None and tx.recorded else None


async def answer(svc: Services, update: Update, text: str, **kwargs: object) -> None:
    """An answer reporting what the handler recorded: stored in its ``recording``
    transaction, sent once it commits (a crash after the commit still sends it)."""
    tx = recorded_transaction(svc)
    if tx is None:  # a call site that recorded nothing: answered as before, but said
        log.warning("an answer stored with nothing recorded: sent as answer_now")
        await _unstored(svc, update, text, False, kwargs)
        return
    msg, where = answered_message(update)
    for params in _params(where, message_parts(text), kwargs):
        tx.post(msg.chat_id, params, priority=PRIORITY_ANSWER)


async def answer_now(svc: Services, update: Update, text: str, *, admitted: bool = False,
                     **kwargs: object) -> None:
    """An answer reporting nothing recorded (a refusal, a question): not stored, queued first
    in line within the chat's budget (``Sender.admit_answer``; ``admitted``: already decided)
    and waited for (up to ``ANSWER_WAIT``), so the update is confirmed only once it is sent."""
    await _unstored(svc, update, text, admitted, kwargs)


async def _unstored(svc: Services, update: Update, text: str, admitted: bool,
                    kwargs: dict[str, object]) -> None:
    msg, where = answered_message(update)
    user = update.effective_user
    lang = SPEAKING.get() or pick_language(None, user.language_code if user is not None
                                           else None)
    await _send_unstored(svc, msg.chat_id, where, lang, message_parts(text), admitted, kwargs)


def post_answer(tx: Transaction, chat_id: int, where: dict[str, object], text: str,
                markup: str | None = None) -> None:
    """An answer reporting what ``tx`` records, stored in it (``answer``'s path for an
    operation's ``Work``); ``markup``: its buttons, as JSON."""
    extra: dict[str, object] = {"reply_markup": markup} if markup is not None else {}
    for params in _params(where, message_parts(text), extra):
        tx.post(chat_id, params, priority=PRIORITY_ANSWER)


async def send_unstored(svc: Services, chat_id: int, where: dict[str, object], lang: str,
                        text: str, markup: str | None = None) -> None:
    """``answer_now``'s path for an operation's ``Work`` that recorded nothing."""
    extra: dict[str, object] = {"reply_markup": markup} if markup is not None else {}
    await _send_unstored(svc, chat_id, where, lang, message_parts(text), False, extra)


async def _send_unstored(svc: Services, chat_id: int, where: dict[str, object], lang: str,
                         parts: list[str], admitted: bool, kwargs: dict[str, object]) -> None:
    sender = svc.sender
    if not admitted:
        decision = sender.admit_answer(chat_id, len(parts))
        if decision == "no":
            return
        if decision == "notice":
            parts, kwargs = [over_budget(lang)], {}
    last: asyncio.Future[str] | None = None
    for params in _params(where, parts, kwargs):
        last = sender.answer(OutboxMessage(None, chat_id, PRIORITY_ANSWER, "sendMessage",
                                           params))
    if last is not None:
        await _wait_or_hand_over(svc, last)


async def _wait_or_hand_over(svc: Services, last: asyncio.Future[str]) -> None:
    """The last answer not stored of this update: handed to the update processor, waited for
    once the handler has returned; else after the operation, if inside one; else now."""
    owed = UPDATE_ANSWERS.get()
    if owed is not None:
        owed.append(last)  # waited for once the handler has returned
        return
    waiting = _ANSWERS.get()
    if waiting is not None and svc.store.current() is not None:
        waiting.append(last)  # waited for once the operation ends
    else:
        await _answered(last)
