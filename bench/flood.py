"""Part 5: a flood of valid commands (issue 24). The real ``python -m bot run`` (Telegram's limits
on: AIORateLimiter and the outbox's pacing) against our fake Bot API server over loopback, six
linked phones each sending ``/billetes`` ten times a second (60 a second, twice what Telegram
lets a bot send); meanwhile new pairs ask for a hint, one at a time: how long until the hint's
answer, the partner's copy and the volunteers' line (a volunteers' group) reach the server."""

from __future__ import annotations

import asyncio
import sqlite3
import statistics
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from common import CASTRILLO, ROOT

from bot.rehearsal.botprocess import BotProcess, import_entries
from bot.rehearsal.fakeapi import Call, FakeBotAPI

ORGANISER = 1
GROUP = -100  # the volunteers' group
NEVER = 60.0  # seconds waited for a newcomer's messages after the flood, then "not arrived"


@dataclass(frozen=True)
class Phone:
    id: int
    name: str

    def user(self) -> dict[str, Any]:
        return FakeBotAPI.user(self.id, self.name, "en")


async def _import(db: Path, work: Path, pairs: int) -> dict[int, str]:
    csv = work / "pairs.csv"
    csv.write_text("number,category,names,born\n" + "".join(
        f"{n},parejas,Ana {n}; Bea {n},1980; 1981\n" for n in range(1, pairs + 1)))
    await import_entries(db, CASTRILLO, csv, cwd=ROOT, force=True)
    with sqlite3.connect(db) as conn:
        return dict(conn.execute("SELECT number, join_code FROM entries"))


def _first(calls: list[Call], chat: int, what: str, replies_to: int | None = None
           ) -> float | None:
    for c in calls:
        if c.method == "sendMessage" and c.chat_id == chat and what in c.text and (
                replies_to is None or c.replies_to == replies_to):
            return c.at.timestamp()
    return None


async def flood(tmp: Path, seconds: float, newcomers: int, flooders: int = 6,
                per_second: int = 10) -> dict[str, Any]:
    work = tmp / "flood"
    work.mkdir()
    db = work / "flood.sqlite3"
    codes = await _import(db, work, flooders + newcomers)
    api = FakeBotAPI()
    await api.start()
    bot = BotProcess(api, db, CASTRILLO, organisers=str(ORGANISER), volunteer_chat=GROUP,
                     cwd=ROOT)
    try:
        await bot.start()
        now = datetime.now(UTC).replace(microsecond=0)
        phones = [Phone(100 + n, f"F{n}") for n in range(1, flooders + 1)]
        pairs = [(flooders + 1 + i, Phone(300 + i, f"A{i}"), Phone(400 + i, f"P{i}"))
                 for i in range(newcomers)]
        for n, phone in enumerate(phones, 1):
            await api.reply_to(phone.user(), f"/start {codes[n]}", now, timeout=15)
        for number, asker, partner in pairs:
            for phone in (asker, partner):
                await api.reply_to(phone.user(), f"/start {codes[number]}", now, timeout=15)
        await api.reply_to(FakeBotAPI.user(ORGANISER, "Olga", "en"), "/inicio",
                           now - timedelta(minutes=30), timeout=15)
        await api.settle(quiet=1.0, timeout=15)

        loop = asyncio.get_running_loop()
        mark = len(api.calls)
        asks_at = [seconds * (i + 1) / (newcomers + 1) for i in range(newcomers)]
        asked: list[tuple[int, Phone, Phone, int, float]] = []
        start = loop.time()
        flood_start = time.time()
        tick = sent = 0
        while (elapsed := loop.time() - start) < seconds:
            for phone in phones:
                api.send_message(phone.user(), "/billetes", datetime.now(UTC))
                sent += 1
            if len(asked) < newcomers and elapsed >= asks_at[len(asked)]:
                number, asker, partner = pairs[len(asked)]
                api.send_message(asker.user(), "/pista 1", datetime.now(UTC))
                asked.append((number, asker, partner, api.last_message, time.time()))
            tick += 1
            await asyncio.sleep(max(0.0, start + tick / per_second - loop.time()))
        flood_s = time.time() - flood_start

        def delays() -> list[tuple[float | None, float | None, float | None]]:
            calls = api.calls[mark:]
            out = []
            for number, asker, partner, message, at in asked:
                got = (_first(calls, asker.id, "Tickets left", message),
                       _first(calls, partner.id, "Tickets left"),
                       _first(calls, GROUP, f"#{number} "))
                out.append(tuple(None if t is None else t - at for t in got))
            return out  # type: ignore[return-value]

        await api.wait_until(lambda: all(None not in d for d in delays()), NEVER)
        found = delays()
        await api.wait_until(lambda: api.confirmed_update() >= api._next_update - 1, NEVER)
        to_flooders = [c for c in api.calls[mark:] if c.method == "sendMessage"
                       and c.chat_id in {p.id for p in phones}
                       and c.at.timestamp() <= flood_start + flood_s]
        violations = list(api.violations)
    finally:
        await bot.stop()
        await api.stop()

    def column(i: int) -> list[float]:
        return [NEVER if d[i] is None else d[i] for d in found]  # type: ignore[misc]

    answer, copy, line = column(0), column(1), column(2)

    def figure(values: list[float]) -> dict[str, Any]:
        return {"median_s": round(statistics.median(values), 3),
                "max_s": round(max(values), 3),
                "missing": sum(1 for v in values if v >= NEVER)}

    return {
        "flooders": flooders, "per_second_each": per_second, "seconds": round(flood_s, 1),
        "flood_messages": sent, "newcomers": newcomers,
        "answer": figure(answer), "partner_copy": figure(copy),
        "volunteers_line": figure(line),
        "answers_to_flooders_per_second": round(len(to_flooders) / flood_s / flooders, 2),
        "spec_violations": violations[:5],
        "log_errors": bot.log.count(b"Traceback"),
    }
