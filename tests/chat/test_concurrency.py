"""Concurrency: many taps in the same instant, through the production update processor
(concurrent across chats, in order within a chat)."""

from __future__ import annotations

import asyncio
import io
import sqlite3
from collections.abc import Iterable
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from telegram import Update
from telegram.ext import CallbackContext

from bot.chat.updates import PerChatUpdateProcessor
from bot.delivery.posting import notify_staff
from bot.services.csvio import import_entries, read_entries
from tests.conftest import CASTRILLO
from tests.fakebot import Harness, Person

T0 = datetime(2023, 4, 22, 10, 0, tzinfo=ZoneInfo("Europe/Madrid"))
BOSS = Person(1, "Olga", "en")


def payload(h: Harness | None, who: Person, text: str, at: datetime, update_id: int) -> dict:
    return {"update_id": update_id, "message": {
        "message_id": update_id, "date": int(at.timestamp()),
        "chat": {"id": who.id, "type": "private"},
        "from": {"id": who.id, "is_bot": False, "first_name": who.name, "language_code": "en"},
        "text": text, "entities": [{"type": "bot_command", "offset": 0,
                                    "length": len(text.split()[0])}]}}


async def burst(h: Harness, messages: list[tuple[Person, str]], at: datetime) -> None:
    """All at once, as the Application would feed them with concurrent updates on."""
    app = h.app
    assert isinstance(app.update_processor, PerChatUpdateProcessor)
    updates = [Update.de_json(payload(h, who, text, at, 50_000 + i), app.bot)
               for i, (who, text) in enumerate(messages)]
    await asyncio.gather(*(app.update_processor.process_update(u, app.process_update(u))
                           for u in updates))
    await app.bot_data["sender"].settled()  # what they owe goes out from the outbox


async def setup(tmp_path) -> tuple[Harness, Person, Person, Person, Person]:
    h = await Harness(tmp_path, CASTRILLO, organisers=frozenset({BOSS.id})).start()
    svc = h.services
    await import_entries(svc.store, read_entries(svc.contest, io.StringIO(
        "number,category,names,born\n1,parejas,Ana; Bea,1980; 1981\n2,adultos,Carl,1970\n"),
        "x.csv"))
    entry = await svc.store.entry(1)
    a, b = Person(10, "Ana", "en"), Person(11, "Bea", "en")
    for p in (a, b):
        await h.send(p, f"/start {entry.join_code}", T0 - timedelta(hours=1))
    await h.send(BOSS, "/start", T0 - timedelta(hours=1))
    invites = []
    for _ in range(2):
        calls = await h.send(BOSS, "/voluntario", T0 - timedelta(hours=1))
        invites.append(calls[-1].text.split("start=")[1])
    v1, v2 = Person(20, "Vic", "en"), Person(21, "Val", "en")
    for v, code in zip((v1, v2), invites, strict=True):
        await h.send(v, f"/start {code}", T0 - timedelta(hours=1))
    await h.send(BOSS, "/inicio", T0)
    return h, a, b, v1, v2


def messages_to(h: Harness, chats: Iterable[int], since: int) -> dict[int, list[str]]:
    """The messages sent to each of ``chats`` since call number ``since``."""
    wanted = set(chats)
    out: dict[int, list[str]] = {}
    for c in h.request.calls[since:]:
        if c.method == "sendMessage" and c.chat_id in wanted:
            out.setdefault(c.chat_id, []).append(c.text)
    return out


def count(h: Harness, sql: str) -> int:
    with sqlite3.connect(h.db_path) as db:
        return db.execute(sql).fetchone()[0]


async def test_100_simultaneous_hint_taps_charge_once(tmp_path):
    h, a, b, _, _ = await setup(tmp_path)
    try:
        before = len(h.request.calls)
        at = T0 + timedelta(minutes=20)
        await burst(h, [(a if i % 2 else b, "/pista 2") for i in range(100)], at)
        assert count(h, "SELECT COUNT(*) FROM events WHERE kind = 'hint'") == 1
        replies = [c for c in h.request.calls[before:] if c.method == "sendMessage"
                   and c.chat_id in (a.id, b.id)]
        accepted = [c for c in replies if c.text.startswith("Hint for stage 2")]
        refused = [c for c in replies if not c.text.startswith("Hint for stage 2")]
        # one accepted answer, copied to the partner's phone; 99 refusals
        assert len({c.text for c in accepted}) == 1 and len(accepted) == 2
        assert len(refused) == 99
        assert all("already given" in c.text for c in refused)
        tickets = [c for c in h.request.calls if c.method == "sendMessage"]
        assert tickets and "Tickets left: 10" in accepted[0].text
    finally:
        await h.stop()


async def test_two_volunteers_finishing_one_entry_at_once_record_one_finish(tmp_path):
    h, _, _, v1, v2 = await setup(tmp_path)
    try:
        before = len(h.request.calls)
        await burst(h, [(v1, "/fin 2 1:47:30"), (v2, "/fin 2 1:47:30")],
                    T0 + timedelta(hours=1, minutes=48))
        assert count(h, "SELECT COUNT(*) FROM events WHERE kind = 'finish'") == 1
        texts = sorted(c.text for c in h.request.calls[before:] if c.method == "sendMessage"
                       and c.chat_id in (v1.id, v2.id))
        assert len(texts) == 2
        assert any("finished at 1:47:30" in t for t in texts)
        assert any("already has 1:47:30 recorded" in t for t in texts)
    finally:
        await h.stop()


async def test_two_volunteers_finishing_one_entry_with_two_times_both_see_what_is_recorded(
        tmp_path):
    """Issue 14: the later /fin silently became a correction and the first volunteer was never
    told. Now the first is told their time was replaced, by whom and with what; the second sees
    whose time they replaced."""
    h, _, _, v1, v2 = await setup(tmp_path)
    try:
        before = len(h.request.calls)
        await burst(h, [(v1, "/fin 2 1:47:30"), (v2, "/fin 2 1:47:35")],
                    T0 + timedelta(hours=1, minutes=48))
        with sqlite3.connect(h.db_path) as db:
            finishes = db.execute("SELECT actor, value, supersedes FROM events "
                                  "WHERE kind = 'finish' ORDER BY id").fetchall()
        assert len(finishes) == 2 and finishes[1][2] is not None  # the later one corrects
        (first, first_time, _), (second, second_time, _) = finishes
        names = {v1.id: v1.name, v2.id: v2.name}
        told = messages_to(h, (v1.id, v2.id), before)
        t1, t2 = ("1:47:30", "1:47:35") if first == v1.id else ("1:47:35", "1:47:30")
        assert told[first] == [
            f"Entry 2 finished at {t1}.",
            f"Entry 2: the finish time you recorded ({t1}) was replaced by {names[second]}'s "
            f"{t2}. If "
            f"{names[second]} is wrong, send /finish 2 with the right time."]
        assert told[second] == [
            f"Entry 2: finish corrected from {t1} (recorded by {names[first]}) to {t2}."]
        assert {first_time, second_time} == {6450, 6455}
    finally:
        await h.stop()


async def test_a_volunteer_correcting_their_own_finish_is_not_told_twice(tmp_path):
    h, _, _, v1, _ = await setup(tmp_path)
    try:
        at = T0 + timedelta(hours=1, minutes=48)
        await h.send(v1, "/fin 2 1:47:30", at)
        calls = await h.send(v1, "/fin 2 1:47:20", at)
        assert [c.text for c in calls if c.method == "sendMessage" and c.chat_id == v1.id] == [
            "Entry 2: finish corrected from 1:47:30 to 1:47:20."]
    finally:
        await h.stop()


async def test_staff_lines_made_in_one_moment_reach_each_volunteer_as_one_message(tmp_path):
    h, a, b, v1, v2 = await setup(tmp_path)
    try:
        entry = await h.services.store.entry(2)
        carl = Person(12, "Carl", "en")
        await h.send(carl, f"/start {entry.join_code}", T0 - timedelta(hours=1))
        staff = (v1.id, v2.id, BOSS.id)

        def lines_to_staff(since: int) -> dict[int, list[str]]:
            return messages_to(h, staff, since)

        # the bot idle: a line goes out at once, alone
        before = len(h.request.calls)
        await h.send(a, "/pista 2", T0 + timedelta(minutes=20))
        alone = lines_to_staff(before)
        assert sorted(alone) == sorted(staff)
        assert all(len(msgs) == 1 and len(msgs[0].splitlines()) == 1 and "#1" in msgs[0]
                   for msgs in alone.values())
        # a pair's solution request and another entry's "done" in the same instant: one
        # message per volunteer with both lines, in the order they were decided
        before = len(h.request.calls)
        await burst(h, [(b, "/solucion 2"), (carl, "/listo")], T0 + timedelta(minutes=50))
        together = lines_to_staff(before)
        assert sorted(together) == sorted(staff)
        for msgs in together.values():
            assert len(msgs) == 1
            lines = msgs[0].splitlines()
            assert len(lines) == 2
            assert any("#1" in line for line in lines) and any("#2" in line for line in lines)
        # each line's buttons (issue 26) are under the joined message, in the lines' order,
        # each naming its entry
        joined = [c for c in h.request.calls[before:] if c.chat_id in staff]
        by_entry = {"#1": ["#1 I'm going"],
                    "#2": ["#2 I'm going", "#2 Record 0:50:00", "#2 Not finished"]}
        for c in joined:
            order = ["#1" if "#1" in line else "#2" for line in str(c.text).splitlines()]
            assert [label for label, _ in h.buttons([c])] == [
                label for entry in order for label in by_entry[entry]]
        assert count(h, "SELECT COUNT(*) FROM events WHERE kind IN ('solution', 'ready')") == 2
    finally:
        await h.stop()


async def test_a_staff_line_that_cannot_be_written_does_not_hold_back_the_others(tmp_path):
    h, _, _, v1, v2 = await setup(tmp_path)
    sender = h.app.bot_data["sender"]
    try:
        context = CallbackContext(h.app)

        def broken(lang: str) -> str:
            raise RuntimeError("a bug in one line")

        before = len(h.request.calls)
        assert await notify_staff(context, broken) == 0  # nothing posted, nothing raised
        await notify_staff(context, lambda lang: "#2 Carl: check the table")
        await sender.settled()
        got = {c.chat_id: c.text for c in h.request.calls[before:] if c.method == "sendMessage"}
        assert got == {v1.id: "#2 Carl: check the table", v2.id: "#2 Carl: check the table",
                       BOSS.id: "#2 Carl: check the table"}
    finally:
        await h.stop()


def press_payload(who: Person, data: str, shown: datetime, update_id: int) -> dict:
    return {"update_id": update_id, "callback_query": {
        "id": str(update_id), "chat_instance": "1", "data": data,
        "from": {"id": who.id, "is_bot": False, "first_name": who.name},
        "message": {"message_id": update_id, "date": int(shown.timestamp()),
                    "chat": {"id": who.id, "type": "private"}, "text": "?"}}}


async def test_a_press_is_floored_by_what_arrived_before_it_not_after() -> None:
    """The floor of a press is taken in Telegram's order, when the processor is handed the
    update, not when the press is handled: messages that arrive after the press (the person's
    own, queued behind it, and the partner's, handled while the press waits behind its chat) do
    not move the press."""
    processor = PerChatUpdateProcessor()
    ana, bea, carl = Person(10, "Ana", "en"), Person(11, "Bea", "en"), Person(12, "Carl", "en")

    def make(data: dict[str, object]) -> Update:
        return Update.de_json(data, None)

    floors: dict[str, datetime | None] = {}
    gate = asyncio.Event()

    async def held() -> None:
        await gate.wait()

    async def look(name: str, update_id: int, users: Iterable[int]) -> None:
        floors[name] = processor.telegram_time.before(update_id, users)

    earlier = make(payload(None, ana, "/pista", T0, 1))
    blocker = make(payload(None, ana, "/billetes", T0 + timedelta(minutes=1), 2))
    press = make(press_payload(ana, "ask:h:1:1:0", T0, 3))
    later = make(payload(None, ana, "/billetes", T0 + timedelta(minutes=9), 4))
    partner = make(payload(None, bea, "/billetes", T0 + timedelta(minutes=2), 5))
    stranger = make(press_payload(carl, "ask:h:9:1:0", T0, 6))
    await processor.process_update(earlier, asyncio.sleep(0))
    blocking = asyncio.create_task(processor.process_update(blocker, held()))
    await asyncio.sleep(0)
    pressing = asyncio.create_task(processor.process_update(
        press, look("ana", 3, [ana.id, bea.id])))
    await asyncio.sleep(0)
    following = asyncio.create_task(processor.process_update(later, asyncio.sleep(0)))
    await asyncio.sleep(0)
    await processor.process_update(partner, asyncio.sleep(0))
    await processor.process_update(stranger, look("carl", 6, [carl.id]))
    gate.set()
    await asyncio.gather(blocking, pressing, following)
    # Ana's press arrived after her 0:01 message, before her 0:09 one and before Bea's
    assert floors["ana"] == T0 + timedelta(minutes=1)
    assert floors["carl"] is None  # nothing of his arrived before: the shown date stands
    assert processor.telegram_time.before(3, [ana.id]) is None  # forgotten once handled
