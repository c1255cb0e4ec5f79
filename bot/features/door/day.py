"""The door in the contest day: who is expected in a category or heat, and who has come (the
arrivals in force, read from the history)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.domain.contest import Category
from bot.features.door.rules import ARRIVED, still_to_come
from bot.services.contest_day import ContestDay
from bot.services.rounds import units
from bot.storage.records import Entry, Event


@dataclass(frozen=True)
class Door:
    """A category's (or heat's) door: its entries holding a place, those come, those still to
    come."""

    unit: Category
    expected: tuple[Entry, ...]
    missing: tuple[Entry, ...]

    @property
    def here(self) -> int:
        return len(self.expected) - len(self.missing)


async def arrivals(day: ContestDay) -> dict[int, Event]:
    """Each entry marked present, with its first arrival in force."""
    out: dict[int, Event] = {}
    for e in await day.store.events(kinds=[ARRIVED]):
        if e.entry is not None:
            out.setdefault(e.entry, e)
    return out


async def doors(day: ContestDay, only: str | None = None) -> list[Door]:
    """The door of each category without rounds and of each heat of a round reached (``only``:
    that category's, or that heat's)."""
    came = await arrivals(day)
    out = []
    for unit in await units(day):
        parent = day.heats[unit.id].category.id if unit.id in day.heats else unit.id
        if only is not None and only not in (unit.id, parent):
            continue
        states = await day.states(unit)
        by_number = {s.entry.number: s.entry for s in states}
        missing = still_to_come(((s.entry.number, s.outcome is not None) for s in states),
                                came.keys())
        out.append(Door(unit, tuple(s.entry for s in states),
                        tuple(by_number[n] for n in missing)))
    return out
