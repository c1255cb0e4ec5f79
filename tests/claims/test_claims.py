"""Claiming a volunteers' line (issue 26): "I'm going" under a FINISHED? line and a hint's
(privately to each volunteer, or in a volunteers' group); the first press records the claim and
edits that line in every volunteer's and organiser's chat ("-> Victor is going", its button
gone, the line's other buttons kept); a later press is told who took it and records nothing;
only volunteers and organisers may press."""

from __future__ import annotations

import io
import json

import pytest

from bot.rehearsal.fakeapi import MESSAGE_RESULT
from bot.services.csvio import import_entries, read_entries
from tests.conftest import CASTRILLO
from tests.day.test_bot_commands import (
    CSV,
    ORGANISER,
    P3,
    P50,
    STRANGER,
    VOLUNTEER,
    at,
    day,
    event_rows,
    events,
    replies_to,
)
from tests.fakebot import Call, Harness

GROUP = -100555  # a volunteers' group
__all__ = ["day"]  # the fixture, shared with tests/day/test_bot_commands.py


def message_ids(h: Harness) -> dict[int, int]:
    """The fake's message id of every call that made a message (by the call's identity)."""
    ids, n = {}, 10_000
    for c in h.request.calls:
        if c.method in MESSAGE_RESULT:
            n += 1
            ids[id(c)] = n
    return ids


def edits(calls: list[Call]) -> list[Call]:
    return [c for c in calls if c.method == "editMessageText"]


def toasts(calls: list[Call]) -> list[str]:
    return [str(c.params.get("text", "")) for c in calls if c.method == "answerCallbackQuery"]


def keyboard(c: Call) -> list[tuple[str, str]]:
    markup = c.params.get("reply_markup")
    if markup is None:
        return []
    rows = json.loads(markup)["inline_keyboard"] if isinstance(markup, str) else \
        markup["inline_keyboard"]
    return [(b["text"], b["callback_data"]) for row in rows for b in row]


async def done_line(day, spanish: tuple[int, ...] = ()) -> tuple[str, dict[int, Call]]:
    """Adult 50 says /listo at 0:47:12: the FINISHED? line's claim button, and each staff
    chat's copy (the ``spanish`` chats' in Spanish)."""
    calls = await day.send(P50, "/listo", "0:47:12")
    copies = {c.chat_id: c for c in calls if c.method == "sendMessage"
              and c.chat_id in (VOLUNTEER.id, ORGANISER.id)}
    assert set(copies) == {VOLUNTEER.id, ORGANISER.id}
    (listo,) = [r["id"] for r in event_rows(day.h, "ready")]
    for chat, c in copies.items():
        label = "#50 Voy yo" if chat in spanish else "#50 I'm going"
        assert keyboard(c)[0] == (label, f"take:50:{listo}")
    return f"take:50:{listo}", copies


async def test_the_first_press_edits_every_copy(day):
    claim, copies = await done_line(day)
    ids = message_ids(day.h)
    pressed = await day.h.press(VOLUNTEER, claim, at("0:47:30"))
    assert toasts(pressed) == ["You're going to #50. The others can see it."]
    done = {c.chat_id: c for c in edits(pressed)}
    assert set(done) == {VOLUNTEER.id, ORGANISER.id}
    for chat, copy in copies.items():
        edit = done[chat]
        assert edit.params["message_id"] == ids[id(copy)]  # the copy Telegram holds there
        assert edit.text == copy.text + "\n→ Victor is going"
        assert keyboard(edit) == keyboard(copy)[1:]  # its button gone, Record / Not finished kept
    (row,) = event_rows(day.h, "claim")
    assert row["actor"] == VOLUNTEER.id and row["ref"] == claim
    # nobody else is messaged: the claim is in the edited lines
    assert [c for c in pressed if c.method == "sendMessage"] == []


async def test_a_later_press_is_told_who_took_it(day):
    claim, _ = await done_line(day)
    await day.h.press(VOLUNTEER, claim, at("0:47:30"))
    before = events(day.h)
    again = await day.h.press(ORGANISER, claim, at("0:47:40"))
    assert toasts(again) == ["Victor is already going to #50."]
    mine = await day.h.press(VOLUNTEER, claim, at("0:47:50"))
    assert toasts(mine) == ["You already said you're going to #50."]
    assert edits(again) == edits(mine) == []
    assert events(day.h) == before


@pytest.mark.parametrize("who", [P3, STRANGER], ids=["participant", "stranger"])
async def test_only_volunteers_and_organisers_may_claim(day, who):
    claim, _ = await done_line(day)
    before = events(day.h)
    refused = await day.h.press(who, claim, at("0:47:30"))
    assert edits(refused) == []
    assert replies_to(refused, who) and "volunteer" in replies_to(refused, who)[0].lower()
    assert events(day.h) == before


async def test_a_forged_or_unknown_claim_records_nothing(day):
    await done_line(day)
    before = events(day.h)
    for data in ("take:99:5", "take:50", "take:x:y", "take:50:-1"):
        pressed = await day.h.press(VOLUNTEER, data, at("0:47:30"))
        assert edits(pressed) == []
    assert events(day.h) == before


async def test_privately_a_hint_line_is_claimed_in_every_private_copy(day):
    """Sent privately to every volunteer and organiser, a hint's line carries "I'm going" in
    each copy; the first press edits the line in every one of those chats."""
    calls = await day.send(P3, "/pista 2", "0:10:00")
    staff = {c.chat_id: c for c in calls if c.method == "sendMessage"
             and c.chat_id in (VOLUNTEER.id, ORGANISER.id)}
    (hint,) = [r["id"] for r in event_rows(day.h, "hint")]
    assert sorted(staff) == sorted((VOLUNTEER.id, ORGANISER.id))
    for line in staff.values():
        assert keyboard(line) == [("#3 I'm going", f"take:3:{hint}")]
    pressed = await day.h.press(VOLUNTEER, f"take:3:{hint}", at("0:10:20"))
    edited = {c.chat_id: c for c in edits(pressed)}
    assert sorted(edited) == sorted(staff)
    for chat, edit in edited.items():
        assert edit.text == staff[chat].text + "\n→ Victor is going"
        assert keyboard(edit) == []
    again = await day.h.press(ORGANISER, f"take:3:{hint}", at("0:10:30"))
    assert edits(again) == []  # taken: told who, nothing edited again


async def test_in_a_volunteers_group_a_hint_line_is_claimed_in_the_group(tmp_path):
    h = await Harness(tmp_path, CASTRILLO, organisers=frozenset({ORGANISER.id}),
                      volunteer_chat=GROUP).start()
    try:
        await import_entries(h.services.store, read_entries(
            h.services.contest, io.StringIO(CSV), "entries.csv"))
        entry = await h.services.store.entry(3)
        await h.send(P3, f"/start {entry.join_code}", at("-1:00:00"))
        await h.send(ORGANISER, "/start", at("-1:00:00"))
        await h.send(ORGANISER, "/inicio", at("0:00:00"))
        calls = await h.send(P3, "/pista 2", at("0:10:00"))
        (line,) = [c for c in calls if c.method == "sendMessage" and c.chat_id == GROUP]
        (hint,) = [r["id"] for r in event_rows(h, "hint")]
        assert keyboard(line) == [("#3 Voy yo", f"take:3:{hint}")]  # the contest's language
        pressed = await h.press(ORGANISER, f"take:3:{hint}", at("0:10:20"))
        (edit,) = edits(pressed)
        assert edit.chat_id == GROUP and edit.text == line.text + "\n→ Va Olga"
        assert keyboard(edit) == []
    finally:
        await h.stop()


async def test_the_finished_line_keeps_its_other_buttons(day):
    calls = await day.send(P50, "/listo", "0:47:12")
    (line,) = [c for c in calls if c.method == "sendMessage" and c.chat_id == VOLUNTEER.id]
    (listo,) = [r["id"] for r in event_rows(day.h, "ready")]
    going, record, not_done = keyboard(line)
    assert going == ("#50 I'm going", f"take:50:{listo}")
    pressed = await day.h.press(ORGANISER, going[1], at("0:47:30"))
    (edit,) = [c for c in edits(pressed) if c.chat_id == VOLUNTEER.id]
    assert edit.text == line.text + "\n→ Olga is going"
    assert keyboard(edit) == [record, not_done]
    # Victor, who did not go, still records the finish from his edited line in one tap
    recorded = await day.h.press(VOLUNTEER, record[1], at("0:48:00"))
    assert replies_to(recorded, P50) == ["Your finish is recorded: 0:47:12. Well done!"]


async def test_each_reader_reads_the_note_in_their_language(day):
    await day.send(VOLUNTEER, "/idioma es", "0:05:00")
    claim, _ = await done_line(day, spanish=(VOLUNTEER.id,))
    pressed = await day.h.press(ORGANISER, claim, at("0:47:30"))
    done = {c.chat_id: c.text.splitlines()[-1] for c in edits(pressed)}
    assert done == {VOLUNTEER.id: "→ Va Olga", ORGANISER.id: "→ Olga is going"}


async def test_the_times_up_line_has_a_button_per_entry_to_count(tmp_path):
    """At time's up the volunteers' line carries "#N I'm going" for each entry still playing
    (not for one already finished); a press takes that table only, and the note under the
    line says which entry it is about."""
    from datetime import UTC, datetime, timedelta

    from tests.fakebot import Person

    boss, vol = Person(1, "Olga", "en"), Person(2, "Victor", "en")
    h = await Harness(tmp_path, CASTRILLO, organisers=frozenset({boss.id})).start(jobs=False)
    try:
        now = datetime.now(UTC).replace(microsecond=0)
        await import_entries(h.services.store, read_entries(h.services.contest, io.StringIO(
            "number,category,names,born\n1,infantil-a,Leo,2018\n2,infantil-a,Mia,2018\n"
            "3,infantil-a,Noa,2019\n"), "x.csv"))
        await h.send(boss, "/start", now)
        invite = await h.send(boss, "/voluntario", now)
        code = next(w for t in (c.text for c in invite) for w in t.split() if "start=" in w)
        await h.send(vol, "/start " + code.split("start=")[1].strip(".,)"), now)
        started = now - timedelta(hours=2) + timedelta(seconds=1)  # time's up 1 s from now
        await h.send(boss, "/inicio infantil-a", started)
        await h.send(vol, "/fin 2", started + timedelta(minutes=50))
        job = h.app.bot_data["jobs_by_name"]["alert:infantil-a:0"]
        job.schedule_removal()
        await job.run(h.app)
        await h.app.bot_data["sender"].settled()
        (alert,) = [r["id"] for r in event_rows(h, "alert")]
        (line,) = [c for c in h.request.calls if c.chat_id == vol.id and "time is up" in c.text]
        assert keyboard(line) == [("#1 I'm going", f"take:1:{alert}"),
                                  ("#3 I'm going", f"take:3:{alert}")]
        pressed = await h.press(vol, f"take:3:{alert}")
        await h.app.bot_data["sender"].settled()
        assert toasts(pressed) == ["You're going to #3. The others can see it."]
        mine = [c for c in edits(h.request.calls) if c.chat_id == vol.id]
        assert mine[-1].text == line.text + "\n→ Victor is going (#3)"
        assert keyboard(mine[-1]) == [("#1 I'm going", f"take:1:{alert}")]
        again = await h.press(boss, f"take:3:{alert}")
        assert toasts(again) == ["Victor is already going to #3."]
        taken = await h.press(boss, f"take:1:{alert}")
        await h.app.bot_data["sender"].settled()
        assert toasts(taken) == ["You're going to #1. The others can see it."]
        last = [c for c in edits(h.request.calls) if c.chat_id == vol.id][-1]
        assert last.text == line.text + "\n→ Victor is going (#3)\n→ Olga is going (#1)"
        assert keyboard(last) == []
    finally:
        await h.stop()
