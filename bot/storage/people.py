"""The people who wrote to the bot, and python-telegram-bot's persistence (conversations,
user data)."""

from __future__ import annotations

from typing import Any

from bot.features.registration.rules import clean_name
from bot.storage.transactions import Transactional


class People(Transactional):
    """The reads and writes of ``people``, ``conversations`` and ``user_data`` (each write
    in a transaction of its own)."""

    async def remember_person(self, user_id: int, name: str, tg_language: str | None) -> None:
        name = clean_name(name)
        known = await self.person(user_id)
        if known is not None and known["name"] == name and known["tg_language"] == tg_language:
            return
        async with self.transaction() as tx:
            tx.execute(
                "INSERT INTO people (user_id, name, tg_language) VALUES (?,?,?) "
                "ON CONFLICT(user_id) DO UPDATE SET name = excluded.name, "
                "tg_language = excluded.tg_language",
                (user_id, name, tg_language), person=user_id,
            )

    async def set_language(self, user_id: int, language: str) -> None:
        async with self.transaction() as tx:
            tx.execute(
                "INSERT INTO people (user_id, language) VALUES (?,?) "
                "ON CONFLICT(user_id) DO UPDATE SET language = excluded.language",
                (user_id, language), person=user_id,
            )

    async def person(self, user_id: int) -> dict[str, Any] | None:
        """name, language (chosen with /idioma) and tg_language of someone who wrote to us."""
        cached = self._people.get(user_id)
        if cached is None:
            writes = self._people_writes  # a write while reading: don't keep what was read
            row = await self._fetchone(
                "SELECT name, language, tg_language FROM people WHERE user_id = ?", (user_id,)
            )
            if row is None:
                return None
            cached = (row["name"], row["language"], row["tg_language"])
            if writes == self._people_writes:
                self._people[user_id] = cached
        return {"name": cached[0], "language": cached[1], "tg_language": cached[2]}

    async def language_pairs(self) -> frozenset[tuple[str | None, str | None]]:
        """The (chosen, Telegram's) languages people have: which languages a line for every
        volunteer may be read in. Kept until a write to ``people``."""
        known = self._languages
        if known is not None and known[0] == self._people_writes:
            return known[1]
        writes = self._people_writes
        rows = await self._fetchall("SELECT DISTINCT language, tg_language FROM people")
        pairs = frozenset((r[0], r[1]) for r in rows)
        if writes == self._people_writes:
            self._languages = (writes, pairs)
        return pairs

    # -- conversation state (python-telegram-bot persistence) ---------------------------------

    async def conversations(self, name: str) -> dict[str, str]:
        rows = await self._fetchall("SELECT key, state FROM conversations WHERE name = ?", (name,))
        return {r["key"]: r["state"] for r in rows}

    async def set_conversation(self, name: str, key: str, state: str | None) -> None:
        async with self.transaction() as tx:
            if state is None:
                tx.execute(
                    "DELETE FROM conversations WHERE name = ? AND key = ?", (name, key)
                )
            else:
                tx.execute(
                    "INSERT INTO conversations (name, key, state) VALUES (?,?,?) "
                    "ON CONFLICT(name, key) DO UPDATE SET state = excluded.state",
                    (name, key, state),
                )

    async def all_user_data(self) -> dict[int, str]:
        rows = await self._fetchall("SELECT user_id, data FROM user_data")
        return {int(r["user_id"]): r["data"] for r in rows}

    async def set_user_data(self, user_id: int, data: str | None) -> None:
        async with self.transaction() as tx:
            if data is None:
                tx.execute("DELETE FROM user_data WHERE user_id = ?", (user_id,))
            else:
                tx.execute(
                    "INSERT INTO user_data (user_id, data) VALUES (?,?) "
                    "ON CONFLICT(user_id) DO UPDATE SET data = excluded.data",
                    (user_id, data),
                )
