"""Parts 1-3: the contest day through the real bot, the same updates through a bare echo bot,
and the durability check (the bot's day in a subprocess, SIGKILLed at a random moment)."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from common import (
    CASTRILLO,
    TOKEN,
    FakeRequest,
    command_of,
    feed,
    median,
    ms,
    percentile,
    running_bot,
    to_updates,
)
from telegram import Update
from telegram.ext import ApplicationBuilder, ContextTypes, MessageHandler, filters
from workload import Sizes, day_messages, make_teams, mix, payloads, setup_day, volunteer_people

from bot.support.i18n import LANGUAGES, catalog

HERE = Path(__file__).resolve().parent

# -- which replies acknowledge an event ------------------------------------------------------

# command -> (event kinds that must exist for the update, texts that say it was recorded)
ACKS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "pista": (("hint",), (
        "#{entry} {names}: {kind} stage {stage} at {time} ({clock}). Tickets used {used}, "
        "bought {bought}; {left} left.",)),
    "solucion": (("solution",), (
        "#{entry} {names}: {kind} stage {stage} at {time} ({clock}). Tickets used {used}, "
        "bought {bought}; {left} left.",)),
    "etapa": (("stage",), ("Entry {entry} confirmed in stage {stage} at {time}.",)),
    "escape": (("escape",), (
        "Entry {entry} solved the escape at {time}: hand over the puzzle.",
        "Entry {entry}: escape time corrected from {old} to {time}.",
        "Escape solved at {time}! Now the puzzle: when you finish it, send /listo.")),
    "fin": (("finish",), (
        "Entry {entry}: finish corrected from {old} to {time}.",
        "Entry {entry} finished at {time} (the moment they said /listo).",
        "Entry {entry} finished at {time}.",
        "Your finish is recorded: {time}. Well done!")),
    "piezas": (("pieces",), (
        "Entry {entry}: pieces corrected from {old} to {count}.",
        "Entry {entry}: {count} pieces.")),
    "listo": (("ready",), (
        "Noted: finished at {time} ({clock}). A volunteer is coming to check.",
        "FINISHED? #{entry} {names} says done at {time} ({clock}): go and check, then "
        "/fin {entry}.")),
}


@cache
def ack_patterns(command: str) -> tuple[re.Pattern[str], ...]:
    out = []
    for msgid in ACKS[command][1]:
        for lang in LANGUAGES:
            template = catalog(lang).gettext(msgid)
            parts = re.split(r"\{[a-z_]+\}", template)
            out.append(re.compile(".+?".join(re.escape(p) for p in parts), re.DOTALL))
    return tuple(out)


def is_ack(command: str, text: str) -> bool:
    if command not in ACKS:
        return False
    if command in ("pista", "solucion") and "(#" in text:  # the answer, to both phones
        return True
    return any(p.fullmatch(text) for p in ack_patterns(command))


@dataclass
class AckCheck:
    replies: int = 0
    checked: int = 0
    missing: int = 0
    examples: list[str] | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"replies_logged": self.replies, "acks_checked": self.checked,
                "acks_missing_event": self.missing, "missing_examples": self.examples or []}


def check_acks(replies: Iterable[tuple[int | None, str | None, str]], db_path: Path) -> AckCheck:
    """Every acknowledging reply (update id, command, text) has its event in the database."""
    con = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        recorded: set[tuple[int, str]] = {
            (int(u), k) for u, k in con.execute(
                "SELECT update_id, kind FROM events WHERE update_id IS NOT NULL")
        }
    finally:
        con.close()
    out = AckCheck(examples=[])
    for update_id, command, text in replies:
        out.replies += 1
        if update_id is None or command is None or not is_ack(command, text):
            continue
        out.checked += 1
        if not any((update_id, k) in recorded for k in ACKS[command][0]):
            out.missing += 1
            if len(out.examples or []) < 5:
                assert out.examples is not None
                out.examples.append(f"update {update_id} /{command}: {text[:80]!r}")
    return out


def db_counts(db_path: Path) -> dict[str, int]:
    con = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        return {k: n for k, n in con.execute(
            "SELECT kind, COUNT(*) FROM events GROUP BY kind ORDER BY 2 DESC")}
    finally:
        con.close()


# -- parts 1 and 2 -----------------------------------------------------------------------------


def handled_at_once(app: Any) -> int:
    """How many updates the bot handles at once (the processor lets more wait for their chat)."""
    processor = app.update_processor
    return int(getattr(processor, "handled_at_once", processor.max_concurrent_updates))


async def bot_day(tmp: Path, sizes: Sizes, seed: int, sequential: bool = False
                  ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The day through the bot: set up untimed, then every update of the day fed as
    Application would (or one at a time with ``sequential``)."""
    db = tmp / "day.sqlite3"
    t_setup = time.perf_counter()
    async with running_bot(db, CASTRILLO) as (app, fake):
        contest = app.bot_data["contest"]
        teams = make_teams(sizes, seed)
        volunteers = volunteer_people(sizes.volunteers)
        await setup_day(app, fake, contest, teams, volunteers, seed)
        setup_s = time.perf_counter() - t_setup
        msgs = day_messages(contest, teams, volunteers, seed)
        pls = payloads(msgs)
        updates = to_updates(app, pls)
        commands = [command_of(p) for p in pls]
        first_call = len(fake.calls)
        wall, lat = await feed(app, updates, commands, sequential=sequential)
        calls = fake.calls[first_call:]
        concurrency = handled_at_once(app)
        violations = list(fake.violations)
    acks = check_acks(((c.update[0] if c.update else None, c.update[1] if c.update else None,
                        c.text) for c in calls if c.method == "sendMessage"), db)
    by_cmd: dict[str, list[float]] = {}
    for c, dt in zip(commands, lat, strict=True):
        by_cmd.setdefault(c, []).append(dt)
    result = {
        "updates": len(updates),
        "entries": len(teams),
        "pairs": sum(1 for t in teams if t.category == "parejas"),
        "phones": sum(len(t.phones) for t in teams),
        "volunteers": len(volunteers),
        "mix": mix(msgs),
        "concurrent_updates": concurrency,
        "setup_s": round(setup_s, 2),
        "wall_s": round(wall, 3),
        "rate_ups": round(len(updates) / wall, 1),
        "p50_ms": ms(percentile(lat, 50)),
        "p99_ms": ms(percentile(lat, 99)),
        "max_ms": ms(max(lat)),
        "latency_ms_by_command": {c: {"n": len(v), "p50": ms(median(v)),
                                      "p99": ms(percentile(v, 99))}
                                  for c, v in sorted(by_cmd.items())},
        "latencies": lat,
        "bot_api_calls": len(calls),
        "spec_violations": violations[:5],
        "events_by_kind": db_counts(db),
        "acks_in_process": acks.as_dict(),
    }
    return result, pls


async def echo_day(pls: list[dict[str, Any]]) -> dict[str, Any]:
    """A bare python-telegram-bot Application with one echo handler, fed the same updates."""
    fake = FakeRequest(keep=False)
    app = ApplicationBuilder().token(TOKEN).request(fake).get_updates_request(fake).build()

    async def echo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.message is not None and update.message.text is not None
        await update.message.reply_text(update.message.text)

    app.add_handler(MessageHandler(filters.ALL, echo))
    await app.initialize()
    try:
        updates = to_updates(app, pls)
        wall, lat = await feed(app, updates, [command_of(p) for p in pls])
    finally:
        await app.shutdown()
    return {
        "updates": len(updates),
        "concurrent_updates": handled_at_once(app),
        "wall_s": round(wall, 3),
        "rate_ups": round(len(updates) / wall, 1),
        "p50_ms": ms(percentile(lat, 50)),
        "p99_ms": ms(percentile(lat, 99)),
        "bot_api_calls": fake.count,
        "spec_violations": fake.violations[:5],
        "latencies": lat,
    }


# -- part 3: durability ------------------------------------------------------------------------


def durability(tmp: Path, sizes: Sizes, seed: int, expected_s: float,
               rng: random.Random) -> dict[str, Any]:
    """Run the bot's day in a subprocess that logs every message it sends (flushed), SIGKILL it
    at a random moment of the day, then look for each acknowledged event in the SQLite file."""
    work = tmp / "durability"
    work.mkdir()
    log = work / "replies.jsonl"
    db = work / "day.sqlite3"
    cmd = [sys.executable, str(HERE / "durability_worker.py"), "--db", str(db), "--log", str(log),
           "--entries", str(sizes.entries), "--pairs", str(sizes.pairs),
           "--volunteers", str(sizes.volunteers), "--seed", str(seed)]
    err = open(work / "worker.stderr", "w")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
    try:
        deadline = time.monotonic() + 600
        while not (log.exists() and log.read_text(encoding="utf-8").startswith('{"mark": "ready"')):
            if proc.poll() is not None:
                raise RuntimeError(f"durability worker exited early ({proc.returncode}): "
                                   + (work / "worker.stderr").read_text()[-2000:])
            if time.monotonic() > deadline:
                raise RuntimeError("durability worker did not get ready in 600 s")
            time.sleep(0.02)
        delay = rng.uniform(0.15, 0.85) * max(expected_s, 0.2)
        time.sleep(delay)
        killed = proc.poll() is None
        if killed:
            os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
        err.close()
    replies: list[tuple[int | None, str | None, str]] = []
    done = False
    lines = log.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        try:
            rec = json.loads(line)
        except ValueError:
            if i == len(lines) - 1:
                continue  # the line being written when the process was killed
            raise
        if "mark" in rec:
            done = done or rec["mark"] == "done"
            continue
        replies.append((rec["u"], rec["cmd"], rec["text"]))
    con = sqlite3.connect(str(db))  # read-write: recovers the WAL as the bot would on restart
    try:
        integrity = con.execute("PRAGMA quick_check").fetchone()[0]
        events = con.execute("SELECT COUNT(*) FROM events").fetchone()[0]
        day_events = con.execute("SELECT COUNT(*) FROM events WHERE update_id >= 1000000"
                                 ).fetchone()[0]
    finally:
        con.close()
    acks = check_acks(replies, db)
    return {
        "killed_after_s": round(delay, 3),
        "killed_mid_day": killed and not done,
        "exit_code": proc.returncode,
        "integrity": integrity,
        "events_in_db": events,
        "day_events_in_db": day_events,
        **acks.as_dict(),
    }
