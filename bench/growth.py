"""Part 4: how costs grow. (a) one /pista with an empty history vs a big one, (b) the ranking of
a 10,000-entry category, (c) start-up with many pending cooldown notices, (d) a broadcast through
AIORateLimiter to our fake Bot API server on loopback."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import sqlite3
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from common import (
    ORGANISER_ID,
    FakeRequest,
    Updates,
    big_contest_file,
    bot_config,
    contest_start,
    import_teams,
    median,
    ms,
    process,
    running_bot,
    stop_bot,
)
from workload import ORGANISER, Sizes, make_teams

from bot.chat.app import build_application
from bot.features.escape.operations import request
from bot.features.escape.rules import Kind
from bot.rehearsal.fakeapi import Failure, FakeBotAPI
from bot.services.clocks import start_clock
from bot.services.contest_file import load_contest
from bot.storage.store import PRIORITY_ANSWER, PRIORITY_BULK, PRIORITY_COPY

CHUNK = 100_000  # rows per executemany transaction

# kinds of the bulk history, with weights (a contest day's shape: mostly requests and results)
BULK_KINDS = [("hint", 25), ("solution", 8), ("request_refused", 6), ("stage", 8),
              ("escape", 4), ("ready", 6), ("finish", 10), ("pieces", 3), ("link", 8)]


def _bulk_rows(n: int, entries: list[tuple[int, str]], start: datetime, first_id: int,
               seed: int) -> Iterator[tuple[Any, ...]]:
    """``n`` event rows for ``entries`` (number, category); every refused request comes with its
    sent notice, as after a finished day. Corrections: 1 finish in 200 supersedes the previous
    one of its entry."""
    rng = random.Random(seed)
    kinds = [k for k, w in BULK_KINDS for _ in range(w)]
    t0 = int(start.timestamp())
    now = int(time.time())
    last_finish: dict[int, int] = {}
    i = 0
    update_id = 50_000_000
    while i < n:
        number, category = rng.choice(entries)
        kind = rng.choice(kinds)
        at = t0 + rng.randint(0, 3 * 3600)
        eid = first_id + i
        actor = 200_000 + number * 2 + rng.randint(0, 1)
        role, stage, value, ref, data, supersedes = "participant", None, None, None, None, None
        update_id += 1
        if kind in ("hint", "solution"):
            stage = rng.randint(1, 5)
            data = json.dumps({"tickets_used": 1 if kind == "hint" else 2, "tickets_bought": 0})
        elif kind == "request_refused":
            stage = rng.randint(1, 5)
            value = rng.randint(300, 5400)
            ref = f"cooldown:{number}:{value}:{eid}"
            data = json.dumps({"request": "hint", "reason": "cooldown"})
        elif kind == "stage":
            role, actor, stage = "volunteer", 1_000 + rng.randint(0, 19), rng.randint(2, 5)
        elif kind == "escape":
            role, actor, value = "volunteer", 1_000 + rng.randint(0, 19), rng.randint(1500, 5400)
        elif kind == "ready":
            value = rng.randint(3000, 9000)
        elif kind == "finish":
            role, actor, value = "volunteer", 1_000 + rng.randint(0, 19), rng.randint(3000, 9000)
            if number in last_finish and rng.random() < 0.005:
                supersedes = last_finish[number]
            last_finish[number] = eid
        elif kind == "pieces":
            role, actor, value = "volunteer", 1_000 + rng.randint(0, 19), rng.randint(100, 499)
        elif kind == "link":
            ref = f"ebulk{number}"
        yield (eid, at, now, actor, role, kind, number, category, stage, value, ref, data,
               supersedes, update_id)
        i += 1
        if kind == "request_refused" and i < n:
            yield (first_id + i, at + 300, now, None, "system", "notice", number, None, None,
                   None, ref, None, None, None)
            i += 1


def bulk_insert(db: Path, n: int, entries: list[tuple[int, str]], start: datetime,
                seed: int) -> float:
    """Append ``n`` events with executemany, CHUNK rows per transaction; returns seconds."""
    t0 = time.perf_counter()
    con = sqlite3.connect(str(db), isolation_level=None)
    try:
        con.execute("PRAGMA foreign_keys=ON")
        first = (con.execute("SELECT COALESCE(MAX(id), 0) FROM events").fetchone()[0]) + 1
        rows = _bulk_rows(n, entries, start, first, seed)
        sql = ("INSERT INTO events (id, at, recorded_at, actor, role, kind, entry, category, "
               "stage, value, ref, data, supersedes, update_id) "
               "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)")
        while True:
            chunk = [r for _, r in zip(range(CHUNK), rows, strict=False)]
            if not chunk:
                break
            con.execute("BEGIN")
            con.executemany(sql, chunk)
            con.execute("COMMIT")
    finally:
        con.close()
    return time.perf_counter() - t0


def _event_count(db: Path) -> int:
    con = sqlite3.connect(str(db))
    try:
        return int(con.execute("SELECT COUNT(*) FROM events").fetchone()[0])
    finally:
        con.close()


# -- (a) /pista with an empty history vs a big one ---------------------------------------------


def _big_contest(tmp: Path, part: str) -> tuple[Path, Path, Path, Any, datetime]:
    """A part's folder with the big contest file, its database path, the contest, its start."""
    work = tmp / part
    work.mkdir()
    cfile = big_contest_file(work / "contest.toml")
    contest = load_contest(cfile)
    return work, cfile, work / f"{part}.sqlite3", contest, contest_start(contest)


async def pista_growth(tmp: Path, samples: int, bulk: int, others: int, seed: int,
                       budget_s: float) -> dict[str, Any]:
    work, cfile, db, contest, t0 = _big_contest(tmp, "pista")
    pairs = make_teams(Sizes(2 * samples, 2 * samples, 0), seed, pairs_only=True)
    rest = make_teams(Sizes(others, others // 2, 0), seed + 7, first_number=len(pairs) + 1,
                      first_phone=300_000)
    ups = Updates()

    async def one(app: Any, fake: FakeRequest, team: Any, i: int) -> tuple[float, bool]:
        n = len(fake.calls)
        dt = await process(app, ups.message(team.phones[0], "/pista 1",
                                            t0 + timedelta(seconds=600 + i)))
        ok = any("(#" in c.text for c in fake.calls[n:] if c.method == "sendMessage")
        return dt, ok

    async with running_bot(db, cfile) as (app, fake):
        await import_teams(app, pairs + rest, random.Random(seed))
        await process(app, ups.message(ORGANISER, "/start", t0 - timedelta(hours=1)))
        for t in pairs:
            for p in t.phones:
                await process(app, ups.message(p, f"/start {t.join_code}",
                                               t0 - timedelta(hours=1)))
        await process(app, ups.message(ORGANISER, "/inicio", t0))
    # the same morning in two files: one stays as it is, the other gets the big history
    empty = work / "empty.sqlite3"
    with sqlite3.connect(db) as src, sqlite3.connect(empty) as dst:
        src.backup(dst)
    events_before = _event_count(empty)
    insert_s = bulk_insert(db, bulk, [(t.number, t.category) for t in rest], t0, seed)
    events_after = _event_count(db)
    os.sync()  # the bulk's dirty pages written back now, not during the measurement
    # after the history's own updates (50,000,001 on), as Telegram numbers them: increasing.
    # Below them, every /pista would also pay the redelivery check's read of the file (an
    # update id the file might already hold), which the empty twin never does.
    ups.update_id = 60_000_000
    before: list[float] = []
    after: list[float] = []
    bad_before = bad_after = 0
    t_restart = time.perf_counter()
    async with running_bot(db, cfile) as (big_app, big_fake):
        restart_s = time.perf_counter() - t_restart
        async with running_bot(empty, cfile) as (empty_app, empty_fake):
            # alternately, so both sides see the same disk (fsync times drift over a run)
            started = time.perf_counter()
            for i in range(samples):
                dt, ok = await one(empty_app, empty_fake, pairs[i], i)
                before.append(dt)
                bad_before += not ok
                dt, ok = await one(big_app, big_fake, pairs[samples + i], i)
                after.append(dt)
                bad_after += not ok
                if i >= 4 and time.perf_counter() - started > budget_s:
                    break
    if bad_before or bad_after:
        raise RuntimeError(f"/pista not accepted: {bad_before} before, {bad_after} after the "
                           "bulk history")
    m0, m1 = median(before), median(after)
    return {
        "samples_empty": len(before), "samples_big": len(after),
        "events_empty": events_before, "events_big": events_after,
        "bulk_inserted": bulk, "bulk_insert_s": round(insert_s, 1),
        "restart_with_big_history_s": round(restart_s, 2),
        "median_ms_empty": ms(m0), "median_ms_big": ms(m1),
        "ratio": round(m1 / m0, 2) if m0 > 0 else None,
    }


# -- (b) the ranking of a 10,000-entry category ------------------------------------------------


async def ranking_growth(tmp: Path, entries: int, repeats: int, seed: int) -> dict[str, Any]:
    work, cfile, db, contest, t0 = _big_contest(tmp, "ranking")
    teams = make_teams(Sizes(entries, 0, 0), seed, category="adultos")
    ups = Updates()
    async with running_bot(db, cfile) as (app, fake):
        t_import = time.perf_counter()
        await import_teams(app, teams, random.Random(seed))
        import_s = time.perf_counter() - t_import
        await process(app, ups.message(ORGANISER, "/start", t0 - timedelta(hours=1)))
        await process(app, ups.message(ORGANISER, "/inicio adultos", t0))
    # results straight into the events table: most finished, some counted pieces
    rng = random.Random(seed)
    cat = contest.category("adultos")
    assert cat is not None
    rows, finished, pieces = [], 0, 0
    pieces_of: dict[int, int] = {}
    finishers: set[int] = set()
    now = int(time.time())
    for i, t in enumerate(teams):
        r = rng.random()
        at = int((t0 + timedelta(seconds=cat.time_limit + 60)).timestamp())
        if r < 0.85:
            finishers.add(t.number)
            rows.append((at, now, 1_000, "volunteer", "finish", t.number, None, None,
                         rng.randint(int(cat.time_limit * 0.4), cat.time_limit), None, None,
                         None, 20_000_000 + i))
            finished += 1
        elif r < 0.97:
            pieces_of[t.number] = rng.randint(50, cat.pieces - 100)
            rows.append((at, now, 1_000, "volunteer", "pieces", t.number, None, None,
                         pieces_of[t.number], None, None, None, 20_000_000 + i))
            pieces += 1
    con = sqlite3.connect(str(db), isolation_level=None)
    try:
        con.execute("BEGIN")
        con.executemany("INSERT INTO events (at, recorded_at, actor, role, kind, entry, "
                        "category, stage, value, ref, data, supersedes, update_id) "
                        "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", rows)
        con.execute("COMMIT")
    finally:
        con.close()
    ups.update_id = 30_000_000
    lat: list[float] = []
    lines, texts = 0, []
    # entries with no result yet: a first count is a new event (a corrected count supersedes
    # one, and a correction makes every cached state be worked out again)
    uncounted = [t.number for t in teams if t.number not in pieces_of
                 and t.number not in finishers]
    async with running_bot(db, cfile) as (app, fake):
        for i in range(repeats):
            at = t0 + timedelta(seconds=cat.time_limit + 900 + 2 * i)
            if i:  # a new count since the last ranking: a real one, not the same one again
                number = uncounted[i % len(uncounted)]
                n = len(fake.calls)
                count = 100 + i
                await process(app, ups.message(ORGANISER, f"/piezas {number} {count}", at))
                if not any(f" {count}" in c.text for c in fake.calls[n:]):
                    raise RuntimeError(f"/piezas {number} not recorded before ranking {i}")
            n = len(fake.calls)
            dt = await process(app, ups.message(
                ORGANISER, "/clasificacion adultos", at + timedelta(seconds=1)))
            lat.append(dt)
            texts = [c.text for c in fake.calls[n:] if c.method == "sendMessage"]
            lines = sum(len(x.splitlines()) for x in texts)
    if lines < finished + pieces:
        raise RuntimeError(f"ranking of {entries} entries shows {lines} lines, expected at least "
                           f"{finished + pieces}")
    return {
        "entries": entries, "finished": finished, "pieces_only": pieces,
        "import_s": round(import_s, 2), "repeats": repeats,
        "between_rankings": "a first piece count for one more entry (/piezas)",
        "first_ms": ms(lat[0]), "median_ms": ms(median(lat)),
        "messages_per_ranking": len(texts), "lines_per_ranking": lines,
    }


# -- (c) start-up with pending cooldown notices --------------------------------------------------


async def timers_growth(tmp: Path, pairs: int, repeats: int, seed: int) -> dict[str, Any]:
    work = tmp / "timers"
    work.mkdir()
    cfile = big_contest_file(work / "contest.toml")
    db = work / "timers.sqlite3"
    teams = make_teams(Sizes(pairs, pairs, 0), seed, pairs_only=True)
    async with running_bot(db, cfile) as (app, _):
        await import_teams(app, teams, random.Random(seed))
        day = app.bot_data["services"].day
        # message dates near real now, so the notices are due in the future
        t_setup = time.perf_counter()
        out = await start_clock(day, ORGANISER_ID, "parejas",
                                datetime.now(UTC) - timedelta(minutes=10), None)
        assert out.ok, out

        async def one(t: Any) -> None:
            user = t.phones[0].id
            now = datetime.now(UTC)
            a = await request(day, user, t.number, Kind.HINT, 1, now - timedelta(seconds=60),
                              None)
            if not a.ok:
                raise RuntimeError(f"hint for #{t.number} refused: {a.reason}")
            b = await request(day, user, t.number, Kind.HINT, 2, now - timedelta(seconds=30),
                              None)
            if b.ok or b.reason != "cooldown":
                raise RuntimeError(f"second request of #{t.number}: {b.reason}, "
                                   "expected cooldown")

        for i in range(0, len(teams), 50):  # 50 pairs at a time, as a busy hall would
            await asyncio.gather(*(one(t) for t in teams[i:i + 50]))
        setup_s = time.perf_counter() - t_setup
    contest = load_contest(cfile)
    times, counts, future = [], [], []
    for _ in range(repeats):
        app = build_application(bot_config(db, cfile), contest, rate_limiter=False,
                                request=FakeRequest(keep=False),
                                updates_request=FakeRequest(keep=False))
        try:
            t0 = time.perf_counter()
            await app.initialize()
            await app.post_init(app)
            jobs = app.job_queue.jobs(r"^cooldown:")
            times.append(time.perf_counter() - t0)
        finally:
            await stop_bot(app)
        counts.append(len(jobs))
        now = datetime.now(UTC)
        future.append(sum(1 for j in jobs if (_due(j) or now) > now))
    if min(counts) < pairs:
        raise RuntimeError(f"only {min(counts)} of {pairs} cooldown notices were scheduled")
    return {
        "pairs": pairs, "setup_s": round(setup_s, 1), "repeats": repeats,
        "jobs_scheduled": counts[-1], "jobs_due_in_future": future[-1],
        "startup_ms": [ms(t) for t in times], "median_ms": ms(median(times)),
    }


# -- (d) a broadcast through the outbox ------------------------------------------------------------


def _due(job: Any) -> datetime | None:
    """When a job will run (the JobQueue is not started: APScheduler keeps it pending, with
    its DateTrigger's run date)."""
    trigger = getattr(job.job, "trigger", None)
    return getattr(trigger, "run_date", None)


class _NotJSON(logging.Filter):
    """The outage's 502 pages are expected: not counted as errors of the bot."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (isinstance(record.msg, str)
                    and record.msg.startswith("Can not load invalid JSON"))


NOT_JSON = _NotJSON()


class CountingAPI(FakeBotAPI):
    """FakeBotAPI counting the 429 answers it gives (it gives none unless told to)."""

    answered_429 = 0

    async def _fail(self, request: Any, f: Failure) -> Any:
        if f.kind == "429":
            self.answered_429 += 1
        return await super()._fail(request, f)


async def broadcast(tmp: Path, people: int, outage_s: float = 3.0) -> dict[str, Any]:
    """The bot's Application (build_application, production rate limiter, so the outbox's
    sender keeps to Telegram's limits) pointed at our fake Bot API server over loopback:

    - an announcement to ``people`` phones, posted to the outbox in one transaction as
      ``/anuncio`` does: the rate it goes out at;
    - one second into it, a hint's answer (priority 0) is posted: how long until it reaches
      the server (the target: 0.3 s, whatever the announcement still holds);
    - then an outage of ``outage_s`` seconds: every sendMessage answers 502 while ``people``
      messages are posted (to as many chats); when it ends, how long until all are delivered,
      against the flood-limit minimum of people/30 s (measured from the first send that goes
      through), and the wait before that first one (``recovery_wait_s``: how soon the sender
      noticed that Telegram was back; issue 24's target: within 2 s, whatever the outage's
      length)."""
    work = tmp / "broadcast"
    work.mkdir()
    api = CountingAPI()
    await api.start()
    try:
        cfile = work / "contest.toml"
        big_contest_file(cfile)
        config = bot_config(work / "broadcast.sqlite3", cfile, base_url=api.base_url,
                            token=api.token)
        app = build_application(config, load_contest(cfile), rate_limiter=True)
        try:
            await app.initialize()
            await app.post_init(app)
            limiter = type(app.bot.rate_limiter).__name__ if app.bot.rate_limiter else None
            store = app.bot_data["services"].store
            sender = app.bot_data["sender"]
            await sender.settled()
            before = len(api.calls)
            t0 = time.perf_counter()
            async with store.transaction() as tx:
                for i in range(people):
                    tx.post(5_000_000 + i, {"text": f"📣 Aviso {i + 1}: la clasificación "
                                            "provisional está publicada en el tablón."},
                            priority=PRIORITY_BULK)
            await asyncio.sleep(1.0)
            hint_posted = time.time()  # the fake server stamps calls with the wall clock
            async with store.transaction() as tx:
                tx.post(4_000_000, {"text": "Pista para la etapa 2 (#12)."},
                        priority=PRIORITY_ANSWER)
            await api.wait_until(lambda: any(c.chat_id == 4_000_000 for c in api.calls), 10)
            hint_at = next(c.at for c in api.calls if c.chat_id == 4_000_000)
            hint_ms = (hint_at.timestamp() - hint_posted) * 1000
            left_then = people - sum(1 for c in api.calls[before:]
                                     if c.at <= hint_at and c.chat_id != 4_000_000)
            await sender.settled()
            wall = time.perf_counter() - t0
            calls = [c for c in api.calls[before:] if c.method == "sendMessage"
                     and c.chat_id != 4_000_000]

            # an outage, then the recovery (python-telegram-bot logs the 502 page it cannot
            # read as an error: one line, as `python -m bot run` has it)
            logging.getLogger("telegram.request.BaseRequest").addFilter(NOT_JSON)
            api.failures.append(Failure("502", count=10**9, method="sendMessage"))
            async with store.transaction() as tx:
                for i in range(people):
                    tx.post(6_000_000 + i, {"text": f"Aviso {i + 1} (owed)"},
                            priority=PRIORITY_COPY)
            await asyncio.sleep(outage_s)
            api.failures.clear()
            back = time.time()
            mark = len(api.calls)
            await sender.settled()
            logging.getLogger("telegram.request.BaseRequest").removeFilter(NOT_JSON)
            owed_calls = [c for c in api.calls[mark:] if c.method == "sendMessage"]
            first = min(c.at.timestamp() for c in owed_calls)
            last = max(c.at.timestamp() for c in owed_calls)
        finally:
            await stop_bot(app)
        stamps = sorted(c.at.timestamp() for c in calls)
        burst = 5
        steady = ((len(stamps) - burst - 1) / (stamps[-1] - stamps[burst])
                  if len(stamps) > burst + 10 and stamps[-1] > stamps[burst] else None)
    finally:
        await api.stop()
    if len(calls) != people or len(owed_calls) != people:
        raise RuntimeError(f"broadcast: {len(calls)} and {len(owed_calls)} of {people} "
                           "messages arrived")
    return {
        "people": people, "rate_limiter": limiter, "server_calls": len(calls),
        "wall_s": round(wall, 2), "rate_msg_s": round(people / wall, 1),
        "steady_rate_msg_s": round(steady, 1) if steady else None,
        "answered_429": api.answered_429, "retry_after_raised": 0,
        "hint_during_announcement_ms": round(hint_ms, 1),
        "announcement_left_when_hint_sent": left_then,
        "recovery_messages": people, "outage_s": outage_s,
        "recovery_s": round(last - first, 2),
        "recovery_wait_s": round(first - back, 2),
        "recovery_minimum_s": round(people / 30, 2),
        "spec_violations": api.violations[:5],
    }
