"""``tell_tables``: each entry of the categories chosen told its table (and its heat), in one
transaction the operation owns (``Work``): once, and again only when its table changed."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import partial

from bot.delivery.work import Work
from bot.domain.contest import Category
from bot.features.tables import day as tables
from bot.features.tables.rules import TABLES_TOLD
from bot.features.tables.texts import seat_text, told_text
from bot.services.contest_day import ContestDay


@dataclass(frozen=True)
class TellTables:
    """``organiser`` said to tell the entries of ``categories`` their tables at ``at``."""

    organiser: int
    categories: list[Category]
    at: datetime
    update_id: int | None


async def tell_tables(work: Work, day: ContestDay, cmd: TellTables) -> int:
    """Tells each entry with a phone linked its table, unless it was told that one already;
    records what each was told. Gives back how many entries were told."""
    async with work as tx:
        seats, before = await tables.to_tell(day, tx, cmd.categories)
        if seats:
            one = cmd.categories[0].id if len(cmd.categories) == 1 else None
            await tx.add_event(at=cmd.at, kind=TABLES_TOLD, role="organiser",
                               actor=cmd.organiser, category=one,
                               data={"told": {str(s.number): s.key() for s in seats}},
                               update_id=cmd.update_id)
        for seat in seats:
            work.tell_entry(seat.number, partial(seat_text, contest=day.contest, seat=seat,
                                                 again=seat.number in before))
        work.reply(partial(told_text, told=len(seats)))
        return len(seats)
