"""``warn``: a volunteer's warning recorded, and the disqualification it brings at the
contest's limit, in one transaction the operation owns (``Work``), with what each person is
told."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from functools import partial

from bot.delivery.work import Work
from bot.domain.events import EventKind
from bot.features.registration.rules import clean_note
from bot.features.standings import day as standings
from bot.features.warnings.outcomes import (
    Outcome,
    ReasonMissing,
    ReasonTooLong,
    Warned,
    answer,
    notice,
    staff_line,
)
from bot.features.warnings.rules import REASON_MAX, WARNING, WarningRules, decide, reason_problem
from bot.features.warnings.settings import FEATURE
from bot.services.contest_day import ContestDay
from bot.services.outcomes import UnknownEntry
from bot.storage.store import Transaction


def warning_rules(day: ContestDay) -> WarningRules:
    """The contest's ``[warnings]`` (none: warnings never disqualify)."""
    found = day.contest.settings(FEATURE)
    return found if isinstance(found, WarningRules) else WarningRules()


@dataclass(frozen=True)
class Warn:
    """``/aviso N reason``: by ``actor`` (as ``role``), at Telegram's date of the message."""

    number: int
    reason: str
    actor: int
    role: str
    at: datetime
    update_id: int | None


async def warn(work: Work, day: ContestDay, cmd: Warn) -> Outcome:
    async with work as tx:
        out = await _record(day, tx, cmd)
        if isinstance(out, Warned) and out.disqualified:  # a ranking told may have changed
            out = replace(out, final=await standings.final_category(day, cmd.number))
        work.reply(partial(answer, out=out, contest=day.contest))
        if isinstance(out, Warned):
            work.tell_entry(out.entry, partial(notice, out=out))
            if out.disqualified:
                work.tell_staff(partial(staff_line, out=out))
        return out


async def _record(day: ContestDay, tx: Transaction, cmd: Warn) -> Outcome:
    reason = clean_note(cmd.reason)
    match reason_problem(reason):
        case "missing":
            return ReasonMissing()
        case "too_long":
            return ReasonTooLong(REASON_MAX)
    state = await day.state(cmd.number)
    if state is None:
        return UnknownEntry(cmd.number)
    closed = await day.closed(state)
    if closed is not None:
        return closed
    previous = [e for e in await tx.events(entry=cmd.number, kinds=(WARNING,))
                if e.category == state.unit]
    settings = warning_rules(day)
    decision = decide(len(previous), settings,
                            state.outcome.ref if state.outcome is not None else None)
    eid = await tx.add_event(
        at=cmd.at, kind=WARNING, role=cmd.role, actor=cmd.actor, entry=cmd.number,
        category=state.unit, data={"reason": reason}, update_id=cmd.update_id)
    if decision.disqualifies:
        await tx.add_event(
            at=cmd.at, kind=EventKind.OUTCOME, role=cmd.role, actor=cmd.actor,
            entry=cmd.number, ref="dsq", data={"reason": reason}, category=state.unit,
            update_id=cmd.update_id)
    return Warned(cmd.number, reason, decision.count, settings.disqualify_after,
                  decision.disqualifies, eid)
