"""``mark_refunded``: money given back to an entry, recorded in one transaction the operation
owns (``Work``), with the organiser's answer and the entry's phones told."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import partial

from bot.delivery.work import Work
from bot.features.refunds.outcomes import (
    MoreThanOwed,
    NothingOwed,
    Outcome,
    Refunded,
    answer,
    notice,
)
from bot.features.refunds.rules import REFUND
from bot.features.registration.day import Registrations
from bot.services.outcomes import UnknownEntry


@dataclass(frozen=True)
class MarkRefunded:
    """``/reembolsado N [AMOUNT]`` by organiser ``organiser`` at Telegram's date of the
    message; ``amount`` None: all that is still owed."""

    number: int
    amount: int | None
    organiser: int
    at: datetime
    update_id: int | None


async def mark_refunded(work: Work, regs: Registrations, cmd: MarkRefunded) -> Outcome:
    async with work as tx:
        out: Outcome
        found = await regs.statuses(cmd.at, [cmd.number])
        if await tx.entry(cmd.number) is None or not found:
            out = UnknownEntry(cmd.number)
        elif (owed := found[0].owed_back) <= 0:
            out = NothingOwed(cmd.number, found[0].refunded)
        elif cmd.amount is not None and cmd.amount > owed:
            out = MoreThanOwed(cmd.number, cmd.amount, owed)
        else:
            amount = cmd.amount if cmd.amount is not None else owed
            await tx.add_event(at=cmd.at, kind=REFUND, role="organiser", actor=cmd.organiser,
                               entry=cmd.number, value=amount, update_id=cmd.update_id)
            out = Refunded(cmd.number, amount, owed - amount)
        work.reply(partial(answer, out=out, contest=regs.contest))
        if isinstance(out, Refunded):
            work.tell_entry(cmd.number, partial(notice, out=out, contest=regs.contest))
        return out
