"""The entries and their members: kept in memory once read (a substitution reads them again)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime

import aiosqlite

from bot.features.registration.rules import Member, clean_name
from bot.storage.db import Database, TransactionCore
from bot.storage.records import Entry, from_ts, to_ts, values_from, values_json


def _insert_members(s: Database, number: int, members: Sequence[Member]) -> None:
    for i, m in enumerate(members):
        s._raw.execute(
            "INSERT INTO members (entry, position, name, born, born_year, answers, "
            "answer_values) VALUES (?,?,?,?,?,?,?)",
            (number, i, clean_name(m.name), m.born.isoformat() if m.born else None, m.year,
             ",".join(sorted(m.answers)), values_json(m.values)),
        )


class EntryWrites(TransactionCore):
    """A transaction's write of a new entry."""

    __slots__ = ()

    async def add_entry(
        self,
        *,
        category: str,
        join_code: str,
        local: bool,
        registered_at: datetime,
        members: Sequence[Member],
        number: int | None = None,
        source: str = "import",
        registered_by: int | None = None,
        meal_adults: int = 0,
        meal_children: int = 0,
        values: Sequence[tuple[str, str]] = (),
    ) -> int:
        """A new entry; ``values``: its answers to the questions asked once per entry."""
        s = self._owned()
        if number is None:
            found = s._raw.execute("SELECT COALESCE(MAX(number), 0) + 1 FROM entries")
            number = int(found.fetchone()[0])
        s._raw.execute(
            "INSERT INTO entries (number, category, join_code, local, registered_at, source, "
            "registered_by, meal_adults, meal_children, answer_values) "
            "VALUES (?,?,?,?,?,?,?,?,?,?)",
            (number, category, join_code, int(local), to_ts(registered_at), source,
             registered_by, meal_adults, meal_children, values_json(values)),
        )
        _insert_members(s, number, members)
        s._wrote("entries")
        return number

    async def set_members(self, number: int, members: Sequence[Member]) -> None:
        """Entry ``number``'s members from now on (a substitution; its event says who changed)."""
        s = self._owned()
        s._raw.execute("DELETE FROM members WHERE entry = ?", (number,))
        _insert_members(s, number, members)
        s._wrote("members")

    async def set_values(self, number: int, values: Sequence[tuple[str, str]]) -> None:
        """Entry ``number``'s own answers from now on (an answer changed; its event says
        which)."""
        s = self._owned()
        s._raw.execute("UPDATE entries SET answer_values = ? WHERE number = ?",
                       (values_json(values), number))
        s._wrote("entries")
        s.forget_entry_rows()

    async def set_joined(self, number: int, local: bool, meal_adults: int,
                         meal_children: int) -> None:
        """Entry ``number`` joined by another's members (a partner matched): whether it is
        local now, and the meals booked for all of them."""
        s = self._owned()
        s._raw.execute("UPDATE entries SET local = ?, meal_adults = ?, meal_children = ? "
                       "WHERE number = ?", (int(local), meal_adults, meal_children, number))
        s._wrote("entries")
        s.forget_entry_rows()


class Entries(Database):
    """The reads of ``entries`` and ``members``."""

    async def entries(self, category: str | None = None) -> list[Entry]:
        """All entries (or a category's), in number order. An entry changes through a
        substitution (its members: ``_wrote("members")`` forgets the list) or a row changed in
        place (``forget_entry_rows``), so the list is kept until then or until the table grows
        (even through another process's import)."""
        row = await self._fetchone("SELECT COUNT(*), COALESCE(MAX(number), 0) FROM entries")
        assert row is not None
        key = (int(row[0]), int(row[1]))
        if self._all_entries is None or self._all_entries[0] != key:
            rows = await self._fetchall("SELECT * FROM entries ORDER BY number")
            members = await self._members([r["number"] for r in rows])
            self._all_entries = (key, [self._entry(r, members.get(r["number"], ()))
                                       for r in rows])
            for e in self._all_entries[1]:
                self._entries[e.number] = e
        everything = self._all_entries[1]
        return [e for e in everything if category is None or e.category == category]

    async def entry(self, number: int) -> Entry | None:
        cached = self._entries.get(number)
        if cached is not None:
            return cached  # kept until a substitution changes its members
        row = await self._fetchone("SELECT * FROM entries WHERE number = ?", (number,))
        if row is None:
            return None
        members = await self._members([number])
        entry = self._entry(row, members.get(number, ()))
        self._entries[number] = entry
        return entry

    async def entry_by_code(self, code: str) -> Entry | None:
        row = await self._fetchone("SELECT number FROM entries WHERE join_code = ?", (code,))
        return await self.entry(int(row[0])) if row else None

    async def entry_numbers(self) -> set[int]:
        return {int(r[0]) for r in await self._fetchall("SELECT number FROM entries")}

    async def _members(self, numbers: list[int]) -> dict[int, tuple[Member, ...]]:
        out: dict[int, list[Member]] = {}
        for start in range(0, len(numbers), 900):  # SQLite bounds the variables per query
            chunk = numbers[start:start + 900]
            rows = await self._fetchall(
                f"SELECT * FROM members WHERE entry IN ({','.join('?' * len(chunk))}) "
                "ORDER BY entry, position",
                chunk,
            )
            for r in rows:
                out.setdefault(r["entry"], []).append(
                    Member(
                        name=r["name"],
                        born=date.fromisoformat(r["born"]) if r["born"] else None,
                        born_year=r["born_year"],
                        answers=frozenset(a for a in r["answers"].split(",") if a),
                        values=values_from(r["answer_values"]),
                    )
                )
        return {k: tuple(v) for k, v in out.items()}

    @staticmethod
    def _entry(row: aiosqlite.Row, members: tuple[Member, ...]) -> Entry:
        return Entry(
            number=row["number"],
            category=row["category"],
            join_code=row["join_code"],
            local=bool(row["local"]),
            registered_at=from_ts(row["registered_at"]),
            members=members,
            source=row["source"],
            registered_by=row["registered_by"],
            meal_adults=row["meal_adults"],
            meal_children=row["meal_children"],
            values=values_from(row["answer_values"]),
        )
