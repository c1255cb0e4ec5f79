"""Telegram's time: the newest date of each person's messages, which stamps button presses, and
whether every update Telegram held at a moment has been handled (deadlines wait for it)."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Iterable
from datetime import datetime

from telegram import Update


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

    def newest(self) -> datetime | None:
        """The newest date of any message that arrived: Telegram's time now, as far as the bot
        knows (what a deadline counted from "now" starts at)."""
        return max((d[-1][1] for d in self._dates.values() if d), default=None)

    def before_anyone(self, update_id: int) -> datetime | None:
        """The newest date of any message that arrived before this press: Telegram's time
        when it was pressed, at the least (Telegram hands updates over in the order they
        reached it). A deadline asks this, not only the entry's own people: a press that
        waited while the bot was off, behind messages dated after the deadline, came late."""
        press = self._presses.get(update_id)
        if press is None:
            return None
        newest = None
        for dates in self._dates.values():
            for count, moment in reversed(dates):
                if count < press:
                    newest = moment if newest is None else max(newest, moment)
                    break
        return newest

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


class CaughtUp:
    """Whether every update Telegram held at a moment has been handled: a deadline is decided
    only then, by the dates of what arrived.

    An answer Telegram dated before a deadline may reach the bot after it: the bot was off
    across the deadline (Telegram keeps the update until the next poll), or the network between
    Telegram and the bot was slow or down. Deciding the deadline when this machine's clock
    passes it would record the lapse first and refuse the answer. So the poller tells this of
    each ``getUpdates`` that came back with room to spare (fewer updates than it may return:
    Telegram held no more then) and of each update handled; a moment ``T`` is caught up once a
    poll sent at ``T`` or later came back so and every update it brought has been handled.

    Without a poller (the in-process test harness, which hands updates over itself) every
    moment is caught up at once."""

    def __init__(self) -> None:
        self.polling = False  # a poller reports here (set by chat/polling.py)
        self.stopped = False
        self.through: datetime | None = None  # the latest moment known caught up
        self._marks: deque[tuple[datetime, int]] = deque()  # (poll sent, highest id) pending
        self._changed: asyncio.Event | None = None

    def polled(self, sent: datetime, highest: int, first_open: int | None) -> None:
        """A poll sent at ``sent`` came back holding all Telegram had; ``highest``: the highest
        update id received so far, ``first_open``: the first id not handled yet (None: all)."""
        self._marks.append((sent, highest))
        self.progress(first_open)

    def progress(self, first_open: int | None) -> None:
        """Updates were handled: ``first_open`` is the first id still in hand (None: none)."""
        if not self._marks:
            return
        moved = False
        while self._marks and (first_open is None or self._marks[0][1] < first_open):
            sent, _ = self._marks.popleft()
            if self.through is None or sent > self.through:
                self.through, moved = sent, True
        if moved and self._changed is not None:
            self._changed.set()
            self._changed = None

    def caught_up(self, moment: datetime) -> bool:
        return not self.polling or (self.through is not None and self.through >= moment)

    def stop(self) -> None:
        """The poller stopped (the bot is stopping): nobody waits any longer."""
        self.stopped = True
        if self._changed is not None:
            self._changed.set()
            self._changed = None

    async def wait(self, moment: datetime) -> bool:
        """Until every update Telegram held at ``moment`` (this machine's clock) is handled:
        True; False if the bot stops first (nothing may be decided then: the next start does)."""
        while not self.caught_up(moment):
            if self.stopped:
                return False
            if self._changed is None:
                self._changed = asyncio.Event()
            await self._changed.wait()
        return True
