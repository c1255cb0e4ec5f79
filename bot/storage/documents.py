"""A contest's history read out whole and written back into a fresh database (the contest
document: ``bot/services/document.py``): events with their own ids, the people."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from bot.storage.db import Database, TransactionCore
from bot.storage.records import to_ts


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
                      tg_language: str | None) -> None:
        s = self._owned()
        s._raw.execute("INSERT INTO people (user_id, name, language, tg_language) "
                       "VALUES (?,?,?,?)", (user_id, name, language, tg_language))
        s._wrote("people")


class DocumentReads(Database):
    async def people_rows(self) -> list[dict[str, Any]]:
        """Everyone who wrote to the bot: id, name, chosen language, Telegram's language."""
        rows = await self._fetchall(
            "SELECT user_id, name, language, tg_language FROM people ORDER BY user_id")
        return [{"id": r["user_id"], "name": r["name"], "language": r["language"],
                 "tg_language": r["tg_language"]} for r in rows]
