"""Shared pieces of the contest-day benchmark: a recording fake Bot API request object, people
and update payloads, contest files, the contest-day setup, and the feeder that pushes updates
through ``Application.process_update`` the way ``Application`` itself does.

Nothing here edits bot/: the bot is built with ``bot.chat.app.build_application`` and fed real
``telegram.Update`` objects.
"""

from __future__ import annotations

import asyncio
import contextvars
import io
import json
import logging
import re
import statistics
import time
import warnings
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, TextIO

from telegram import Update
from telegram.warnings import PTBUserWarning

from bot.chat.app import build_application
from bot.domain.contest import Contest
from bot.rehearsal.fakeapi import Call, LocalBotAPI
from bot.services.contest_file import load_contest
from bot.services.csvio import import_entries, read_entries
from bot.support.config import Config

ROOT = Path(__file__).resolve().parent.parent
CASTRILLO = ROOT / "contests" / "castrillo-2023.toml"
TOKEN = "123456:BENCH-token-abcdefghijklmnopqrstuvwxyz"
ORGANISER_ID = 1
BOT_USER = {"id": 999, "is_bot": True, "first_name": "Puzzle", "username": "puzzle_bench_bot",
            "can_join_groups": True, "can_read_all_group_messages": False,
            "supports_inline_queries": False}

# The update being processed (update_id, command) in this task: tasks the handlers create
# (staff lines) copy it, so every call the bot makes can be traced back to its update.
# (chat, message id) -> (update id, command) of every update fed: an answer sent later from the
# outbox quotes the message it answers
ANSWERING: dict[tuple[Any, Any], tuple[int, str]] = {}
CURRENT: contextvars.ContextVar[tuple[int, str] | None] = contextvars.ContextVar(
    "bench_update", default=None)

warnings.filterwarnings("ignore", category=PTBUserWarning)


# -- errors seen in logs ---------------------------------------------------------------------


class ErrorLog(logging.Handler):
    """Counts ERROR records (a handler raising ends up in bot.chat.app.on_error's log.error)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            text += f": {record.exc_info[1]!r}"
        self.records.append(f"{record.name}: {text}")


ERRORS = ErrorLog()


def setup_logging() -> None:
    root = logging.getLogger()
    root.setLevel(logging.WARNING)
    if ERRORS not in root.handlers:
        root.addHandler(ERRORS)
    # the bot warns when a person can't be reached etc.; keep the table readable
    logging.getLogger("telegram").setLevel(logging.ERROR)
    logging.getLogger("apscheduler").setLevel(logging.ERROR)


# -- the fake Bot API ------------------------------------------------------------------------


class FakeRequest(LocalBotAPI):
    """Answers every Bot API call locally (checked against the bundled Bot API spec) and
    records it with the update being handled (``CURRENT``); with ``log``, also writes each sent
    message as one JSON line, flushed at once (the durability worker's record of what people
    were told)."""

    def __init__(self, log: TextIO | None = None, keep: bool = True) -> None:
        super().__init__(BOT_USER, keep)
        self.log = log

    def tag(self, params: dict[str, Any]) -> tuple[int, str] | None:
        """The update being handled; for a message sent later from the outbox, the update
        whose message it quotes (its answer)."""
        current = CURRENT.get()
        if current is not None:
            return current
        quoted = params.get("reply_parameters")
        if isinstance(quoted, str):
            message = json.loads(quoted).get("message_id")
            return ANSWERING.get((params.get("chat_id"), message))
        return None

    def made(self, call: Call) -> None:
        if self.log is not None and call.method == "sendMessage":
            tag = call.update
            self.log.write(json.dumps({
                "u": tag[0] if tag else None, "cmd": tag[1] if tag else None,
                "chat": call.chat_id, "text": call.text,
            }, ensure_ascii=False) + "\n")
            self.log.flush()


# -- people and updates ----------------------------------------------------------------------


@dataclass(frozen=True)
class Person:
    id: int
    name: str
    lang: str = "es"

    def user(self) -> dict[str, Any]:
        return {"id": self.id, "is_bot": False, "first_name": self.name,
                "language_code": self.lang}


class Updates:
    """Builds Bot API update payloads with increasing update and message ids."""

    def __init__(self, first_update: int = 1) -> None:
        self.update_id = first_update - 1
        self.message_id = 0

    def message(self, who: Person, text: str, at: datetime) -> dict[str, Any]:
        self.update_id += 1
        self.message_id += 1
        message: dict[str, Any] = {
            "message_id": self.message_id, "date": int(at.timestamp()),
            "chat": {"id": who.id, "type": "private"}, "from": who.user(), "text": text,
        }
        if text.startswith("/"):
            message["entities"] = [{"type": "bot_command", "offset": 0,
                                    "length": len(text.split()[0])}]
        return {"update_id": self.update_id, "message": message}


def command_of(payload: dict[str, Any]) -> str:
    text = payload.get("message", {}).get("text", "")
    return text.split()[0].lstrip("/").split("@")[0] if text.startswith("/") else ""


# -- contest files ---------------------------------------------------------------------------


def big_contest_file(dest: Path, adultos: int = 20_000, parejas: int = 2_000) -> Path:
    """Castrillo with room for big categories (adultos, parejas capacities raised)."""
    text = CASTRILLO.read_text(encoding="utf-8")
    out, cat = [], None
    for line in text.splitlines():
        m = re.match(r'^id = "([a-z-]+)"', line)
        if m:
            cat = m.group(1)
        if line.startswith("capacity = ") and cat in ("adultos", "parejas"):
            line = f"capacity = {adultos if cat == 'adultos' else parejas}"
        out.append(line)
    dest.write_text("\n".join(out) + "\n", encoding="utf-8")
    contest = load_contest(dest)
    for cid, cap in (("adultos", adultos), ("parejas", parejas)):
        c = contest.category(cid)
        assert c is not None and c.capacity == cap, f"{dest}: {cid} capacity not raised"
    return dest


def contest_start(contest: Contest) -> datetime:
    if contest.start is not None:
        return contest.start
    from zoneinfo import ZoneInfo

    return datetime(contest.date.year, contest.date.month, contest.date.day, 10,
                    tzinfo=ZoneInfo(contest.timezone))


# -- entries ---------------------------------------------------------------------------------

BORN = {"infantil-a": (2017, 2019), "infantil-b": (2014, 2016), "infantil-c": (2011, 2013),
        "adultos": (1950, 2005)}


@dataclass
class Team:
    number: int
    category: str
    names: list[str]
    join_code: str
    phones: list[Person] = field(default_factory=list)


def entries_csv(teams: Sequence[Team], rng: Any) -> str:
    buf = io.StringIO()
    buf.write("number,category,names,born,aepuzz_member,resident,join_code\n")
    for t in teams:
        if t.category == "parejas":
            born = f"{rng.randint(1955, 2000)}; {rng.randint(1955, 2012)}"
            aepuzz = "; ".join(rng.choice(["yes", "no", "no"]) for _ in t.names)
            resident = "; ".join(rng.choice(["yes", "no", "no", "no"]) for _ in t.names)
        else:
            lo, hi = BORN[t.category]
            born = str(rng.randint(lo, hi))
            aepuzz = rng.choice(["yes", "no", "no"])
            resident = rng.choice(["yes", "no", "no", "no"])
        buf.write(f"{t.number},{t.category},{'; '.join(t.names)},{born},{aepuzz},{resident},"
                  f"{t.join_code}\n")
    return buf.getvalue()


async def import_teams(app: Any, teams: Sequence[Team], rng: Any) -> None:
    svc = app.bot_data["services"]
    rows = read_entries(svc.contest, io.StringIO(entries_csv(teams, rng)), "bench.csv")
    await import_entries(svc.store, rows)


# -- the application -------------------------------------------------------------------------


def bot_config(db_path: Path, contest_file: Path, base_url: str | None = None,
               token: str = TOKEN) -> Config:
    return Config(token=token, contest_file=str(contest_file), db_path=str(db_path),
                  base_url=base_url, organisers=frozenset({ORGANISER_ID}))


async def start_bot(db_path: Path, contest_file: Path, request: FakeRequest | None = None
                    ) -> tuple[Any, FakeRequest]:
    """The real Application (build_application), started without network as the tests' Harness
    does: initialize + post_init; the JobQueue is not started (timers are not run)."""
    req = request or FakeRequest()
    app = build_application(bot_config(db_path, contest_file), load_contest(contest_file),
                            request=req, updates_request=req, rate_limiter=False)
    await app.initialize()
    await app.post_init(app)
    return app, req


@asynccontextmanager
async def running_bot(db_path: Path, contest_file: Path, request: FakeRequest | None = None
                      ) -> AsyncIterator[tuple[Any, FakeRequest]]:
    """start_bot ... stop_bot, also when the body raises (an unclosed store's thread would
    keep the interpreter from exiting)."""
    app, fake = await start_bot(db_path, contest_file, request)
    try:
        yield app, fake
    finally:
        await stop_bot(app)


async def stop_bot(app: Any) -> None:
    try:
        await drain_background(app)
    finally:
        await app.shutdown()
        if app.post_shutdown is not None:
            await app.post_shutdown(app)
        handle = app.bot_data.get("store_handle")
        if "services" not in app.bot_data and handle is not None and handle.store is not None:
            await handle.store.close()  # opened by the persistence, without post_init


async def drain_background(app: Any) -> None:
    """Wait until the outbox has sent everything the day owed (and marked it sent)."""
    sender = app.bot_data.get("sender")
    if sender is not None:
        await sender.settled()


def to_updates(app: Any, payloads: Iterable[dict[str, Any]]) -> list[Update]:
    return [Update.de_json(p, app.bot) for p in payloads]


async def process(app: Any, payload: dict[str, Any]) -> float:
    """One update through process_update, sequentially (setup and single measurements);
    returns its latency in seconds. Background staff lines are awaited after the timing."""
    update = Update.de_json(payload, app.bot)
    token = CURRENT.set((update.update_id, command_of(payload)))
    try:
        t0 = time.perf_counter()
        await app.process_update(update)
        dt = time.perf_counter() - t0
    finally:
        CURRENT.reset(token)
    await drain_background(app)
    return dt


async def feed(app: Any, updates: Sequence[Update], commands: Sequence[str] | None = None,
               sequential: bool = False) -> tuple[float, list[float]]:
    """Feed updates the way Application's update fetcher does: through
    ``app.update_processor.process_update(update, app.process_update(update))``, as concurrent
    tasks when ``max_concurrent_updates > 1`` (the processor's semaphore bounds them), one after
    the other otherwise (or with ``sequential``: service times, no queueing). Returns (wall
    seconds including background tasks, each update's latency from the start of its
    process_update to its end, in the order given)."""
    processor = app.update_processor
    latencies: list[float] = [0.0] * len(updates)

    async def one(i: int, update: Update, command: str) -> None:
        msg = update.effective_message
        if msg is not None:
            ANSWERING[(msg.chat_id, msg.message_id)] = (update.update_id, command)
        token = CURRENT.set((update.update_id, command))
        try:
            t0 = time.perf_counter()
            await app.process_update(update)
            latencies[i] = time.perf_counter() - t0
        finally:
            CURRENT.reset(token)

    cmds = list(commands) if commands is not None else [""] * len(updates)
    t0 = time.perf_counter()
    if processor.max_concurrent_updates > 1 and not sequential:
        tasks = [asyncio.create_task(processor.process_update(u, one(i, u, c)))
                 for i, (u, c) in enumerate(zip(updates, cmds, strict=True))]
        await asyncio.gather(*tasks)
    else:
        for i, (u, c) in enumerate(zip(updates, cmds, strict=True)):
            await processor.process_update(u, one(i, u, c))
    await drain_background(app)
    return time.perf_counter() - t0, latencies


# -- statistics ------------------------------------------------------------------------------


def percentile(values: Sequence[float], p: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    k = (len(s) - 1) * p / 100
    lo = int(k)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else float("nan")


def ms(seconds: float) -> float:
    return round(seconds * 1000, 3)


def filesystem_of(path: Path) -> str:
    """The file system type holding ``path`` (fsync costs differ: ext4 vs tmpfs)."""
    best, kind = "", "unknown"
    try:
        with open("/proc/mounts", encoding="utf-8") as fh:
            for line in fh:
                parts = line.split()
                if len(parts) >= 3 and str(path).startswith(parts[1]) and len(parts[1]) > len(best):
                    best, kind = parts[1], parts[2]
    except OSError:
        pass
    return kind
