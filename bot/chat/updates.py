"""How updates are processed: concurrently across chats, in order within a chat.

Two phones of one pair are two chats, so their taps are decided concurrently and the store's
single writer settles them (one charge, one refusal). One person's messages stay in order, which
the registration conversation needs. An update waiting for its chat's turn takes no place among
the ``MAX_CONCURRENT`` being handled: one account sending a hundred messages at once is handled
one message at a time while everyone else's go ahead.

An answer that reports nothing recorded is waited for here, once its handler has returned
(``delivery/answers.py``, ``UPDATE_ANSWERS``): the update is reported finished (and confirmed to
Telegram) only once its answers are sent, but while they wait their turn, or for Telegram, the
update holds neither a place nor its chat's turn. One chat's answers still go in order (the
sender sends each chat's messages in the order they came).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from telegram import Update
from telegram.ext import BaseUpdateProcessor

from bot.delivery.answers import UPDATE_ANSWERS, answers_sent
from bot.delivery.telegram_time import TelegramTime

# Updates handled at once: enough for big group commits and to keep Telegram's 30 messages a
# second busy at 400 ms a call, few enough not to wait behind each other (bench/README.md).
MAX_CONCURRENT = 20
# Updates let in to wait for their chat's turn (python-telegram-bot's semaphore). Waiting for
# its chat takes none of the places above: an account sending 150 messages at once has one of
# them handled at a time, and everyone else's go ahead meanwhile.
MAX_WAITING = 4096


class PerChatUpdateProcessor(BaseUpdateProcessor):
    def __init__(self, max_concurrent_updates: int = MAX_CONCURRENT,
                 telegram_time: TelegramTime | None = None) -> None:
        super().__init__(max(MAX_WAITING, max_concurrent_updates))
        self._slots = asyncio.Semaphore(max_concurrent_updates)
        self.handled_at_once = max_concurrent_updates
        # each person's newest message date, told of each update as it arrives, in Telegram's
        # order (before the chat locks reorder them): button presses are stamped with it
        # (delivery/telegram_time.py)
        self.telegram_time = telegram_time or TelegramTime()
        self._locks: dict[int, asyncio.Lock] = {}
        self._users: dict[int, int] = {}
        self._in_flight = 0
        # set while no update is being handled: work that can wait (the volunteers' lines)
        # waits for it rather than competing with people's answers
        self.idle = asyncio.Event()
        self.idle.set()
        # told of each update once its handling has finished (returned or raised; not when
        # cancelled): the poller confirms an update to Telegram only then (chat/polling.py)
        self.finished: Callable[[object], None] | None = None

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        # reached in the order the updates were handed over (the base class's semaphore wakes
        # its waiters first in, first out), before the chat locks reorder them
        self.telegram_time.arrived(update)
        self._in_flight += 1
        self.idle.clear()
        answers: list[asyncio.Future[str]] = []
        token = UPDATE_ANSWERS.set(answers)
        try:
            try:
                await self._in_chat_order(update, coroutine)
            finally:
                UPDATE_ANSWERS.reset(token)
                self.telegram_time.handled(update)
                self._in_flight -= 1
                if self._in_flight == 0:
                    self.idle.set()
        except Exception:
            # Application.process_update hands handlers' errors to the error handler; what
            # still escapes is a fault of the update itself, and confirming it keeps it from
            # coming back after every restart
            await answers_sent(answers)
            if self.finished is not None:
                self.finished(update)
            raise
        # handled: finished once its answers are sent (cancelled meanwhile: not finished, so
        # Telegram delivers it again and it is answered again)
        await answers_sent(answers)
        if self.finished is not None:
            self.finished(update)

    async def _in_chat_order(self, update: object, coroutine: Awaitable[Any]) -> None:
        key = None
        if isinstance(update, Update):
            chat = update.effective_chat
            user = update.effective_user
            key = chat.id if chat is not None else (user.id if user is not None else None)
        if key is None:
            async with self._slots:
                await coroutine
            return
        lock = self._locks.setdefault(key, asyncio.Lock())
        self._users[key] = self._users.get(key, 0) + 1
        try:
            async with lock, self._slots:
                await coroutine
        finally:
            self._users[key] -= 1
            if self._users[key] == 0:  # nobody else waiting on this chat: forget its lock
                del self._users[key]
                self._locks.pop(key, None)

    async def initialize(self) -> None:
        return None

    async def shutdown(self) -> None:
        return None
