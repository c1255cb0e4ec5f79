"""A Billom day through the chat: the general break, finishes without a time, pieces, ranking;
and a few whole-bot behaviours (volunteer chat, a redelivered update, long rankings)."""

from __future__ import annotations

import io
import sqlite3
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from bot.services.csvio import import_entries, read_entries
from bot.texts.common import split_messages
from tests.conftest import BILLOM, CASTRILLO
from tests.fakebot import Harness, Person, texts

PARIS = ZoneInfo("Europe/Paris")
ORGANISER = Person(1, "Odile", "fr")
VOLUNTEER_CHAT = -100500

CSV = """number,category,names,born
1,adulte,Anne; Bruno,1980-01-01; 1982-02-02
2,adulte,Claire; Denis,1970-03-03; 1971-04-04
3,adulte,Emma; Fabien,1990-05-05; 1991-06-06
4,junior,Gaspard; Hélène,2002-01-01; 2003-01-01
5,expert,Inès; Jules,1960-01-01; 1961-01-01
"""


def paris(h: int, m: int, s: int = 0) -> datetime:
    return datetime(2012, 3, 10, h, m, s, tzinfo=PARIS)


async def billom_day(tmp_path, **kw) -> tuple[Harness, dict[int, Person]]:
    h = await Harness(tmp_path, BILLOM, organisers=frozenset({ORGANISER.id}), **kw).start()
    svc = h.services
    await import_entries(svc.store, read_entries(svc.contest, io.StringIO(CSV), "billom.csv"))
    teams = {}
    for n in range(1, 6):
        entry = await svc.store.entry(n)
        teams[n] = Person(100 + n, entry.names[0], "fr")
        await h.send(teams[n], f"/start {entry.join_code}", paris(13, 30))
    await h.send(ORGANISER, "/start", paris(13, 30))
    await h.send(ORGANISER, "/inicio", paris(14, 0))
    return h, teams


async def test_billom_break_is_not_counted_and_ranking_by_time_then_pieces(tmp_path):
    h, t = await billom_day(tmp_path)
    try:
        o = ORGANISER
        # team 1 says done at 16:05: 2:05 real, 1:50:00 of contest time (15 min break)
        reply = texts(await h.send(t[1], "/fini", paris(16, 5)))[0]
        assert "1:50:00" in reply
        assert "1:50:00" in texts(await h.send(o, "/termine 1", paris(16, 6)))[0]
        # team 2 finishes before the break, recorded with the time read on the clock
        await h.send(o, "/fin 2 1:10:00", paris(15, 11))
        # team 3: recorded without a time while the break runs: the clock is frozen at 1:15:00
        assert "1:15:00" in texts(await h.send(o, "/fin 3", paris(15, 20)))[0]
        # time's up at 16:45 (2:30:00 of assembly): a finish after that is refused
        late = texts(await h.send(o, "/fin 4", paris(16, 45, 1)))[0]
        assert "2:30:00" in late
        await h.send(o, "/pieces 4 240", paris(16, 46))
        await h.send(o, "/pieces 5 900", paris(16, 46))
        ranking = texts(await h.send(o, "/classement adulte", paris(17, 15)))[0]
        lines = [ln for ln in ranking.splitlines() if ln[:1].isdigit()]
        assert lines[0].startswith("1. #2 Claire / Denis : 1:10:00")
        assert lines[1].startswith("2. #3 Emma / Fabien : 1:15:00")
        assert lines[2].startswith("3. #1 Anne / Bruno : 1:50:00")
        junior = texts(await h.send(o, "/classement junior", paris(17, 15)))[0]
        assert "1. #4 Gaspard / Hélène : 240" in junior
    finally:
        await h.stop()


async def test_organiser_pause_overlapping_the_configured_break_counts_once(tmp_path):
    h, t = await billom_day(tmp_path)
    try:
        await h.send(ORGANISER, "/pause", paris(15, 10))
        await h.send(ORGANISER, "/reprise", paris(15, 20))
        # paused 15:10-15:30 (union of 15:10-15:20 and 15:15-15:30): 20 minutes
        assert "1:40:00" in texts(await h.send(ORGANISER, "/fin 1", paris(16, 0)))[0]
    finally:
        await h.stop()


async def test_volunteer_chat_gets_the_calls(tmp_path):
    h, t = await billom_day(tmp_path, volunteer_chat=VOLUNTEER_CHAT)
    try:
        await h.send(t[5], "/fini", paris(15, 45))
        calls = h.sent(VOLUNTEER_CHAT)
        assert len(calls) == 1 and "#5" in calls[0] and "1:30:00" in calls[0]
        assert h.sent(ORGANISER.id)[-1] != calls[0]  # not also privately
    finally:
        await h.stop()


async def test_redelivered_update_is_not_recorded_twice(tmp_path):
    h, t = await billom_day(tmp_path)
    try:
        await h.send(ORGANISER, "/fin 2 1:10:00", paris(15, 11), update_id=5000)
        again = texts(await h.send(ORGANISER, "/fin 2 1:10:00", paris(15, 11), update_id=5000))
        assert len(again) == 1
        with sqlite3.connect(h.db_path) as db:
            assert db.execute("SELECT COUNT(*) FROM events WHERE kind='finish'").fetchone()[0] == 1
    finally:
        await h.stop()


def test_split_messages_respects_telegrams_limit():
    lines = [f"{i}. #{i} " + "Nombre Apellido / Otro Nombre" * 3 for i in range(1, 400)]
    parts = split_messages(lines)
    assert len(parts) > 1
    assert all(1 <= len(p) <= 4096 for p in parts)
    assert "\n".join(parts).splitlines() == lines
    assert all(len(p) <= 4096 for p in split_messages(["x" * 10_000]))


async def test_long_ranking_is_split_into_several_messages(tmp_path):
    h = await Harness(tmp_path, CASTRILLO, organisers=frozenset({1})).start()
    try:
        svc = h.services
        name = "Participante con un nombre largo de Castrillo de la Vega"
        # a ranking's line cuts each name at 30 characters: 120 lines still take two messages
        rows = "".join(f"{n},adultos,{name} {n},1980\n" for n in range(1, 121))
        await import_entries(svc.store, read_entries(
            svc.contest, io.StringIO("number,category,names,born\n" + rows), "x.csv"))
        start = datetime(2023, 4, 22, 10, 0, tzinfo=ZoneInfo("Europe/Madrid"))
        boss = Person(1, "Olga", "es")
        await h.send(boss, "/inicio adultos", start)
        for n in range(1, 121):
            await h.send(boss, f"/piezas {n} {n * 3}", start + timedelta(hours=2, minutes=31))
        parts = texts(await h.send(boss, "/clasificacion adultos", start + timedelta(hours=3)))
        assert len(parts) >= 2
        joined = "\n".join(parts)
        assert "1. #120" in joined and "120. #1 " in joined
    finally:
        await h.stop()


async def test_a_command_typed_in_a_forum_topic_is_answered_in_that_topic(tmp_path):
    h, t = await billom_day(tmp_path, volunteer_chat=VOLUNTEER_CHAT)
    try:
        message = {
            "message_id": 77, "date": int(paris(16, 0).timestamp()),
            "chat": {"id": VOLUNTEER_CHAT, "type": "supergroup", "title": "Bénévoles",
                     "is_forum": True},
            "from": {"id": ORGANISER.id, "is_bot": False, "first_name": ORGANISER.name,
                     "language_code": "fr"},
            "message_thread_id": 9, "is_topic_message": True,
            "text": "/fin 1", "entities": [{"type": "bot_command", "offset": 0, "length": 4}],
        }
        calls = await h._process({"update_id": 9_001, "message": message})
        answers = [c for c in calls if c.method == "sendMessage" and c.chat_id == VOLUNTEER_CHAT]
        assert answers and all(str(c.params.get("message_thread_id")) == "9" for c in answers)
        assert any("1:45:00" in c.text for c in answers)  # 16:00, the break not counted
    finally:
        await h.stop()
