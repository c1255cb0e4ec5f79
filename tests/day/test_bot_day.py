"""A Castrillo pairs contest played through the chat, from import to /clasificacion."""

from __future__ import annotations

import io
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from bot.services.csvio import import_entries, read_entries
from tests.conftest import CASTRILLO
from tests.fakebot import Harness, Person, texts

MADRID = ZoneInfo("Europe/Madrid")
T0 = datetime(2023, 4, 22, 11, 0, 0, tzinfo=MADRID)
ORGANISER = Person(1, "Olga")
VOLUNTEER = Person(2, "Víctor")

CSV = """number,category,names,born,aepuzz_member,resident
3,parejas,Ana; Bea,1980; 1985,no; no,no; no
7,parejas,Carlos; Dani,1975; 2012,yes; no,yes; no
12,parejas,Eva; Fran,1990; 1991,no; no,no; no
20,parejas,Gil; Hugo,1970; 1972,no; no,no; no
21,parejas,Iris; Juan,1960; 1961,no; no,yes; no
"""


def at(clock: str) -> datetime:
    h, m, s = (int(x) for x in clock.split(":"))
    return T0 + timedelta(hours=h, minutes=m, seconds=s)


async def setup_day(tmp_path) -> tuple[Harness, dict[int, Person]]:
    h = await Harness(tmp_path, CASTRILLO, organisers=frozenset({ORGANISER.id})).start()
    svc = h.services
    rows = read_entries(svc.contest, io.StringIO(CSV), "entries.csv")
    await import_entries(svc.store, rows)
    pairs = {}
    for n in (3, 7, 12, 20, 21):
        entry = await svc.store.entry(n)
        person = Person(100 + n, entry.names[0])
        await h.send(person, f"/start {entry.join_code}", T0 - timedelta(hours=1))
        pairs[n] = person
    await h.send(ORGANISER, "/start", T0 - timedelta(hours=2))
    calls = await h.send(ORGANISER, "/voluntario", T0 - timedelta(hours=2))
    link = texts(calls)[0].split()[-1]
    code = link.split("start=")[1]
    await h.send(VOLUNTEER, f"/start {code}", T0 - timedelta(hours=2))
    await h.send(ORGANISER, "/inicio parejas", T0)
    return h, pairs


async def test_castrillo_pairs_day_matches_the_worked_example(tmp_path):
    h, p = await setup_day(tmp_path)
    try:
        v = VOLUNTEER
        # pair 7: one hint in stage 2, solved at 0:42:00
        assert "(#7)" in texts(await h.send(p[7], "/pista 2", at("0:20:00")))[0]
        await h.send(v, "/escape 7 0:42:00", at("0:42:30"))
        # pair 3: no requests, solved at 0:25:00
        await h.send(v, "/escape 3", at("0:25:00"))
        # pair 20: two hints, confirmed in stage 4
        await h.send(p[20], "/pista 2", at("0:30:00"))
        await h.send(p[20], "/pista 4", at("1:10:00"))
        await h.send(v, "/etapa 20 4", at("1:20:00"))
        # pair 12: hint+solution in stages 1-3, hint+solution in 4, hint in 5
        clock = timedelta(minutes=1)
        for stage in (1, 2, 3, 4):
            await h.send(p[12], f"/pista {stage}", T0 + clock)
            await h.send(p[12], f"/solucion {stage}", T0 + clock + timedelta(minutes=5))
            clock += timedelta(minutes=11)
        await h.send(p[12], "/pista 5", T0 + clock)
        await h.send(v, "/escape 12 1:20:00", at("1:20:10"))
        # finishes and pieces
        await h.send(v, "/fin 3 1:30:00", at("1:30:05"))
        await h.send(p[7], "/listo", at("1:47:30"))
        await h.send(v, "/fin 7", at("1:49:00"))  # takes the /listo moment
        await h.send(v, "/fin 20 2:55:00", at("2:55:20"))
        await h.send(v, "/fin 12 2:40:00", at("2:40:30"))
        await h.send(v, "/piezas 21 312", at("3:00:30"))
        ranking = "\n".join(texts(await h.send(ORGANISER, "/clasificacion parejas",
                                               at("3:05:00"))))
        lines = [ln for ln in ranking.splitlines() if ln[:1].isdigit()]
        assert lines[0].startswith("1. #3 Ana / Bea: 1:05:00")
        assert lines[1].startswith("2. #7 Carlos / Dani: 1:17:30")
        assert lines[2].startswith("3. #20 Gil / Hugo: 2:37:00")
        assert lines[3].startswith("4. #12 Eva / Fran: 3:10:00")
        assert lines[4].startswith("5. #21 Iris / Juan: 312")
        assert "#7" in ranking.splitlines()[-1] or "#21" in ranking.splitlines()[-1]
    finally:
        await h.stop()
