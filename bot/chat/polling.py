"""Long polling that confirms an update to Telegram only once it has been handled, and a start
that waits for Telegram rather than failing.

Telegram forgets every update below the ``offset`` of the next ``getUpdates``. python-telegram-
bot's Updater asks with the offset after the batch it just received, before the batch is
handled: a crash then loses those updates (neither recorded nor answered, and never sent
again). Here the Application is built without its Updater, and ``Poller`` puts the updates on
``application.update_queue`` itself, noting each in ``Offsets``. The update processor
(``chat/updates.py``) tells ``Offsets`` when each one's handling has finished; the offset sent
is one past the end of the contiguous run of finished updates, so an update that finished
while an earlier one still runs moves nothing. After a crash Telegram sends again what was not
confirmed; one that had already left its event is answered "Already recorded."

A poll while updates are still being handled is answered at once with those same updates
(they are not confirmed yet), so the poller does not spin on it: it polls again when nothing
is left in hand or after ``BUSY_POLL`` seconds, whichever comes first, skipping what it already
has. With nothing in hand it long-polls as before.

``serve`` is ``Application.run_polling`` with that poller: initialize (retrying while Telegram
is unreachable: one log line per attempt, the delay growing to ``MAX_DELAY``), post_init,
deleteWebhook, start, the steps nobody's answer waits for in the background (``AFTER_START``),
poll until SIGINT or SIGTERM (on Windows also Ctrl+Break, SIGBREAK; its
event loops have no signal handlers: ``on_signals`` falls back to ``signal.signal``), then stop
(every update in hand finishes), confirm what finished with one last ``getUpdates``, and shut
down. A token Telegram refuses ends it with ``TokenRejected``, whose message never contains the
token. A 409 Conflict from ``getUpdates`` (the same token polled by another process: Telegram
answers the older of two polls so) ends it with ``PollingConflict`` after the same stop,
without that last poll (it would end the other process's poll in turn): the updates not
confirmed are sent again to whoever polls next, and recognised if they were recorded here.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
import signal
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

from telegram import Update
from telegram.error import Conflict, InvalidToken, NetworkError, RetryAfter, TelegramError
from telegram.ext import Application

from bot.chat.updates import PerChatUpdateProcessor
from bot.delivery.telegram_time import CaughtUp
from bot.support.wallclock import CLOCK

log = logging.getLogger(__name__)

POLL_TIMEOUT = 10.0  # seconds a getUpdates is held by Telegram (run_polling's default)
POLL_LIMIT = 100  # the most updates one getUpdates returns (Telegram's own maximum)
# "pre_checkout_query": Telegram's last question before it charges a payment in the chat
ALLOWED_UPDATES = ("message", "callback_query", "pre_checkout_query")
BUSY_POLL = 0.1  # while updates are in hand, poll at most this often (see the docstring)
FIRST_DELAY = 0.5  # after a failed call; doubled after each further failure
MAX_DELAY = 30.0
# bot_data's key for what runs once the bot takes updates (``after_start``): coroutine
# functions of the application
AFTER_START = "after_start"
AFTER_START_GRACE = 2.0  # seconds they may still take at a stop
CANCEL_AGAIN = 0.5  # seconds before a cancelled poll (or start) is cancelled again
# Ctrl+C, systemd's stop; and Windows' Ctrl+Break, how a process there is told to stop (the
# rehearsal stops its bot so: bot/rehearsal/botprocess.py)
STOP_SIGNALS = tuple(getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGBREAK")
                     if hasattr(signal, n))

T = TypeVar("T")
AnyApp = Application[Any, Any, Any, Any, Any, Any]


class TokenRejected(Exception):
    """Telegram answered 401/404: the token is wrong or revoked."""


class PollingConflict(Exception):
    """Telegram answered ``getUpdates`` with 409 Conflict: another process polls with the same
    token (the newer poll wins, the older is told so). The message never contains the token."""


CONFLICT = ("Telegram answered 409 Conflict to getUpdates ({description}): another bot "
            "process is using this bot's token (TELEGRAM_BOT_TOKEN), on this computer or "
            "another, and the two would split the updates between them; this one stopped. "
            "Stop the other one, then start this one again if it is the one to run")


class Offsets:
    """The updates received from Telegram, which of them are still being handled, and the
    offset that may be confirmed: the first update not finished, or one past the last received
    when all have finished (None before any)."""

    def __init__(self) -> None:
        self.highest = 0  # the highest update_id received
        self._open: set[int] = set()
        self._heap: list[int] = []  # the open ids, smallest first (finished ones popped lazily)
        self.idle = asyncio.Event()  # set when no update is in hand
        self.idle.set()

    def received(self, update_id: int) -> bool:
        """Note an update from Telegram; False if it was received before (a poll repeats the
        updates not yet confirmed)."""
        if update_id <= self.highest:
            return False
        self.highest = update_id
        self._open.add(update_id)
        heapq.heappush(self._heap, update_id)
        self.idle.clear()
        return True

    def finished(self, update_id: int) -> None:
        self._open.discard(update_id)
        if not self._open:
            self.idle.set()

    @property
    def in_hand(self) -> int:
        return len(self._open)

    @property
    def offset(self) -> int | None:
        heap = self._heap
        while heap and heap[0] not in self._open:
            heapq.heappop(heap)
        if heap:
            return heap[0]
        return self.highest + 1 if self.highest else None


def delays(first: float = FIRST_DELAY, most: float = MAX_DELAY) -> Callable[[], float]:
    """The waits after consecutive failures: first, doubled each time, at most ``most``."""
    current = 0.0

    def next_delay() -> float:
        nonlocal current
        current = first if current == 0 else min(most, current * 2)
        return current

    return next_delay


def describe(exc: BaseException) -> str:
    """One line about a failed call (never the token: InvalidToken's text carries it)."""
    if isinstance(exc, InvalidToken):
        return "InvalidToken"
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text[:200]}" if text else type(exc).__name__


def _wait_after(exc: Exception, next_delay: Callable[[], float]) -> float:
    if isinstance(exc, RetryAfter):
        ra = exc.retry_after
        return float(ra if isinstance(ra, int | float) else ra.total_seconds())
    return next_delay()


async def retry_network(what: str, call: Callable[[], Awaitable[T]]) -> T:
    """``call()`` until Telegram answers it: network errors, 5xx and 429 are waited out with
    one log line each; a refused token raises TokenRejected; other errors propagate."""
    next_delay = delays()
    attempt = 0
    while True:
        attempt += 1
        try:
            return await call()
        except InvalidToken:
            raise TokenRejected("Telegram refused the bot token (TELEGRAM_BOT_TOKEN): check it "
                                "with @BotFather") from None
        except (NetworkError, RetryAfter) as exc:
            wait = _wait_after(exc, next_delay)
            log.warning("Telegram unreachable (%s: %s), attempt %d; retrying in %.1f s",
                        what, describe(exc), attempt, wait)
            await asyncio.sleep(wait)


class Poller:
    """getUpdates in a loop, each update put on the application's queue once, the offset
    from ``Offsets``."""

    def __init__(self, app: AnyApp, offsets: Offsets, timeout: float = POLL_TIMEOUT,
                 allowed_updates: Sequence[str] = ALLOWED_UPDATES,
                 busy_poll: float = BUSY_POLL, caught_up: CaughtUp | None = None) -> None:
        self.app = app
        self.offsets = offsets
        self.caught_up = caught_up
        if caught_up is not None:
            caught_up.polling = True
        self.timeout = timeout
        self.allowed_updates = list(allowed_updates)
        self.busy_poll = busy_poll
        self.polls = 0
        self.conflicted = False  # Telegram said another process polls with this token

    async def run(self) -> None:
        """Poll until cancelled; raises TokenRejected if Telegram refuses the token, and
        PollingConflict if it answers 409 Conflict (another process polls with this token)."""
        next_delay = delays()
        failing = False
        while True:
            await self._pace()
            sent = CLOCK.now()
            try:
                updates = await self.app.bot.get_updates(
                    offset=self.offsets.offset, timeout=self.timeout, limit=POLL_LIMIT,
                    allowed_updates=self.allowed_updates)
            except InvalidToken:
                raise TokenRejected("Telegram refused the bot token (TELEGRAM_BOT_TOKEN): "
                                    "check it with @BotFather") from None
            except Conflict as exc:  # never polled again: that would stop the other one
                self.conflicted = True
                said = " ".join(str(exc).split()).removeprefix("Conflict: ")[:200]
                raise PollingConflict(CONFLICT.format(description=said)) from None
            except Exception as exc:  # noqa: BLE001 - every failed poll is waited out
                wait = _wait_after(exc, next_delay)
                log.warning("getUpdates failed (%s); retrying in %.1f s", describe(exc), wait)
                failing = True
                await asyncio.sleep(wait)
                continue
            self.polls += 1
            if failing:
                log.info("getUpdates works again")
                failing = False
                next_delay = delays()
            await self.hand_over(updates)
            if self.caught_up is not None and len(updates) < POLL_LIMIT:
                # Telegram held nothing more when this poll was sent: once what it brought is
                # handled, every deadline up to ``sent`` can be decided (CaughtUp)
                self.caught_up.polled(sent, self.offsets.highest, self.offsets.offset)

    async def hand_over(self, updates: Sequence[Update]) -> None:
        for update in updates:
            if self.offsets.received(update.update_id):
                await self.app.update_queue.put(update)

    async def _pace(self) -> None:
        if self.offsets.idle.is_set():
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.offsets.idle.wait(), self.busy_poll)

    async def confirm(self) -> None:
        """Tell Telegram every finished update is handled (the last poll's offset)."""
        offset = self.offsets.offset
        if offset is None:
            return
        try:
            await self.app.bot.get_updates(offset=offset, timeout=0, limit=1,
                                           allowed_updates=self.allowed_updates)
        except TelegramError as exc:
            log.warning("could not confirm the last updates (%s); Telegram sends them again "
                        "at the next start, and they are recognised", describe(exc))


def track(app: AnyApp, caught_up: CaughtUp | None = None) -> Offsets:
    """Offsets fed by the application's update processor (and ``caught_up`` told of each
    update handled)."""
    processor = app.update_processor
    if not isinstance(processor, PerChatUpdateProcessor):
        raise TypeError("confirming updates once handled needs PerChatUpdateProcessor")
    offsets = Offsets()

    def finished(update: object) -> None:
        if isinstance(update, Update):
            offsets.finished(update.update_id)
            if caught_up is not None:
                caught_up.progress(offsets.offset)

    processor.finished = finished
    return offsets


class _InvalidJSONOneLine(logging.Filter):
    """python-telegram-bot logs a non-JSON answer (a proxy's 502 page) with its traceback and
    the whole body: one line is enough (the failed call logs its own line)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str) and record.msg.startswith("Can not load invalid JSON"):
            args = record.args if isinstance(record.args, tuple) else ()
            body = " ".join(str(args[0] if args else "").split())
            record.msg, record.args = "Telegram's answer was not JSON: %r", (body[:80],)
            record.exc_info, record.exc_text = None, None
        return True


async def serve(app: AnyApp, stop_signals: Sequence[signal.Signals] = STOP_SIGNALS) -> None:
    """Run the bot until a stop signal; raises TokenRejected if the token is refused, and
    PollingConflict (after the same clean stop as a signal's, without the last confirming
    poll) if another process polls with the same token."""
    logging.getLogger("telegram.request.BaseRequest").addFilter(_InvalidJSONOneLine())
    stop = asyncio.Event()
    undo = on_signals(stop_signals, stop.set)
    caught_up = app.bot_data.get("caught_up")
    offsets = track(app, caught_up)
    poller = Poller(app, offsets, caught_up=caught_up)
    later: list[asyncio.Task[None]] = []
    try:
        if await _until_stopped(stop, _start(app)):
            later = after_start(app)
            await _until_stopped(stop, poller.run())  # returns at a stop signal
            log.info("stopping: finishing the %d updates in hand", offsets.in_hand)
    finally:
        await _finish_or_cancel(later)
        if caught_up is not None:  # a deadline waiting for the poller is decided next start
            caught_up.stop()
        if app.running:
            await app.stop()
            if app.post_stop is not None:
                await app.post_stop(app)
            if not poller.conflicted:  # a poll now would end the other process's
                await poller.confirm()
        await app.shutdown()
        if app.post_shutdown is not None:
            await app.post_shutdown(app)
        undo()


def on_signals(signals: Sequence[signal.Signals], then: Callable[[], None]) -> Callable[[], None]:
    """Call ``then`` in the running loop at any of ``signals``; returns what puts the handlers
    back. The loop's own signal handlers where it has them (Linux, macOS); else (Windows: its
    loops raise NotImplementedError) ``signal.signal``, whose handler hands ``then`` to the
    loop thread-safely. Off the main thread, where no handler can be set, nothing is."""
    loop = asyncio.get_running_loop()
    added: list[signal.Signals] = []
    previous: dict[signal.Signals, Any] = {}

    def put_back() -> None:
        for sig in added:
            loop.remove_signal_handler(sig)
        for sig, handler in previous.items():
            signal.signal(sig, handler)

    try:
        for sig in signals:
            loop.add_signal_handler(sig, then)
            added.append(sig)
    except NotImplementedError:
        put_back()
        added.clear()
        with contextlib.suppress(ValueError):  # not the main thread
            for sig in signals:
                previous[sig] = signal.signal(sig, lambda *_: loop.call_soon_threadsafe(then))
    return put_back


def after_start(app: AnyApp) -> list[asyncio.Task[None]]:
    """The steps of ``bot_data[AFTER_START]``, each in a task of its own once the bot takes
    updates: what nobody's answer waits for (the default menus, 25 calls to Telegram) does
    not hold back the first answer after a restart. A step that fails is logged."""
    tasks = [asyncio.create_task(step(app), name=f"after start: {step.__name__}")
             for step in app.bot_data.get(AFTER_START, ())]
    for task in tasks:
        task.add_done_callback(_log_failure)
    return tasks


async def _finish_or_cancel(tasks: list[asyncio.Task[None]]) -> None:
    """At a stop, the steps after the start are given ``AFTER_START_GRACE`` seconds to end (a
    stop just after a start still leaves the menus set), then cancelled: one still waiting for
    Telegram is done again at the next start."""
    if not tasks:
        return
    _, pending = await asyncio.wait(tasks, timeout=AFTER_START_GRACE)
    for task in pending:
        task.cancel()
    if pending:  # their end awaited (a failure was logged by ``_log_failure``, never raised)
        await asyncio.wait(pending)


def _log_failure(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("%s failed", task.get_name(), exc_info=task.exception())


async def _start(app: AnyApp) -> None:
    await retry_network("getMe", app.bot.initialize)
    await app.initialize()
    if app.post_init is not None:
        await app.post_init(app)
    await retry_network("deleteWebhook", app.bot.delete_webhook)
    await app.start()


async def _until_stopped(stop: asyncio.Event, work: Awaitable[None]) -> bool:
    """Run ``work`` until it ends or ``stop`` is set (then it is cancelled); True if it ended
    by itself. Its exception, if any, propagates."""
    task = asyncio.ensure_future(work)
    stopping = asyncio.create_task(stop.wait())
    try:
        await asyncio.wait({task, stopping}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopping.cancel()
    if task.done():
        task.result()
        return True
    # cancelled again until it ends: a cancellation that arrives inside the HTTP client's
    # read (anyio's cancel scope around it) can be taken for the scope's own and swallowed,
    # and the long poll then waits on (a stop that never came, before)
    while not task.done():
        task.cancel()
        await asyncio.wait({task}, timeout=CANCEL_AGAIN)
    with contextlib.suppress(asyncio.CancelledError):
        await task
    return False
