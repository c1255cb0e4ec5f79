"""Timers through the real JobQueue: cooldown notices and the 90-minute handover, rebuilt from
the database after a restart (nothing lost, nothing sent twice)."""

from __future__ import annotations

import asyncio
import io
import sqlite3
from datetime import UTC, datetime, timedelta

from bot.handlers import jobs
from bot.services.clocks import pending_notices
from bot.services.csvio import import_entries, read_entries
from tests.conftest import CASTRILLO
from tests.fakebot import Harness, Person, staff, texts

ORGANISER = Person(1, "Olga", "en")
VOLUNTEER = Person(2, "Víctor", "en")
CSV = """number,category,names,born
1,parejas,Ana; Bea,1980; 1985
2,parejas,Carlos; Dani,1975; 2012
"""


def now() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)


async def day(tmp_path, started: datetime, jobs: bool = True) -> tuple[Harness, dict[int, Person]]:
    h = await Harness(tmp_path, CASTRILLO, organisers=frozenset({ORGANISER.id})).start(jobs=jobs)
    svc = h.services
    await import_entries(svc.store, read_entries(svc.contest, io.StringIO(CSV), "x.csv"))
    pairs = {}
    for n in (1, 2):
        entry = await svc.store.entry(n)
        pairs[n] = Person(100 + n, entry.names[0], "en")
        await h.send(pairs[n], f"/start {entry.join_code}", started - timedelta(minutes=5))
    await h.send(ORGANISER, "/start", started - timedelta(minutes=5))
    await h.send(ORGANISER, "/inicio parejas", started)
    return h, pairs


async def restart(h: Harness, jobs: bool = True) -> Harness:
    await h.stop()
    again = Harness(h.tmp_path, CASTRILLO, organisers=h.organisers)
    return await again.start(jobs=jobs)


def notices(h: Harness, person: Person) -> list[str]:
    return [t for t in h.sent(person.id) if "5 minutes have passed" in t]


def events(h: Harness, kind: str) -> list[tuple]:
    with sqlite3.connect(h.db_path) as db:
        return db.execute("SELECT entry, ref FROM events WHERE kind = ?", (kind,)).fetchall()


async def wait_for(condition, seconds: float = 6.0) -> None:
    for _ in range(int(seconds * 20)):
        if condition():
            return
        await asyncio.sleep(0.05)


async def run_job(h: Harness, name: str, due: datetime) -> None:
    """The job ``name`` is scheduled for ``due``: run it now instead of waiting for the real
    clock (on a loaded machine a wait for a timer is a test that fails at random)."""
    job = h.app.bot_data["jobs_by_name"][name]
    scheduled = job.job.trigger.run_date  # APScheduler's DateTrigger
    assert abs((scheduled - due).total_seconds()) < 1
    job.schedule_removal()
    await job.run(h.app)
    await h.app.bot_data["sender"].settled()  # what it owes goes out from the outbox


async def test_cooldown_notice_fires_through_the_job_queue(tmp_path):
    t = now()
    h, p = await day(tmp_path, t - timedelta(minutes=10), jobs=False)
    try:
        await h.send(p[1], "/pista 1", t + timedelta(seconds=2))
        refused = texts(await h.send(p[1], "/pista 2", t + timedelta(seconds=3)))
        assert "Too soon" in refused[0]
        assert notices(h, p[1]) == []
        await run_job(h, "cooldown:1:902", t + timedelta(seconds=302))
        assert len(notices(h, p[1])) == 1
        assert events(h, "notice") == [(1, "cooldown:1:902")]
        # the pair may ask again now
        ok = texts(await h.send(p[1], "/pista 2", t + timedelta(seconds=303)))
        assert "Hint for stage 2" in ok[0]
    finally:
        await h.stop()


async def test_a_notice_due_while_the_bot_was_off_is_sent_at_start(tmp_path):
    t = now()
    # no timers run in this first process: it is as if it stopped before the notice was due
    h, p = await day(tmp_path, t - timedelta(minutes=10), jobs=False)
    await h.send(p[1], "/pista 1", t - timedelta(seconds=301))
    await h.send(p[1], "/pista 2", t - timedelta(seconds=300))  # notice due a second ago
    await h.send(VOLUNTEER, "/start", t)  # unrelated traffic
    assert notices(h, p[1]) == []
    h = await restart(h)  # back up: the timer is rebuilt from the database, late
    try:
        await wait_for(lambda: notices(h, p[1]))
        assert len(notices(h, p[1])) == 1
        # state survived: one ticket used
        billetes = texts(await h.send(p[1], "/billetes", now()))[0]
        assert "10 tickets left" in billetes
    finally:
        h = await restart(h)
    try:
        assert "cooldown:1:599" not in h.app.bot_data.get("jobs_by_name", {})
        assert notices(h, p[1]) == []  # not sent twice after another restart
        assert len(events(h, "notice")) == 1
    finally:
        await h.stop()


async def test_no_notice_when_partner_asked_meanwhile(tmp_path):
    t = now()
    h, p = await day(tmp_path, t - timedelta(minutes=10))
    try:
        await h.send(p[1], "/pista 1", t - timedelta(seconds=298))
        await h.send(p[1], "/pista 2", t - timedelta(seconds=297))
        # an accepted request after the due moment makes the notice pointless: here we check
        # the cooldown refusal was recorded and a notice is owed exactly once
        owed = await pending_notices(h.services.day)
        assert [o[0] for o in owed] == [1]
    finally:
        await h.stop()


async def test_handover_at_90_minutes_tells_volunteers_and_unsolved_pairs(tmp_path):
    t = now()
    h, p = await day(tmp_path, t - timedelta(minutes=90) + timedelta(seconds=2), jobs=False)
    try:
        await h.send(p[1], "/pista 3", t - timedelta(minutes=60))
        await h.send(ORGANISER, "/escape 2 0:40:00", t - timedelta(minutes=40))
        await run_job(h, "handover:parejas", t + timedelta(seconds=2))
        staff = [x for x in h.sent(ORGANISER.id) if "escape is over" in x]
        assert len(staff) == 1
        assert "#1 Ana / Bea: says stage 3, confirmed stage 1" in staff[0]
        assert "#2" not in staff[0]
        assert any("collect your puzzle" in x for x in h.sent(p[1].id))
        assert not any("collect your puzzle" in x for x in h.sent(p[2].id))
    finally:
        h = await restart(h)
    try:
        assert "handover:parejas" not in h.app.bot_data.get("jobs_by_name", {})
        assert not any("escape is over" in x for x in h.sent(ORGANISER.id))
    finally:
        await h.stop()


async def test_the_handover_line_confirms_a_stage_in_one_tap(tmp_path):
    """Under the handover line, a button per stage still to confirm for each unsolved pair
    (the one it says first): one tap records it as /etapa N S does; a second tap records
    nothing; a participant's tap is refused."""
    t = now()
    h, p = await day(tmp_path, t - timedelta(minutes=90) + timedelta(seconds=2), jobs=False)
    try:
        await h.send(p[1], "/pista 3", t - timedelta(minutes=60))
        await h.send(ORGANISER, "/etapa 2 2", t - timedelta(minutes=50))
        before = len(h.request.calls)
        await run_job(h, "handover:parejas", t + timedelta(seconds=2))
        lines = [c for c in h.request.calls[before:] if c.chat_id == ORGANISER.id
                 and "escape is over" in c.text]
        assert len(lines) == 1
        assert "with the buttons below (or /stage N S)" in lines[0].text
        assert h.buttons(lines) == [
            ("#1 ▸ 3", "stg:1:3"), ("#1 ▸ 2", "stg:1:2"), ("#1 ▸ 4", "stg:1:4"),
            ("#1 ▸ 5", "stg:1:5"),
            ("#2 ▸ 3", "stg:2:3"), ("#2 ▸ 4", "stg:2:4"), ("#2 ▸ 5", "stg:2:5")]
        refused = await h.press(p[1], "stg:1:3", t + timedelta(seconds=20))
        assert "volunteer" in texts(refused)[0].lower()
        assert events(h, "stage") == [(2, None)]
        pressed = await h.press(ORGANISER, "stg:1:3", t + timedelta(seconds=30))
        assert [x for x in texts(pressed) if "stage 3" in x]
        assert sorted(events(h, "stage")) == [(1, None), (2, None)]
        again = await h.press(ORGANISER, "stg:1:3", t + timedelta(seconds=40))
        assert texts(again) and sorted(events(h, "stage")) == [(1, None), (2, None)]
    finally:
        await h.stop()


async def test_a_confirmed_stage_closes_the_pairs_buttons_in_every_copy(tmp_path):
    """Issue 47, item 4: after one volunteer tapped "#1 > 3" under the handover line, every
    other copy kept the pair's buttons. Once its stage is confirmed (pressed or typed) every
    copy loses that pair's buttons and says who confirmed which stage, in each reader's
    language; the other pairs' buttons stay."""
    t = now()
    h, p = await day(tmp_path, t - timedelta(minutes=90) + timedelta(seconds=2), jobs=False)
    try:
        await staff(h, ORGANISER, VOLUNTEER, t - timedelta(minutes=80))
        await h.send(VOLUNTEER, "/idioma es", t - timedelta(minutes=79))
        await h.send(p[1], "/pista 3", t - timedelta(minutes=60))
        await run_job(h, "handover:parejas", t + timedelta(seconds=2))
        pressed = await h.press(VOLUNTEER, "stg:1:3", t + timedelta(seconds=30))
        edits = {c.chat_id: c for c in pressed if c.method == "editMessageText"}
        assert set(edits) == {ORGANISER.id, VOLUNTEER.id}
        assert edits[ORGANISER.id].text.endswith("\n→ #1: stage 3 confirmed (Víctor)")
        assert edits[VOLUNTEER.id].text.endswith("\n→ #1: etapa 3 confirmada (Víctor)")
        for c in edits.values():  # pair 2's buttons stay, none of pair 1's
            data = [d for _, d in h.buttons([c])]
            assert data and all(d.startswith("stg:2:") for d in data)
        # typed, for pair 2: its buttons go too, and the line keeps both notes
        typed = await h.send(ORGANISER, "/etapa 2 4", t + timedelta(seconds=40))
        edits = {c.chat_id: c for c in typed if c.method == "editMessageText"}
        assert edits[ORGANISER.id].text.endswith(
            "\n→ #1: stage 3 confirmed (Víctor)\n→ #2: stage 4 confirmed (Olga)")
        assert all(h.buttons([c]) == [] for c in edits.values())
    finally:
        await h.stop()


async def test_a_jump_of_the_system_clock_works_the_timers_out_again(tmp_path, monkeypatch):
    """The scheduler sleeps in monotonic time towards moments of the old clock: when the system
    clock jumps (NTP, a clock set by hand, a laptop waking), every timer is scheduled again
    from the database. Without a jump, nothing is touched."""
    t = now()
    h, p = await day(tmp_path, t - timedelta(minutes=10), jobs=False)
    try:
        await h.send(p[1], "/pista 1", t + timedelta(seconds=2))
        await h.send(p[1], "/pista 2", t + timedelta(seconds=3))
        [watch] = [j for j in h.app.job_queue.jobs() if j.name == jobs.CLOCK_WATCH]
        scheduled = h.app.bot_data["jobs_by_name"]["cooldown:1:902"]
        offset = watch.data["offset"]
        monkeypatch.setattr(jobs, "clock_offset", lambda: offset + 1.0)  # drift, no jump
        await watch.run(h.app)
        assert h.app.bot_data["jobs_by_name"]["cooldown:1:902"] is scheduled
        monkeypatch.setattr(jobs, "clock_offset", lambda: offset + 600.0)  # ten minutes on
        await watch.run(h.app)
        again = h.app.bot_data["jobs_by_name"]["cooldown:1:902"]
        assert again is not scheduled and scheduled.removed
        assert abs((again.job.trigger.run_date - (t + timedelta(seconds=302))
                    ).total_seconds()) < 1
        assert watch.data["offset"] == offset + 600.0  # the next jump is measured from here
    finally:
        await h.stop()
