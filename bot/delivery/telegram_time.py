"""Telegram's time: the newest date of each person's messages, which stamps button presses."""

from __future__ import annotations

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
