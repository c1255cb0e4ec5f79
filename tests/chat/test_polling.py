"""The offset rule of chat/polling.py, without a network: an update is confirmed to Telegram only
once it and every update before it have been handled."""

from __future__ import annotations

import asyncio
from typing import Any

from telegram import Bot, Update

from bot.chat import polling
from bot.chat.polling import Offsets, Poller, _until_stopped, delays, describe
from bot.chat.updates import PerChatUpdateProcessor

BOT = Bot("123456:TEST-token-abcdefghijklmnopqrstuvwxyz")


def update(update_id: int, chat: int) -> Update:
    return Update.de_json({"update_id": update_id, "message": {
        "message_id": update_id, "date": 0, "chat": {"id": chat, "type": "private"},
        "from": {"id": chat, "is_bot": False, "first_name": "X"}, "text": "hi"}}, BOT)


def test_the_offset_is_the_first_update_not_finished():
    o = Offsets()
    assert o.offset is None
    for i in (5, 6, 7, 8):
        assert o.received(i)
    assert not o.received(6)  # a poll repeating what is in hand
    assert o.offset == 5
    o.finished(6)
    o.finished(8)
    assert o.offset == 5  # finished out of order: nothing before 5 is done
    o.finished(5)
    assert o.offset == 7
    assert not o.idle.is_set()
    o.finished(7)
    assert o.offset == 9 and o.idle.is_set()
    o.finished(7)  # told twice: no harm
    assert o.offset == 9


async def test_out_of_order_completion_across_chats_does_not_pass_an_unfinished_update():
    processor = PerChatUpdateProcessor()
    o = Offsets()
    processor.finished = lambda u: o.finished(u.update_id) if isinstance(u, Update) else None
    gates = {i: asyncio.Event() for i in range(1, 7)}
    done: list[int] = []

    async def handle(i: int) -> None:
        await gates[i].wait()
        done.append(i)

    # chats: 1 -> A, 2 -> B, 3 -> A (waits for 1), 4 -> C, 5 -> B, 6 -> D
    chats = {1: 100, 2: 200, 3: 100, 4: 300, 5: 200, 6: 400}
    tasks = []
    for i, chat in chats.items():
        assert o.received(i)
        tasks.append(asyncio.create_task(processor.process_update(update(i, chat), handle(i))))
    await asyncio.sleep(0)
    for i in (2, 4, 5, 6):  # every chat but A finishes
        gates[i].set()
    await asyncio.wait_for(_until(lambda: len(done) == 4), 10)
    assert sorted(done) == [2, 4, 5, 6]
    assert o.offset == 1  # update 1 still runs: nothing may be confirmed
    gates[3].set()  # 3 may not run before 1 (same chat)
    await asyncio.sleep(0.01)
    assert 3 not in done and o.offset == 1
    gates[1].set()
    await asyncio.wait_for(asyncio.gather(*tasks), 10)
    assert done[-2:] == [1, 3]
    assert o.offset == 7


async def test_a_failed_handler_is_finished_a_cancelled_one_is_not():
    processor = PerChatUpdateProcessor()
    o = Offsets()
    processor.finished = lambda u: o.finished(u.update_id) if isinstance(u, Update) else None
    o.received(1)
    o.received(2)

    async def boom() -> None:
        raise ValueError("bug")

    async def forever() -> None:
        await asyncio.Event().wait()

    try:
        await processor.process_update(update(1, 1), boom())
    except ValueError:
        pass
    task = asyncio.create_task(processor.process_update(update(2, 2), forever()))
    await asyncio.sleep(0)
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    assert o.offset == 2  # 1 confirmed (it would fail again for ever), 2 comes back


class FakeTelegram:
    """getUpdates as Telegram does it: everything from ``offset`` on, earlier ones forgotten."""

    def __init__(self) -> None:
        self.pending: list[Update] = []
        self.offsets: list[int | None] = []
        self.arrived = asyncio.Event()

    async def get_updates(self, offset: int | None = None, timeout: float = 0,
                          allowed_updates: Any = None, limit: int = 100) -> list[Update]:
        self.offsets.append(offset)
        if offset is not None:
            self.pending = [u for u in self.pending if u.update_id >= offset]
        if not self.pending:
            self.arrived.clear()
            try:
                await asyncio.wait_for(self.arrived.wait(), min(timeout, 0.2))
            except TimeoutError:
                return []
        return self.pending[:limit]

    def push(self, u: Update) -> None:
        self.pending.append(u)
        self.arrived.set()


class FakeApp:
    def __init__(self) -> None:
        self.bot = FakeTelegram()
        self.update_queue: asyncio.Queue[object] = asyncio.Queue()


async def test_the_poller_never_confirms_past_an_update_in_hand_and_hands_each_over_once():
    app = FakeApp()
    o = Offsets()
    poller = Poller(app, o, timeout=1, busy_poll=0.01)  # type: ignore[arg-type]
    task = asyncio.create_task(poller.run())
    try:
        for i, chat in enumerate([1, 2, 3, 2, 1], start=1):
            app.bot.push(update(i, chat))
        got = [await asyncio.wait_for(app.update_queue.get(), 10) for _ in range(5)]
        assert [u.update_id for u in got] == [1, 2, 3, 4, 5]  # type: ignore[attr-defined]
        # finish 2..5 but not 1: the poller keeps polling, each poll from offset 1
        for i in (2, 3, 4, 5):
            o.finished(i)
        polls = len(app.bot.offsets)
        await asyncio.wait_for(_until(lambda: len(app.bot.offsets) >= polls + 3), 10)
        assert all(off is None or off <= 1 for off in app.bot.offsets)
        assert app.update_queue.empty()  # nothing handed over twice
        o.finished(1)
        await asyncio.wait_for(_until(lambda: app.bot.offsets[-1] == 6), 10)
        assert app.bot.pending == []
        app.bot.push(update(6, 4))
        assert (await asyncio.wait_for(app.update_queue.get(), 10)).update_id == 6  # type: ignore[attr-defined]
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


def test_the_delay_grows_to_thirty_seconds_and_errors_are_one_line():
    d = delays()
    waits = [d() for _ in range(10)]
    assert waits[0] == 0.5 and waits == sorted(waits) and waits[-1] == 30
    assert "\n" not in describe(RuntimeError("two\nlines"))


async def _until(condition: Any) -> None:
    while not condition():
        await asyncio.sleep(0.005)


def test_a_moment_is_caught_up_once_a_later_full_poll_is_handled():
    """Issue 45: a deadline is decided once every update Telegram held then is handled. A poll
    sent at T that came back with room to spare, and every update it brought handled: T is
    caught up; a moment after the last such poll is not; without a poller, every moment is."""
    from datetime import UTC, datetime, timedelta

    from bot.delivery.telegram_time import CaughtUp

    t0 = datetime(2024, 9, 19, 19, 5, tzinfo=UTC)
    caught = CaughtUp()
    assert caught.caught_up(t0)  # no poller: the in-process harness decides at once
    caught.polling = True
    assert not caught.caught_up(t0)
    # a poll sent at t0 brought updates 1..3; update 2 is still in hand (first open: 2)
    caught.polled(t0, 3, 2)
    assert not caught.caught_up(t0)
    caught.progress(3)  # 2 handled, 3 still in hand
    assert not caught.caught_up(t0)
    caught.progress(4)  # all handled
    assert caught.caught_up(t0) and caught.caught_up(t0 - timedelta(minutes=1))
    assert not caught.caught_up(t0 + timedelta(seconds=1))
    # a later poll that brought nothing new: caught up to when it was sent
    caught.polled(t0 + timedelta(seconds=40), 3, 4)
    assert caught.caught_up(t0 + timedelta(seconds=40))


async def test_a_deadline_waits_for_the_poll_and_gives_up_when_the_bot_stops():
    from datetime import UTC, datetime

    from bot.delivery.telegram_time import CaughtUp

    t0 = datetime(2024, 9, 19, 19, 5, tzinfo=UTC)
    caught = CaughtUp()
    caught.polling = True
    waiting = asyncio.create_task(caught.wait(t0))
    await asyncio.sleep(0)
    assert not waiting.done()
    caught.polled(t0, 7, 7)  # update 7 in hand
    await asyncio.sleep(0)
    assert not waiting.done()
    caught.progress(8)
    assert await waiting is True
    stopped = asyncio.create_task(caught.wait(datetime(2030, 1, 1, tzinfo=UTC)))
    await asyncio.sleep(0)
    caught.stop()
    assert await stopped is False


def test_a_press_is_no_earlier_than_anyone_s_message_that_reached_telegram_before_it():
    """Issue 45: before_anyone is the newest date of any message that arrived before a press
    (a floor for deadlines); before() stays the entry's own people's."""
    from datetime import UTC, datetime, timedelta

    from telegram import CallbackQuery, Chat, Message, User

    from bot.delivery.telegram_time import TelegramTime

    t0 = datetime(2024, 9, 19, 19, 5, tzinfo=UTC)
    clock = TelegramTime()
    ana, bea = User(5, "Ana", False), User(6, "Bea", False)
    chat = Chat(5, "private")
    clock.arrived(Update(1, message=Message(1, t0 - timedelta(days=6), chat, from_user=ana)))
    clock.arrived(Update(2, message=Message(2, t0 + timedelta(days=1), chat, from_user=bea)))
    clock.arrived(Update(3, callback_query=CallbackQuery("q", ana, "1", data="invite:yes:5")))
    clock.arrived(Update(4, message=Message(3, t0 + timedelta(days=2), chat, from_user=bea)))
    assert clock.before(3, [ana.id]) == t0 - timedelta(days=6)
    assert clock.before_anyone(3) == t0 + timedelta(days=1)  # not the message after the press
    assert clock.before_anyone(99) is None  # not a press


async def test_a_stop_cancels_again_work_that_swallowed_its_cancellation(monkeypatch):
    """The long poll's read can take the stop's cancellation for its own (anyio's cancel scope
    around the HTTP read) and go on polling: a stop then never came. It is cancelled again
    until it ends."""
    monkeypatch.setattr(polling, "CANCEL_AGAIN", 0.01)
    stop = asyncio.Event()
    swallowed = []

    async def stubborn_poll() -> None:
        while True:
            try:
                await asyncio.sleep(3600)
            except asyncio.CancelledError:
                task = asyncio.current_task()
                assert task is not None
                if len(swallowed) == 2:
                    raise
                swallowed.append(task.uncancel())  # taken as its own: polls on

    asyncio.get_running_loop().call_soon(stop.set)
    assert await _until_stopped(stop, stubborn_poll()) is False  # stopped, not ended
    assert swallowed == [0, 0]


async def test_work_that_ends_by_itself_is_not_cancelled():
    async def work() -> None:
        await asyncio.sleep(0)

    assert await _until_stopped(asyncio.Event(), work()) is True
