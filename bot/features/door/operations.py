"""``arrive``: an entry marked present at the door, in one transaction the operation owns
(``Work``), with the volunteer's answer."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import partial

from bot.delivery.work import Work
from bot.domain.places import Status
from bot.features.door.day import arrivals, doors, on_its_day, unit_day
from bot.features.door.outcomes import (
    AlreadyHere,
    Arrived,
    HoldsNoPlace,
    NotItsDay,
    Outcome,
    answer,
)
from bot.features.door.rules import ARRIVED
from bot.services.contest_day import ContestDay
from bot.services.outcomes import UnknownEntry


@dataclass(frozen=True)
class Arrive:
    """``/presente N`` or a tap on /puerta's list, by ``actor`` (as ``role``) at ``at``."""

    number: int
    actor: int
    role: str
    at: datetime
    update_id: int | None


async def arrive(work: Work, day: ContestDay, cmd: Arrive) -> Outcome:
    async with work as tx:
        out = await _record(day, cmd)
        if isinstance(out, Arrived):
            await tx.add_event(at=cmd.at, kind=ARRIVED, role=cmd.role, actor=cmd.actor,
                               entry=cmd.number, category=out.unit, update_id=cmd.update_id)
            door = next((d for d in await doors(day, out.unit)), None)
            if door is not None:  # counted with this one
                here = door.here + (1 if any(e.number == cmd.number for e in door.missing)
                                    else 0)
                out = Arrived(out.entry, out.at, out.unit, here, len(door.expected))
        work.reply(partial(answer, out=out, contest=day.contest))
        return out


async def _record(day: ContestDay, cmd: Arrive) -> Outcome:
    state = await day.state(cmd.number)
    if state is None:
        return UnknownEntry(cmd.number)
    unit = state.unit or state.category.id
    place = (await day.registrations.places(cmd.at)).get(cmd.number)
    if place is None or place.status is not Status.CONFIRMED:
        return HoldsNoPlace(state.entry, place.status if place is not None
                            else Status.WITHDRAWN)
    if not on_its_day(day, unit, cmd.at):
        return NotItsDay(state.entry, unit_day(day, unit))
    came = (await arrivals(day)).get((cmd.number, unit))
    if came is not None:
        return AlreadyHere(state.entry, came.at)
    return Arrived(state.entry, cmd.at, unit, 0, 0)
