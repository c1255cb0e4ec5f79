"""Issue 47: after "Record 0:47:12" on a FINISHED? line, every other volunteer's copy kept its
buttons, and a second volunteer could walk to a table already settled or tap again. Once the
finish is recorded (by the line's button or a typed finish) or the puzzle found not done,
every copy of the line says so, with who did it, in each reader's language, and keeps no
button."""

from __future__ import annotations

from tests.claims.test_claims import done_line, edits, keyboard, message_ids
from tests.day.test_bot_commands import ORGANISER, VOLUNTEER, at, day

__all__ = ["day"]


async def test_recording_from_the_line_settles_every_copy(day):
    await day.send(ORGANISER, "/idioma es", "0:05:00")
    claim, copies = await done_line(day, spanish=(ORGANISER.id,))
    ids = message_ids(day.h)
    listo = claim.split(":")[2]
    pressed = await day.h.press(VOLUNTEER, f"ready:ok:50:{listo}", at("0:48:00"))
    done = {c.chat_id: c for c in edits(pressed)}
    assert set(done) == {VOLUNTEER.id, ORGANISER.id}
    # the settled line takes the line's place: a joined message never grows past 4,096
    assert copies[VOLUNTEER.id].text.startswith("FINISHED? #50 Luis")
    assert done[VOLUNTEER.id].text == "#50 Luis · ✅ Recorded: 0:47:12 (Victor)"
    assert done[ORGANISER.id].text == "#50 Luis · ✅ Anotado: 0:47:12 (Victor)"
    for chat, edit in done.items():
        assert edit.params["message_id"] == ids[id(copies[chat])]
        assert keyboard(edit) == []  # nothing left to tap on a settled line


async def test_not_finished_settles_every_copy(day):
    claim, _ = await done_line(day)
    listo = claim.split(":")[2]
    pressed = await day.h.press(ORGANISER, f"ready:no:50:{listo}", at("0:48:00"))
    done = {c.chat_id: c for c in edits(pressed)}
    assert set(done) == {VOLUNTEER.id, ORGANISER.id}
    for edit in done.values():
        assert edit.text == "#50 Luis · ↩️ Not finished: told to play on (Olga)", edit.text
        assert keyboard(edit) == []


async def test_a_typed_finish_settles_the_line_too(day):
    await done_line(day)
    typed = await day.send(VOLUNTEER, "/fin 50", "0:48:00")
    done = {c.chat_id: c for c in edits(typed)}
    assert set(done) == {VOLUNTEER.id, ORGANISER.id}
    assert all(e.text == "#50 Luis · ✅ Recorded: 0:47:12 (Victor)" for e in done.values())
