"""A contest's history read out whole and written back into a fresh database (the contest
document: ``bot/services/document.py``): events with their own ids, the people."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from bot.domain.events import EventKind
from bot.storage.db import Database, TransactionCore
from bot.storage.records import to_ts

# the kinds of who is who: a database an import goes into may hold its own (the new bot's
# organiser link, the organisers and volunteers who joined it), kept
_ACCESS = (EventKind.LINK, EventKind.VOLUNTEER_INVITE, EventKind.VOLUNTEER_JOIN,
           EventKind.ORGANISER_INVITE, EventKind.ORGANISER_JOIN)
# what the bot records by itself of a contest with no entries, about none of them (started once
# after registration closed: its closing report, which left nobody out): dropped by an import,
# whose history says what was told of its contest (kept, a report of nobody would keep the
# new bot from reporting the document's entries left out at its next start)
_BOOKKEEPING = (EventKind.CLOSING_REPORT, EventKind.ALERT)
_OWN = (f"kind IN ({','.join('?' * len(_ACCESS))}) OR (kind IN "
        f"({','.join('?' * len(_BOOKKEEPING))}) AND role = 'system' AND actor IS NULL AND "
        "entry IS NULL)")


class DocumentWrites(TransactionCore):
    """A transaction's writes of a document's rows, as they were in the database it came from."""

    __slots__ = ()

    def import_event(self, *, event_id: int, at: datetime, recorded_at: datetime,
                     actor: int | None, role: str, kind: str, entry: int | None,
                     category: str | None, stage: int | None, value: int | None,
                     ref: str | None, data: dict[str, Any] | None,
                     supersedes: int | None) -> None:
        """An event with its own id (corrections name the ids they supersede)."""
        s = self._owned()
        s._raw.execute(
            "INSERT INTO events (id, at, recorded_at, actor, role, kind, entry, category, "
            "stage, value, ref, data, supersedes) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (event_id, to_ts(at), to_ts(recorded_at), actor, role, kind, entry, category, stage,
             value, ref, json.dumps(data, ensure_ascii=False) if data else None, supersedes))
        s._wrote("events")  # rows written by hand: everything derived is worked out again

    def import_person(self, user_id: int, name: str, language: str | None,
                      tg_language: str | None) -> bool:
        """Someone who wrote to the bot, unless the database knows them already (they sent
        /start before the import): its own row is newer, and kept. Whether it was written."""
        s = self._owned()
        cur = s._raw.execute("INSERT INTO people (user_id, name, language, tg_language) "
                             "VALUES (?,?,?,?) ON CONFLICT(user_id) DO NOTHING",
                             (user_id, name, language, tg_language))
        s._wrote("people")
        return cur.rowcount > 0

    def holds_contest(self) -> bool:
        """Whether the database has entries, or events besides its own of who is who (its
        organisers' link, who opened it) and its bookkeeping of a contest with no entries
        (``_BOOKKEEPING``), already: read on the writer's side, inside the import's own
        transaction."""
        s = self._owned()
        row = s._raw.execute(
            "SELECT EXISTS (SELECT 1 FROM entries) OR EXISTS (SELECT 1 FROM events WHERE NOT "
            f"({_OWN}))", (*_ACCESS, *_BOOKKEEPING)).fetchone()
        return bool(row[0])

    def make_room(self, last_id: int) -> None:
        """The database's own events (``holds_contest``): its bookkeeping of no entries
        dropped, those of who is who moved, in their order, after ``last_id``, the
        document's last: they stay the new bot's."""
        s = self._owned()
        s._raw.execute(f"DELETE FROM events WHERE kind IN ({','.join('?' * len(_BOOKKEEPING))})",
                       _BOOKKEEPING)
        top = int(s._raw.execute("SELECT COALESCE(MAX(id), 0) FROM events").fetchone()[0])
        if top:  # past both: no id taken twice on the way
            s._raw.execute("UPDATE events SET id = id + ?", (max(top, last_id),))
        s._wrote("events")


class DocumentReads(Database):
    async def people_rows(self) -> list[dict[str, Any]]:
        """Everyone who wrote to the bot: id, name, chosen language, Telegram's language."""
        rows = await self._fetchall(
            "SELECT user_id, name, language, tg_language FROM people ORDER BY user_id")
        return [{"id": r["user_id"], "name": r["name"], "language": r["language"],
                 "tg_language": r["tg_language"]} for r in rows]
