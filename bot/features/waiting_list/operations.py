"""``accept``: a place offered from the waiting list accepted, in one transaction the operation
owns (``Work``): the acceptance recorded with the moment it counts at, the place its people
were told recorded with it, the answer and a copy to the entry's other phones."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import partial

from bot.delivery.work import Work
from bot.domain.events import EventKind
from bot.domain.places import Place, Status
from bot.features.registration.card import entry_card
from bot.features.waiting_list.outcomes import Accepted, NotOffered, Outcome, answer
from bot.features.waiting_list.rules import ACCEPT
from bot.features.waiting_list.texts import accepted_copy
from bot.services.contest_day import ContestDay
from bot.services.outcomes import UnknownEntry


@dataclass(frozen=True)
class Accept:
    """Entry ``number``'s offer accepted by ``actor`` (as ``role``, named ``name``) at
    ``at``: a message's date, or a button's moment (``bot.handlers.common.button_moment``)."""

    number: int
    actor: int
    role: str
    name: str
    at: datetime
    update_id: int | None


async def accept(work: Work, day: ContestDay, cmd: Accept) -> Outcome:
    regs = day.registrations
    async with work as tx:
        out: Outcome
        if await tx.entry(cmd.number) is None:
            out = UnknownEntry(cmd.number)
        else:
            place = (await regs.places(cmd.at))[cmd.number]
            told, _ = regs.told_place((await regs.announced()).get(cmd.number))
            if told == Status.DECLINED.value:
                # told its offer passed on: a press stamped before (an old message's, nobody
                # having written since) takes nothing back from the next in line
                place = Place(cmd.number, Status.DECLINED)
            if not place.offered:
                app = next(a for a in await regs.applications() if a.number == cmd.number)
                until = app.offers[-1][1] if place.status is Status.DECLINED and app.offers \
                    else None
                out = NotOffered(cmd.number, place, until)
            else:
                await tx.add_event(at=cmd.at, kind=ACCEPT, role=cmd.role, actor=cmd.actor,
                                   entry=cmd.number, update_id=cmd.update_id)
                after = (await regs.places(cmd.at))[cmd.number]
                # what its people now know of it: no announcement of it later
                await tx.add_event(at=cmd.at, kind=EventKind.STATUS_NOTICE, role="system",
                                   entry=cmd.number, ref=regs.status_key(cmd.number, after))
                out = Accepted(cmd.number, after, await entry_card(day, cmd.number, cmd.at))
        work.reply(partial(answer, out=out, contest=day.contest))
        if isinstance(out, Accepted):
            work.tell_entry(cmd.number, partial(accepted_copy, number=cmd.number,
                                                by=cmd.name))
        return out
