"""Part 4 (e): an announcement to the whole hall, per person against an announcements channel
(issue 49, ``PUZZLEBOT_ANNOUNCE_CHAT``). The bot's Application as built for production
(``build_application(..., rate_limiter=True)``: AIORateLimiter, and the outbox's sender pacing
itself within Telegram's limits) pointed at ``FakeBotAPI`` on 127.0.0.1, ``people`` adults each
followed by one phone. Timed, twice on the same database (copied): the organiser's
``/anuncio`` and, at once, its preview's Send, through ``process_update``; the time from
``/anuncio`` to the last recipient's message reaching the server: each of the ``people``
phones without a channel, the one post with one."""

from __future__ import annotations

import io
import json
import sqlite3
import time
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from common import ORGANISER_ID, Person, Updates, big_contest_file, bot_config, stop_bot
from telegram import Update

from bot.chat.app import build_application
from bot.rehearsal.fakeapi import Call, FakeBotAPI
from bot.services.access import Linked, link
from bot.services.contest_day import ContestDay
from bot.services.contest_file import load_contest
from bot.services.csvio import import_entries, read_entries
from bot.storage.store import Store

CHANNEL = -1001234500049
FIRST_PHONE = 7_000_000
TEXT = "La entrega de premios empieza a las 18:00 en el escenario."
POST = f"📣 {TEXT}"  # what each recipient reads (the organiser's preview quotes it too)
ORGANISER = Person(ORGANISER_ID, "Olga")


async def _hall(db: Path, cfile: Path, people: int) -> None:
    """``people`` adults imported, each followed by one phone (as their /start leaves them)."""
    contest = load_contest(cfile)
    store = await Store.open(db)
    try:
        rows = read_entries(contest, io.StringIO("number,category,names,born\n" + "".join(
            f"{n},adultos,Persona {n},1980\n" for n in range(1, people + 1))), "hall.csv")
        await import_entries(store, rows)
        day = ContestDay(contest, store, frozenset({ORGANISER_ID}))
        now = datetime.now(UTC)
        for entry in await store.entries():
            assert isinstance(await link(day, FIRST_PHONE + entry.number, entry.join_code,
                                         now, None), Linked)
    finally:
        await store.close()


def _press(ups: Updates, who: Person, data: str) -> dict[str, Any]:
    ups.update_id += 1
    ups.message_id += 1
    return {"update_id": ups.update_id, "callback_query": {
        "id": str(ups.update_id), "from": who.user(), "chat_instance": "1", "data": data,
        "message": {"message_id": ups.message_id, "date": int(time.time()),
                    "chat": {"id": who.id, "type": "private"},
                    "from": {"id": 999, "is_bot": True, "first_name": "Puzzle"},
                    "text": "?"}}}


def _send_button(calls: list[Call]) -> str:
    for c in reversed(calls):
        markup = c.params.get("reply_markup")
        if c.chat_id == ORGANISER_ID and markup:
            rows = json.loads(markup) if isinstance(markup, str) else markup
            return str(rows["inline_keyboard"][0][0]["callback_data"])
    raise RuntimeError("announce: the preview has no Send button")


async def _one(api: FakeBotAPI, db: Path, cfile: Path, people: int,
               channel: int | None) -> dict[str, Any]:
    config = bot_config(db, cfile, base_url=api.base_url, token=api.token)
    if channel is not None:
        config = replace(config, announce_chat=channel)
    app = build_application(config, load_contest(cfile), rate_limiter=True)
    try:
        await app.initialize()
        await app.post_init(app)
        sender = app.bot_data["sender"]
        ups = Updates(first_update=1_000)
        await app.process_update(Update.de_json(
            ups.message(ORGANISER, "/start", datetime.now(UTC)), app.bot))
        await sender.settled()
        before = len(api.calls)
        t0 = time.time()  # the fake server stamps calls with the wall clock
        await app.process_update(Update.de_json(
            ups.message(ORGANISER, f"/anuncio {TEXT}", datetime.now(UTC)), app.bot))
        send = _send_button(api.calls[before:])
        pressed = time.time()
        await app.process_update(Update.de_json(_press(ups, ORGANISER, send), app.bot))
        wanted = 1 if channel is not None else people
        posts: list[Call] = []

        def arrived() -> bool:
            posts[:] = [c for c in api.calls[before:]
                        if c.method == "sendMessage" and c.text == POST]
            return len(posts) >= wanted

        await api.wait_until(arrived, 30 + people / 10)
        await sender.settled()
        arrived()
    finally:
        await stop_bot(app)
    to_channel = [c for c in posts if c.chat_id == channel]
    private = [c for c in posts if c.chat_id != channel]
    if channel is not None and (len(to_channel) != 1 or private):
        raise RuntimeError(f"announce_channel: {len(to_channel)} channel posts and "
                           f"{len(private)} private copies (1 and 0 expected)")
    if channel is None and len({c.chat_id for c in private}) != people:
        raise RuntimeError(f"announce_channel: {len(private)} of {people} phones got it")
    last = max(c.at.timestamp() for c in posts)
    return {"recipients_messages": len(posts), "last_s": round(last - t0, 3),
            "from_send_s": round(last - pressed, 3)}


async def announce_channel(tmp: Path, people: int) -> dict[str, Any]:
    """The same announcement to ``people`` linked phones one by one, then once in a channel
    (the database copied before the first, so both start from the same hall)."""
    work = tmp / "announce"
    work.mkdir()
    cfile = big_contest_file(work / "contest.toml")
    hall = work / "hall.sqlite3"
    await _hall(hall, cfile, people)
    dbs = {}
    for name in ("per_person", "channel"):
        dbs[name] = work / f"{name}.sqlite3"
        with sqlite3.connect(hall) as src, sqlite3.connect(dbs[name]) as dst:
            src.backup(dst)
    api = FakeBotAPI()
    await api.start()
    try:
        per_person = await _one(api, dbs["per_person"], cfile, people, None)
        channel = await _one(api, dbs["channel"], cfile, people, CHANNEL)
    finally:
        await api.stop()
    return {
        "people": people,
        "per_person_s": per_person["last_s"], "per_person_messages":
            per_person["recipients_messages"],
        "channel_s": channel["last_s"], "channel_messages": channel["recipients_messages"],
        "per_person_from_send_s": per_person["from_send_s"],
        "channel_from_send_s": channel["from_send_s"],
        "ratio": round(per_person["last_s"] / channel["last_s"], 1)
        if channel["last_s"] > 0 else None,
        "spec_violations": api.violations[:5],
    }
