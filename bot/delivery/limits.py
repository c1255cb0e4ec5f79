"""Telegram's limits: the flood limits as rates with a burst (``Limits``, ``Pace``), the waits a
429 asks for (``Holds``), and the application's rate limiter, which lets the sender's own sends
through (``SenderAwareLimiter``)."""

from __future__ import annotations

import asyncio
import logging
import warnings
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Any

from telegram.error import RetryAfter
from telegram.ext import AIORateLimiter
from telegram.warnings import PTBDeprecationWarning

log = logging.getLogger(__name__)

RETRY_AFTER_CAP = 60.0  # the longest a 429's retry_after is waited
# 429s for this many different chats within GLOBAL_429_WINDOW seconds: the overall limit, so
# every chat waits; fewer: only the chats they were for
GLOBAL_429_CHATS, GLOBAL_429_WINDOW = 3, 1.0
# the sender's sends pass this as ``rate_limit_args``: the application's rate limiter lets
# them through untouched (the sender keeps to Telegram's limits itself, and a 429 for one chat
# must not hold every request, as AIORateLimiter's retries do)
SELF_PACED = -1


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


class Pace:
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



class Holds:
    """The chats waiting out a 429, and the pause of every chat when several got one at once
    (``paused_until``, loop time); ``release`` is called with a chat once its wait is over."""

    def __init__(self, release: Callable[[int], None]) -> None:
        self._chats: dict[int, asyncio.TimerHandle] = {}
        self._recent_429: list[tuple[float, int]] = []
        self.paused_until = 0.0  # loop time: nothing is sent before (a 429 for every chat)
        self._release = release

    def __contains__(self, chat: int) -> bool:
        return chat in self._chats

    def asked(self, chat: int, exc: RetryAfter) -> None:
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
            self.paused_until = max(self.paused_until, now + seconds)
            return
        log.warning("Telegram asks to wait %.0f s before sending more to chat %s", seconds,
                    chat)
        hold = self._chats.pop(chat, None)
        if hold is not None:
            hold.cancel()
        self._chats[chat] = loop.call_later(seconds, self._released, chat)

    def _released(self, chat: int) -> None:
        self._chats.pop(chat, None)
        self._release(chat)

    def cancel(self) -> None:
        for hold in self._chats.values():
            hold.cancel()


class SenderAwareLimiter(AIORateLimiter):
    """AIORateLimiter for every request but the outbox's (``rate_limit_args`` SELF_PACED):
    the sender keeps to Telegram's limits itself and handles each 429 for the chat it was
    for, where AIORateLimiter would sleep on it holding every request of the bot."""

    async def process_request(
        self, callback: Callable[..., Coroutine[Any, Any, bool | dict[str, Any]
                                                 | list[dict[str, Any]]]],
        args: Any, kwargs: dict[str, Any], endpoint: str, data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> bool | dict[str, Any] | list[dict[str, Any]]:
        if rate_limit_args == SELF_PACED:
            return await callback(*args, **kwargs)
        return await super().process_request(callback, args, kwargs, endpoint, data,
                                             rate_limit_args)

