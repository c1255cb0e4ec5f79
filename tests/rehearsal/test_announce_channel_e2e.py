"""The announcements channel end to end (issue 49): the real ``python -m bot run`` with
``PUZZLEBOT_ANNOUNCE_CHAT`` against the fake Bot API over HTTP. /anuncio's Send posts once in
the channel and nobody gets a private copy; killed before the post went out, the bot posts it
once at its next start; a channel that refuses the post has it go to each participant."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from bot.rehearsal.botprocess import import_entries
from bot.rehearsal.fakeapi import Failure, FakeBotAPI
from bot.services.access import Linked, link
from bot.services.contest_day import ContestDay
from bot.services.contest_file import load_contest
from bot.storage.store import Store
from tests.conftest import CASTRILLO, ROOT
from tests.e2e import BotProcess, Phone, say, sent_to
from tests.rehearsal.test_e2e import ORGANISER

CHANNEL = -1001234500049
PEOPLE = 8
TEXT = "Lunch is served in the hall"


def rows(db: Path, sql: str) -> list[tuple]:
    with sqlite3.connect(db) as conn:
        return conn.execute(sql).fetchall()


async def hall(tmp_path: Path) -> tuple[Path, list[Phone]]:
    """Castrillo with ``PEOPLE`` adults, each followed by one phone (linked before the bot
    starts, as their /start would leave them)."""
    db = tmp_path / "channel.sqlite3"
    csv = tmp_path / "entries.csv"
    csv.write_text("number,category,names,born\n" + "".join(
        f"{n},adultos,Person {n},1970\n" for n in range(1, PEOPLE + 1)))
    await import_entries(db, CASTRILLO, csv, cwd=ROOT)
    codes = dict(rows(db, "SELECT number, join_code FROM entries"))
    now = datetime.now(UTC)
    store = await Store.open(db)
    try:
        day = ContestDay(load_contest(CASTRILLO), store, frozenset())
        for n in range(1, PEOPLE + 1):
            assert isinstance(await link(day, 1000 + n, codes[n], now, None), Linked)
    finally:
        await store.close()
    return db, [Phone(1000 + n, f"Person {n}") for n in range(1, PEOPLE + 1)]


async def send_announcement(api: FakeBotAPI) -> None:
    """The organiser's /anuncio and its preview's Send."""
    preview = await api.reply_to(ORGANISER.user(), f"/anuncio {TEXT}", datetime.now(UTC),
                                 timeout=15)
    shown = [c for c in preview if c.method == "sendMessage"][0]
    assert "posted once in the announcements channel" in shown.text
    assert f"which of the {PEOPLE} linked participants" in shown.text
    (send_it, _cancel) = shown.buttons()
    api.press(ORGANISER.user(), send_it[1], datetime.now(UTC))


def private_copies(api: FakeBotAPI, phones: list[Phone]) -> int:
    return sum(TEXT in c.text for p in phones for c in sent_to(api, p.id))


async def test_posted_once_in_the_channel_even_when_killed_before_it_went_out(api, tmp_path):
    db, phones = await hall(tmp_path)
    bot = BotProcess(api, db, CASTRILLO, extra_env={"PUZZLEBOT_ANNOUNCE_CHAT": str(CHANNEL)})
    await bot.start()
    try:
        await say(api, ORGANISER, "/start", datetime.now(UTC))
        # the channel out of reach (502) for now: the post stays owed
        down = Failure("502", count=10**9, method="sendMessage", chat_id=CHANNEL)
        api.failures.append(down)
        await send_announcement(api)
        assert await api.wait_until(lambda: down.count < 10**9 and bool(rows(
            db, f"SELECT id FROM outbox WHERE chat_id = {CHANNEL} AND done_at IS NULL")), 15)
        assert [json.loads(d) for (d,) in rows(
            db, "SELECT data FROM events WHERE kind = 'announcement'")] == [
            {"text": TEXT, "recipients": PEOPLE, "channel": CHANNEL}]
        await bot.kill()  # before the post went out
        api.failures.clear()
        assert sent_to(api, CHANNEL) == []

        await bot.start()
        assert await api.wait_until(lambda: bool(sent_to(api, CHANNEL)), 15)
        assert await api.wait_until(lambda: not rows(
            db, "SELECT id FROM outbox WHERE done_at IS NULL"), 15)
        assert [c.text for c in sent_to(api, CHANNEL)] == [f"📣 {TEXT}"]
        assert private_copies(api, phones) == 0
        assert any(c.text.startswith("Posted in the announcements channel")
                   for c in sent_to(api, ORGANISER.id))
        assert len(rows(db, "SELECT id FROM events WHERE kind = 'announcement'")) == 1
        assert rows(db, f"SELECT outcome FROM outbox WHERE chat_id = {CHANNEL}") == [("sent",)]
        assert api.violations == []
    finally:
        await bot.stop()
    assert b"Traceback" not in bot.log


async def test_a_channel_that_refuses_the_post_has_it_go_to_each_participant(api, tmp_path):
    db, phones = await hall(tmp_path)
    bot = BotProcess(api, db, CASTRILLO, extra_env={"PUZZLEBOT_ANNOUNCE_CHAT": str(CHANNEL)})
    api.failures.append(Failure("notfound", count=10**9, method="sendMessage",
                                chat_id=CHANNEL))
    await bot.start()
    try:
        await say(api, ORGANISER, "/start", datetime.now(UTC))
        await send_announcement(api)
        assert await api.wait_until(lambda: private_copies(api, phones) == PEOPLE, 15)
        assert await api.wait_until(lambda: any(
            "refused the announcement" in c.text for c in sent_to(api, ORGANISER.id)), 15)
        await api.settle(quiet=0.5, timeout=10)
        assert all([c.text for c in sent_to(api, p.id)] == [f"📣 {TEXT}"] for p in phones)
        told = [c.text for c in sent_to(api, ORGANISER.id) if "refused" in c.text]
        assert told == [
            "The announcements channel refused the announcement (Telegram says: Chat not "
            f"found): it goes to each of the {PEOPLE} linked participants privately instead. "
            "Make the bot an administrator of the channel (or a member of the group), or "
            "correct PUZZLEBOT_ANNOUNCE_CHAT."]
        assert sent_to(api, CHANNEL) == []  # refused: never taken
        assert rows(db, f"SELECT outcome FROM outbox WHERE chat_id = {CHANNEL}") == [
            ("refused: Chat not found",)]
        assert len(rows(db, "SELECT id FROM events WHERE kind = 'announcement'")) == 1
    finally:
        await bot.stop()
    assert b"ERROR" in bot.log and b"the announcements channel" in bot.log
    assert b"Traceback" not in bot.log
