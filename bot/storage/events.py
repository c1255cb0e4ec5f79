"""The events: their SQL, each entry's history held in memory, redelivered updates."""

from __future__ import annotations

import json
import time as _time
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from bot.domain.events import EventKind
from bot.storage.db import Database, StoreError, TransactionCore
from bot.storage.records import Event, event_from_tuple, to_ts

_INSERT_EVENT = (
    "INSERT INTO events (at, recorded_at, actor, role, kind, entry, category, stage, value, ref, "
    "data, supersedes, update_id) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)")
EVENT_COLUMNS = ("id, at, actor, role, kind, entry, category, stage, value, ref, data, "
                 "supersedes, recorded_at")
_SELECT_EVENTS = f"SELECT {EVENT_COLUMNS} FROM events"


class EventWrites(TransactionCore):
    """A transaction's write of an event."""

    __slots__ = ()

    def refs_taken(self, kind: str, refs: Iterable[str]) -> dict[str, dict[str, Any]]:
        """The first event of ``kind`` with each of ``refs`` that has one (ref -> its data),
        read on the writer's own side, without a trip to the reading thread: a check the
        writer makes while others wait for it (a claim; the sender's marks)."""
        s = self._owned()
        wanted = sorted(set(refs))
        if not wanted:
            return {}
        out: dict[str, dict[str, Any]] = {}
        for ref, data in s._raw.execute(
                f"SELECT ref, data FROM events WHERE kind = ? AND ref IN "
                f"({','.join('?' * len(wanted))}) ORDER BY id", (kind, *wanted)).fetchall():
            out.setdefault(str(ref), json.loads(data) if data else {})
        return out

    async def add_event(
        self,
        *,
        at: datetime,
        kind: str,
        role: str,
        actor: int | None = None,
        entry: int | None = None,
        category: str | None = None,
        stage: int | None = None,
        value: int | None = None,
        ref: str | None = None,
        data: dict[str, Any] | None = None,
        supersedes: int | None = None,
        update_id: int | None = None,
    ) -> int:
        s = self._owned()
        params = (
            to_ts(at), int(_time.time()), actor, role, kind, entry, category, stage, value, ref,
            json.dumps(data, ensure_ascii=False) if data else None, supersedes, update_id,
        )
        event: Event | None = None
        if entry is not None and entry in s._by_entry:
            # the entry's history is held in memory: the new row joins it as the file holds it
            row = s._raw.execute(_INSERT_EVENT + f" RETURNING {EVENT_COLUMNS}",
                                 params).fetchall()[0]  # to the end: the statement is finished
            event = event_from_tuple(row)
            event_id = event.id
        else:
            cur = s._raw.execute(_INSERT_EVENT, params)
            if cur.lastrowid is None:
                raise StoreError("SQLite gave no id for a new event")
            event_id = cur.lastrowid
        s._wrote("events", event_id=event_id, kind=kind, entry=entry, supersedes=supersedes,
                 event=event, update_id=update_id)
        return event_id


class EventReads(Database):
    """The history: every read of ``events``."""

    async def all_events(self) -> list[Event]:
        return [event_from_tuple(r) for r in await self._fetchall(f"{_SELECT_EVENTS} ORDER BY id")]

    async def events(
        self,
        *,
        entry: int | None = None,
        kinds: Iterable[str] | None = None,
        actor: int | None = None,
        effective: bool = True,
    ) -> list[Event]:
        """Events in id order; with ``effective``, without those superseded by a correction."""
        if entry is not None:
            return self._pick(await self._entry_history(entry), kinds, actor, effective)
        where: list[str] = []
        params: list[object] = []
        if actor is not None:
            where.append("actor = ?")
            params.append(actor)
        kind_list = list(kinds) if kinds is not None else None
        if kind_list is not None:
            where.append(f"kind IN ({','.join('?' * len(kind_list))})")
            params.extend(kind_list)
        sql = _SELECT_EVENTS + (" WHERE " + " AND ".join(where) if where else "")
        rows = [event_from_tuple(r) for r in await self._fetchall(sql + " ORDER BY id", params)]
        if not effective:
            return rows
        return [e for e in rows if e.id not in self._dead]

    def _pick(self, history: list[Event], kinds: Iterable[str] | None, actor: int | None,
              effective: bool) -> list[Event]:
        wanted = set(kinds) if kinds is not None else None
        return [e for e in history
                if (wanted is None or e.kind in wanted)
                and (actor is None or e.actor == actor)
                and (not effective or e.id not in self._dead)]

    async def events_of_entries(self, entries: Iterable[int], kinds: Iterable[str]
                                ) -> dict[int, list[Event]]:
        """The effective events of ``kinds`` of each of ``entries`` (those with any), each
        entry's in id order, as ``events(entry=...)`` gives them, in a few reads (not one per
        entry), and without holding them: a ranking of thousands of entries."""
        numbers = sorted(set(entries))
        kind_list = list(kinds)
        out: dict[int, list[Event]] = {}
        for start in range(0, len(numbers), 500):  # SQLite bounds the variables per query
            chunk = numbers[start:start + 500]
            rows = await self._fetchall(
                f"{_SELECT_EVENTS} WHERE entry IN ({','.join('?' * len(chunk))}) AND kind IN "
                f"({','.join('?' * len(kind_list))}) ORDER BY id", (*chunk, *kind_list))
            for r in rows:
                if r[0] not in self._dead:
                    event = event_from_tuple(r)
                    out.setdefault(event.entry, []).append(event)  # type: ignore[arg-type]
        return out

    def events_in_memory(self, entry: int, kinds: Iterable[str] | None = None
                         ) -> list[Event] | None:
        """An entry's effective events (of ``kinds``), as ``events(entry=...)`` would give
        them, if its history is already held in memory; None if it would need a read."""
        history = self._by_entry.get(entry)
        return None if history is None else self._pick(history, kinds, None, True)

    async def _entry_history(self, entry: int) -> list[Event]:
        known = self._by_entry.get(entry)
        if known is not None:
            return known
        version = self.entry_versions.get(entry, 0)
        rows = await self._fetchall(f"{_SELECT_EVENTS} WHERE entry = ? ORDER BY id", (entry,))
        history = [event_from_tuple(r) for r in rows]
        # kept only if nothing of this entry was written meanwhile (the read may have missed
        # it), and only for an entry that exists: events of a number not yet taken could still
        # come from another process's import
        if self.entry_versions.get(entry, 0) == version and (history or entry in self._entries):
            self._by_entry.setdefault(entry, history)
        return history

    async def links_after(self, after: int) -> list[tuple[int, int | None, int | None]]:
        """The links in force written after event ``after`` (id, actor, entry), in id order:
        who follows which entry, read without making an ``Event`` of each."""
        rows = await self._fetchall("SELECT id, actor, entry FROM events WHERE kind = ? AND "
                                    "id > ? ORDER BY id", (EventKind.LINK, after))
        return [(int(r[0]), r[1], r[2]) for r in rows if r[0] not in self._dead]

    async def refusals_without_notice(self) -> list[tuple[int, str, int]]:
        """The cooldown refusals in force whose notice was not sent (no notice in force with
        their ref), as (entry, ref, value), in id order: what ``events`` of both kinds would
        give, read without making an ``Event`` of every refusal (a big day holds hundreds of
        thousands of them, and all but a few have their notice)."""
        notices = await self._fetchall("SELECT id, ref FROM events WHERE kind = ? AND ref IS "
                                       "NOT NULL", (EventKind.NOTICE,))
        sent = {str(r[1]) for r in notices if r[0] not in self._dead}
        # the refusals' refs first (a few thousand, read from the index alone), then the rows
        # of those without a notice in force: not a look-up of a notice for every refusal
        refs = await self._fetchall("SELECT DISTINCT ref FROM events WHERE kind = ? AND ref IS "
                                    "NOT NULL", (EventKind.REQUEST_REFUSED,))
        unsent = sorted({str(r[0]) for r in refs} - sent)
        rows: list[Any] = []
        for start in range(0, len(unsent), 500):  # SQLite bounds the variables per query
            chunk = unsent[start:start + 500]
            rows += await self._fetchall(
                "SELECT id, entry, ref, value FROM events WHERE kind = ? AND ref IN "
                f"({','.join('?' * len(chunk))}) AND entry IS NOT NULL AND value IS NOT NULL",
                (EventKind.REQUEST_REFUSED, *chunk))
        return [(int(r[1]), str(r[2]), int(r[3])) for r in sorted(rows, key=lambda r: r[0])
                if r[0] not in self._dead]

    async def _load_update_floor(self) -> None:
        self._update_ids.clear()  # first: an id written during the read below is in the file
        row = await self._fetchone("SELECT COALESCE(MAX(update_id), -1) FROM events")
        self._update_floor = int(row[0]) if row is not None else None

    async def handled(self, update_id: int) -> bool:
        """Whether an update already left its event (Telegram redelivers an update whose
        handling it did not hear about: a restart between the commit and the next poll)."""
        if self._update_floor is None:
            await self._load_update_floor()
        if update_id in self._update_ids:
            return True
        if self._update_floor is not None and update_id > self._update_floor:
            return False  # newer than anything in the file then, and not written since
        row = await self._fetchone("SELECT 1 FROM events WHERE update_id = ? LIMIT 1",
                                   (update_id,))
        return row is not None


    def is_effective(self, event_id: int) -> bool:
        return event_id not in self._dead

    async def effective_ids(self) -> set[int]:
        """Ids of all events still in force (for whole-history views; tests, /historial)."""
        rows = await self._fetchall("SELECT id FROM events")
        return {int(r["id"]) for r in rows} - self._dead

    async def event(self, event_id: int) -> Event | None:
        row = await self._fetchone(f"{_SELECT_EVENTS} WHERE id = ?", (event_id,))
        return event_from_tuple(row) if row else None

    async def has_ref(self, kind: str, ref: str) -> bool:
        row = await self._fetchone(
            "SELECT 1 FROM events WHERE kind = ? AND ref = ? LIMIT 1", (kind, ref)
        )
        return row is not None

    async def last_at(self) -> datetime | None:
        """The moment of the latest event (none in an empty database)."""
        row = await self._fetchone("SELECT MAX(at) FROM events", ())
        return None if row is None or row[0] is None else \
            datetime.fromtimestamp(int(row[0]), UTC)

    async def newest_message_dates(self) -> dict[int, datetime]:
        """Per person, the newest Telegram date of a message of theirs that caused an event."""
        rows = await self._fetchall("SELECT actor, MAX(at) FROM events WHERE update_id IS NOT "
                                    "NULL AND actor IS NOT NULL GROUP BY actor")
        return {int(r[0]): datetime.fromtimestamp(int(r[1]), UTC) for r in rows}
