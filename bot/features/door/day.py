"""The door in the contest day: who is expected in a category or heat, and who has come (the
arrivals in force, read from the history)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from zoneinfo import ZoneInfo

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


async def arrivals(day: ContestDay) -> dict[tuple[int, str], Event]:
    """Each entry marked present, per category or heat it came to play (a round on another
    day expects it again), with its first arrival in force."""
    out: dict[tuple[int, str], Event] = {}
    for e in await day.store.events(kinds=[ARRIVED]):
        if e.entry is not None and e.category is not None:
            out.setdefault((e.entry, e.category), e)
    return out


def unit_day(day: ContestDay, unit_id: str) -> date:
    """The day a category or heat is played (a heat's round's, else the contest's)."""
    heat = day.heats.get(unit_id)
    if heat is not None:
        return heat.round.when(heat.number).date or day.contest.date
    return day.contest.date


def on_its_day(day: ContestDay, unit_id: str, at: datetime) -> bool:
    """Whether ``at`` is on the day the category or heat is played, on the hall's clock: an
    entry comes to the door that day, never weeks before."""
    return at.astimezone(ZoneInfo(day.contest.timezone)).date() == unit_day(day, unit_id)


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
                                {n for n, u in came if u == unit.id})
        out.append(Door(unit, tuple(s.entry for s in states),
                        tuple(by_number[n] for n in missing)))
    return out
