"""When the bot was last known to be running (the ``heartbeat`` row)."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.storage.transactions import Transactional


class Alive(Transactional):
    """``Store.beat`` and ``Store.last_beat``."""

    async def beat(self, at: datetime) -> None:
        """The bot runs at ``at`` (a transaction of its own)."""
        async with self.transaction() as tx:
            tx.execute("INSERT INTO heartbeat (id, at) VALUES (1, ?) "
                       "ON CONFLICT(id) DO UPDATE SET at = excluded.at", (int(at.timestamp()),))

    async def last_beat(self) -> datetime | None:
        """When the bot was last known to run (None: never, a new database)."""
        rows = await self._fetchall("SELECT at FROM heartbeat WHERE id = 1")
        return datetime.fromtimestamp(int(rows[0][0]), UTC) if rows else None
