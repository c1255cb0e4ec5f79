"""Clock alerts, announcements, the ranking as a picture."""

from __future__ import annotations

import io
import sqlite3
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from PIL import Image

from bot.handlers.jobs import alert_moments
from bot.services.csvio import import_entries, read_entries
from bot.texts.clocks import announcement_recorded
from tests.conftest import BILLOM, CASTRILLO
from tests.fakebot import Harness, Person

BOSS = Person(1, "Olga", "en")


async def linked(h: Harness, rows: str, when: datetime) -> list[Person]:
    svc = h.services
    await import_entries(svc.store, read_entries(
        svc.contest, io.StringIO("number,category,names,born\n" + rows), "x.csv"))
    people = []
    for e in await svc.store.entries():
        p = Person(100 + e.number, e.names[0], "en")
        await h.send(p, f"/start {e.join_code}", when)
        people.append(p)
    await h.send(BOSS, "/start", when)
    return people


async def test_clock_alerts_15_and_5_minutes_before_and_at_times_up(tmp_path):
    h = await Harness(tmp_path, CASTRILLO, organisers=frozenset({BOSS.id})).start(jobs=False)
    try:
        now = datetime.now(UTC).replace(microsecond=0)
        kid, adult = await linked(h, "1,infantil-a,Leo,2018\n2,adultos,Ana,1980\n", now)
        # infantil-a's 2-hour clock started so that 15 minutes before the end is 1 s from now
        started = now - timedelta(minutes=105) + timedelta(seconds=1)
        await h.send(BOSS, "/inicio infantil-a", started)

        def recorded() -> list[str]:
            with sqlite3.connect(h.db_path) as db:
                return [r[0] for r in db.execute("SELECT ref FROM events WHERE kind = 'alert'")]

        # the timer is set for that moment; it runs here instead of on the real clock
        job = h.app.bot_data["jobs_by_name"]["alert:infantil-a:15"]
        assert abs((job.job.trigger.run_date - (now + timedelta(seconds=1))).total_seconds()) < 1
        job.schedule_removal()
        await job.run(h.app)
        await h.app.bot_data["sender"].settled()
        assert [t for t in h.sent(kid.id) if "minutes left" in t] == [
            "Infantil A: 15 minutes left."]
        assert not any("minutes left" in t for t in h.sent(adult.id))  # other category
        assert any("Infantil A: 15 minutes left." in t for t in h.sent(BOSS.id))  # staff too
        assert recorded() == ["alert:infantil-a:15"]
        owed = [name for name, _, _ in await alert_moments(h.services)]
        assert owed == ["alert:infantil-a:5", "alert:infantil-a:0"]
    finally:
        await h.stop()


async def test_break_alerts_for_billom(tmp_path):
    h = await Harness(tmp_path, BILLOM, organisers=frozenset({BOSS.id})).start()
    try:
        day = datetime(2012, 3, 10, 14, 0, tzinfo=UTC)
        await h.send(BOSS, "/inicio", day)
        names = [n for n, _, _ in await alert_moments(h.services)]
        # the contest day is long past for the real clock: nothing that late is sent
        assert names == []
    finally:
        await h.stop()


async def test_anuncio_reaches_every_linked_participant_once(tmp_path):
    h = await Harness(tmp_path, CASTRILLO, organisers=frozenset({BOSS.id})).start()
    try:
        now = datetime.now(UTC)
        people = await linked(h, "".join(f"{n},adultos,P{n},1980\n" for n in range(1, 13)),
                              now)
        preview = await h.send(BOSS, "/anuncio La comida se sirve a las 14:30 <b>en la sala</b>",
                               now)
        assert [c.text for c in preview if c.chat_id == BOSS.id] == [
            "Preview: this announcement goes to 12 people, within a few seconds.\n\n"
            "📣 La comida se sirve a las 14:30 <b>en la sala</b>\n\n"
            "Send it? Nothing goes until you choose."]
        assert not any("comida" in t for p in people for t in h.sent(p.id))  # nothing yet
        (send, cancel) = h.buttons(preview)
        assert send == ("Send", f"ann:{send[1].removeprefix('ann:')}") and cancel[1] == "ann:-"
        calls = await h.press(BOSS, send[1], now)
        for p in people:
            got = [t for t in h.sent(p.id) if "comida" in t]
            assert got == ["📣 La comida se sirve a las 14:30 <b>en la sala</b>"]
        boss = [c.text for c in calls if c.chat_id == BOSS.id]
        assert "it goes to 12 people, within a few seconds" in boss[-1]
        # the same button again: nothing sent twice
        again = await h.press(BOSS, send[1], now)
        assert [c.text for c in again if c.chat_id == BOSS.id] == [
            "This announcement was already sent: nothing sent again."]
        assert all(len([t for t in h.sent(p.id) if "comida" in t]) == 1 for p in people)
        refused = await h.send(people[0], "/anuncio hola", now)
        assert "organisers" in refused[0].text
        empty = await h.send(BOSS, "/anuncio", now)
        assert "Usage" in empty[0].text
        # a newer preview outdates the older one; Cancel sends nothing
        first = h.buttons(await h.send(BOSS, "/anuncio uno", now))[0][1]
        second = h.buttons(await h.send(BOSS, "/anuncio dos", now))
        stale = await h.press(BOSS, first, now)
        assert "not your latest one" in [c.text for c in stale if c.chat_id == BOSS.id][0]
        cancelled = await h.press(BOSS, second[1][1], now)
        assert [c.text for c in cancelled if c.chat_id == BOSS.id] == ["Announcement not sent."]
        assert not any(t in ("📣 uno", "📣 dos") for p in people for t in h.sent(p.id))
    finally:
        await h.stop()


async def test_ranking_as_a_picture(tmp_path):
    h = await Harness(tmp_path, CASTRILLO, organisers=frozenset({BOSS.id})).start()
    try:
        t0 = datetime(2023, 4, 22, 10, 0, tzinfo=UTC)
        await linked(h, "1,adultos,Ana Gómez,1980\n2,adultos,Luis <b>Pérez</b>,1970\n", t0)
        await h.send(BOSS, "/inicio adultos", t0)
        await h.send(BOSS, "/fin 1 1:47:30", t0 + timedelta(hours=2))
        calls = await h.send(BOSS, "/clasificacion adultos foto", t0 + timedelta(hours=3))
        photos = [c for c in calls if c.method == "sendPhoto"]
        assert len(photos) == 1 and "Adultos individual" in photos[0].params["caption"]
        png = photos[0].params["photo"]["bytes"]
        image = Image.open(io.BytesIO(png))
        # portrait for a phone: taller than wide with a few rows
        assert image.format == "PNG" and image.width == 1080 and image.height > 150
        calls = await h.send(BOSS, "/clasificacion adultos foto horizontal",
                             t0 + timedelta(hours=3))
        [wide] = [c for c in calls if c.method == "sendPhoto"]
        assert Image.open(io.BytesIO(wide.params["photo"]["bytes"])).width == 1400
        calls = await h.send(BOSS, "/clasificacion adultos paysage", t0 + timedelta(hours=3))
        assert [c.method for c in calls] == ["sendPhoto"]
        text = await h.send(BOSS, "/clasificacion adultos", t0 + timedelta(hours=3))
        assert "1. #1 Ana Gómez: 1:47:30" in text[0].text
    finally:
        await h.stop()


async def test_alerts_skip_finished_entries_and_a_late_listo_gets_the_participants_answer(
        tmp_path):
    h = await Harness(tmp_path, CASTRILLO, organisers=frozenset({BOSS.id})).start(jobs=False)
    try:
        now = datetime.now(UTC).replace(microsecond=0)
        done, playing = await linked(h, "1,infantil-a,Leo,2018\n2,infantil-a,Mia,2018\n", now)
        vic = Person(20, "Vic", "en")
        invite = (await h.send(BOSS, "/voluntario", now))[-1].text
        await h.send(vic, f"/start {invite.split('start=')[1].split()[0]}", now)
        started = now - timedelta(minutes=105) + timedelta(seconds=1)
        await h.send(BOSS, "/inicio infantil-a", started)
        await h.send(vic, "/fin 1 1:00:00", now)
        job = h.app.bot_data["jobs_by_name"]["alert:infantil-a:15"]
        job.schedule_removal()
        await job.run(h.app)
        await h.app.bot_data["sender"].settled()
        assert not any("minutes left" in t for t in h.sent(done.id))  # finished: not told
        assert [t for t in h.sent(playing.id) if "minutes left" in t] == [
            "Infantil A: 15 minutes left."]
        late = started + timedelta(hours=2, minutes=1)  # past the 2-hour limit
        calls = await h.send(playing, "/listo", late)
        assert [c.text for c in calls if c.chat_id == playing.id] == [
            "Time is up (2:00:00): hands off the puzzle. A volunteer will count your pieces."]
        history = "\n".join(t for t in (c.text for c in await h.send(vic, "/historial 2", late)
                                        if c.chat_id == vic.id))
        # weeks away from the contest day: the event says its day, not only a time
        day = now.astimezone(ZoneInfo("Europe/Madrid"))
        assert f"#2 {day:%A} {day.day} {day:%B} at " in history, history
    finally:
        await h.stop()


def test_how_long_an_announcement_takes_reads_as_people_say_it() -> None:
    """Issue 47: "in about 1 s", "1 people"."""
    assert announcement_recorded("en", 1) == (
        "Announcement recorded: it goes to 1 person, within a few seconds.")
    assert announcement_recorded("en", 500) == (
        "Announcement recorded: it goes to 500 people, in about 20 seconds.")
    assert announcement_recorded("es", 4000) == (
        "Aviso anotado: llegará a 4000 personas, en unos 3 minutos.")
    assert announcement_recorded("de", 1000) == (
        "Ansage gespeichert: Sie geht an 1000 Personen, in etwa 40 Sekunden.")
