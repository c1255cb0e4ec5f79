"""The registration draft (the registration's ``draft``): every step is saved by the conversation
itself, so a crash after any step loses nothing; a draft stored by the older bot (the plain
dict it kept in ``user_data``) still loads, and is stored again with the same content."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from contextlib import closing
from datetime import timedelta
from typing import Any

import pytest

from bot.features.registration.draft import Draft
from tests.conftest import CASTRILLO
from tests.fakebot import Call, Harness, texts
from tests.registration.test_registration_chat import ANA, data_of, madrid, open_harness, rows

# what the older bot stored at each step (its dict, key for key)
OLD_DRAFTS: list[dict[str, Any]] = [
    {"members": [], "started": 1677668400},
    {"members": [], "started": 1677668400, "category": "parejas", "current": {}},
    {"members": [], "started": 1677668400, "category": "parejas",
     "current": {"name": "Ana", "answers": []}},
    {"members": [], "started": 1677668400, "category": "parejas",
     "current": {"name": "Ana", "answers": ["aepuzz_member"], "born": None, "born_year": 1980},
     "question": 1, "phase": "member"},
    {"members": [{"name": "Ana", "answers": [], "born": "1980-02-03", "born_year": 1980,
                  "values": {"size": "m"}}],
     "started": 1677668400, "category": "parejas", "current": {"name": "Bea", "answers": []},
     "question": 2, "phase": "member",
     "refused": {"name": "Bea", "answers": [], "born": None, "born_year": 1950}},
    {"members": [{"name": "Ana", "answers": ["resident"], "born": None, "born_year": 1980}],
     "started": 1677668400, "category": "adultos", "current": {}, "question": 3,
     "phase": "entry", "values": {"heat": "morning"}, "meal_with": [[4, 2, 1]],
     "meal_adults": 1, "meal_children": 0, "resume": True},
]


@pytest.mark.parametrize("old", OLD_DRAFTS)
def test_an_old_draft_loads_and_is_stored_with_the_same_content(old):
    draft = Draft.load(json.loads(json.dumps(old)))
    assert draft.stored() == old
    assert [m.name for m in draft.member_list()] == [m["name"] for m in old["members"]]


def test_an_old_draft_reads_as_before():
    draft = Draft.load(OLD_DRAFTS[4])
    assert draft.category == "parejas" and draft.question == 2 and not draft.for_entry
    [ana] = draft.member_list()
    assert ana.born is not None and ana.born.isoformat() == "1980-02-03"
    assert ana.value("size") == "m"
    assert draft.refused is not None and draft.refused.born_year == 1950
    assert Draft.load(None) == Draft() and Draft.load({}) == Draft()


# Castrillo, one adult: every step of the conversation, as ("send" | "press", what)
STEPS = [("send", "/inscribir"), ("press", "reg:cat:adultos"), ("send", "Ana"),
         ("send", "1980"), ("press", "reg:q:0:n"), ("press", "reg:q:1:n"),
         ("press", "reg:meal:no"), ("press", "reg:ok")]


async def flushed(h: Harness) -> None:
    """Until the file holds the draft the bot has in memory: the flush after the last step
    (it runs after the answer is sent) is done, and only it, no shutdown, wrote it. A killed
    bot writes nothing more; this one, still running, must not write it late either."""
    data = dict(h.app.user_data.get(ANA.id, {}))
    want = [json.dumps(data, ensure_ascii=False)] if data else []
    for _ in range(250):
        got = [r["data"] for r in rows(h, "SELECT data FROM user_data")]
        if got == want:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"not saved: {want}, the file has {got}")


@pytest.mark.parametrize("crash_after", range(1, len(STEPS)))
async def test_a_crash_after_any_step_resumes_where_it_was(tmp_path, crash_after):
    """The bot dies without a clean shutdown after ``crash_after`` steps: the next bot, on the
    same file, takes the next answer and the entry is registered as if nothing happened."""
    at = madrid(3, 1)
    crashed = await open_harness(tmp_path, CASTRILLO)
    h = None
    try:
        calls: list[Call] = []
        for kind, what in STEPS[:crash_after]:
            calls = await (crashed.send(ANA, what, at) if kind == "send"
                           else crashed.press(ANA, what, at))
        kind, what = STEPS[crash_after]
        if kind == "press":  # the button the next step presses was offered before the crash
            assert what in data_of(crashed, calls), texts(calls)
        await flushed(crashed)
        h = await open_harness(tmp_path, CASTRILLO)  # no shutdown before: no final save
        later = at + timedelta(minutes=2)
        for kind, what in STEPS[crash_after:]:
            calls = await (h.send(ANA, what, later) if kind == "send"
                           else h.press(ANA, what, later))
        assert "Entry #1:" in texts(calls)[-1], texts(calls)
        [entry] = rows(h, "SELECT category FROM entries")
        assert entry["category"] == "adultos"
        assert [r["name"] for r in rows(h, "SELECT name FROM members")] == ["Ana"]
        assert not h.app.user_data.get(ANA.id)  # the draft is gone once registered
        await flushed(h)
    finally:
        if h is not None:
            await h.stop()
        await crashed.stop()


async def test_a_draft_stored_by_the_older_bot_goes_on(tmp_path):
    """A conversation left by the older bot (its dict in user_data, keys in its order) is
    resumed: the next answer is taken and the entry registered."""
    at = madrid(3, 1)
    h = await open_harness(tmp_path, CASTRILLO)
    await h.send(ANA, "/inscribir", at)
    await h.press(ANA, "reg:cat:adultos", at)
    await h.send(ANA, "Ana", at)
    await h.stop()
    [row] = rows(h, "SELECT user_id, data FROM user_data")
    stored = json.loads(row["data"])
    old = {"draft": {"members": [], "started": stored["draft"]["started"],
                     "category": "adultos", "current": {"name": "Ana", "answers": []}}}
    with closing(sqlite3.connect(h.db_path)) as conn:
        conn.execute("UPDATE user_data SET data = ? WHERE user_id = ?",
                     (json.dumps(old), row["user_id"]))
        conn.commit()
    h = await open_harness(tmp_path, CASTRILLO)
    try:
        calls = await h.send(ANA, "1980", at)
        assert data_of(h, calls) == ["reg:q:0:y", "reg:q:0:n"], texts(calls)
        for data in ("reg:q:0:y", "reg:q:1:n", "reg:meal:no"):
            calls = await h.press(ANA, data, at)
        assert "1. Ana (1980, Aepuzz member)" in texts(calls)[-1]
        assert "Entry #1:" in texts(await h.press(ANA, "reg:ok", at))[-1]
    finally:
        await h.stop()
