"""The copies of claimable lines (bot/delivery/claims.py, migration 0008): what a copy reads once
its line is claimed, a copy recorded only after the claim (its line was still on its way to
that chat) edited by the marks that record it, and the copies kept across a restart."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from datetime import UTC, datetime

from bot.delivery.claims import EDIT_METHOD, edited
from bot.delivery.marks import Marks
from bot.domain.events import EventKind
from bot.storage.store import Copy, Store

T = datetime(2023, 4, 22, 10, 0, tzinfo=UTC)
CLAIM, OTHER = "take:3:7", "take:9:8"


def markup(*claims: str) -> str:
    return json.dumps({"inline_keyboard": [[{"text": f"go {c}", "callback_data": c}]
                                           for c in claims] + [[{"text": "Record",
                                                                 "callback_data": "ready:ok"}]]})


def rows(m: str | None) -> list[str]:
    return [] if m is None else [b["callback_data"] for r in json.loads(m)["inline_keyboard"]
                                 for b in r]


def test_a_claimed_line_gets_its_note_and_loses_only_its_button() -> None:
    copy = Copy(5, 77, ("HINT #3 stage 2", "FINISHED? #9"), markup(CLAIM, OTHER),
                ((CLAIM, 0), (OTHER, 1)))
    once = edited(copy, CLAIM, "→ Ana is going")
    assert once.text == "HINT #3 stage 2\n→ Ana is going\nFINISHED? #9"
    assert rows(once.markup) == [OTHER, "ready:ok"]
    twice = edited(once, OTHER, "→ Bea is going")
    assert twice.text == "HINT #3 stage 2\n→ Ana is going\nFINISHED? #9\n→ Bea is going"
    assert rows(twice.markup) == ["ready:ok"]
    only = json.dumps({"inline_keyboard": [[{"text": "go", "callback_data": CLAIM}]]})
    alone = Copy(5, 78, ("HINT #3",), only, ((CLAIM, 0),))
    assert edited(alone, CLAIM, "→ Ana").markup is None  # no button left


async def test_a_copy_recorded_after_its_claim_is_edited_by_the_marks(tmp_path) -> None:
    store = await Store.open(tmp_path / "copies.sqlite3")
    try:
        async with store.transaction() as tx:
            await tx.add_event(at=T, kind=EventKind.CLAIM, role="volunteer", actor=2,
                               ref=CLAIM, data={"by": "Víctor", "user": 2, "entry": 3})

        async def note(chat: int, data: dict) -> str:
            return f"→ {data['by']} (chat {chat})"

        marks = Marks(store, lambda: 0, asyncio.Event(), note_of=note)
        late = Copy(5, 90, ("HINT #3 stage 2",), markup(CLAIM), ((CLAIM, 0),))
        unclaimed = Copy(6, 91, ("FINISHED? #9",), markup(OTHER), ((OTHER, 0),))
        same = Copy(7, 92, ("FINISHED? #9",), markup(OTHER), ((OTHER, 0),))  # another chat's
        await marks._mark([], [], [late, unclaimed, same])
        owed = [m for m in await store.owed_messages() if m.method == EDIT_METHOD]
        assert [(m.chat_id, m.params["message_id"], m.params["text"]) for m in owed] == [
            (5, 90, "HINT #3 stage 2\n→ Víctor (chat 5)")]
        assert rows(owed[0].params.get("reply_markup")) == ["ready:ok"]
        # the copy as it now reads is kept, for the next claim of a line in it
        (now,) = await store.copies_of(CLAIM)
        assert now.text == "HINT #3 stage 2\n→ Víctor (chat 5)"
        assert [c.message_id for c in await store.copies_of(OTHER)] == [91, 92]
    finally:
        await store.close()
    with sqlite3.connect(tmp_path / "copies.sqlite3") as db:  # one text for both chats' same
        # message, and the edited one's own
        assert db.execute("SELECT COUNT(*) FROM copy_texts").fetchone()[0] == 3
    # and after a restart, the copies are still there for a claim to edit
    again = await Store.open(tmp_path / "copies.sqlite3")
    try:
        assert [c.message_id for c in await again.copies_of(OTHER)] == [91, 92]
    finally:
        await again.close()


async def test_copies_recorded_before_migration_0009_are_still_found(tmp_path) -> None:
    """A database of the previous schema (one ``copy_lines`` row per claimable line of a copy)
    keeps its copies: after the upgrade a claim finds each of them, with every claimable line
    the copy joins, in the order they were sent, and an edit of one copy leaves the others."""
    from bot.storage.db import migrations

    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:
        for version, sql in migrations():
            if version <= 8:
                db.executescript(f"BEGIN;\n{sql}\n;PRAGMA user_version = {version};\nCOMMIT;")
        parts = json.dumps(["HINT #3 stage 2", "FINISHED? #9"])
        db.execute("INSERT INTO copy_texts (id, parts, markup, sent_at) VALUES (1, ?, ?, 100)",
                   (parts, markup(CLAIM, OTHER)))
        db.executemany(
            "INSERT INTO copy_lines (claim, chat_id, message_id, part, text_id, sent_at) "
            "VALUES (?,?,?,?,1,100)",
            [(CLAIM, 6, 61, 0), (OTHER, 6, 61, 1), (CLAIM, 5, 51, 0), (OTHER, 5, 51, 1)])
    store = await Store.open(path)
    try:
        assert await store.schema_version() >= 9
        found = await store.copies_of(OTHER)
        assert [(c.chat_id, c.message_id) for c in found] == [(6, 61), (5, 51)]
        assert all(c.claims == ((CLAIM, 0), (OTHER, 1)) for c in found)
        assert found[0].text == "HINT #3 stage 2\nFINISHED? #9"
        assert await store.copies_of("take:3") == []  # a prefix of a claim is no claim
        async with store.transaction() as tx:
            tx.rewrite_copies([(6, 61, edited(found[0], OTHER, "→ Bea"))])
        now = {c.chat_id: c.text for c in await store.copies_of(CLAIM)}
        assert now == {6: "HINT #3 stage 2\nFINISHED? #9\n→ Bea",
                       5: "HINT #3 stage 2\nFINISHED? #9"}
    finally:
        await store.close()


async def test_a_copy_sent_after_its_line_was_settled_is_settled_by_the_marks(tmp_path) -> None:
    """Issue 47, item 4: a "FINISHED?" line still on its way to a chat when its finish was
    recorded went out with its buttons, and nothing closed it. The settled line is kept
    (``settled_lines``: its note in each language, the buttons that go), and the marks that
    record the late copy edit it alike, in its reader's language, also after a restart."""
    path = tmp_path / "settled.sqlite3"
    store = await Store.open(path)
    try:
        async with store.transaction() as tx:
            tx.settle_line(CLAIM, {"en": "#3 Ana · ✅ Recorded", "es": "#3 Ana · ✅ Anotado"},
                           frozenset((CLAIM, "ready:ok")))
    finally:
        await store.close()
    store = await Store.open(path)  # a restart between the settling and the send
    try:
        langs = {5: "es", 6: "en"}

        async def note(chat: int, data: dict) -> str:
            return data["settled"][langs[chat]]

        marks = Marks(store, lambda: 0, asyncio.Event(), note_of=note)
        marks.settle_due = store.settles_pending  # as the sender's start sets it
        late = Copy(5, 90, ("HINT #1", "FINISHED? #3"), markup(OTHER, CLAIM),
                    ((OTHER, 0), (CLAIM, 1)))
        await marks._mark([], [], [late])  # recorded, and the settling applied to it
        owed = {m.chat_id: m for m in await store.owed_messages() if m.method == EDIT_METHOD}
        assert owed[5].params["text"] == "HINT #1\n#3 Ana · ✅ Anotado"
        assert rows(owed[5].params.get("reply_markup")) == [OTHER]  # the other line's stays
        # a copy sent only after the settling was applied: settled once recorded
        other = Copy(6, 91, ("FINISHED? #3",), markup(CLAIM), ((CLAIM, 0),))
        await marks._mark([], [], [other])
        owed = {m.chat_id: m for m in await store.owed_messages() if m.method == EDIT_METHOD}
        assert owed[6].params["text"] == "#3 Ana · ✅ Recorded"
        assert "reply_markup" not in owed[6].params  # nothing left to tap
        assert len(owed) == 2  # each copy edited once
    finally:
        await store.close()


async def test_lines_settled_while_updates_are_handled_wait_for_a_quiet_moment(tmp_path
                                                                               ) -> None:
    """Issue 50: at a rush of finishes every settling edited twenty volunteers' joined
    messages again at each mark (351 edits on the benchmark day). While updates are being
    handled the settled lines wait (at most the gap) and every copy is then edited once with
    all of them; as soon as the bot is quiet they are applied."""
    store = await Store.open(tmp_path / "held.sqlite3")
    try:
        async with store.transaction() as tx:
            tx.record_copies([Copy(5, 90, ("FINISHED? #3", "FINISHED? #9"),
                                   markup(CLAIM, OTHER), ((CLAIM, 0), (OTHER, 1)))], T)

        async def note(chat: int, data: dict) -> str:
            return data["settled"]["en"]

        quiet = asyncio.Event()  # an update is being handled
        changed = asyncio.Event()
        marks = Marks(store, lambda: 0, changed, note_of=note, quiet=quiet,
                      settle_gap=3600.0)
        marks._last_settle = asyncio.get_running_loop().time()  # applied a moment ago

        async def edits() -> list:
            return [m for m in await store.owed_messages() if m.method == EDIT_METHOD]

        for claim, text in ((CLAIM, "#3 ✅"), (OTHER, "#9 ✅")):
            async with store.transaction() as tx:
                tx.settle_line(claim, {"en": text}, frozenset((claim,)))
            marks.settle_due = True
            marks.schedule()
            await asyncio.sleep(0)
        assert marks.pending()  # owed: the sender's "settled" waits for it
        assert await edits() == []  # held while busy
        quiet.set()  # nothing being handled any more
        while marks.pending():
            changed.clear()
            await changed.wait()
        (edit,) = await edits()  # one edit with both lines
        assert edit.params["text"] == "#3 ✅\n#9 ✅"
        assert "reply_markup" not in edit.params or rows(edit.params["reply_markup"]) == [
            "ready:ok"]
    finally:
        await store.close()


async def test_lines_settled_while_busy_go_once_the_gap_is_over(tmp_path) -> None:
    """A day that never goes quiet still gets its settled lines, once per gap."""
    store = await Store.open(tmp_path / "gap.sqlite3")
    try:
        async with store.transaction() as tx:
            tx.record_copies([Copy(5, 90, ("FINISHED? #3",), markup(CLAIM),
                                   ((CLAIM, 0),))], T)
            tx.settle_line(CLAIM, {"en": "#3 ✅"}, frozenset((CLAIM,)))

        async def note(chat: int, data: dict) -> str:
            return data["settled"]["en"]

        changed = asyncio.Event()
        marks = Marks(store, lambda: 0, changed, note_of=note, quiet=asyncio.Event(),
                      settle_gap=0.0)  # busy for good, the gap over at once
        marks.settle_due = True
        marks.schedule()
        while marks.pending():
            changed.clear()
            await changed.wait()
        (edit,) = [m for m in await store.owed_messages() if m.method == EDIT_METHOD]
        assert edit.params["text"] == "#3 ✅"
    finally:
        await store.close()
