"""``add_penalties``: penalties of a kind of the contest file recorded for an entry, in one
transaction the operation owns (``Work``), with what each person is told."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from functools import partial

from bot.delivery.work import Work
from bot.domain.events import EventKind
from bot.features.penalties.outcomes import Outcome, PenaltyRecorded, UnknownPenalty, answer, notice
from bot.features.results.day import in_play
from bot.features.standings import day as standings
from bot.services.contest_day import ContestDay
from bot.services.outcomes import Refusal
from bot.storage.store import Transaction


@dataclass(frozen=True)
class AddPenalties:
    """``count`` penalties of ``kind`` for entry ``number``, by ``actor`` (as ``role``) at
    ``at``; ``update_id``: the update (or, for a button, the question's) that records them,
    recorded once."""

    number: int
    kind: str
    count: int
    actor: int
    role: str
    at: datetime
    update_id: int | None


async def add_penalties(work: Work, day: ContestDay, cmd: AddPenalties) -> Outcome:
    """Added to the ones the entry has; /deshacer takes the last one back."""
    async with work as tx:
        out = await _record(day, tx, cmd)
        if isinstance(out, PenaltyRecorded):
            out = replace(out, final=await standings.final_category(day, cmd.number))
            work.tell_entry(cmd.number, partial(notice, contest=day.contest, out=out))
        work.reply(partial(answer, out=out, contest=day.contest))
        return out


async def _record(day: ContestDay, tx: Transaction, cmd: AddPenalties) -> Outcome:
    kind = day.contest.penalty(cmd.kind)
    if kind is None:
        return UnknownPenalty(cmd.kind, tuple(k.id for k in day.contest.penalties))
    state = await in_play(day, cmd.number, cmd.at)
    if isinstance(state, Refusal):
        return state
    eid = await tx.add_event(
        at=cmd.at, kind=EventKind.PENALTY, role=cmd.role, actor=cmd.actor, entry=cmd.number,
        value=cmd.count, ref=kind.id, category=state.unit, update_id=cmd.update_id)
    return PenaltyRecorded(cmd.number, kind.id, cmd.count, kind.seconds * cmd.count,
                           state.time_penalty + kind.seconds * cmd.count, eid)
