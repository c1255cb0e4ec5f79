"""The outbox rows (messages owed, done, pruned) and the chats Telegram moved."""

from __future__ import annotations

import json
import time as _time
from collections.abc import Sequence
from datetime import datetime
from functools import lru_cache
from typing import Any

from bot.storage.db import Database, StoreError, TransactionCore
from bot.storage.records import COPIES_KEEP_SECONDS, OUTBOX_KEEP_SECONDS, Copy, OutboxMessage, to_ts


class OutboxWrites(TransactionCore):
    """A transaction's writes of the outbox and of ``chat_moves``."""

    __slots__ = ()

    def post(self, chat_id: int, params: dict[str, Any], *, priority: int,
             grouping: str | None = None, method: str = "sendMessage",
             encoded: str | None = None) -> OutboxMessage:
        """A message owed to ``chat_id``, in this transaction: it exists (and is sent) if and
        only if this transaction commits (the transactional outbox). ``encoded``: ``params``
        as JSON already (many copies of one long edit, encoded once)."""
        s = self._owned()
        text = encoded if encoded is not None else json.dumps(
            params, ensure_ascii=False, separators=(",", ":"))
        cur = s._raw.execute(
            "INSERT INTO outbox (chat_id, priority, grouping, method, params, created_at) "
            "VALUES (?,?,?,?,?,?)", (chat_id, priority, grouping, method, text,
                                     int(_time.time())))
        if cur.lastrowid is None:
            raise StoreError("SQLite gave no id for a new outbox row")
        message = OutboxMessage(cur.lastrowid, chat_id, priority, method, params, grouping)
        s._wrote("outbox", posted=message)
        return message

    def mark_done(self, outcomes: Sequence[tuple[int, str]], at: datetime) -> None:
        """Messages no longer owed: (id, outcome) with outcome "sent", "unconfirmed" or
        "refused: ..." (Telegram will never take it)."""
        s = self._owned()
        s._raw.executemany("UPDATE outbox SET done_at = ?, outcome = ? WHERE id = ?",
                           [(to_ts(at), outcome, id_) for id_, outcome in outcomes])
        s._wrote("outbox")

    def move_chat(self, old_id: int, new_id: int, at: datetime) -> None:
        """Telegram moved chat ``old_id`` to ``new_id`` (a group upgraded to a supergroup):
        kept, so that the bot sends to the new id from now on, also after a restart."""
        s = self._owned()
        s._raw.execute("INSERT INTO chat_moves (old_id, new_id, moved_at) VALUES (?,?,?) "
                       "ON CONFLICT(old_id) DO UPDATE SET new_id = excluded.new_id, "
                       "moved_at = excluded.moved_at", (old_id, new_id, to_ts(at)))
        s._wrote("chat_moves")

    def prune_outbox(self, before: datetime) -> int:
        """Forget the messages done before ``before``: the file does not grow with them."""
        s = self._owned()
        cur = s._raw.execute("DELETE FROM outbox WHERE done_at IS NOT NULL AND done_at < ?",
                             (to_ts(before),))
        copies = to_ts(before) - (COPIES_KEEP_SECONDS - OUTBOX_KEEP_SECONDS)
        for table in ("copies", "copy_texts"):
            s._raw.execute(f"DELETE FROM {table} WHERE sent_at < ?", (copies,))
        s._raw.execute("DELETE FROM settled_lines WHERE at < ?", (copies,))
        s._raw.execute("DELETE FROM text_claims WHERE text_id NOT IN (SELECT id FROM copy_texts)")
        s._wrote("outbox")
        return cur.rowcount

    def record_copies(self, copies: Sequence[Copy], at: datetime) -> None:
        """Messages Telegram took that carry lines a volunteer may claim (``Copy``): the same
        message sent to many chats is written once, and each copy is one row whatever the
        lines it joins (migration 0009). Two statements whatever their number (each call into
        SQLite gives up the GIL and waits to get it back)."""
        s = self._owned()
        when = to_ts(at)
        texts: dict[_Key, _Text] = {}
        for c in copies:  # each text written once (its JSON too: a joined line is kilobytes)
            key = _key(c)
            if key not in texts:
                texts[key] = _text(c)
        ids = self._copy_texts(list(texts.values()), when)
        # a copy already recorded (the marks written again after a failed commit) stays
        s._raw.executemany(
            "INSERT OR IGNORE INTO copies (chat_id, message_id, text_id, sent_at) "
            "VALUES (?,?,?,?)",
            [(c.chat_id, c.message_id, ids[texts[_key(c)]], when) for c in copies])
        s._wrote("copies")

    def _copy_texts(self, texts: Sequence[_Text], when: int) -> dict[_Text, int]:
        """Rows of ``copy_texts`` for (parts JSON, markup, claims JSON, caption): their
        ids."""
        s = self._owned()
        ids: dict[_Text, int] = {}
        for at in range(0, len(texts), 200):  # within SQLite's variables per statement
            chunk = texts[at:at + 200]
            rows = s._raw.execute(
                "INSERT INTO copy_texts (parts, markup, claims, caption, sent_at) VALUES "
                + ",".join(["(?,?,?,?,?)"] * len(chunk)) + " RETURNING id",
                [v for parts, markup, claims, caption in chunk
                 for v in (parts, markup, claims, caption, when)]
            ).fetchall()
            # one statement's rows take ids one above the other in the order of its VALUES
            # (``id`` is the rowid, never given): the ids sorted are the texts' in order,
            # without reading kilobytes of text back to match them
            made = sorted(int(r[0]) for r in rows)
            ids.update(zip(chunk, made, strict=True))
            s._raw.executemany(  # each text's claims, for finding a line's copies by index
                "INSERT INTO text_claims (claim, text_id) VALUES (?,?)",
                [(claim, text_id) for (_, _, claims, _), text_id in zip(chunk, made, strict=True)
                 for claim, _ in _claims_of(claims)])
        return ids

    def settle_line(self, claim: str, notes: dict[str, str], gone: frozenset[str]) -> None:
        """The line ``claim`` settled: what its copies read in its place, by language, and
        the buttons that go; kept for the copies sent after it (``settled_lines``)."""
        s = self._owned()
        s._raw.execute(
            "INSERT OR REPLACE INTO settled_lines (claim, notes, gone, at, applied) "
            "VALUES (?,?,?,?,0)",
            (claim, json.dumps(notes, ensure_ascii=False, separators=(",", ":")),
             json.dumps(sorted(gone)), int(_time.time())))
        s.settles_pending = True  # the sender's marks apply it (a rollback: they find none)
        s._wrote("copies")

    def settled_lines(self, claims: Sequence[str]
                      ) -> dict[str, tuple[dict[str, str], frozenset[str]]]:
        """Of ``claims``, the lines settled and applied: claim -> (its notes by language,
        the buttons gone); read on the writer's side (the sender's marks, for a copy sent
        after its line was settled)."""
        s = self._owned()
        wanted = sorted(set(claims))
        out: dict[str, tuple[dict[str, str], frozenset[str]]] = {}
        for at in range(0, len(wanted), 500):
            chunk = wanted[at:at + 500]
            for claim, notes, gone in s._raw.execute(
                    "SELECT claim, notes, gone FROM settled_lines WHERE applied = 1 AND "
                    "claim IN (" + ",".join("?" * len(chunk)) + ")", chunk).fetchall():
                out[str(claim)] = (_notes(notes), _gone(gone))
        return out

    def pending_settles(self) -> list[tuple[str, dict[str, str], frozenset[str]]]:
        """The lines settled and not applied yet, in the order they were settled, marked
        applied (in this transaction: with the edits that apply them)."""
        s = self._owned()
        s.settles_pending = False
        rows = s._raw.execute("SELECT claim, notes, gone FROM settled_lines WHERE applied = 0 "
                              "ORDER BY rowid").fetchall()
        if rows:
            s._raw.execute("UPDATE settled_lines SET applied = 1 WHERE applied = 0")
            s._wrote("copies")
        return [(str(c), _notes(n), _gone(g)) for c, n, g in rows]

    def rewrite_copies(self, copies: Sequence[tuple[int, int, Copy]]) -> None:
        """Copies as they read once edited (their lines and buttons now), each (chat, message
        id, copy): copies that read the same share one text (written, and encoded, once)."""
        s = self._owned()
        texts: dict[_Key, _Text] = {}
        for _, _, c in copies:
            key = _key(c)
            if key not in texts:
                texts[key] = _text(c)
        ids = self._copy_texts(list(texts.values()), int(_time.time()))
        s._raw.executemany(
            "UPDATE copies SET text_id = ? WHERE chat_id = ? AND message_id = ?",
            [(ids[texts[_key(c)]], chat, message) for chat, message, c in copies])
        s._wrote("copies")


@lru_cache(maxsize=1024)
def _notes_of(notes: str) -> tuple[tuple[str, str], ...]:
    return tuple(json.loads(notes).items())


def _notes(notes: str) -> dict[str, str]:
    return dict(_notes_of(notes))


@lru_cache(maxsize=1024)
def _gone(gone: str) -> frozenset[str]:
    return frozenset(json.loads(gone))


# a copy's text as its fields (copies that read the same share it) and as its row's values
_Key = tuple[tuple[str, ...], str | None, tuple[tuple[str, int], ...], bool]
_Text = tuple[str, str | None, str, int]


def _key(c: Copy) -> _Key:
    return (c.parts, c.markup, c.claims, c.caption)


def _text(c: Copy) -> _Text:
    return (_parts_json(c.parts), c.markup, _claims_json(c.claims), int(c.caption))


def _parts_json(parts: tuple[str, ...]) -> str:
    """As ``json.dumps(parts)`` writes it, from each line's own JSON (``json_line``)."""
    return "[" + ",".join(f'"{json_line(p)}"' for p in parts) + "]"


@lru_cache(maxsize=4096)
def json_line(line: str) -> str:
    """A line as inside a JSON string (without its quotes): a line is in every chat's copy
    of a message, and in each copy again after each edit, so it is encoded once."""
    return json.dumps(line, ensure_ascii=False)[1:-1]


@lru_cache(maxsize=1024)
def _claims_json(claims: tuple[tuple[str, int], ...]) -> str:
    """A text's claims as migration 0009 writes them (``copies_of`` looks for ``"claim"``)."""
    return json.dumps([[claim, part] for claim, part in claims], separators=(",", ":"))


@lru_cache(maxsize=1024)
def _parts_of(parts: str) -> tuple[str, ...]:
    """A copy's lines from their JSON: a text row never changes (an edit writes a new one),
    and each settled line reads the copies of twenty chats again."""
    return tuple(json.loads(parts))


@lru_cache(maxsize=1024)
def _claims_of(claims: str) -> tuple[tuple[str, int], ...]:
    return tuple((str(k), int(p)) for k, p in json.loads(claims))


class OutboxReads(Database):
    """The reads of the outbox and of ``chat_moves``."""

    async def owed_messages(self) -> list[OutboxMessage]:
        """Every message still owed (committed and not done), in the order it was posted."""
        rows = await self._fetchall(
            "SELECT id, chat_id, priority, method, params, grouping FROM outbox "
            "WHERE done_at IS NULL ORDER BY id")
        return [OutboxMessage(int(r[0]), int(r[1]), int(r[2]), str(r[3]), json.loads(r[4]),
                              r[5]) for r in rows]

    async def copies_of(self, claim: str) -> list[Copy]:
        """Every copy known of the line ``claim`` (each with every claimable line it joins and
        its place, ``claims``), in the order they were sent."""
        rows = await self._fetchall(
            "SELECT DISTINCT c.chat_id, c.message_id, t.parts, t.markup, t.claims, t.caption, "
            "c.rowid FROM text_claims k JOIN copies c ON c.text_id = k.text_id "
            "JOIN copy_texts t ON t.id = k.text_id WHERE k.claim = ? "
            "ORDER BY c.rowid", (claim,))
        out = []
        for r in rows:
            claims = _claims_of(r[4])
            if any(k == claim for k, _ in claims):  # the name itself, not one containing it
                out.append(Copy(int(r[0]), int(r[1]), _parts_of(r[2]), r[3], claims,
                                bool(r[5])))
        return out

    async def copies_of_any(self, claims: Sequence[str]) -> dict[str, list[Copy]]:
        """``copies_of`` for many claims in one pass over the copies (the lines settled since
        the sender's marks last applied them): claim -> its copies, in the order sent."""
        wanted = sorted(set(claims))
        out: dict[str, list[Copy]] = {}
        for at in range(0, len(wanted), 200):
            chunk = wanted[at:at + 200]
            rows = await self._fetchall(
                "SELECT DISTINCT c.chat_id, c.message_id, t.parts, t.markup, t.claims, "
                "t.caption, c.rowid FROM text_claims k JOIN copies c ON c.text_id = k.text_id "
                "JOIN copy_texts t ON t.id = k.text_id WHERE k.claim IN ("
                + ",".join("?" * len(chunk)) + ") ORDER BY c.rowid", chunk)
            chunk_set = set(chunk)
            for r in rows:
                held = _claims_of(r[4])
                hit = [k for k, _ in held if k in chunk_set]
                if hit:
                    copy = Copy(int(r[0]), int(r[1]), _parts_of(r[2]), r[3], held, bool(r[5]))
                    for k in hit:
                        out.setdefault(k, []).append(copy)
        return out

    async def chat_moves(self) -> dict[int, int]:
        """Chats Telegram moved to a new id: old id -> new id (``Transaction.move_chat``)."""
        rows = await self._fetchall("SELECT old_id, new_id FROM chat_moves")
        return {int(r[0]): int(r[1]) for r in rows}

    async def outbox_counts(self) -> dict[str, int]:
        """How many rows the outbox holds: owed, and done by outcome (sent, unconfirmed,
        refused)."""
        rows = await self._fetchall(
            "SELECT CASE WHEN done_at IS NULL THEN 'owed' "
            "WHEN outcome LIKE 'refused%' THEN 'refused' ELSE outcome END, COUNT(*) "
            "FROM outbox GROUP BY 1")
        return {str(r[0]): int(r[1]) for r in rows}
