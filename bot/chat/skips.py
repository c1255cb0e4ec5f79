"""A rehearsal's idle stretches skipped (``python -m bot demo``; never for a real contest).

The rehearsal's clock runs simulated time fast (``bot.support.wallclock``), but between two
messages of the day there are often minutes where nobody does anything: waiting them out made
the rehearsal last the day's simulated length, not its work. When the rehearsal has nothing
to play before a moment, it writes that moment to the file named by
``PUZZLEBOT_REHEARSAL_SKIP`` and sends SIGUSR1. The bot then:

The rehearsal also holds the clock while it plays a message (``HOLD`` in the file, alone or
after the moment: held once the jump reaches it): the bot's clock stops and its timers wait, so
a machine too busy to answer within a few simulated minutes sees no timer go off in the middle
of a message's answers. The next skip lets it run again (every timer moved by the time it stood
still) before anything else.

For a skip, the bot:

1. waits until no timer is due and not gone off yet (a busy machine runs it late), none is
   running and everything owed is sent (a line must reach the phone at the moment it belongs
   to, not after the jump, nor after a message played later);
2. jumps its clock to that moment, or to ``MARGIN`` simulated seconds before its next timer if
   one comes first (a timer is never jumped over: it goes off at its own moment, as it would
   have);
3. moves every timer's real time by the same amount, so each still goes off at its simulated
   moment;
4. logs its clock as it now is (``CLOCK_LINE``), which the rehearsal reads back: both sides
   hold the same clock to the microsecond, and a restart after a SIGKILL starts from it.

Windows has no SIGUSR1 (and its event loops no signal handlers): there ``supported()`` is False,
the rehearsal asks for no skips and plays the day at its own pace (as with ``--web-port``), and
the bot listens for none.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from apscheduler.events import (  # type: ignore[import-untyped]
    EVENT_JOB_ADDED,
    EVENT_JOB_ERROR,
    EVENT_JOB_EXECUTED,
    EVENT_JOB_SUBMITTED,
)
from apscheduler.triggers.date import DateTrigger  # type: ignore[import-untyped]
from telegram.ext import Application

from bot.delivery.sender import Sender
from bot.support.wallclock import CLOCK, SKIP_ENV

log = logging.getLogger(__name__)

MARGIN = 1.0  # simulated seconds left before the next timer
SETTLE_TIMEOUT = 5.0  # real seconds at most waiting for what is owed before a jump
CLOCK_LINE = "rehearsal clock now "  # + the clock's encoding (WallClock.parse reads it)
HOLD = "hold"  # in the skip file: stop the clock (and the timers) until the next skip

AnyApp = Application[Any, Any, Any, Any, Any, Any]


class Timers:
    """How many timers are running now (APScheduler's job events), and since when (real time)
    the clock is held, if it is."""

    def __init__(self) -> None:
        self.held_since: float | None = None
        self.added: dict[str, float] = {}  # timers set while held: when (real time)
        self.running = 0
        self.idle = asyncio.Event()
        self.idle.set()

    def event(self, event: Any) -> None:
        if event.code == EVENT_JOB_ADDED:
            if self.held_since is not None:
                self.added[event.job_id] = time.time()
        elif event.code == EVENT_JOB_SUBMITTED:
            self.running += 1
            self.idle.clear()
        else:
            self.running = max(0, self.running - 1)
            if not self.running:
                self.idle.set()


def start_the_clock() -> None:
    """A rehearsal's clock held while the bot started runs from now on (``WallClock.release``);
    the rehearsal reads it back from the log."""
    if CLOCK.simulated_start is None:
        return
    CLOCK.release()
    log.info("%s%s", CLOCK_LINE, CLOCK.encode())


def supported() -> bool:
    """Whether skips can be asked for here: SIGUSR1 exists (not on Windows)."""
    return hasattr(signal, "SIGUSR1")


def listen_for_skips(app: AnyApp) -> bool:
    """In a rehearsal that asks for it, SIGUSR1 skips idle time (see the module's doc); False
    when it is not asked for, or cannot be heard here (no SIGUSR1, or an event loop without
    signal handlers)."""
    path = os.environ.get(SKIP_ENV, "").strip()
    if not path or CLOCK.simulated_start is None or not supported():
        return False
    jq = app.job_queue
    assert jq is not None, "python-telegram-bot[job-queue] is required"
    timers = Timers()
    lock = asyncio.Lock()  # one jump at a time, in the order asked

    async def one() -> None:
        async with lock:
            while not app.running:  # a signal while the bot starts: once its timers run
                await asyncio.sleep(0.005)
            await skip(app, Path(path), timers)

    try:
        asyncio.get_running_loop().add_signal_handler(
            signal.SIGUSR1, lambda: app.create_task(one(), name="rehearsal-skip"))
    except NotImplementedError:
        log.warning("this event loop has no signal handlers: no idle time is skipped")
        return False
    jq.scheduler.add_listener(timers.event, EVENT_JOB_ADDED | EVENT_JOB_SUBMITTED
                              | EVENT_JOB_EXECUTED | EVENT_JOB_ERROR)
    return True


async def skip(app: AnyApp, path: Path, timers: Timers) -> None:
    jq = app.job_queue
    assert jq is not None
    try:
        asked = path.read_text().split()
        then_hold = asked[-1:] == [HOLD]
        target = None if asked == [HOLD] else datetime.fromisoformat(asked[0])
    except (OSError, ValueError):
        log.exception("a rehearsal's skip without a moment: the clock stays")
        log.info("%s%s", CLOCK_LINE, CLOCK.encode())
        return
    if target is None:
        hold(jq, timers)
        log.info("%s%s", CLOCK_LINE, CLOCK.encode())
        return
    release(jq, timers)
    sender: Sender | None = app.bot_data.get("sender")
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(SETTLE_TIMEOUT):
            while overdue(jq):  # a busy machine runs a timer late: it goes off first
                await asyncio.sleep(0.005)
            await timers.idle.wait()
            if sender is not None:
                await sender.settled()
            await timers.idle.wait()  # a timer that went off meanwhile
    once = [(j, at) for j in jq.jobs() if isinstance(j.job.trigger, DateTrigger)
            and (at := next_at(j)) is not None]
    now, real = CLOCK.now(), time.time()
    until = target
    for _, at in once:
        due = now + timedelta(seconds=(at.timestamp() - real) * CLOCK.speed)
        until = min(until, due - timedelta(seconds=MARGIN))
    seconds = (until - now).total_seconds()
    if seconds > 0:
        CLOCK.skip(seconds)
        earlier = timedelta(seconds=seconds / CLOCK.speed)
        for job, at in once:
            job.job.modify(next_run_time=at - earlier)
    if then_hold and until == target:  # the moment reached, no timer first: held there
        hold(jq, timers)
    log.info("%s%s", CLOCK_LINE, CLOCK.encode())


def hold(jq: Any, timers: Timers) -> None:
    """Stop the clock and the timers (a message being played)."""
    if timers.held_since is not None:
        return
    timers.held_since = time.time()
    jq.scheduler.pause()
    CLOCK.hold()


def release(jq: Any, timers: Timers) -> None:
    """Let a held clock run again; every timer moved by the time it stood still since it was
    set (one set while held was worked out from the clock standing there), so each still goes
    off at its simulated moment."""
    if timers.held_since is None:
        return
    now = time.time()
    held_since, added = timers.held_since, timers.added
    timers.held_since, timers.added = None, {}
    CLOCK.release()
    for job in jq.jobs():
        at = next_at(job)
        if at is not None:
            stood = now - max(held_since, added.get(job.job.id, held_since))
            job.job.modify(next_run_time=at + timedelta(seconds=stood))
    jq.scheduler.resume()


def next_at(job: Any) -> datetime | None:
    """When a timer goes off next (None: never again, or not yet in the running scheduler)."""
    moment: datetime | None = getattr(job.job, "next_run_time", None)
    return moment


def overdue(jq: Any) -> bool:
    """Whether a timer's moment has come and it has not gone off yet (its job still waits)."""
    now = time.time()
    return any(isinstance(j.job.trigger, DateTrigger) and (at := next_at(j)) is not None
               and at.timestamp() <= now for j in jq.jobs())


__all__ = ["CLOCK_LINE", "listen_for_skips", "start_the_clock"]
