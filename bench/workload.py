"""The contest-day workload: entries, phones and volunteers (set up untimed), then the day's
messages in date order (timed): hints, solutions, tickets, stage confirmations, escapes, /listo,
finishes, pieces and rankings, at message dates advancing through the day from /inicio.

Same sizes and seed, same day (the durability worker rebuilds it on its own).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from common import (
    ORGANISER_ID,
    FakeRequest,
    Person,
    Team,
    Updates,
    contest_start,
    import_teams,
    process,
)

from bot.domain.clock import format_duration
from bot.domain.contest import Contest

FIRST = ["Ana", "Bruno", "Carla", "David", "Elena", "Fernando", "Gloria", "Hugo", "Inés",
         "Javier", "Lucía", "Mario", "Nuria", "Óscar", "Paula", "Raúl", "Sara", "Tomás"]
LAST = ["García", "López", "Martín", "Sánchez", "Pérez", "Gómez", "Ruiz", "Díaz", "Moreno"]
ORGANISER = Person(ORGANISER_ID, "Olga")
STREAM_FIRST_UPDATE = 1_000_000  # the day's update ids start here (setup uses 1...)


@dataclass(frozen=True)
class Sizes:
    entries: int = 150
    pairs: int = 50
    volunteers: int = 20


def make_teams(sizes: Sizes, seed: int, first_number: int = 1, first_phone: int = 100_000,
               pairs_only: bool = False, category: str | None = None) -> list[Team]:
    """``sizes.pairs`` pairs (two phones each) and individuals (one phone each) for the rest:
    up to 10 per children's category, the others adults."""
    rng = random.Random(seed)
    teams: list[Team] = []
    number = first_number
    phone = first_phone

    def person() -> str:
        return f"{rng.choice(FIRST)} {rng.choice(LAST)}"

    def add(cat: str, members: int, phones: int) -> None:
        nonlocal number, phone
        names = [person() for _ in range(members)]
        code = f"ebench{seed}n{number:06d}x{rng.getrandbits(40):010x}"
        t = Team(number, cat, names, code)
        for i in range(phones):
            t.phones.append(Person(phone, names[min(i, members - 1)].split()[0]))
            phone += 1
        teams.append(t)
        number += 1

    if category is not None:
        for _ in range(sizes.entries):
            add(category, 2 if category == "parejas" else 1, 2 if category == "parejas" else 1)
        return teams
    for _ in range(sizes.pairs):
        add("parejas", 2, 2)
    if pairs_only:
        return teams
    individuals = max(0, sizes.entries - sizes.pairs)
    kids = min(10, max(1, individuals // 10)) if individuals >= 4 else 0
    for cat in ("infantil-a", "infantil-b", "infantil-c"):
        for _ in range(kids):
            add(cat, 1, 1)
    for _ in range(individuals - 3 * kids):
        add("adultos", 1, 1)
    return teams


def volunteer_people(n: int) -> list[Person]:
    return [Person(1_000 + i, f"Vol{i + 1}") for i in range(n)]


async def setup_day(app: Any, fake: FakeRequest, contest: Contest, teams: list[Team],
                    volunteers: list[Person], seed: int, start: datetime | None = None
                    ) -> Updates:
    """Untimed: import the entries (bot.services.csvio), link every phone with /start <join_code>,
    invite the volunteers (/voluntario, /start <invite>), start every clock (/inicio)."""
    rng = random.Random(seed + 1)
    t0 = start or contest_start(contest)
    await import_teams(app, teams, rng)
    ups = Updates()
    before = t0 - timedelta(hours=1)
    await process(app, ups.message(ORGANISER, "/start", before))
    for t in teams:
        for p in t.phones:
            await process(app, ups.message(p, f"/start {t.join_code}", before))
    for v in volunteers:
        n = len(fake.calls)
        await process(app, ups.message(ORGANISER, "/voluntario", before))
        link = [c.text for c in fake.calls[n:] if c.method == "sendMessage"][-1].split()[-1]
        code = link.split("start=")[1]
        await process(app, ups.message(v, f"/start {code}", before))
    await process(app, ups.message(ORGANISER, "/inicio", t0))
    return ups


# -- the day -----------------------------------------------------------------------------------


@dataclass(order=True)
class Msg:
    at: datetime
    seq: int
    who: Person
    text: str


def day_messages(contest: Contest, teams: list[Team], volunteers: list[Person], seed: int,
                 start: datetime | None = None) -> list[Msg]:
    """Every message of the day after /inicio, in date order."""
    rng = random.Random(seed + 2)
    t0 = start or contest_start(contest)
    rules = contest.escape
    out: list[Msg] = []

    def say(who: Person, text: str, secs: float) -> None:
        out.append(Msg(t0 + timedelta(seconds=int(secs)), len(out), who, text))

    def vol() -> Person:
        return rng.choice(volunteers) if volunteers else ORGANISER

    for t in teams:
        cat = contest.category(t.category)
        assert cat is not None
        limit = cat.time_limit
        if cat.escape and rules is not None:
            esc_limit = rules.time_limit
            solve = rng.uniform(0.28, 1.25) * esc_limit  # > limit: not solved in time
            end = min(solve, esc_limit)

            def stage_at(s: float, solve: float = solve) -> int:
                return min(rules.stages, 1 + int(rules.stages * s / solve))

            n_req = rng.choice([0, 1, 2, 2, 3, 3, 4, 4, 5, 6, 7])
            times = sorted(rng.uniform(240, max(300, end - 30)) for _ in range(n_req))
            hints: set[int] = set()
            sols: set[int] = set()
            for s in times:
                stage = stage_at(s)
                if stage not in hints:
                    kind, _ = "pista", hints.add(stage)
                elif stage not in sols:
                    kind, _ = "solucion", sols.add(stage)
                else:
                    kind = "pista"  # asks again: refused (already given)
                phone = rng.choice(t.phones)
                say(phone, f"/{kind} {stage}", s)
                if rng.random() < 0.15:  # the partner's phone asks too, a moment later
                    other = t.phones[-1] if phone is t.phones[0] else t.phones[0]
                    say(other, f"/{kind} {stage}", s + rng.uniform(20, 120))
            for _ in range(rng.choice([0, 1, 1, 2, 2, 3])):
                say(rng.choice(t.phones), "/billetes", rng.uniform(120, end + 300))
            for stage in range(2, stage_at(end) + 1):
                if rng.random() < 0.3:
                    s = solve * (stage - 1) / rules.stages + rng.uniform(60, 600)
                    if s < end:
                        say(vol(), f"/etapa {t.number} {stage}", s)
            if solve <= esc_limit:
                if rng.random() < 0.3:
                    say(vol(), f"/escape {t.number} {format_duration(int(solve))}",
                        solve + rng.uniform(10, 120))
                else:
                    say(vol(), f"/escape {t.number}", solve + rng.uniform(2, 30))
            elif rng.random() < 0.8:  # the handover: volunteers confirm where the pair got
                say(vol(), f"/etapa {t.number} {max(2, stage_at(esc_limit))}",
                    esc_limit + rng.uniform(30, 600))
            finish = end + rng.uniform(2900, 7400)
        else:
            finish = rng.uniform(0.45, 1.2) * limit
        if finish <= limit - 300:
            if rng.random() < 0.45:
                say(rng.choice(t.phones), "/listo", finish)
                say(vol(), f"/fin {t.number}", finish + rng.uniform(30, 240))
            elif rng.random() < 0.35:
                say(vol(), f"/fin {t.number} {format_duration(int(finish))}",
                    finish + rng.uniform(30, 200))
            else:
                say(vol(), f"/fin {t.number}", finish + rng.uniform(1, 60))
        else:
            say(vol(), f"/piezas {t.number} {rng.randint(cat.pieces // 2, cat.pieces - 1)}",
                limit + rng.uniform(30, 600))
    # the organisers look at the rankings now and then, and at the end
    cats = [c.id for c in contest.categories]
    last = max(c.time_limit for c in contest.categories)
    for i, s in enumerate(range(1800, last + 1, 900)):
        say(ORGANISER, f"/clasificacion {cats[i % len(cats)]}", s + rng.uniform(0, 60))
    say(ORGANISER, "/clasificacion", last + 660)
    for c in cats:
        say(ORGANISER, f"/clasificacion {c}", last + 720 + rng.uniform(0, 120))
    return sorted(out)


def payloads(msgs: list[Msg], first_update: int = STREAM_FIRST_UPDATE) -> list[dict[str, Any]]:
    ups = Updates(first_update)
    return [ups.message(m.who, m.text, m.at) for m in msgs]


def mix(msgs: list[Msg]) -> dict[str, int]:
    return dict(Counter(m.text.split()[0].lstrip("/") for m in msgs).most_common())
