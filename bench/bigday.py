"""Part 6: the big day (issue 50). A championship-scale database, then a restart on it.

The contest: Castrillo (``contests/castrillo-2023.toml``) grown to a championship: 800 escape
pairs, 200 children in three categories, and 1,000 adults who play three rounds (two heats, a
semi-final and a final on the next day). Built (``build``):

- untimed, through the bot itself (the in-process Application): the entries imported with
  ``bot.services.csvio``; every phone linked with ``/start <join_code>``; 20 volunteers invited
  with ``/voluntario`` and ``/start <invite>``; the clocks started with ``/inicio``, each round
  confirmed with ``bot.services.rounds.confirm_round`` once its results are in;
- the day's results and requests appended straight into ``events`` with ``executemany`` (as
  ``growth.bulk_insert`` does), coherent per entry: each pair's escape (hints and solutions
  with their tickets, the stages volunteers confirm, presses of ``/pista`` refused for the
  cooldown, each window's notice once, the escape solved or not), ``/listo`` and finishes or
  pieces; each adult's result in its heat of each round it reached; the handover and the
  clock alerts as the bot recorded them. The refused presses are the volume knob: the plan's
  ``events`` (200,000 in full) is reached by how often the pairs press during a cooldown.

Measured (``measure``):

- ``restart_first_answer_s``: the real ``python -m bot run`` (``BotProcess``, Telegram's limits
  on) against ``FakeBotAPI`` over loopback, from launching the process to its answer to a
  participant's ``/billetes`` (sent right after the launch) reaching the server: the median of
  three launches, the bot's bytecode compiled first as an install leaves it
  (``compile_bytecode``);
- ``big_day_rss_mb``: that process's peak RSS (``VmHWM``) after it also answered the
  organiser's rankings and ``/exportar``;
- ``cold_ranking_s``: ``/clasificacion <category>`` through ``process_update`` in process, each
  category on a freshly started bot (the first after a restart), then again warm;
- ``export_s``: ``/exportar`` through ``process_update`` (its three files sent), twice.
"""

from __future__ import annotations

import asyncio
import compileall
import gc
import json
import random
import sqlite3
import statistics
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from common import (
    CASTRILLO,
    ORGANISER_ID,
    ROOT,
    Person,
    Team,
    Updates,
    contest_start,
    process,
    running_bot,
)
from workload import ORGANISER, setup_day

from bot.domain.contest import Contest
from bot.domain.rounds import Heat, heats_of
from bot.rehearsal.botprocess import BotProcess
from bot.rehearsal.fakeapi import FakeBotAPI
from bot.services.contest_file import load_contest
from bot.services.rounds import confirm_round

VOLUNTEER_BASE = 1_000
CHUNK = 50_000  # rows per executemany transaction
# the adults' rounds (appended to Castrillo's "adultos"): two heats on the day, a semi-final
# and a final on the next day
ROUNDS = """
[[categories.rounds]]
id = "heats"
name = { es = "Series", en = "Heats", fr = "Séries" }
date = 2023-04-22
start = "10:00"
heats = 2
seating = "draw"
advance = { per_heat = 20, best = 60 }

[[categories.rounds]]
id = "semi"
name = { es = "Semifinal", en = "Semi-final", fr = "Demi-finale" }
date = 2023-04-23
start = "10:00"
advance = { best = 12 }

[[categories.rounds]]
id = "final"
name = { es = "Final", en = "Final", fr = "Finale" }
date = 2023-04-23
start = "16:00"
pieces = 1000
time_limit = "2:30:00"
"""


@dataclass(frozen=True)
class BigSizes:
    pairs: int = 800
    adults: int = 1_000
    children: int = 200  # over the three children's categories
    volunteers: int = 20
    events: int = 200_000  # about; the refused presses make up the difference


FULL_SIZES = BigSizes()
SMOKE_SIZES = BigSizes(pairs=30, adults=40, children=9, volunteers=4, events=3_000)


@dataclass
class BigDay:
    db: Path
    contest_file: Path
    contest: Contest
    teams: list[Team]
    volunteers: list[Person]
    events: int = 0
    by_kind: dict[str, int] = field(default_factory=dict)
    build_s: float = 0.0
    file_mb: float = 0.0


# -- the contest file ----------------------------------------------------------------------------


def big_day_contest(dest: Path, sizes: BigSizes) -> Path:
    """Castrillo with room for the championship, and rounds for the adults."""
    caps = {"adultos": sizes.adults, "parejas": sizes.pairs}
    for cid in ("infantil-a", "infantil-b", "infantil-c"):
        caps[cid] = max(1, sizes.children // 3 + 1)
    out: list[str] = []
    cat: str | None = None
    for line in CASTRILLO.read_text(encoding="utf-8").splitlines():
        if line.startswith("[[categories]]") and cat == "adultos":
            out.extend(ROUNDS.strip().splitlines())
            out.append("")
        if line.startswith('id = "') and out and out[-1].startswith("[[categories]]"):
            cat = line.split('"')[1]
        if line.startswith("capacity = ") and cat in caps:
            line = f"capacity = {caps[cat]}"
        out.append(line)
    dest.write_text("\n".join(out) + "\n", encoding="utf-8")
    contest = load_contest(dest)
    adults = contest.category("adultos")
    assert adults is not None and len(adults.rounds) == 3, "the adults' rounds were not added"
    return dest


def big_day_teams(sizes: BigSizes, seed: int) -> list[Team]:
    rng = random.Random(seed)
    first = ["Ana", "Bruno", "Carla", "David", "Elena", "Fermín", "Gloria", "Hugo", "Inés",
             "Javier", "Lucía", "Mario", "Nuria", "Óscar", "Paula", "Raúl", "Sara", "Tomás"]
    last = ["García", "López", "Martín", "Sánchez", "Pérez", "Gómez", "Ruiz", "Díaz"]
    teams: list[Team] = []
    phone = 100_000

    def add(category: str, members: int, phones: int) -> None:
        nonlocal phone
        number = len(teams) + 1
        names = [f"{rng.choice(first)} {rng.choice(last)}" for _ in range(members)]
        t = Team(number, category, names, f"ebig{seed}n{number:05d}x{rng.getrandbits(40):010x}")
        for i in range(phones):
            t.phones.append(Person(phone, names[min(i, members - 1)].split()[0]))
            phone += 1
        teams.append(t)

    for _ in range(sizes.pairs):
        add("parejas", 2, 2)
    for i in range(sizes.children):
        add(("infantil-a", "infantil-b", "infantil-c")[i % 3], 1, 1)
    for _ in range(sizes.adults):
        add("adultos", 1, 1)
    return teams


# -- the day's rows ----------------------------------------------------------------------------


class Rows:
    """Event rows to append, numbered after the file's own ids and update ids."""

    SQL = ("INSERT INTO events (id, at, recorded_at, actor, role, kind, entry, category, stage, "
           "value, ref, data, supersedes, update_id) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)")

    def __init__(self, db: Path | None) -> None:
        self.next_id = self.next_update = 1
        if db is not None:
            con = sqlite3.connect(str(db))
            try:
                self.next_id, self.next_update = (int(x) + 1 for x in con.execute(
                    "SELECT COALESCE(MAX(id), 0), COALESCE(MAX(update_id), 0) FROM events"
                ).fetchone())
            finally:
                con.close()
        self.next_update = max(self.next_update, 10_000_000)
        self.rows: list[tuple[Any, ...]] = []
        self.recorded = int(time.time())

    def add(self, at: datetime | int, kind: str, role: str, *, actor: int | None = None,
            entry: int | None = None, category: str | None = None, stage: int | None = None,
            value: int | None = None, ref: str | None = None, data: dict[str, Any] | None = None,
            supersedes: int | None = None, message: bool = True) -> int:
        eid = self.next_id
        self.next_id += 1
        update_id = None
        if message:
            update_id = self.next_update
            self.next_update += 1
        ts = at if isinstance(at, int) else int(at.timestamp())
        self.rows.append((eid, ts, self.recorded, actor, role, kind, entry, category, stage,
                          value, ref, json.dumps(data, ensure_ascii=False) if data else None,
                          supersedes, update_id))
        return eid

    def write(self, db: Path) -> None:
        con = sqlite3.connect(str(db), isolation_level=None)
        try:
            con.execute("PRAGMA foreign_keys=ON")
            for i in range(0, len(self.rows), CHUNK):
                con.execute("BEGIN")
                con.executemany(self.SQL, self.rows[i:i + CHUNK])
                con.execute("COMMIT")
        finally:
            con.close()
        self.rows.clear()


def _escape_rows(rows: Rows, contest: Contest, t: Team, t0: int, rng: random.Random,
                 presses: float, vols: list[Person]) -> None:
    """One pair's escape and puzzle, as the bot records them: requests accepted with their
    tickets, presses refused for the cooldown (the window's notice once, when still owed),
    the stages volunteers confirm, the escape solved or not, /listo and the finish."""
    esc = contest.escape
    assert esc is not None
    cat = contest.category("parejas")
    assert cat is not None
    tickets = esc.initial_tickets
    next_ok = 0
    now = rng.randint(200, 500)
    solve_at = int(rng.uniform(0.35, 1.25) * esc.time_limit)  # > limit: not solved in time
    solved = solve_at <= esc.time_limit
    end = min(solve_at, esc.time_limit)
    stage = 1

    def vol() -> int:
        return rng.choice(vols).id

    def press(kind: str, at: int) -> bool:
        """A /pista or /solucion pressed at contest second ``at``: accepted, or refused."""
        nonlocal tickets, next_ok
        phone = rng.choice(t.phones).id
        if at < next_ok:
            if next_ok >= esc.time_limit:
                return False  # refused as past the escape's end: the bot records nothing
            rows.add(t0 + at, "request_refused", "participant", actor=phone, entry=t.number,
                     stage=stage, value=next_ok, ref=f"cooldown:{t.number}:{next_ok}",
                     data={"request": kind, "reason": "cooldown"})
            return False
        cost = esc.hint_cost if kind == "hint" else esc.solution_cost
        used = min(cost, tickets)
        tickets -= used
        rows.add(t0 + at, kind, "participant", actor=phone, entry=t.number, stage=stage,
                 data={"tickets_used": used, "tickets_bought": cost - used})
        next_ok = at + esc.cooldown
        return True

    while stage <= esc.stages and now < end:
        for kind in ("hint", "solution"):
            if kind == "solution" and rng.random() < 0.45:
                break
            # pressed again and again during the cooldown before it is accepted
            waiting = next_ok - now
            if waiting > 0:
                for _ in range(int(rng.expovariate(1.0) * presses) + 1):
                    at = now + rng.randint(0, waiting - 1)
                    if at < end:
                        press(kind, at)
                owed = next_ok
                if owed < esc.time_limit and (not solved or owed < solve_at):
                    rows.add(t0 + owed, "notice", "system", entry=t.number,
                             ref=f"cooldown:{t.number}:{owed}", message=False)
                now = next_ok + rng.randint(5, 120)
            if now >= end:
                break
            press(kind, now)
            now += rng.randint(30, 400)
        if now >= end:
            break
        stage += 1
        if stage <= esc.stages:
            now += rng.randint(60, 600)
            if rng.random() < 0.5 and now < end:
                rows.add(t0 + now + rng.randint(10, 90), "stage", "volunteer", actor=vol(),
                         entry=t.number, stage=stage)
    if solved:
        rows.add(t0 + solve_at + rng.randint(2, 60), "escape", "volunteer", actor=vol(),
                 entry=t.number, value=solve_at)
    elif rng.random() < 0.8:  # confirmed at the handover
        rows.add(t0 + esc.time_limit + rng.randint(30, 600), "stage", "volunteer", actor=vol(),
                 entry=t.number, stage=max(2, min(esc.stages, stage)))
    _puzzle_rows(rows, cat.time_limit, cat.pieces, t, t0, end + rng.randint(2900, 7400), rng,
                 vol, None)


def _puzzle_rows(rows: Rows, limit: int, pieces: int, t: Team, t0: int, finish: int,
                 rng: random.Random, vol: Any, unit: str | None) -> None:
    """An entry's puzzle: a finish (after a /listo, or typed), else the pieces counted at time's
    up; now and then a result corrected."""
    if finish <= limit - 60:
        if rng.random() < 0.45:
            ready = rows.add(t0 + finish, "ready", "participant", actor=t.phones[0].id,
                             entry=t.number, value=finish, category=unit)
            rows.add(t0 + finish + rng.randint(30, 240), "finish", "volunteer", actor=vol(),
                     entry=t.number, category=unit,
                     data={"moment": t0 + finish, "ready_event": ready})
        else:
            first = rows.add(t0 + finish + rng.randint(20, 200), "finish", "volunteer",
                             actor=vol(), entry=t.number, value=finish, category=unit)
            if rng.random() < 0.02:  # a typo, corrected
                rows.add(t0 + finish + rng.randint(200, 400), "finish", "volunteer",
                         actor=vol(), entry=t.number, value=finish - rng.randint(1, 59),
                         category=unit, supersedes=first)
    else:
        rows.add(t0 + limit + rng.randint(30, 600), "pieces", "volunteer", actor=vol(),
                 entry=t.number, value=rng.randint(pieces // 2, pieces - 1), category=unit)


def _presses(contest: Contest, teams: list[Team], volunteers: list[Person], sizes: BigSizes,
             seed: int) -> float:
    """How often the pairs press during a cooldown for the day to hold about ``sizes.events``
    events: a sample of pairs played at two rates, the rate for the events per pair wanted
    found between them (a secant, twice)."""
    pairs = [t for t in teams if t.category == "parejas"][:200]
    if not pairs:
        return 1.0

    def per_pair(presses: float) -> float:
        rows = Rows(None)
        rng = random.Random(seed)
        for t in pairs:
            _escape_rows(rows, contest, t, 0, rng, presses, volunteers)
        return len(rows.rows) / len(pairs)

    # the rest of the day: links, volunteers, the children's and the adults' results
    others = sum(len(t.phones) for t in teams) + 2 * sizes.volunteers + \
        1.5 * (sizes.adults + sizes.children) + 80
    wanted = (sizes.events - others) / max(1, sizes.pairs)
    a, fa = 0.0, per_pair(0.0)
    b, fb = 4.0, per_pair(4.0)
    for _ in range(2):
        c = max(0.0, b + (wanted - fb) * (b - a) / max(1e-9, fb - fa))
        a, fa, b, fb = b, fb, c, per_pair(c)
    return b


# -- building it --------------------------------------------------------------------------------


async def _heat_entrants(app: Any, category: str) -> list[tuple[str, list[int]]]:
    """The heats of the category's latest round reached, with their entrants."""
    day = app.bot_data["services"].day
    cat = day.contest.category(category)
    lineup = await day.lineups(cat)
    r = len(lineup) - 1
    return [(Heat(cat, r, h).id, numbers) for h, numbers in enumerate(lineup[r], 1)]


async def _start(app: Any, ups: Updates, at: datetime, fake: Any) -> None:
    n = len(fake.calls)
    await process(app, ups.message(ORGANISER, "/inicio adultos", at))
    if not any(c.method == "sendMessage" for c in fake.calls[n:]):
        raise RuntimeError(f"/inicio adultos at {at} gave no answer")


async def _confirm(app: Any, at: datetime) -> None:
    day = app.bot_data["services"].day
    out = await confirm_round(day, ORGANISER_ID, day.contest.category("adultos"), at, None,
                              anyway=len(await day.lineups(day.contest.category("adultos"))) - 1)
    if type(out).__name__ != "RoundConfirmed":
        raise RuntimeError(f"the adults' round was not confirmed: {out!r}")


async def build(work: Path, sizes: BigSizes, seed: int) -> BigDay:
    started = time.perf_counter()
    cfile = big_day_contest(work / "bigday.toml", sizes)
    contest = load_contest(cfile)
    db = work / "bigday.sqlite3"
    teams = big_day_teams(sizes, seed)
    volunteers = [Person(VOLUNTEER_BASE + i, f"Vol{i + 1}") for i in range(sizes.volunteers)]
    start = contest_start(contest)
    t0 = int(start.timestamp())
    adults = contest.category("adultos")
    assert adults is not None
    rounds = adults.rounds
    presses = _presses(contest, teams, volunteers, sizes, seed)
    rng = random.Random(seed)

    def vol() -> int:
        return rng.choice(volunteers).id

    async with running_bot(db, cfile) as (app, fake):
        # import, links, volunteers, every clock of the day (the adults' first heat)
        ups = await setup_day(app, fake, contest, teams, volunteers, seed, start=start)
        heats = await _heat_entrants(app, "adultos")
        # the second heat of the first round starts when the first is over
        second = start + timedelta(seconds=adults.time_limit + 1800)
        await _start(app, ups, second, fake)
    rows = Rows(db)
    for t in teams:
        cat = contest.category(t.category)
        assert cat is not None
        if cat.escape:
            _escape_rows(rows, contest, t, t0, rng, presses, volunteers)
        elif not cat.rounds:
            _puzzle_rows(rows, cat.time_limit, cat.pieces, t, t0,
                         int(rng.uniform(0.45, 1.15) * cat.time_limit), rng, vol, None)
    handover = t0 + (contest.escape.time_limit if contest.escape else 0)
    rows.add(handover, "handover", "system", category="parejas", ref="handover:parejas",
             message=False)
    for c in contest.categories:
        if not c.rounds:
            for minutes in (15, 5, 0):
                rows.add(t0 + c.time_limit - 60 * minutes, "alert", "system", category=c.id,
                         ref=f"alert:{c.id}:{minutes}", message=False)
    by_number = {t.number: t for t in teams}

    def round_rows(heats: list[tuple[str, list[int]]], begins: list[int], limit: int,
                   pieces: int) -> None:
        for (heat_id, numbers), b in zip(heats, begins, strict=True):
            for n in numbers:
                _puzzle_rows(rows, limit, pieces, by_number[n], b,
                             int(rng.uniform(0.45, 1.15) * limit), rng, vol, heat_id)

    round_rows(heats, [t0, int(second.timestamp())], adults.time_limit, adults.pieces)
    rows.write(db)
    # the semi-final and the final: confirmed through the bot, their results appended
    at = second + timedelta(seconds=adults.time_limit + 1200)
    for i in (1, 2):
        async with running_bot(db, cfile) as (app, fake):
            await _confirm(app, at)
            play = rounds[i]
            begins = play.start or at + timedelta(hours=1)
            await _start(app, ups, begins, fake)
            heats = await _heat_entrants(app, "adultos")
        rows = Rows(db)
        limit = play.time_limit
        round_rows(heats, [int(begins.timestamp())] * len(heats), limit, play.pieces)
        rows.write(db)
        at = begins + timedelta(seconds=limit + 900)
    async with running_bot(db, cfile) as (app, fake):
        await _confirm(app, at)  # the final confirmed: the classification is final
    con = sqlite3.connect(str(db))
    try:
        by_kind = dict(con.execute("SELECT kind, COUNT(*) FROM events GROUP BY kind "
                                   "ORDER BY 2 DESC").fetchall())
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        con.close()
    return BigDay(db, cfile, contest, teams, volunteers, sum(by_kind.values()), by_kind,
                  time.perf_counter() - started, db.stat().st_size / 1e6)


# -- measuring it --------------------------------------------------------------------------------


def _peak_rss_mb(pid: int) -> float | None:
    """The process's peak resident set (VmHWM), in MB; None where /proc has no such line."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        return None
    return None


def rankings_of(contest: Contest) -> list[str]:
    """Every ranking an organiser may ask for: each category, each heat and each round of
    several heats, and all of them at once ("")."""
    names = [c.id for c in contest.categories]
    for c in contest.categories:
        heats = heats_of(c)
        names += [h.id for h in heats]
        names += [f"{c.id}-{r.id}" for r in c.rounds if r.heats > 1]
    return [*names, ""]


LAUNCHES = 3  # the first answer's median over this many launches: one varies by 0.5 s here


def compile_bytecode() -> None:
    """The bot's modules compiled, as a restart finds them: pip (and pipx) compile them at
    install, and Python writes them at a first run where it may. Without them every start
    compiles 250 modules again (0.2-0.3 s here, where ``PYTHONDONTWRITEBYTECODE`` is set)."""
    compileall.compile_dir(str(ROOT / "bot"), quiet=1)


async def first_answer(api: FakeBotAPI, bot: BotProcess, phone: dict[str, Any]) -> float:
    """Launch the process, send the pair's /billetes at once: seconds until its answer."""
    n = len(api.calls)
    t0 = time.perf_counter()
    await bot.launch()
    api.send_message(phone, "/billetes", datetime.now(UTC))
    answered = await api.wait_until(lambda: any(
        c.method == "sendMessage" and c.chat_id == phone["id"] for c in api.calls[n:]), 120)
    if not answered:
        raise RuntimeError("the restarted bot did not answer /billetes within 120 s")
    return time.perf_counter() - t0


async def restart(big: BigDay, work: Path, launches: int = LAUNCHES) -> dict[str, Any]:
    """The real bot process on the big day's file, its bytecode compiled: launched, then at
    once a pair's /billetes (``launches`` times, the median kept); the last launch then answers
    the organiser's rankings and /exportar; its peak RSS at the end."""
    compile_bytecode()
    api = FakeBotAPI()
    await api.start()
    bot = BotProcess(api, big.db, big.contest_file, organisers=str(ORGANISER_ID), cwd=ROOT)
    pair = next(t for t in big.teams if t.category == "parejas")
    phone = FakeBotAPI.user(pair.phones[0].id, pair.phones[0].name)
    organiser = FakeBotAPI.user(ORGANISER_ID, ORGANISER.name)
    firsts: list[float] = []
    try:
        for _ in range(launches - 1):
            firsts.append(await first_answer(api, bot, phone))
            code = await bot.stop()
            if code != 0:
                tail = bot.log.decode("utf-8", "replace").strip().splitlines()[-8:]
                raise RuntimeError(f"the restarted bot did not stop cleanly (exit {code}); "
                                   "the end of its log:\n" + "\n".join(tail))
        firsts.append(await first_answer(api, bot, phone))
        assert bot.proc is not None
        rss_first = _peak_rss_mb(bot.proc.pid)
        for name in ("adultos", "parejas", ""):
            n = len(api.calls)
            api.send_message(organiser, f"/clasificacion {name}".strip(), datetime.now(UTC))
            if not await api.wait_until(lambda n=n: any(
                    c.method == "sendMessage" and c.chat_id == ORGANISER_ID
                    for c in api.calls[n:]), 120):
                raise RuntimeError(f"/clasificacion {name} got no answer within 120 s")
        n = len(api.calls)
        api.send_message(organiser, "/exportar", datetime.now(UTC))
        if not await api.wait_until(lambda: sum(
                1 for c in api.calls[n:] if c.method == "sendDocument") >= 3, 180):
            raise RuntimeError("/exportar did not send its three files within 180 s")
        rss = _peak_rss_mb(bot.proc.pid)
        violations = list(api.violations)
    finally:
        await bot.stop()
        await api.stop()
    return {"first_answer_s": round(statistics.median(firsts), 3),
            "first_answers_s": [round(t, 3) for t in firsts], "peak_rss_mb": rss,
            "peak_rss_mb_after_first_answer": rss_first, "spec_violations": violations[:5],
            "log_errors": bot.log.count(b"Traceback")}


async def rankings(big: BigDay, warm_repeats: int) -> dict[str, Any]:
    """Each ranking cold (on a freshly started bot, its first command) and warm (asked again)."""
    at = datetime.now(UTC)
    ups = Updates(first_update=90_000_000)
    cold: dict[str, float] = {}
    warm: dict[str, float] = {}
    lines: dict[str, int] = {}
    for name in rankings_of(big.contest):
        async with running_bot(big.db, big.contest_file) as (app, fake):
            times = []
            for _ in range(1 + warm_repeats):
                n = len(fake.calls)
                times.append(await process(app, ups.message(
                    ORGANISER, f"/clasificacion {name}".strip(), at)))
                texts = [c.text for c in fake.calls[n:] if c.method == "sendMessage"]
                lines[name or "(all)"] = sum(len(t.splitlines()) for t in texts)
            cold[name or "(all)"] = round(times[0], 3)
            warm[name or "(all)"] = round(statistics.median(times[1:]) * 1000, 1)
    if lines.get("(all)", 0) < len(big.teams) // 2:
        raise RuntimeError(f"the ranking of everything shows {lines.get('(all)')} lines for "
                           f"{len(big.teams)} entries")
    worst = max(cold, key=lambda k: cold[k])
    worst_warm = max(warm, key=lambda k: warm[k])
    return {"cold_s": cold, "warm_ms": warm, "lines": lines,
            "worst_cold": worst, "worst_cold_s": cold[worst],
            "worst_warm": worst_warm, "worst_warm_ms": warm[worst_warm]}


async def export(big: BigDay, repeats: int) -> dict[str, Any]:
    """/exportar on a freshly started bot, then again."""
    at = datetime.now(UTC)
    ups = Updates(first_update=95_000_000)
    times = []
    async with running_bot(big.db, big.contest_file) as (app, fake):
        for _ in range(repeats):
            n = len(fake.calls)
            times.append(await process(app, ups.message(ORGANISER, "/exportar", at)))
            docs = sum(1 for c in fake.calls[n:] if c.method == "sendDocument")
            if docs != 3:
                raise RuntimeError(f"/exportar sent {docs} files, not 3")
    return {"runs_s": [round(t, 3) for t in times], "first_s": round(times[0], 3),
            "max_s": round(max(times), 3)}


def big_day(tmp: Path, sizes: BigSizes, seed: int, warm_repeats: int = 3) -> dict[str, Any]:
    """Part 6 whole: build, restart (process), rankings and export (in process)."""
    work = tmp / "bigday"
    work.mkdir()
    big = asyncio.run(build(work, sizes, seed))
    out: dict[str, Any] = {
        "entries": len(big.teams), "phones": sum(len(t.phones) for t in big.teams),
        "events": big.events, "events_by_kind": big.by_kind, "file_mb": round(big.file_mb, 1),
        "build_s": round(big.build_s, 1),
    }
    # the process that measures (its fake Bot API answers the restarted bot) holds what the
    # parts before left and what the build made: set aside from its collector while it
    # measures, so that walking them does not count as the bot's time
    gc.collect()
    gc.freeze()
    try:
        out["restart"] = asyncio.run(restart(big, work))
    finally:
        gc.unfreeze()
    out["rankings"] = asyncio.run(rankings(big, warm_repeats))
    out["export"] = asyncio.run(export(big, 2))
    return out
