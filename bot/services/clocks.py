"""The clocks on the contest day: starting them (a category, a heat, every one waiting),
the general pause, the cooldown notices owed to pairs and the handover at the escape's time
limit. Each operation is one transaction."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import ClassVar
from zoneinfo import ZoneInfo

from bot.domain.contest import Category
from bot.domain.events import EventKind
from bot.domain.rounds import (
    EARLY_START,
    AfterRunning,
    AllStarted,
    Heat,
    HeatClock,
    NotTimeYet,
    StartNow,
    heat_over,
    next_heats,
)
from bot.features.escape.rules import OUT_OF_PLAY
from bot.features.selftimed.day import start_data
from bot.services.contest_day import ContestDay
from bot.services.outcomes import Done, Refusal, SharedRefusal
from bot.services.rounds import unit
from bot.services.state import EntryState


@dataclass(frozen=True)
class NotYet(Refusal):
    """Nothing to start now: the next heat (``heat``) is on a later ``day``, or later today
    (``start``, its round's scheduled start)."""

    code: ClassVar[str] = "not_yet"
    heat: str
    day: date
    start: datetime | None = None


@dataclass(frozen=True)
class HeatRunning(Refusal):
    """The category's next heat (``heat``) waits for ``running``, still being played at the
    same venue."""

    code: ClassVar[str] = "heat_running"
    heat: str
    running: str


@dataclass(frozen=True)
class NotReached(Refusal):
    """A heat with nobody in it yet: its round is not reached (the round before is not
    confirmed), or it has no entrants."""

    code: ClassVar[str] = "not_reached"
    heat: str


@dataclass(frozen=True)
class NothingToStart(Refusal):
    """No category waiting for its clock, and no heat with entrants waiting for its own."""

    code: ClassVar[str] = "nothing_to_start"


@dataclass(frozen=True)
class AlreadyStarted(Refusal):
    code: ClassVar[str] = "already_started"
    categories: tuple[str, ...]
    time_up: bool = False  # and the time of every one of them is up: the contest is over
    heats: bool = False  # heats of rounds among them (made final with /confirmar_ronda)


@dataclass(frozen=True)
class TimeUp(Refusal):
    """A pause when every clock has run out its time: nothing is being played."""

    code: ClassVar[str] = "time_up"


@dataclass(frozen=True)
class AlreadyPaused(Refusal):
    code: ClassVar[str] = "already_paused"


@dataclass(frozen=True)
class NotPaused(Refusal):
    code: ClassVar[str] = "not_paused"


ClocksRefusal = (NotYet | HeatRunning | NotReached | NothingToStart | AlreadyStarted
                 | AlreadyPaused | NotPaused | TimeUp)


@dataclass(frozen=True)
class ClocksStarted(Done):
    started: tuple[str, ...]
    already: tuple[str, ...]
    later: tuple[str, ...] = ()  # heats whose scheduled start is still to come (not started)
    behind: tuple[HeatRunning, ...] = ()  # heats waiting for the one before them to end


async def start_clock(
    day: ContestDay, organiser: int, category: str | None, at: datetime, update_id: int | None
) -> ClocksStarted | ClocksRefusal | SharedRefusal:
    """Start the clock of a category, of a heat, or (``category`` None) of every category
    not started yet. A category with rounds (by its id, or with every category) starts its
    next heat by ``next_heats``: the first heat not started of the latest round reached,
    on its day, from half an hour before its scheduled start, and not while the heat
    before it at the same venue is still being played. By its own name a heat starts
    whenever the organiser says."""
    async with day.store.transaction() as tx:
        heat = day.heats.get(category or "")
        if heat is not None:
            lineup = await day.lineups(heat.category)
            if heat.round_index >= len(lineup) or \
                    not lineup[heat.round_index][heat.number - 1]:
                return NotReached(heat.id)
        started: list[str] = []
        due, already, later, behind = await _to_start(day, category, at)
        for cid in due:
            if (await day.clock(cid)).started is not None:
                already.append(cid)
                continue
            await tx.add_event(
                at=at, kind=EventKind.CLOCK_START, role="organiser", actor=organiser, category=cid,
                data=start_data(await unit(day, cid)) or None, update_id=update_id,
            )
            started.append(cid)
        if not started and later:  # what waits says more than what already runs
            return not_yet(day, later[0], at)
        if not started and behind:
            return behind[0]
        if not started and not already:
            return NothingToStart()
        if not started:
            return AlreadyStarted(tuple(already), await _all_up(day, already, at),
                                  any(u in day.heats for u in already))
        return ClocksStarted(tuple(started), tuple(already), tuple(later), tuple(behind))


def not_yet(day: ContestDay, heat_id: str, at: datetime) -> NotYet:
    """Why heat ``heat_id`` is not started at ``at``: its day is to come (or its hour,
    today)."""
    heat = day.heats[heat_id]
    when = heat.round.when(heat.number)
    today = at.astimezone(ZoneInfo(day.contest.timezone)).date()
    return NotYet(heat_id, when.date, when.start if when.date == today else None)


async def _to_start(day: ContestDay, category: str | None, at: datetime
                    ) -> tuple[list[str], list[str], list[str], list[HeatRunning]]:
    """The clocks to start; those already started; the heats left for their scheduled
    time; the heats waiting for the one before them."""
    if category is not None:
        cat = day.contest.category(category)
        if cat is None or not cat.rounds:
            return [category], [], [], []  # a heat by its name, or a category played once
        cats = [cat]
    else:
        cats = list(day.contest.categories)
    today = at.astimezone(ZoneInfo(day.contest.timezone)).date()
    due: list[str] = []
    already: list[str] = []
    later: list[str] = []
    behind: list[HeatRunning] = []
    for c in cats:
        if not c.rounds:
            due.append(c.id)
            continue
        lineup = await day.lineups(c)
        r = len(lineup) - 1
        heats = [Heat(c, r, h) for h in range(1, len(lineup[r]) + 1) if lineup[r][h - 1]]
        clocks = [HeatClock(h.number, (await day.clock(h.id)).started is not None,
                            await _being_played(day, h, at)) for h in heats]
        for step in next_heats(c.rounds[r], clocks, at, today, EARLY_START):
            heat_id = Heat(c, r, step.heat).id
            match step:
                case StartNow():
                    due.append(heat_id)
                case AllStarted():
                    already.append(heat_id)
                case NotTimeYet():
                    later.append(heat_id)
                case AfterRunning(running=running):
                    behind.append(HeatRunning(heat_id, Heat(c, r, running).id))
    return due, already, later, behind


async def _being_played(day: ContestDay, heat: Heat, at: datetime) -> bool:
    """Whether the heat's clock runs with time left and an entrant without a result."""
    clock = await day.clock(heat.id)
    if clock.started is None:
        return False
    return not heat_over(await day.heat_ranking(heat), clock.elapsed(at),
                         heat.play.time_limit)


async def _all_up(day: ContestDay, unit_ids: list[str], at: datetime) -> bool:
    """Whether the time of every clock of ``unit_ids`` (categories, heats) has run out."""
    for uid in unit_ids:
        heat = day.heats.get(uid)
        cat = heat.play if heat is not None else day.contest.category(uid)
        elapsed = (await day.clock(uid)).elapsed(at)
        if cat is None or elapsed is None or elapsed < cat.time_limit:
            return False
    return bool(unit_ids)


async def pause(day: ContestDay, organiser: int, at: datetime,
                update_id: int | None) -> Done | ClocksRefusal | SharedRefusal:
    async with day.store.transaction() as tx:
        if await day.paused():
            return AlreadyPaused()
        due, already, later, behind = await _to_start(day, None, at)
        running = [u for u in due if (await day.clock(u)).started is not None]
        if len(running) == len(due) and not later and not behind and \
                await _all_up(day, running + already, at):
            return TimeUp()  # every clock started, every one's time up: nothing to pause
        await tx.add_event(
            at=at, kind=EventKind.PAUSE, role="organiser", actor=organiser, update_id=update_id
        )
        return Done()


async def resume(
    day: ContestDay, organiser: int, at: datetime, update_id: int | None
) -> Done | ClocksRefusal | SharedRefusal:
    async with day.store.transaction() as tx:
        if not await day.paused():
            return NotPaused()
        await tx.add_event(
            at=at, kind=EventKind.RESUME, role="organiser", actor=organiser, update_id=update_id
        )
        return Done()


async def pending_notices(day: ContestDay) -> list[tuple[int, str, int, datetime]]:
    """Cooldown notices owed: (entry, key, contest seconds, real instant) not yet sent."""
    rules = day.contest.escape
    if rules is None:
        return []  # no ledger anywhere: nothing owed
    owed: dict[str, tuple[int, str, int, datetime]] = {}
    # only the refusals whose notice was not sent (a big day's are nearly all sent), and of
    # those only the ones before the escape's end: a later one is over whatever the entry's
    # ledger says, so its history need not be folded (nor held) to know it
    refusals = [r for r in await day.store.refusals_without_notice() if r[2] < rules.time_limit]
    await day.fold(entry for entry, _, _ in refusals)  # their states at once, not one by one
    for entry, ref, value in refusals:
        state = await day.state(entry)
        if state is None or state.ledger is None:
            continue
        if state.ledger.over(value) or state.ledger.next_request_at != value:
            continue  # escape over, or another request was accepted since
        moment = state.clock.instant_at(value)
        if moment is not None:
            owed[ref] = (entry, ref, value, moment)
    return sorted(owed.values(), key=lambda x: x[3])


async def notice_due(day: ContestDay, key: str) -> bool:
    """Whether a cooldown notice is still owed (not sent, still meaningful)."""
    return any(n[1] == key for n in await pending_notices(day))


async def record_notice(day: ContestDay, key: str, entry: int, at: datetime) -> None:
    async with day.store.transaction() as tx:
        await tx.add_event(at=at, kind=EventKind.NOTICE, role="system", entry=entry, ref=key)


async def handover_moments(day: ContestDay) -> list[tuple[str, datetime]]:
    """Escape categories whose handover message is still owed, with its real instant."""
    if day.contest.escape is None:
        return []
    sent = {e.ref for e in await day.store.events(kinds=[EventKind.HANDOVER])}
    out = []
    for cat in day.contest.categories:
        if not cat.escape or f"handover:{cat.id}" in sent:
            continue
        moment = (await day.clock(cat.id)).instant_at(day.contest.escape.time_limit)
        if moment is not None:
            out.append((cat.id, moment))
    return out


async def unsolved(day: ContestDay, category: Category) -> list[EntryState]:
    """The pairs still in the escape: not solved, and neither absent nor disqualified (nobody
    takes them a puzzle)."""
    return [
        s for s in await day.states(category)
        if s.ledger is not None and s.ledger.solved_at is None
        and (s.outcome is None or s.outcome.ref not in OUT_OF_PLAY)
    ]


async def record_handover(day: ContestDay, category: str, at: datetime) -> bool:
    """Record that the handover was sent; False if it already was."""
    async with day.store.transaction() as tx:
        if await tx.has_ref(EventKind.HANDOVER, f"handover:{category}"):
            return False
        await tx.add_event(
            at=at, kind=EventKind.HANDOVER, role="system", category=category,
            ref=f"handover:{category}",
        )
        return True

