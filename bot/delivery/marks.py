"""What the sender has done, written down: each stored message marked done in batches through
the writer's group commit, with the organisers' lines about messages Telegram refused for good
or chats it moved, and what is owed instead of an announcement the announcements channel
refused, in the same transaction; rows done long ago pruned."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta

from bot.delivery.claims import NoteOf, apply_settled, edit_claimed
from bot.storage.store import OUTBOX_KEEP_SECONDS, PRIORITY_BULK, Copy, Store
from bot.support.i18n import tr

log = logging.getLogger(__name__)

DROPPED = "dropped"  # the grouping of the organisers' lines about messages dropped
Organisers = Callable[[], Awaitable[list[tuple[int, str]]]]
NameOf = Callable[[int], Awaitable[str | None]]
# what is owed instead of announcements the channel refused, given (chat, the post's text,
# Telegram's words): (chat, text, grouping) each (``delivery/announcements.py``)
FallBack = Callable[[list[tuple[int, str, str]]], Awaitable[list[tuple[int, str, str | None]]]]
PRUNE_EVERY = 600.0  # seconds between prunings of the rows done long ago
# Marks wait (at most this long) for a batch of the writer's to join, sharing its fsync, rather
# than costing one each: longer while messages are still going out, short once all are out. A
# crash in that window sends those messages again at start (at least once, never lost).
MARK_WAIT_BUSY, MARK_WAIT_IDLE = 0.25, 0.02
# While updates are being handled, lines settled are applied to their copies at most this often
# (seconds; the sender's staff gap): every copy holding several of them is then edited once,
# not once per settling (at a rush of finishes, twenty volunteers' joined messages were each
# edited again at every mark). As soon as no update is being handled they are applied at once.
SETTLE_GAP = 1.0


class Marks:
    """The rows done (``done``: row, outcome) and the notes for the organisers (``notes``:
    ("drop", chat, Telegram's words) or ("moved", old chat, new chat)) and the announcements
    the channel refused (``refused``: chat, text, Telegram's words; what ``fall_back`` owes
    instead is written with their marks), written by ``schedule`` in the background; ``owed``
    and ``changed`` are the sender's (marks wait longer while messages are still going out;
    ``changed`` wakes the wait)."""

    def __init__(self, store: Store, owed: Callable[[], int], changed: asyncio.Event,
                 organisers: Organisers | None = None, name_of: NameOf | None = None,
                 note_of: NoteOf | None = None, fall_back: FallBack | None = None,
                 quiet: asyncio.Event | None = None, settle_gap: float = SETTLE_GAP) -> None:
        self.store = store
        self._owed = owed
        self._changed = changed
        self._organisers = organisers
        self._name_of = name_of
        self.done: list[tuple[int, str]] = []  # stored messages done, to be marked
        self.notes: list[tuple[str, int, str]] = []
        # messages sent with lines a volunteer may claim, to record (``claims.py``)
        self.copies: list[Copy] = []
        self.refused: list[tuple[int, str, str]] = []
        self._note_of = note_of
        self._fall_back = fall_back
        # lines settled to apply (``claims.apply_settled``): the store says so after a commit
        self.settle_due = False
        # set while no update is being handled (the update processor's; None: always)
        self._quiet = quiet
        self._settle_gap = settle_gap
        self._last_settle = -settle_gap  # loop time settles were last applied
        self._settle_wait: asyncio.Task[None] | None = None
        self._marking: asyncio.Task[None] | None = None
        self._last_prune = -PRUNE_EVERY

    def _settle_now(self) -> bool:
        """Whether the lines settled are to be applied now: no update being handled, or the
        gap since they were last applied is over (else ``_hold_settles`` waits for either)."""
        if not self.settle_due:
            return False
        if self._quiet is None or self._quiet.is_set():
            return True
        return (asyncio.get_running_loop().time() - self._last_settle) >= self._settle_gap

    def _due(self) -> bool:
        return bool(self.done or self.notes or self.copies or self.refused
                    or self._settle_now())

    def pending(self) -> bool:
        """Anything left to mark (lines settled to apply, held or not), or a marking under
        way."""
        return (self._due() or self.settle_due
                or (self._marking is not None and not self._marking.done()))

    def schedule(self) -> None:
        if self._due() and (self._marking is None or self._marking.done()):
            self._marking = asyncio.get_running_loop().create_task(self._mark_all(),
                                                                   name="outbox-marks")
        elif self.settle_due and not self._settle_now():
            self._hold_settles()

    def _hold_settles(self) -> None:
        """Lines settled while updates are being handled: applied once the bot is quiet or
        the gap is over, whichever comes first (one waiter at a time)."""
        if self._settle_wait is not None and not self._settle_wait.done():
            return
        self._settle_wait = asyncio.get_running_loop().create_task(self._settles_later(),
                                                                   name="outbox-settles")

    async def _settles_later(self) -> None:
        assert self._quiet is not None
        left = self._last_settle + self._settle_gap - asyncio.get_running_loop().time()
        if left > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._quiet.wait(), left)
        self._settle_wait = None
        self.schedule()

    async def flush(self) -> None:
        """At a stop: the marking under way ends, and whatever is left is written."""
        if self._settle_wait is not None:
            self._settle_wait.cancel()
        self._last_settle = float("-inf")  # nothing held any more
        if self._marking is not None:
            with contextlib.suppress(Exception):
                await self._marking
        if self._due() or self.settle_due:
            with contextlib.suppress(Exception):
                await self._mark(self._take_done(), self._take_notes(), self._take_copies(),
                                 self._take_refused())

    def _take_done(self) -> list[tuple[int, str]]:
        done, self.done = self.done, []
        return done

    def _take_copies(self) -> list[Copy]:
        copies, self.copies = self.copies, []
        return copies

    def _take_refused(self) -> list[tuple[int, str, str]]:
        refused, self.refused = self.refused, []
        return refused

    def _take_notes(self) -> list[tuple[str, int, str]]:
        notes, self.notes = self.notes, []
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
            while self._due():
                start = loop.time()
                while not self.store.batch_open:  # else join it now: its fsync is shared
                    left = start + (MARK_WAIT_BUSY if self._owed() else MARK_WAIT_IDLE) \
                        - loop.time()
                    if left <= 0:
                        break
                    self._changed.clear()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._changed.wait(), left)
                done, notes = self._take_done(), self._take_notes()
                copies, refused = self._take_copies(), self._take_refused()
                try:
                    await self._mark(done, notes, copies, refused)
                except Exception:  # noqa: BLE001 - tried again with the next ones
                    log.exception("could not mark %d sent message(s)", len(done))
                    self.settle_due = True
                    self.done[:0] = done
                    self.notes[:0] = notes
                    self.copies[:0] = copies
                    self.refused[:0] = refused
                    await asyncio.sleep(1.0)
        finally:
            self._changed.set()
            if self.settle_due and not self._settle_now():
                self._hold_settles()

    async def _mark(self, done: list[tuple[int, str]],
                    notes: list[tuple[str, int, str]] | None = None,
                    copies: list[Copy] | None = None,
                    refused: list[tuple[int, str, str]] | None = None) -> None:
        """The marks, with the organisers' lines about ``notes``, the ``copies`` sent of
        lines a volunteer may claim (a line claimed before its copy was recorded has that copy
        edited now: the claim's transaction did not see it) and what is owed instead of the
        announcements the channel ``refused`` in the same transaction (if that cannot be
        worked out, nothing is marked: the post stays owed, and is tried again at the next
        start)."""
        try:
            lines = await self._organisers_lines(notes or [])
        except Exception:  # noqa: BLE001 - the marks must not wait for the organisers' lines
            log.exception("could not word the organisers' lines about %d message(s)",
                          len(notes or []))
            lines = []
        instead = await self._fall_back(refused) if refused and self._fall_back else []
        now = datetime.now(UTC)
        loop = asyncio.get_running_loop()
        settle = self._settle_now()
        if settle:
            self.settle_due = False
            self._last_settle = loop.time()
        async with self.store.transaction() as tx:
            tx.mark_done(done, now)
            if copies:
                tx.record_copies(copies, now)
                if self._note_of is not None:
                    await edit_claimed(tx, copies, self._note_of)
            if settle and self._note_of is not None:
                await apply_settled(tx, self._note_of)
            for chat, text in lines:
                tx.post(chat, {"text": text}, priority=PRIORITY_BULK, grouping=DROPPED)
            for chat, text, grouping in instead:
                tx.post(chat, {"text": text}, priority=PRIORITY_BULK, grouping=grouping)
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
