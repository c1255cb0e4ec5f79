"""The outbox (issue 13, docs/invariants.md "The outbox"): a message the bot owes exists if and
only if the transaction recording what it reports commits; it is sent from the database, in
order within each chat, the most urgent first, within Telegram's limits, retried for as long as
Telegram is unreachable, and marked done; what was owed at a stop is sent at the next start.

The sender is driven here with a fake bot whose answers are scripted, over a real store."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime, timedelta

import pytest
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    NetworkError,
    RetryAfter,
    TimedOut,
)

from bot.delivery import sender as outbox
from bot.delivery.limits import TELEGRAM_LIMITS, Limits
from bot.delivery.sender import Sender
from bot.storage.store import (
    PRIORITY_ANSWER,
    PRIORITY_BULK,
    PRIORITY_COPY,
    OutboxMessage,
    Store,
)

T0 = datetime(2023, 4, 22, 10, tzinfo=UTC)


class Bot:
    """Records every call; ``fail`` holds the exceptions the next calls raise (None: goes
    through); ``gate``, when set, holds every call until it is opened."""

    def __init__(self) -> None:
        self.calls: list[dict[str, object]] = []
        self.attempts = 0
        self.probes = 0
        self.fail: list[BaseException | None] = []
        self.gate: asyncio.Event | None = None

    async def do_api_request(self, method: str, api_kwargs: dict[str, object] | None = None,
                             **_: object) -> object:
        if method == "getMe":  # the sender's probe while Telegram is out of reach
            self.probes += 1
            return {"id": 1, "is_bot": True, "first_name": "Bot"}
        assert api_kwargs is not None
        self.attempts += 1
        if self.gate is not None:
            await self.gate.wait()
        if self.fail:
            exc = self.fail.pop(0)
            if exc is not None:
                raise exc
        self.calls.append({"method": method, **api_kwargs})
        return True

    def texts(self, chat: int | None = None) -> list[str]:
        return [str(c["text"]) for c in self.calls if chat is None or c["chat_id"] == chat]


@pytest.fixture(autouse=True)
def short_pauses(monkeypatch):
    monkeypatch.setattr(outbox, "PROBE_EVERY", 0.01)


async def opened(tmp_path, limits: Limits | None = None,
                 start: bool = True) -> tuple[Store, Sender, Bot]:
    store = await Store.open(tmp_path / "outbox.sqlite3")
    bot = Bot()
    sender = Sender(bot, store, limits)  # type: ignore[arg-type]
    if start:
        await sender.start()
    return store, sender, bot


def outcomes(path) -> dict[int, str | None]:
    with sqlite3.connect(path) as db:
        return dict(db.execute("SELECT id, outcome FROM outbox"))


async def post(store: Store, *messages: tuple[int, str, int], grouping: str | None = None,
               event: bool = True) -> None:
    async with store.transaction() as tx:
        if event:
            await tx.add_event(at=T0, kind="announcement", role="organiser")
        for chat, text, priority in messages:
            tx.post(chat, {"text": text}, priority=priority, grouping=grouping)


# -- exists if and only if its transaction commits ------------------------------------------------


async def test_a_message_is_sent_only_if_what_it_reports_was_committed(tmp_path):
    store, sender, bot = await opened(tmp_path)
    try:
        with pytest.raises(RuntimeError):
            async with store.transaction() as tx:
                await tx.add_event(at=T0, kind="announcement", role="organiser")
                tx.post(7, {"text": "hint for stage 1"}, priority=PRIORITY_ANSWER)
                raise RuntimeError("the operation fails after posting")
        await post(store, (7, "hint for stage 2", PRIORITY_ANSWER))
        await sender.settled()
        assert bot.texts() == ["hint for stage 2"]
        assert list(outcomes(tmp_path / "outbox.sqlite3").values()) == ["sent"]
        assert len(await store.events(kinds=["announcement"])) == 1
    finally:
        await sender.stop()
        await store.close()


async def test_a_failed_commit_sends_nothing(tmp_path, monkeypatch):
    store, sender, bot = await opened(tmp_path)
    try:
        real = store.conn.execute

        async def failing(sql, *args, **kwargs):
            if sql == "COMMIT":
                raise sqlite3.OperationalError("disk I/O error")
            return await real(sql, *args, **kwargs)

        monkeypatch.setattr(store.conn, "execute", failing)
        with pytest.raises(sqlite3.OperationalError):
            await post(store, (7, "never", PRIORITY_ANSWER))
        monkeypatch.setattr(store.conn, "execute", real)
        await post(store, (7, "after", PRIORITY_ANSWER))
        await sender.settled()
        assert bot.texts() == ["after"]
    finally:
        await sender.stop()
        await store.close()


async def test_what_was_owed_at_a_stop_is_sent_at_the_next_start(tmp_path):
    store, sender, bot = await opened(tmp_path, start=False)  # the bot died before sending
    await post(store, (7, "one", PRIORITY_ANSWER), (8, "two", PRIORITY_COPY))
    await store.close()
    store = await Store.open(tmp_path / "outbox.sqlite3")
    assert [m.params["text"] for m in await store.owed_messages()] == ["one", "two"]
    sender = Sender(bot, store, None)  # type: ignore[arg-type]
    await sender.start()
    try:
        await sender.settled()
        assert sorted(bot.texts()) == ["one", "two"]
        assert await store.outbox_counts() == {"sent": 2}
        assert await store.owed_messages() == []
    finally:
        await sender.stop()
        await store.close()


async def test_rows_done_long_ago_are_pruned(tmp_path):
    store, sender, bot = await opened(tmp_path, start=False)
    try:
        await post(store, (7, "old", PRIORITY_ANSWER), (7, "recent", PRIORITY_ANSWER))
        old, recent = [m.id for m in await store.owed_messages()]
        assert old is not None and recent is not None
        now = datetime.now(UTC)
        async with store.transaction() as tx:
            tx.mark_done([(old, "sent")], now - timedelta(hours=2))
            tx.mark_done([(recent, "sent")], now - timedelta(minutes=5))
        await sender.start()
        await post(store, (7, "new", PRIORITY_ANSWER))
        await sender.settled()
        left = await store.outbox_counts()
        assert left == {"sent": 2}, left  # "old" is gone; "recent" and "new" stay a while
    finally:
        await sender.stop()
        await store.close()


# -- order and priorities ----------------------------------------------------------------------


async def test_an_answer_overtakes_an_announcement_under_the_flood_limit(tmp_path):
    """200 announcement messages wait at 50 a second; an answer posted after them is the
    next message sent, not the 200th."""
    limits = Limits(overall=50.0, private=1000.0, group=1000.0, burst=1, overall_burst=1)
    store, sender, bot = await opened(tmp_path, limits)
    try:
        await post(store, *[(1000 + i, "📣 announcement", PRIORITY_BULK) for i in range(200)])
        while len(bot.calls) < 5:
            await asyncio.sleep(0.01)
        await post(store, (7, "your hint", PRIORITY_ANSWER))
        posted = len(bot.calls)
        while "your hint" not in bot.texts():
            await asyncio.sleep(0.005)
        assert bot.texts().index("your hint") <= posted + 1
        assert len(bot.calls) < 20  # the announcement is still going out
    finally:
        await sender.stop(grace=0)  # the rest of the announcement is not waited for
        await store.close()


async def test_a_chat_gets_its_messages_in_the_order_they_were_posted(tmp_path):
    """A chat holding an announcement and then an answer gets both in that order, and the
    answer's urgency takes the chat ahead of the other announcement chats."""
    limits = Limits(overall=100.0, private=1000.0, group=1000.0, burst=1, overall_burst=1)
    store, sender, bot = await opened(tmp_path, limits)
    try:
        await post(store, *[(1000 + i, f"📣 {i}", PRIORITY_BULK) for i in range(100)])
        await post(store, (7, "📣 to 7", PRIORITY_BULK))
        await post(store, (7, "answer to 7", PRIORITY_ANSWER), (7, "copy to 7",
                                                                 PRIORITY_COPY))
        await sender.settled()
        assert bot.texts(7) == ["📣 to 7", "answer to 7", "copy to 7"]
        order = bot.texts()
        assert order.index("answer to 7") < 10  # not behind the 100 other chats
    finally:
        await sender.stop()
        await store.close()


async def test_what_the_bot_sends_by_itself_keeps_to_one_a_second_per_chat(tmp_path):
    limits = Limits(overall=1000.0, private=10.0, group=2.0, burst=1, overall_burst=10)
    store, sender, bot = await opened(tmp_path, limits)
    loop = asyncio.get_running_loop()
    try:
        start = loop.time()
        await post(store, *[(7, f"copy {i}", PRIORITY_COPY) for i in range(4)])
        await post(store, *[(-100, f"group {i}", PRIORITY_COPY) for i in range(2)])
        await sender.settled()
        took = loop.time() - start
        # 4 to a private chat at 10/s: 0.3 s at least; 2 to a group at 2/s: 0.5 s
        assert took >= 0.45
        assert bot.texts(7) == [f"copy {i}" for i in range(4)]
    finally:
        await sender.stop()
        await store.close()


async def test_volunteers_lines_waiting_for_one_chat_go_out_in_one_message(tmp_path):
    store, sender, bot = await opened(tmp_path)
    bot.gate = asyncio.Event()
    try:
        await post(store, (-100, "#1 Ana: hint stage 1", PRIORITY_COPY), grouping="staff")
        while bot.attempts < 1:
            await asyncio.sleep(0.005)
        # while the first is on its way, three more come (and one that is not a line)
        await post(store, (-100, "#2 Bea: solution stage 2", PRIORITY_COPY),
                   (-100, "#3 Carl: finished?", PRIORITY_COPY), grouping="staff")
        await post(store, (-100, "an answer in the group", PRIORITY_ANSWER))
        await post(store, (-100, "#4 Dan: hint stage 4", PRIORITY_COPY), grouping="staff")
        bot.gate.set()
        await sender.settled()
        assert bot.texts(-100) == ["#1 Ana: hint stage 1",
                                   "#2 Bea: solution stage 2\n#3 Carl: finished?",
                                   "an answer in the group", "#4 Dan: hint stage 4"]
        assert await store.outbox_counts() == {"sent": 5}
    finally:
        await sender.stop()
        await store.close()


# -- failures ------------------------------------------------------------------------------------


async def test_an_outage_is_waited_out_and_nothing_is_lost(tmp_path):
    store, sender, bot = await opened(tmp_path)
    bot.fail = [NetworkError("Bad Gateway")] * 12  # an HTTP 5xx: not delivered
    try:
        await post(store, *[(7, f"to 7: {i}", PRIORITY_COPY) for i in range(3)],
                   *[(8, f"to 8: {i}", PRIORITY_COPY) for i in range(3)])
        await sender.settled()
        assert bot.texts(7) == [f"to 7: {i}" for i in range(3)]
        assert bot.texts(8) == [f"to 8: {i}" for i in range(3)]
        assert await store.outbox_counts() == {"sent": 6}
    finally:
        await sender.stop()
        await store.close()


async def test_an_outage_stops_sending_until_a_probe_is_answered(tmp_path, monkeypatch):
    monkeypatch.setattr(outbox, "PROBE_EVERY", 0.05)
    store, sender, bot = await opened(tmp_path)
    bot.fail = [NetworkError("Bad Gateway")] * 3
    try:
        await post(store, (7, "x", PRIORITY_COPY), (8, "y", PRIORITY_COPY))
        await sender.settled()
        assert sorted(bot.texts()) == ["x", "y"]
        # each message sent again only once a probe (or another send) went through, not
        # again and again while Telegram is out of reach
        assert bot.attempts == 5 and 1 <= bot.probes <= 3
        assert not sender._down
    finally:
        await sender.stop()
        await store.close()


async def test_a_message_that_may_have_arrived_is_sent_at_most_twice(tmp_path):
    store, sender, bot = await opened(tmp_path)
    bot.fail = [TimedOut(), TimedOut(), TimedOut()]
    try:
        await post(store, (7, "slow", PRIORITY_ANSWER), (7, "next", PRIORITY_ANSWER))
        await sender.settled()
        assert bot.attempts == 4  # "slow" twice, then "next": it timed out once, then went
        assert bot.texts() == ["next"]
        got = outcomes(tmp_path / "outbox.sqlite3")
        assert sorted(got.values()) == ["sent", "unconfirmed"]
    finally:
        await sender.stop()
        await store.close()


async def test_a_refusal_for_good_is_marked_and_the_others_go_on(tmp_path):
    store, sender, bot = await opened(tmp_path)
    bot.fail = [Forbidden("Forbidden: bot was blocked by the user"),
                BadRequest("Bad Request: chat not found")]
    try:
        await post(store, (7, "blocked", PRIORITY_COPY))
        await sender.settled()
        await post(store, (8, "gone", PRIORITY_COPY), (9, "fine", PRIORITY_COPY))
        await sender.settled()
        assert bot.texts() == ["fine"]
        got = sorted(v or "" for v in outcomes(tmp_path / "outbox.sqlite3").values())
        assert got[-1] == "sent" and all(v.startswith("refused: ") for v in got[:2])
    finally:
        await sender.stop()
        await store.close()


async def test_a_429_waits_what_telegram_asks(tmp_path):
    store, sender, bot = await opened(tmp_path)
    bot.fail = [RetryAfter(1)]
    loop = asyncio.get_running_loop()
    try:
        start = loop.time()
        await post(store, (7, "after the wait", PRIORITY_ANSWER))
        await sender.settled()
        assert bot.texts() == ["after the wait"]
        assert loop.time() - start >= 0.95
    finally:
        await sender.stop()
        await store.close()


async def test_an_answer_not_stored_tells_its_handler_when_it_is_sent(tmp_path):
    store, sender, bot = await opened(tmp_path)
    try:
        done = sender.answer(OutboxMessage(None, 7, PRIORITY_ANSWER, "sendMessage",
                                           {"text": "your tickets"}))
        assert await asyncio.wait_for(done, 5) == "sent"
        assert await store.outbox_counts() == {}  # nothing stored for it
    finally:
        await sender.stop()
        await store.close()


async def test_more_chats_than_sends_in_flight_all_get_theirs(tmp_path):
    """Every slot for sends in flight taken, all ending in the same moment: the loop must see
    the slots free again (they were counted free only after it had gone back to sleep)."""
    store, sender, bot = await opened(tmp_path)
    try:
        for _ in range(3):
            await post(store, *[(100 + i, f"to {i}", PRIORITY_COPY)
                                for i in range(outbox.IN_FLIGHT * 3)])
        await asyncio.wait_for(sender.settled(), 10)
        assert len(bot.calls) == outbox.IN_FLIGHT * 9
    finally:
        await sender.stop()
        await store.close()


async def test_a_line_for_every_volunteer_goes_to_each_in_their_language_and_in_order(tmp_path):
    """Without a volunteers' group a line is one row for all of them; who gets it is worked
    out when it is sent, and a volunteer's messages still come in the order they were posted."""
    store = await Store.open(tmp_path / "outbox.sqlite3")
    bot = Bot()

    async def recipients() -> list[tuple[int, str]]:
        await asyncio.sleep(0.01)  # read from the database meanwhile
        return [(7, "es"), (8, "fr")]

    sender = Sender(bot, store, None, recipients=recipients)  # type: ignore[arg-type]
    await sender.start()
    try:
        async with store.transaction() as tx:
            tx.post(outbox.EVERY_VOLUNTEER, {"texts": {"es": "#1 pista", "fr": "#1 indice"}},
                    priority=PRIORITY_COPY, grouping="staff")
        async with store.transaction() as tx:
            tx.post(7, {"text": "Anotado: #2 terminó"}, priority=PRIORITY_ANSWER)
        asked = sender.answer(OutboxMessage(None, 7, PRIORITY_ANSWER, "sendMessage",
                                            {"text": "Te quedan 8 billetes"}))
        await sender.settled()
        assert await asked == "sent"
        assert bot.texts(7) == ["#1 pista", "Anotado: #2 terminó", "Te quedan 8 billetes"]
        assert bot.texts(8) == ["#1 indice"]
        assert await store.owed_messages() == []
    finally:
        await sender.stop()
        await store.close()


def test_a_rehearsal_paces_per_simulated_second():
    """At 600 times the speed, Telegram's one message a second to a chat is 600 a real second:
    a notice waits what it would on the day, not ten simulated minutes."""
    fast = TELEGRAM_LIMITS.faster(600)
    assert fast.private == TELEGRAM_LIMITS.private * 600
    assert fast.overall == TELEGRAM_LIMITS.overall * 600
    assert fast.group == TELEGRAM_LIMITS.group * 600
    assert fast.refusal_every == TELEGRAM_LIMITS.refusal_every / 600
    assert fast.burst == TELEGRAM_LIMITS.burst
    assert TELEGRAM_LIMITS.faster(1) == TELEGRAM_LIMITS


class MovingGroup(Bot):
    """A group Telegram moved to a supergroup: every send to the old id answers ChatMigrated;
    sends to the new id take a while, and how many go at once is counted."""

    OLD, NEW = -1, -1001

    def __init__(self) -> None:
        super().__init__()
        self.at_once = self.most_at_once = 0

    async def do_api_request(self, method: str, api_kwargs: dict[str, object] | None = None,
                             **kw: object) -> object:
        assert api_kwargs is not None
        if api_kwargs.get("chat_id") == self.OLD:
            await asyncio.sleep(0.2)
            raise ChatMigrated(self.NEW)
        self.at_once += 1
        self.most_at_once = max(self.most_at_once, self.at_once)
        try:
            await asyncio.sleep(0.1)
            return await super().do_api_request(method, api_kwargs, **kw)
        finally:
            self.at_once -= 1


async def test_a_moved_groups_messages_keep_their_order_at_its_new_id(tmp_path):
    """Three lines wait for the group when Telegram says it moved; one more is posted while
    the first send learns it, two once it is known: all six reach the new id in the order
    they were posted, one at a time (before, the lines waiting and the later ones went as two
    queues, mixed and two at once)."""
    store = await Store.open(tmp_path / "outbox.sqlite3")
    bot = MovingGroup()
    sender = Sender(bot, store, None)  # type: ignore[arg-type]
    await sender.start()
    try:
        await post(store, *[(bot.OLD, f"line {i}", PRIORITY_COPY) for i in (1, 2, 3)])
        await asyncio.sleep(0.05)  # the first send is under way: the move is not known yet
        await post(store, (bot.OLD, "line 4", PRIORITY_COPY))
        await asyncio.sleep(0.2)  # known now, lines 1-4 still waiting: later ones go to the
        await post(store, *[(bot.OLD, f"line {i}", PRIORITY_COPY) for i in (5, 6)])  # new id
        await asyncio.wait_for(sender.settled(), 10)
        assert bot.texts(bot.NEW) == [f"line {i}" for i in range(1, 7)]
        assert bot.most_at_once == 1
        assert not bot.texts(bot.OLD)
    finally:
        await sender.stop()
        await store.close()


async def test_a_line_held_while_busy_goes_with_an_answer_that_comes_behind_it(tmp_path):
    """Volunteers' lines wait (the staff gap) while updates are being handled, so that more
    join them; the sender does not look at a held chat again until then (issue 50: twenty
    volunteers' chats were looked at on every turn). An answer for that chat must not wait for
    the gap: it goes at once, the line with it, in order."""
    store = await Store.open(tmp_path / "outbox.sqlite3")
    bot = Bot()
    quiet = asyncio.Event()  # an update is being handled, all along
    sender = Sender(bot, store, None, quiet=quiet, staff_gap=3600.0)  # type: ignore[arg-type]
    await sender.start()
    try:
        async with store.transaction() as tx:
            tx.post(7, {"text": "FINISHED? #3"}, priority=PRIORITY_COPY, grouping="staff")
        while not bot.calls:  # the chat's first line goes at once
            await asyncio.sleep(0)
        async with store.transaction() as tx:
            tx.post(7, {"text": "HINT #4"}, priority=PRIORITY_COPY, grouping="staff")
        for _ in range(50):  # held: the loop turns, nothing goes
            await asyncio.sleep(0)
        assert bot.texts(7) == ["FINISHED? #3"]
        assert sender._held_until.get(7) is not None
        async with store.transaction() as tx:
            tx.post(7, {"text": "Entry 5 confirmed in stage 2."}, priority=PRIORITY_ANSWER)
        await asyncio.wait_for(sender.settled(), 30)
        assert bot.texts(7) == ["FINISHED? #3", "HINT #4", "Entry 5 confirmed in stage 2."]
    finally:
        await sender.stop()
        await store.close()
