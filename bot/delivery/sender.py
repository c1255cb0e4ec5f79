"""The sender: every message the bot owes, sent from the outbox in priority order within
Telegram's limits, retried for as long as Telegram is unreachable, in order within each chat
(docs/invariants.md, sections 10 and 12).

- A message that reports something recorded is posted with ``Transaction.post`` in the
  transaction of the event; the store hands it here once committed (``Store.on_posted``), and
  at start every message still owed is read back (``start``).
- An answer that reports nothing recorded is not stored: within its chat's budget
  (``admit_answer``) ``answer`` queues it first in line, and the update processor waits until
  it is sent before the update is confirmed to Telegram.
- One message in flight per chat, in the order they came; among chats, the most urgent first,
  each kind with its share of the sends (``fairness.py``); within Telegram's limits
  (``limits.py``); volunteers' lines waiting for one chat joined in one message.
- Each failure by what it proves (``requests.py``, ``_failed``): Telegram's refusal drops the
  message and tells the organisers (a post the announcements channel refuses goes to each
  participant instead: ``announcements.py``); an outage stops sending until a ``getMe`` probe is
  answered; a send that may have arrived is sent once more at most; a 429 holds its chat; a
  moved group is followed; a refused token stops sending for good.
- Every stored message is marked done in batches (``marks.py``): at least once, never lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import warnings
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from telegram import Bot, InputFile
from telegram.error import (
    BadRequest,
    ChatMigrated,
    EndPointNotFound,
    Forbidden,
    InvalidToken,
    NetworkError,
    RetryAfter,
    TelegramError,
)
from telegram.warnings import PTBUserWarning

from bot.delivery.claims import EDIT, EDIT_METHODS, PHOTO_METHOD, NoteOf, closing, copy_of
from bot.delivery.fairness import LAST_KIND, Budgets, FairShares, Pacing, Ready
from bot.delivery.items import (
    BUTTONS,
    INVOICE_METHOD,
    UPLOAD,
    Item,
    buttons_of,
    line_params,
    take,
)
from bot.delivery.limits import SELF_PACED, TELEGRAM_LIMITS, Holds, Limits
from bot.delivery.marks import DROPPED, FallBack, Marks, NameOf, Organisers
from bot.delivery.requests import not_delivered, post, posts_directly
from bot.storage.store import OutboxMessage, Store
from bot.support.program import name

log = logging.getLogger(__name__)

# (nothing reads it, and parsing it costs more than the rest of a reply); PTB suggests
# ``send_message`` instead. Filtered once here: ``warnings.catch_warnings`` around each send
# would swap the process's filters at every call, and is not safe across concurrent sends.
warnings.filterwarnings("ignore", message=r"Please use 'Bot\.\w+' instead",
                        category=PTBUserWarning)

MAYBE_DELIVERED_RETRIES = 1  # a send that may have gone through is sent again at most once
# while Telegram is out of reach, a getMe every this many seconds (each given at most
# PROBE_TIMEOUT): the first one answered resumes sending
PROBE_EVERY, PROBE_TIMEOUT = 0.5, 1.5
IN_FLIGHT = 16  # sends under way at once (to different chats)
STAFF_GAP = 1.0  # while updates are being handled, volunteers' lines go at most this often
# The chat id of a volunteers' line for every volunteer and organiser, one row for all of them
# (Telegram's chat ids are never 0): ``params["texts"]`` holds the line in each language, and
# the sender works out who gets it, in which language, when it sends it (``recipients``). One
# row, not one per volunteer, is written while the writer's lock is held. A crash half-way
# through sends it again to all of them.
EVERY_VOLUNTEER = 0
Recipients = Callable[[], Awaitable[list[tuple[int, str]]]]


class Sender:
    """Sends what the bot owes (see the module's doc). ``limits`` None: no pacing (the tests'
    and the benchmark's fake Bot API, which has no flood limits)."""

    def __init__(self, bot: Bot, store: Store, limits: Limits | None = TELEGRAM_LIMITS,
                 quiet: asyncio.Event | None = None,
                 recipients: Recipients | None = None, staff_gap: float = STAFF_GAP,
                 organisers: Organisers | None = None, name_of: NameOf | None = None,
                 on_moved: Callable[[int, int], None] | None = None,
                 note_of: NoteOf | None = None,
                 announce_chat: Callable[[], int | None] | None = None,
                 fall_back: FallBack | None = None,
                 invoice_token: Callable[[], str] | None = None) -> None:
        self._bot = bot
        self.store = store
        self._chats: dict[int, deque[Item]] = {}
        # each chat's most urgent priority waiting (kept as items come and go: a chat's
        # earlier messages go first, so the chat as a whole has that urgency)
        self._urgency: dict[int, int] = {}
        self._busy: set[int] = set()  # chats with a send under way
        self._pacing = Pacing(limits)
        self._overall = self._pacing.overall
        self._budgets = Budgets(limits, self._forget_last_sent) if limits else None
        self._fair = FairShares()
        self._last_sent: dict[int, float] = {}  # loop time of each chat's last send
        self._wakeup: asyncio.Future[None] | None = None  # the loop's, while it waits
        self._quiet_watch: asyncio.Task[bool] | None = None
        self._changed = asyncio.Event()  # anything moved: ``settled`` looks again
        self._sends: set[asyncio.Task[None]] = set()
        self._marks = Marks(store, self.owed, self._changed, organisers, name_of, note_of,
                            fall_back, quiet, staff_gap)
        # the announcements channel's id (None: none), as the settings have it now (a group
        # Telegram moved: its new id); what it refuses goes to each participant instead
        self._announce_chat = announce_chat
        # the payment provider's token, added to an invoice as it is sent: never in the outbox
        self._invoice_token = invoice_token
        self._task: asyncio.Task[None] | None = None
        # Telegram out of reach: nothing is sent until a probe (``_probe``) gets an answer
        self._down = False
        self._down_since = 0.0
        self._streak = 0  # outages since the last send that went through
        self._probing: asyncio.Task[None] | None = None
        self._halted = False  # Telegram refused the token: nothing more is sent
        self._holds = Holds(self._release)  # chats waiting out a 429
        self._rl: dict[str, Any] = ({"rate_limit_args": SELF_PACED}
                                    if getattr(bot, "rate_limiter", None) is not None else {})
        self._direct = posts_directly(bot)  # fixed once the bot is built
        self._uploaded: dict[tuple[str, str], str] = {}  # (field, local path) -> file id
        # chats Telegram moved (a group upgraded to a supergroup): old id -> new id
        self._moves: dict[int, int] = {}
        self._on_moved = on_moved
        self._held = False  # the last look held volunteers' lines for a quiet moment
        # set while no update is being handled (the update processor's): volunteers' lines
        # made meanwhile wait for it, or for STAFF_GAP after their chat's last line, and go
        # out joined (at the start's rush, one message listing five requests, not five)
        self._quiet = quiet
        self._last_line: dict[int, float] = {}
        # chats whose lines ``_wait_for`` found held, and until when (loop time): while updates
        # are being handled they are not looked at again before then, unless something comes
        # for them (``_enqueue``) or they send (``_launch``, ``_requeue``)
        self._held_until: dict[int, float] = {}
        self._staff_gap = staff_gap
        self._recipients = recipients
        # rows for every volunteer, to expand, and the messages that came after them
        self._fanouts: list[Item] = []
        self._children: dict[int, int] = {}  # such a row -> its messages not yet done
        self.sent = 0  # messages Telegram took since start (joined lines count one each)

    # -- in ----------------------------------------------------------------------------------

    def accept(self, messages: Iterable[OutboxMessage]) -> None:
        """Stored messages, committed (``Store.on_posted``; at start, what is still owed)."""
        for message in messages:
            if self._moves and message.chat_id in self._moves:
                message = replace(message, chat_id=self._moved_to(message.chat_id))
            self._arrive(Item(message))
        if self.store.settles_pending:  # a line settled (its edits owed): the marks apply it
            self._marks.settle_due = True
            self._schedule_marks()
        self._poke()

    def _arrive(self, item: Item) -> None:
        if item.message.chat_id == EVERY_VOLUNTEER or self._fanouts:
            # a row for every volunteer is expanded by the loop; what comes after it waits
            # with it, so that each chat still gets its messages in the order they came
            self._fanouts.append(item)
        else:
            self._enqueue(item)

    async def _expand(self) -> None:
        """Rows for every volunteer become one message per volunteer, in their language (the
        messages that came after them are queued after them)."""
        people = await self._recipients() if self._recipients is not None else []
        fanouts, self._fanouts = self._fanouts, []  # after the await: none comes between
        for item in fanouts:
            m = item.message
            if m.chat_id != EVERY_VOLUNTEER:
                self._enqueue(item)
                continue
            assert m.id is not None
            texts: dict[str, str] = m.params.get("texts", {})
            markups: dict[str, str] = m.params.get("markups", {})
            children = 0
            written: dict[str, list[dict[str, object]]] = {}  # each language's messages, once
            for chat, lang in people:
                lang = lang if lang in texts else next(iter(texts), lang)
                if lang not in written:  # shared by that language's chats: never changed
                    written[lang] = line_params(texts.get(lang, ""), markups.get(lang))
                for params in written[lang]:
                    child = OutboxMessage(None, chat, m.priority, m.method, params, m.grouping)
                    self._enqueue(Item(child, row=m.id))
                    children += 1
            if children:
                self._children[m.id] = children
            else:
                self._marks.done.append((m.id, "refused: nobody to send it to"))
        self._schedule_marks()

    def admit(self, chat_id: int) -> str:
        """Whether a refusal may go to ``chat_id``: "yes", "notice" (the first one over the
        budget: say that the bot will answer again in a while) or "no". Without ``limits``
        (the tests' fake Bot API, nothing to save) always "yes"."""
        if self._budgets is None:
            return "yes"
        return self._budgets.admit(chat_id, asyncio.get_running_loop().time())

    def admit_answer(self, chat_id: int, parts: int = 1) -> str:
        """Whether an answer that reports nothing recorded may go to ``chat_id`` (``parts``
        messages): "yes", "notice" (the first one over the chat's budget, Telegram's pace for
        that chat with ``answer_burst``: say that the bot will answer again in a while, and
        nothing else) or "no" (dropped: nothing recorded, the person can ask again). So a chat
        sending faster than Telegram lets the bot answer it gets about what Telegram allows,
        and none of its answers waits long. Without ``limits`` always "yes"."""
        if self._budgets is None:
            return "yes"
        return self._budgets.admit_answer(chat_id, parts, asyncio.get_running_loop().time())

    def _forget_last_sent(self) -> None:
        """With the budgets back to whole (``Budgets``), the chats with nothing waiting."""
        for chat in [c for c, t in self._last_sent.items() if c not in self._chats]:
            del self._last_sent[chat]

    def answer(self, message: OutboxMessage) -> asyncio.Future[str]:
        """An answer that is not stored: queued now; the future gives its outcome."""
        future: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        if self._moves and message.chat_id in self._moves:
            message = replace(message, chat_id=self._moved_to(message.chat_id))
        self._arrive(Item(message, future))
        self._poke()
        return future

    def _enqueue(self, item: Item) -> None:
        chat = item.message.chat_id
        self._held_until.pop(chat, None)  # looked at again: it may now go at once
        queue = self._chats.get(chat)
        if queue is None:
            queue = self._chats[chat] = deque()
            self._urgency[chat] = item.message.priority
        else:
            if item.message.grouping == EDIT and self._superseded(queue, item):
                return
            if item.message.priority < self._urgency[chat]:
                self._urgency[chat] = item.message.priority
        queue.append(item)

    def _superseded(self, queue: deque[Item], item: Item) -> bool:
        """An edit of a message whose earlier edit still waits in its chat's queue takes that
        one's place: each edit carries the whole message as it now reads, so only the latest
        is sent (a settled line's twenty copies, edited again at each finish, cost Telegram
        one edit each while they wait). The earlier row is done, "superseded"."""
        m = item.message
        target = m.params.get("message_id")
        for waiting in queue:
            w = waiting.message
            if (w.grouping == EDIT and w.method == m.method and m.method in EDIT_METHODS
                    and w.params.get("message_id") == target and waiting.answered is None):
                if waiting.row is not None:
                    self._marks.done.append((waiting.row, "superseded"))
                    self._schedule_marks()
                waiting.message, waiting.row = m, item.row
                return True
        return False

    def _poke(self) -> None:
        self._wake_up()
        self._changed.set()

    # -- lifecycle ---------------------------------------------------------------------------

    async def start(self) -> None:
        """Send what was owed when the bot stopped, then whatever the store hands over."""
        self.store.on_posted = self.accept
        self._moves.update(await self.store.chat_moves())
        owed = await self.store.owed_messages()
        if owed:
            log.info("%d message(s) owed from before the start: sending them", len(owed))
        self.accept(owed)
        self._task = asyncio.get_running_loop().create_task(self._run(), name="outbox")

    async def stop(self, grace: float = 3.0) -> None:
        """Stop sending: what is owed gets ``grace`` seconds to go (the organiser closing the
        laptop at the end of the day), then the sends under way end and the marks are
        written. What is still owed stays in the database for the next start."""
        if self.store.on_posted == self.accept:
            self.store.on_posted = None
        if self._task is not None and not self._task.done():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.settled(), grace)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._probing is not None:
            self._probing.cancel()
        if self._quiet_watch is not None:
            self._quiet_watch.cancel()
        self._holds.cancel()
        if self._sends:
            await asyncio.wait(list(self._sends), timeout=grace)
        for task in list(self._sends):
            task.cancel()
        await self._marks.flush()

    def owed(self) -> int:
        """Messages waiting or under way."""
        return (sum(len(q) for q in self._chats.values()) + len(self._sends)
                + len(self._fanouts))

    async def settled(self) -> None:
        """Until nothing is waiting, under way or left to mark (the tests' and the benchmark's
        "everything the bot had to say is said")."""
        while self.owed() or self._marks.pending():
            self._changed.clear()
            await self._changed.wait()

    # -- the loop ----------------------------------------------------------------------------

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            if self._fanouts:
                try:
                    await self._expand()
                except Exception:  # noqa: BLE001 - tried again at the next wake
                    log.exception("could not work out who gets the volunteers' lines")
            now = loop.time()
            wait: float | None = self._holds.paused_until - now
            if self._down or self._halted:
                wait = None  # until the probe finds Telegram again (never: the token refused)
            self._held = False
            if wait is not None and wait <= 0:
                wait = None
                room = IN_FLIGHT - len(self._sends)
                if room > 0:
                    chats, wait = self._pick(now, room)
                    if chats:
                        for chat in chats:
                            if self._overall is not None and self._overall.wait(now) > 0:
                                break  # the flood limit: the rest at the next turn
                            self._launch(chat, now)
                        continue
            # until poked (``_poke``), ``wait`` is over, or the bot is quiet when lines are held
            # for a quiet moment: one future, no task made per turn
            woken: asyncio.Future[None] = loop.create_future()
            self._wakeup = woken
            if self._held:
                self._watch_quiet()
            timer = loop.call_later(wait, self._wake_up) if wait is not None else None
            try:
                await woken
            finally:
                self._wakeup = None
                if timer is not None:
                    timer.cancel()

    def _wake_up(self) -> None:
        woken = self._wakeup
        if woken is not None and not woken.done():
            woken.set_result(None)

    def _watch_quiet(self) -> None:
        """Lines held for a quiet moment: the loop woken when no update is being handled (one
        watcher while it lasts)."""
        if self._quiet is None or (self._quiet_watch is not None
                                   and not self._quiet_watch.done()):
            return
        watch = asyncio.get_running_loop().create_task(self._quiet.wait())
        watch.add_done_callback(lambda _: self._wake_up())
        self._quiet_watch = watch

    def _pick(self, now: float, room: int) -> tuple[list[int], float | None]:
        """The chats to send to now, in the order they go (at most ``room``), and how long
        until another may go (None: nothing waits). Each kind of message (the urgency of the
        chat: its most urgent message) has its share of the sends (``SHARES``), the most urgent
        first among equals. Run at every turn of the loop over every chat with something
        waiting (twenty volunteers' chats holding their lines among them): kept lean."""
        ready: dict[int, Ready] = {}
        waiting_kinds: set[int] = set()
        able: set[int] = set()  # kinds with a chat that could go now, but for the flood limit
        soonest: float | None = None
        overall = self._pacing.overall_wait(now)
        busy = self._quiet is not None and not self._quiet.is_set()
        urgency_of, in_flight, wait_for = self._urgency, self._busy, self._wait_for
        held = self._held_until
        for chat, queue in self._chats.items():
            if not queue:
                continue
            urgency = urgency_of[chat]
            kind = min(urgency, LAST_KIND)  # ``kind_of``
            waiting_kinds.add(kind)
            if chat in in_flight:
                continue
            until = held.get(chat)
            if until is not None:
                if busy and until > now:  # still held, as the last look found
                    self._held = True
                    soonest = until - now if soonest is None or until - now < soonest \
                        else soonest
                    continue
                del held[chat]
            head = queue[0].message
            wait, can = wait_for(chat, head, urgency, now, busy, overall)
            if can:
                able.add(kind)
            if wait > 0:
                soonest = wait if soonest is None or wait < soonest else soonest
                continue
            # the least recently answered chat first among answers not stored (one flooding
            # account does not go ahead of everyone else); stored messages by their order
            ready.setdefault(kind, []).append((
                (0 if head.id is None else 1, head.id or self._last_sent.get(chat, -1.0)),
                chat))
        self._fair.looked(waiting_kinds, able)
        if not ready:
            return [], soonest
        return self._fair.order(ready, room), soonest

    def _wait_for(self, chat: int, head: OutboxMessage, urgency: int, now: float, busy: bool,
                  overall: float) -> tuple[float, bool]:
        """How long until ``chat`` (not busy; ``urgency`` its most urgent message) may have
        its next message ``head``, and whether only the flood limit holds it."""
        if busy and head.grouping is not None and urgency >= head.priority:
            # held (unless something more urgent waits behind it): more lines may join
            gap = self._last_line.get(chat, -self._staff_gap) + self._staff_gap - now
            if gap > 0:
                self._held = True
                self._held_until[chat] = now + gap
                return gap, False
        paced = self._pacing.chat_wait(chat, urgency, now)
        return max(overall, paced), paced <= 0

    def _launch(self, chat: int, now: float) -> None:
        queue = self._chats[chat]
        self._held_until.pop(chat, None)
        self._fair.count(self._urgency[chat])
        items = take(queue)
        if not queue:
            del self._chats[chat]
            del self._urgency[chat]
        elif items[0].message.priority == self._urgency[chat]:
            self._urgency[chat] = min(item.message.priority for item in queue)
        if items[0].message.grouping is not None:
            self._last_line[chat] = now
        self._last_sent[chat] = now
        self._pacing.took(chat, now)
        self._busy.add(chat)
        task = asyncio.get_running_loop().create_task(self._send(chat, items))
        self._sends.add(task)
        task.add_done_callback(self._sends.discard)

    # -- one send ----------------------------------------------------------------------------

    async def _send(self, chat: int, items: list[Item]) -> None:
        to = self._moved_to(chat)
        outcome: str | None = None
        spent = False  # whether the attempt may have reached Telegram (it counts for the pace)
        try:
            outcome, spent = await self._attempt(chat, to, items)
        finally:
            if chat not in self._holds:  # a chat waiting out a 429 stays out of turn
                self._busy.discard(chat)
            # out of the count now, not in a done-callback after the poke: the loop would
            # wake, still see every slot taken, and sleep for good
            self._sends.discard(asyncio.current_task())  # type: ignore[arg-type,unused-ignore]
            if outcome is None and not spent:
                # a minute of outage retried every half second must not leave the chat's pace
                # owing minutes once Telegram is back
                self._pacing.give_back(chat)
            if outcome is None:  # not sent: first in its chat again
                self._requeue(chat, items)
            self._poke()
        if outcome is None:
            self._schedule_marks()  # a move to tell
            return
        self._settle(to, items, outcome)

    async def _attempt(self, chat: int, to: int, items: list[Item]) -> tuple[str | None, bool]:
        """One try at sending ``items`` (one message) to ``to``: its outcome (None: not sent,
        to try again) and whether it may have reached Telegram."""
        m = items[0].message
        params: dict[str, Any] = {**m.params, "chat_id": to}
        if m.method == INVOICE_METHOD and self._invoice_token is not None:
            params["provider_token"] = self._invoice_token()
        upload = params.pop(UPLOAD, None)
        if upload is not None:  # a file of the contest's own (an enigma's picture)
            try:
                params[str(upload[0])] = self._file(str(upload[0]), str(upload[1]))
            except OSError as exc:  # gone since the contest was read: told, never retried
                return await self._failed(chat, to, items, exc)
        if len(items) > 1:
            params["text"] = "\n".join(str(i.message.params.get("text", "")) for i in items)
            keyboard = buttons_of(items)  # every joined line's buttons, in order
            if keyboard is not None:
                params[BUTTONS] = keyboard
        try:
            if self._direct:
                result = await post(self._bot, m.method, params)
            else:
                result = await self._bot.do_api_request(m.method, api_kwargs=params, **self._rl)
        except Exception as exc:  # noqa: BLE001 - each failure by what it proves (``_failed``)
            return await self._failed(chat, to, items, exc)
        if upload is not None:
            self._remember_file(str(upload[0]), str(upload[1]), result)
        if (m.grouping not in (None, EDIT) or m.method == PHOTO_METHOD) and closing(
                params.get(BUTTONS)):
            # a line a volunteer may claim (a home claim's photo too): the copy is kept, for
            # the claim to edit it (an edit's copy was rewritten in the edit's own
            # transaction: not recorded twice)
            copy = copy_of(to, result, params.get(BUTTONS), items)
            if copy is not None:
                self._marks.copies.append(copy)
        self.sent += len(items)
        self._streak = 0
        if self._down:
            self._recovered()
        return "sent", False

    def _file(self, field: str, path: str) -> str | InputFile:
        """A local file to send as ``field``: its Telegram id once it was uploaded (a hall of
        phones gets one picture uploaded once), else its bytes."""
        known = self._uploaded.get((field, path))
        if known is not None:
            return known
        return InputFile(Path(path).read_bytes(), filename=Path(path).name)

    def _remember_file(self, field: str, path: str, result: Any) -> None:
        sent = result.get(field) if isinstance(result, dict) else None
        if isinstance(sent, list) and sent:  # a photo's sizes: the largest is the last
            sent = sent[-1]
        if isinstance(sent, dict) and isinstance(sent.get("file_id"), str):
            self._uploaded[(field, path)] = sent["file_id"]

    async def _failed(self, chat: int, to: int, items: list[Item],
                      exc: Exception) -> tuple[str | None, bool]:
        """What a failed send proves (docs/invariants.md, section 10), as ``_attempt``'s
        outcome; the order of the checks matters (a BadRequest is a NetworkError too)."""
        m = items[0].message
        if isinstance(exc, RetryAfter):
            self._holds.asked(chat, exc)
        elif isinstance(exc, ChatMigrated):  # sent again at once, to the new id
            await self._migrated(to, int(exc.new_chat_id))
        elif isinstance(exc, BadRequest | Forbidden):  # Telegram's own answer: for good. A
            # page from something in between is ``NotTelegram``, below
            if self._announcing(chat, to):
                self._marks.refused.append((to, str(m.params.get("text", "")), exc.message))
            elif m.grouping not in (DROPPED, EDIT):  # an edit refused: the line is still there
                self._marks.notes.append(("drop", to, exc.message))
            return f"refused: {exc.message}", False
        elif isinstance(exc, InvalidToken | EndPointNotFound):  # Telegram's JSON 401 (or 404)
            self._halt(exc)
        elif isinstance(exc, NetworkError):
            return self._network_failed(to, items, exc)
        elif isinstance(exc, TelegramError):  # PTB's "Invalid server response" and the like:
            # not Telegram's refusal of this message, so retried as an outage
            self._outage(exc)
        else:  # a message we cannot send must not stop others
            log.exception("could not send a message to chat %s", to, exc_info=exc)
            if self._announcing(chat, to):
                self._marks.refused.append((to, str(m.params.get("text", "")),
                                            exc.__class__.__name__))
            elif m.grouping != DROPPED:
                self._marks.notes.append(("drop", to, exc.__class__.__name__))
            return f"refused: {exc.__class__.__name__}", False
        return None, False

    def _announcing(self, chat: int, to: int) -> bool:
        """Whether this send was a post in the announcements channel (nothing else goes
        there)."""
        channel = self._announce_chat() if self._announce_chat is not None else None
        return channel is not None and channel in (chat, to)

    async def _migrated(self, to: int, new: int) -> None:
        # nothing goes to the new id while the move is written: these go first there
        held_new = new not in self._busy
        self._busy.add(new)
        try:
            await self._move(to, new)
        finally:
            if held_new:
                self._busy.discard(new)

    def _network_failed(self, to: int, items: list[Item],
                        exc: NetworkError) -> tuple[str | None, bool]:
        """A failure on the way: an outage if it proves nothing was delivered, else sent once
        more at most (``MAYBE_DELIVERED_RETRIES``), then "unconfirmed"."""
        if not_delivered(exc):
            self._outage(exc)
            return None, False
        for item in items:
            item.ambiguous += 1
        if max(i.ambiguous for i in items) > MAYBE_DELIVERED_RETRIES:
            log.warning("a message to chat %s may not have arrived (%s twice): not "
                        "sent a third time", to, exc.__class__.__name__)
            return "unconfirmed", True
        self._outage(exc)
        return None, True

    def _settle(self, to: int, items: list[Item], outcome: str) -> None:
        """A send done with ``outcome``: its answers told, its rows to mark."""
        if outcome.startswith("refused"):
            log.warning("Telegram refused a message to chat %s: %s", to, outcome[9:])
        for item in items:
            if item.answered is not None and not item.answered.done():
                item.answered.set_result(outcome)
            if item.row is not None and item.row != item.message.id:
                left = self._children.get(item.row, 1) - 1  # one message of a row for all
                if left > 0:
                    self._children[item.row] = left
                else:
                    self._children.pop(item.row, None)
                    self._marks.done.append((item.row, "sent"))
            elif item.row is not None:
                self._marks.done.append((item.row, outcome))
        self._schedule_marks()

    def _schedule_marks(self) -> None:
        self._marks.schedule()

    # -- failures ----------------------------------------------------------------------------

    def _outage(self, exc: Exception) -> None:
        """Nothing was delivered and nothing says Telegram refused it: sending stops until a
        probe gets an answer."""
        if self._down or self._halted:
            return
        self._down = True
        loop = asyncio.get_running_loop()
        self._down_since = loop.time()
        # one line for a run of failures (Telegram answering the probes, not the sends, would
        # log two lines a second otherwise)
        self._streak += 1
        log.log(logging.WARNING if self._streak == 1 else logging.DEBUG,
                "sending failed (%s), Telegram out of reach: checking every %.1f s, messages "
                "wait (%s)", exc.__class__.__name__, PROBE_EVERY, exc)
        if self._probing is None or self._probing.done():
            self._probing = loop.create_task(self._probe(), name="outbox-probe")

    async def _probe(self) -> None:
        """A getMe every ``PROBE_EVERY`` seconds while Telegram is out of reach: the first one
        answered (anything Telegram answers, not only a success) resumes sending."""
        while self._down and not self._halted:
            await asyncio.sleep(PROBE_EVERY)
            try:
                await self._bot.do_api_request(
                    "getMe", connect_timeout=PROBE_TIMEOUT, read_timeout=PROBE_TIMEOUT,
                    write_timeout=PROBE_TIMEOUT, pool_timeout=PROBE_TIMEOUT, **self._rl)
            except (InvalidToken, EndPointNotFound) as exc:
                self._halt(exc)
                return
            except RetryAfter:
                pass  # Telegram answers: the sends wait what it asks, if it asks them too
            except Exception:  # noqa: BLE001 - still out of reach
                continue
            if self._down:
                self._recovered()

    def _recovered(self) -> None:
        self._down = False
        log.log(logging.INFO if self._streak <= 1 else logging.DEBUG,
                "Telegram answers again (out of reach for %.1f s): sending what is owed",
                asyncio.get_running_loop().time() - self._down_since)
        self._poke()

    def _halt(self, exc: TelegramError) -> None:
        if self._halted:
            return
        self._halted = True
        log.error("Telegram refuses the bot's token (%s): nothing more is sent. What is owed "
                  "stays in the database and goes at the next start: check the token "
                  "(%s setup), then start the bot again", exc.message, name())

    def _requeue(self, chat: int, items: list[Item]) -> None:
        """Messages not sent, first in their chat again; a chat Telegram moved meanwhile has
        one queue (and one pace) under its new id, these first, so its order holds."""
        key = self._moved_to(chat)
        self._held_until.pop(chat, None)
        self._held_until.pop(key, None)
        queue = self._chats.pop(chat, None) or deque()
        queue.extendleft(reversed(items))
        if key != chat:
            queue.extend(self._chats.pop(key, ()))
            self._urgency.pop(chat, None)
            self._pacing.moved(chat, key)
        self._chats[key] = queue
        self._urgency[key] = min(item.message.priority for item in queue)

    def _release(self, chat: int) -> None:
        self._busy.discard(chat)
        self._poke()

    def _moved_to(self, chat: int) -> int:
        for _ in range(8):  # a chain of moves, never a loop
            moved = self._moves.get(chat)
            if moved is None:
                break
            chat = moved
        return chat

    async def _move(self, old: int, new: int) -> None:
        """Telegram moved chat ``old`` to ``new``: kept in the database (sent there after a
        restart too), told to the organisers and to ``on_moved`` (the volunteers' group)."""
        if old == new or self._moves.get(old) == new:
            return
        self._moves[old] = new
        log.warning("Telegram moved chat %s to %s (a group upgraded to a supergroup): "
                    "sending there from now on", old, new)
        try:
            async with self.store.transaction() as tx:
                tx.move_chat(old, new, datetime.now(UTC))
        except Exception:  # noqa: BLE001 - followed until the restart all the same
            log.exception("could not keep the move of chat %s to %s", old, new)
        if self._on_moved is not None:
            self._on_moved(old, new)
        self._marks.notes.append(("moved", old, str(new)))


__all__ = ["EVERY_VOLUNTEER", "STAFF_GAP", "Sender"]
