"""Where each entry sits, for telling it (``operations.py``): a category played in one round at
the hall's tables (``sheets.hall_seats``), a category in rounds at its first round's heats (the
qualifiers of a later round are told their table when the round before is confirmed)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.domain.contest import Category
from bot.domain.rounds import Heat, table_number
from bot.features.tables.rules import TABLES_TOLD, told_tables
from bot.features.tables.sheets import hall_seats
from bot.services.contest_day import ContestDay
from bot.storage.store import Transaction


@dataclass(frozen=True)
class Seat:
    """Entry ``number``'s table, in its category (``heat``: its heat of the first round)."""

    number: int
    category: Category
    table: int
    heat: Heat | None = None

    def key(self) -> list[Any]:
        """What the entry is told, as the record keeps it."""
        return [self.table, self.heat.id if self.heat is not None else ""]


async def seats(day: ContestDay, categories: Sequence[Category]) -> list[Seat]:
    """Every entry's table in ``categories``, as the table lists print them."""
    hall = await hall_seats(day)
    out: list[Seat] = []
    for c in categories:
        if not c.rounds:
            numbers = {e.number for e in await day.store.entries(c.id)}
            out += [Seat(n, c, t) for n, t in hall.items() if n in numbers]
            continue
        lineup = await day.lineups(c)
        if len(lineup) != 1:
            continue
        for h, numbers_in in enumerate(lineup[0], 1):
            heat = Heat(c, 0, h)
            out += [Seat(n, c, table_number(i, heat.round.per_table), heat)
                    for i, n in enumerate(numbers_in)]
    return out


async def to_tell(day: ContestDay, tx: Transaction | None, categories: Sequence[Category]
                  ) -> tuple[list[Seat], dict[int, list[Any]]]:
    """The seats to tell now (entries with a phone linked, never told or whose table
    changed since), and what each entry was told before."""
    store = tx if tx is not None else day.store
    before = told_tables(e.data for e in await store.events(kinds=[TABLES_TOLD]))
    out = []
    for seat in await seats(day, categories):
        if before.get(seat.number) != seat.key() and await day.linked_users(seat.number):
            out.append(seat)
    return out, before


async def moved(day: ContestDay) -> list[tuple[Seat, int]]:
    """The entries told their table that sit elsewhere now (a place given up or lapsed moved
    them), each with the table it was told; those with a phone linked only (the others were
    told nothing)."""
    before = told_tables(e.data for e in await day.store.events(kinds=[TABLES_TOLD]))
    if not before:
        return []  # nobody was told a table: nobody to tell again
    out = []
    for seat in await seats(day, day.contest.categories):
        told = before.get(seat.number)
        if told is not None and told != seat.key() and await day.linked_users(seat.number):
            out.append((seat, int(told[0])))
    return out
