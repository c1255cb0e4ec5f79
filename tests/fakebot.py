"""Our fake Bot API, as a python-telegram-bot request object, and a harness around the real
Application: real ``Update`` objects go through ``Application.process_update``; every call the
bot makes is recorded and checked against the official spec (../shared/telegram-bot-api)."""

from __future__ import annotations

import io
import json
import sqlite3
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from telegram import Update

from bot.chat.app import build_application
from bot.chat.polling import AFTER_START
from bot.rehearsal.fakeapi import Call, LocalBotAPI
from bot.services.contest_file import load_contest
from bot.services.csvio import import_entries, read_entries
from bot.support.config import Config

ROOT = Path(__file__).resolve().parent.parent
BOT_USER = {"id": 999, "is_bot": True, "first_name": "Puzzle", "username": "puzzle_test_bot",
            "can_join_groups": True, "can_read_all_group_messages": False,
            "supports_inline_queries": False}


class FakeRequest(LocalBotAPI):
    """Answers every Bot API call locally and records it (as the test bot)."""

    def __init__(self) -> None:
        super().__init__(BOT_USER)


@dataclass
class Person:
    id: int
    name: str
    lang: str = "es"


@dataclass
class Harness:
    tmp_path: Path
    contest_file: Path
    organisers: frozenset[int] = frozenset({1})
    volunteer_chat: int | None = None
    announce_chat: int | None = None  # PUZZLEBOT_ANNOUNCE_CHAT
    db_name: str = "bot.sqlite3"
    payment_token: str = ""  # PUZZLEBOT_PAYMENT_TOKEN
    request: FakeRequest = field(default_factory=FakeRequest)
    app: Any = None
    _update_id: int = 0
    _message_id: int = 0

    @property
    def db_path(self) -> Path:
        return self.tmp_path / self.db_name

    def config(self) -> Config:
        return Config(token="123456:TEST-token-abcdefghijklmnopqrstuvwxyz",
                      contest_file=str(self.contest_file), db_path=str(self.db_path),
                      organisers=self.organisers, volunteer_chat=self.volunteer_chat,
                      announce_chat=self.announce_chat, payment_token=self.payment_token)

    async def start(self, jobs: bool = False) -> Harness:
        contest = load_contest(self.contest_file)
        self.request = FakeRequest()
        self.app = build_application(self.config(), contest, request=self.request,
                                     updates_request=self.request, rate_limiter=False)
        await self.app.initialize()
        # no fsync per commit in this harness: nothing here loses power or is killed, and the
        # durability tests run the real process (SIGKILL) on the bot's own settings
        store = await self.app.bot_data["store_handle"].get()
        await store.conn.execute("PRAGMA synchronous=OFF")
        await self.app.post_init(self.app)
        for step in self.app.bot_data.get(AFTER_START, ()):  # served: once updates are taken
            await step(self.app)
        if jobs:
            await self.app.start()
        self._jobs = jobs
        return self

    async def stop(self) -> None:
        if self.app is None:
            return
        if self._jobs:
            await self.app.stop()
        await self.app.shutdown()
        await self.app.post_shutdown(self.app)
        self.app = None

    @property
    def services(self) -> Any:
        return self.app.bot_data["services"]

    def _next_ids(self) -> tuple[int, int]:
        self._update_id += 1
        self._message_id += 1
        return self._update_id, self._message_id

    def _user(self, who: Person) -> dict[str, Any]:
        return {"id": who.id, "is_bot": False, "first_name": who.name,
                "language_code": who.lang}

    async def send(self, who: Person, text: str, at: datetime,
                   update_id: int | None = None) -> list[Call]:
        """The person sends ``text`` at ``at``; returns the calls the bot made meanwhile."""
        uid, mid = self._next_ids()
        if update_id is not None:
            uid = update_id
        message: dict[str, Any] = {
            "message_id": mid, "date": int(at.timestamp()),
            "chat": {"id": who.id, "type": "private"}, "from": self._user(who), "text": text,
        }
        if text.startswith("/"):
            message["entities"] = [{"type": "bot_command", "offset": 0,
                                    "length": len(text.split()[0])}]
        return await self._process({"update_id": uid, "message": message})

    async def send_photo(self, who: Person, at: datetime, file_id: str | None = None,
                         caption: str | None = None, update_id: int | None = None
                         ) -> list[Call]:
        """The person sends a photo (Telegram's sizes, smallest first: the largest is
        ``file_id``, by default a new photo each time; the same ``file_id`` is the same photo
        sent again) at ``at``; returns the calls the bot made meanwhile. ``update_id``:
        Telegram's, given to deliver one update twice."""
        uid, mid = self._next_ids()
        file_id = file_id if file_id is not None else f"photo-{mid}"
        uid = update_id if update_id is not None else uid
        message: dict[str, Any] = {
            "message_id": mid, "date": int(at.timestamp()),
            "chat": {"id": who.id, "type": "private"}, "from": self._user(who),
            "photo": [{"file_id": f"{file_id}-small", "file_unique_id": f"u-{file_id}-s",
                       "width": 90, "height": 67},
                      {"file_id": file_id, "file_unique_id": f"u-{file_id}",
                       "width": 1280, "height": 960}],
        }
        if caption is not None:
            message["caption"] = caption
        return await self._process({"update_id": uid, "message": message})

    async def press(self, who: Person, data: str, at: datetime | None = None,
                    shown: datetime | None = None) -> list[Call]:
        """A button pressed at ``at``, under a message Telegram dated ``shown`` (``at``
        without it)."""
        uid, mid = self._next_ids()
        when = at or datetime.now(UTC)
        query = {
            "id": str(uid), "from": self._user(who), "chat_instance": "1", "data": data,
            "message": {"message_id": mid, "date": int((shown or when).timestamp()),
                        "chat": {"id": who.id, "type": "private"}, "from": BOT_USER,
                        "text": "?"},
        }
        return await self._process({"update_id": uid, "callback_query": query})

    async def pre_checkout(self, who: Person, payload: str, amount: int,
                           currency: str = "EUR") -> Call:
        """The person confirms paying an invoice: Telegram's pre-checkout query; returns the
        bot's answer to it (answerPreCheckoutQuery)."""
        uid, _ = self._next_ids()
        query = {"id": f"pcq{uid}", "from": self._user(who), "currency": currency,
                 "total_amount": amount, "invoice_payload": payload}
        calls = await self._process({"update_id": uid, "pre_checkout_query": query})
        [found] = [c for c in calls if c.method == "answerPreCheckoutQuery"
                   and c.params.get("pre_checkout_query_id") == f"pcq{uid}"]
        return found

    async def paid(self, who: Person, payload: str, amount: int, at: datetime, charge: str,
                   currency: str = "EUR", update_id: int | None = None) -> list[Call]:
        """Telegram took a payment: its service message dated ``at`` in the payer's chat."""
        uid, mid = self._next_ids()
        uid = update_id if update_id is not None else uid
        message = {"message_id": mid, "date": int(at.timestamp()),
                   "chat": {"id": who.id, "type": "private"}, "from": self._user(who),
                   "successful_payment": {
                       "currency": currency, "total_amount": amount,
                       "invoice_payload": payload, "telegram_payment_charge_id": charge,
                       "provider_payment_charge_id": f"provider-{charge}"}}
        return await self._process({"update_id": uid, "message": message})

    async def undo(self, who: Person, at: datetime) -> list[Call]:
        """``/deshacer`` and, if it asks, its "take it back" pressed at once: the calls of
        both (the question first)."""
        asked = await self.send(who, "/deshacer", at)
        take = [d for _, d in self.buttons(asked) if d.startswith("undo:") and d != "undo:-"]
        return asked + (await self.press(who, take[0], at) if take else [])

    async def _process(self, payload: dict[str, Any]) -> list[Call]:
        before = len(self.request.calls)
        update = Update.de_json(payload, self.app.bot)
        # through the update processor, as the application hands updates over
        await self.app.update_processor.process_update(update, self.app.process_update(update))
        # what the update owes people goes out from the outbox: let it land before looking
        await self.app.bot_data["sender"].settled()
        assert not self.request.violations, self.request.violations
        return self.request.calls[before:]

    def sent(self, chat_id: int | None = None) -> list[str]:
        return [c.text for c in self.request.calls
                if c.method == "sendMessage" and (chat_id is None or c.chat_id == chat_id)]

    def buttons(self, calls: list[Call]) -> list[tuple[str, str]]:
        out = []
        for c in calls:
            markup = c.params.get("reply_markup")
            if isinstance(markup, str):
                markup = json.loads(markup)
            if isinstance(markup, dict):
                for row in markup.get("inline_keyboard", []):
                    out.extend((b["text"], b["callback_data"]) for b in row)
        return out


def texts(calls: list[Call]) -> list[str]:
    return [c.text for c in calls if c.method == "sendMessage"]


async def staff(h: Harness, organiser: Person, volunteer: Person, at: datetime) -> None:
    """The organiser says hello and invites ``volunteer``, who joins with the link."""
    await h.send(organiser, "/start", at)
    invite = (await h.send(organiser, "/voluntario", at))[-1].text
    await h.send(volunteer, f"/start {invite.split('start=')[1].split()[0]}", at)


@dataclass
class FrozenClock:
    """``bot.support.wallclock.CLOCK`` stopped at one instant."""

    instant: datetime
    speed: float = 1.0

    def now(self) -> datetime:
        return self.instant

    def seconds_until(self, when: datetime) -> float:
        return max(0.0, (when - self.instant).total_seconds())


async def two_adults_playing(tmp_path: Path, contest_file: Path, organiser: Person,
                             volunteer: Person, phones: tuple[Person, Person],
                             start: datetime) -> Harness:
    """A day with entries 5 and 6 in ``adultos`` (the Castrillo contest's), each followed by
    one of ``phones``, ``volunteer`` invited by ``organiser``, and the clocks started at
    ``start``."""
    h = await Harness(tmp_path, contest_file, organisers=frozenset({organiser.id})).start()
    svc = h.services
    await import_entries(svc.store, read_entries(svc.contest, io.StringIO(
        "number,category,names,born\n5,adultos,Ana Uno,1980\n6,adultos,Sol Dos,1981\n"),
        "x.csv"))
    for person, number in zip(phones, (5, 6), strict=True):
        entry = await svc.store.entry(number)
        await h.send(person, f"/start {entry.join_code}", start - timedelta(hours=1))
    await staff(h, organiser, volunteer, start - timedelta(hours=1))
    await h.send(organiser, "/inicio", start)
    return h


def said(calls: list[Call], who: Person) -> list[str]:
    """What ``who`` was sent, of ``calls``."""
    return [c.text for c in calls if c.method == "sendMessage" and c.chat_id == who.id]


def count_events(h: Harness) -> int:
    with sqlite3.connect(h.db_path) as db:
        return int(db.execute("SELECT COUNT(*) FROM events").fetchone()[0])
