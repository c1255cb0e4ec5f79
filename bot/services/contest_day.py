"""What people do on the contest day, as operations on the store through bot/domain.

Each operation reads the history, decides with the domain, and appends its event inside one
transaction, so two phones tapping at once are decided one after the other. Results are typed:
what was recorded (a ``Done``) or why not (a ``Refusal``, one class per reason, with its data);
handlers turn them into messages in the person's language.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, ClassVar

from bot.domain.clock import CategoryClock, within_limit
from bot.domain.contest import Category, Contest
from bot.domain.escape import (
    Accepted,
    Charge,
    Kind,
    Refused,
    check_confirmation,
    check_request,
    check_solve,
    fold,
)
from bot.domain.ranking import Row
from bot.domain.registration import Place, Status
from bot.services.outcomes import Done, Refusal, UnknownEntry, new_code
from bot.services.registrations import Registrations
from bot.services.state import (
    CLOCK_KINDS,
    ENTRY_KINDS,
    EntryState,
    clock_for,
    entry_state,
    escape_events,
    general_pause_open,
    standings,
)
from bot.storage.store import Entry, Event, Store, to_ts
from bot.support.wallclock import CLOCK

VOLUNTEER_KINDS = ("stage", "escape", "finish", "pieces", "penalty")
ORGANISER_UNDOABLE = VOLUNTEER_KINDS + ("clock_start", "pause", "resume")


@dataclass(frozen=True)
class Roles:
    organiser: bool
    volunteer: bool
    entries: tuple[Entry, ...]

    @property
    def staff(self) -> bool:
        return self.organiser or self.volunteer

    @property
    def name(self) -> str:
        if self.organiser:
            return "organiser"
        if self.volunteer:
            return "volunteer"
        return "participant" if self.entries else "stranger"


# -- what the contest day's operations give back ------------------------------------------------
#
# An operation returns either what it recorded (a ``Done``) or why it recorded nothing (a
# ``Refusal``): one class per reason, carrying what its message needs. Handlers tell them apart
# with isinstance or ``match``; bot/texts.py turns a refusal into a line in the person's
# language.


@dataclass(frozen=True)
class NotEscape(Refusal):
    code: ClassVar[str] = "not_escape"
    entry: int


@dataclass(frozen=True)
class ClockNotStarted(Refusal):
    code: ClassVar[str] = "clock_not_started"
    entry: int


@dataclass(frozen=True)
class EscapeOver(Refusal):
    code: ClassVar[str] = "escape_over"


@dataclass(frozen=True)
class StageInvalid(Refusal):
    code: ClassVar[str] = "stage_invalid"


@dataclass(frozen=True)
class StagePassed(Refusal):
    """The pair asked about a stage behind the one it is in (``stage``)."""

    code: ClassVar[str] = "stage_passed"
    stage: int


@dataclass(frozen=True)
class HintTaken(Refusal):
    code: ClassVar[str] = "hint_taken"
    stage: int


@dataclass(frozen=True)
class SolutionNeedsHint(Refusal):
    code: ClassVar[str] = "solution_needs_hint"
    stage: int


@dataclass(frozen=True)
class SolutionTaken(Refusal):
    code: ClassVar[str] = "solution_taken"
    stage: int


@dataclass(frozen=True)
class Cooldown(Refusal):
    """Too soon after the last request: allowed again at contest time ``next_at``, the real
    instant ``moment`` (None if the clock can't tell it)."""

    code: ClassVar[str] = "cooldown"
    entry: int
    next_at: int
    moment: datetime | None = None


@dataclass(frozen=True)
class CooldownPastEnd(Refusal):
    code: ClassVar[str] = "cooldown_past_end"
    next_at: int


@dataclass(frozen=True)
class StageBack(Refusal):
    """A volunteer confirmed a stage below the one already confirmed (``stage``)."""

    code: ClassVar[str] = "stage_back"
    entry: int
    stage: int


@dataclass(frozen=True)
class StageSame(Refusal):
    code: ClassVar[str] = "stage_same"
    entry: int
    stage: int


@dataclass(frozen=True)
class AlreadySolved(Refusal):
    code: ClassVar[str] = "already_solved"
    entry: int


@dataclass(frozen=True)
class ConfirmationClosed(Refusal):
    code: ClassVar[str] = "confirmation_closed"


@dataclass(frozen=True)
class PastEscapeLimit(Refusal):
    code: ClassVar[str] = "past_escape_limit"


@dataclass(frozen=True)
class BeforeRequest(Refusal):
    """A solve before the pair's last accepted request (at contest time ``time``)."""

    code: ClassVar[str] = "before_request"
    entry: int
    time: int


@dataclass(frozen=True)
class InTheFuture(Refusal):
    code: ClassVar[str] = "in_the_future"
    time: int


@dataclass(frozen=True)
class PastLimit(Refusal):
    code: ClassVar[str] = "past_limit"
    time: int
    limit: int


@dataclass(frozen=True)
class EscapeNotOver(Refusal):
    code: ClassVar[str] = "escape_not_over"
    entry: int


@dataclass(frozen=True)
class BeforeEscape(Refusal):
    """A finish before the escape was solved (at contest time ``time``)."""

    code: ClassVar[str] = "before_escape"
    entry: int
    time: int


@dataclass(frozen=True)
class AlreadyFinished(Refusal):
    code: ClassVar[str] = "already_finished"
    entry: int


@dataclass(frozen=True)
class PiecesRange(Refusal):
    code: ClassVar[str] = "pieces_range"
    count: int
    size: int


@dataclass(frozen=True)
class NothingToUndo(Refusal):
    code: ClassVar[str] = "nothing_to_undo"


@dataclass(frozen=True)
class AlreadyRecorded(Refusal):
    code: ClassVar[str] = "already_recorded"
    entry: int
    time: int


@dataclass(frozen=True)
class AlreadyRecordedPieces(Refusal):
    code: ClassVar[str] = "already_recorded_pieces"
    entry: int
    count: int


@dataclass(frozen=True)
class UnknownPenalty(Refusal):
    """No such penalty kind in the contest file (``known``: the ones there are)."""

    code: ClassVar[str] = "unknown_penalty"
    given: str
    known: tuple[str, ...]


@dataclass(frozen=True)
class AlreadyStarted(Refusal):
    code: ClassVar[str] = "already_started"
    categories: tuple[str, ...]


@dataclass(frozen=True)
class AlreadyPaused(Refusal):
    code: ClassVar[str] = "already_paused"


@dataclass(frozen=True)
class NotPaused(Refusal):
    code: ClassVar[str] = "not_paused"


@dataclass(frozen=True)
class BadCode(Refusal):
    code: ClassVar[str] = "bad_code"


@dataclass(frozen=True)
class InviteUsed(Refusal):
    code: ClassVar[str] = "invite_used"


@dataclass(frozen=True)
class Unforeseen(Refusal):
    """A reason of the domain's this module does not know (or without the data it needs)."""

    what: str

    @property
    def reason(self) -> str:
        return self.what


def escape_refusal(refused: Refused, entry: int) -> Refusal:
    """The domain's escape refusal (a reason code) as a typed refusal about ``entry``."""
    match refused:
        case Refused(reason="escape_over"):
            return EscapeOver()
        case Refused(reason="stage_invalid"):
            return StageInvalid()
        case Refused(reason="stage_passed", stage=int(stage)):
            return StagePassed(stage)
        case Refused(reason="hint_taken", stage=int(stage)):
            return HintTaken(stage)
        case Refused(reason="solution_needs_hint", stage=int(stage)):
            return SolutionNeedsHint(stage)
        case Refused(reason="solution_taken", stage=int(stage)):
            return SolutionTaken(stage)
        case Refused(reason="cooldown", next_at=int(at)):
            return Cooldown(entry, at)
        case Refused(reason="cooldown_past_end", next_at=int(at)):
            return CooldownPastEnd(at)
    return _confirmation_refusal(refused, entry)


def _confirmation_refusal(refused: Refused, entry: int) -> Refusal:
    """The refusals of a volunteer's /etapa and /escape (see ``escape_refusal``)."""
    match refused:
        case Refused(reason="stage_back", stage=int(stage)):
            return StageBack(entry, stage)
        case Refused(reason="stage_same", stage=int(stage)):
            return StageSame(entry, stage)
        case Refused(reason="already_solved"):
            return AlreadySolved(entry)
        case Refused(reason="confirmation_closed"):
            return ConfirmationClosed()
        case Refused(reason="past_escape_limit"):
            return PastEscapeLimit()
        case Refused(reason="before_request", next_at=int(at)):
            return BeforeRequest(entry, at)
    return Unforeseen(refused.reason)


@dataclass(frozen=True)
class Linked(Done):
    """A phone follows ``entry`` (``already``: it did before; nothing was written)."""

    entry: Entry
    already: bool = False
    event_id: int | None = None


@dataclass(frozen=True)
class VolunteerJoined(Done):
    already: bool = False
    event_id: int | None = None


@dataclass(frozen=True)
class ClocksStarted(Done):
    started: tuple[str, ...]
    already: tuple[str, ...]


@dataclass(frozen=True)
class Granted(Done):
    """A hint or solution given: what it cost and the entry's state with it."""

    charge: Charge
    state: EntryState | None
    event_id: int | None = None


@dataclass(frozen=True)
class ReadyNoted(Done):
    entry: int
    time: int
    event_id: int | None = None


@dataclass(frozen=True)
class StageRecorded(Done):
    entry: int
    stage: int
    time: int
    event_id: int | None = None


@dataclass(frozen=True)
class EscapeRecorded(Done):
    """An escape time recorded; ``corrected``: it replaced ``old``."""

    entry: int
    time: int
    old: int | None = None
    corrected: bool = False
    event_id: int | None = None


@dataclass(frozen=True)
class FinishRecorded(Done):
    """A finish recorded; ``corrected``: it replaced ``old``; ``from_ready``: its time is the
    moment the entry said /listo."""

    entry: int
    time: int
    old: int | None = None
    corrected: bool = False
    from_ready: bool = False
    event_id: int | None = None
    old_actor: int | None = None  # who recorded the finish it replaced


@dataclass(frozen=True)
class PiecesRecorded(Done):
    entry: int
    count: int
    old: int | None = None
    corrected: bool = False
    event_id: int | None = None


@dataclass(frozen=True)
class PenaltyRecorded(Done):
    """``count`` penalties of ``kind`` recorded for ``entry``; ``total``: the seconds all its
    penalties now add."""

    entry: int
    kind: str
    count: int
    seconds: int
    total: int
    event_id: int | None = None


@dataclass(frozen=True)
class Undone(Done):
    """``event`` was taken back."""

    event: Event
    event_id: int | None = None


class ContestDay:
    def __init__(self, contest: Contest, store: Store, organisers: frozenset[int]) -> None:
        self.contest = contest
        self.store = store
        self.organisers = organisers
        self._caches: dict[str, tuple[tuple[int, ...], dict[Any, Any], int]] = {}

    # -- who is who ----------------------------------------------------------------------------

    def _cached(self, name: str, kinds: tuple[str, ...]) -> tuple[tuple[int, ...], dict[Any, Any]]:
        """A cache of derived state, valid while no event of ``kinds`` (nor a correction) has
        been written. The database stays the source of truth: a miss reads it again."""
        cached = self._caches.get(name)
        writes = self.store.writes
        if cached is not None and cached[2] == writes:
            return cached[0], cached[1]  # nothing at all written since it was stamped
        versions = self.store.versions
        stamp = (*[versions.get(k, 0) for k in kinds], versions.get("correction", 0))
        data = cached[1] if cached is not None and cached[0] == stamp else {}
        self._caches[name] = (stamp, data, writes)
        return stamp, data

    async def volunteers(self) -> set[int]:
        _, cache = self._cached("volunteers", ("volunteer_join",))
        if "all" not in cache:
            cache["all"] = {
                e.actor for e in await self.store.events(kinds=["volunteer_join"]) if e.actor
            }
        result: set[int] = cache["all"]
        return result

    async def linked_entries(self, user_id: int) -> list[Entry]:
        _, cache = self._cached("links_by_user", ("link", "entry"))
        if user_id not in cache:
            # everyone's links in one read: at the start of the day every phone asks once
            by_user: dict[int, set[int]] = {}
            for e in await self.store.events(kinds=["link"]):
                if e.actor is not None and e.entry:
                    by_user.setdefault(e.actor, set()).add(e.entry)
            for actor, numbers in by_user.items():
                found = [await self.store.entry(n) for n in sorted(numbers)]
                cache.setdefault(actor, [e for e in found if e is not None])
            cache.setdefault(user_id, [])
        result: list[Entry] = cache[user_id]
        return list(result)

    async def linked_users(self, number: int) -> list[int]:
        _, cache = self._cached("links_by_entry", ("link",))
        if number not in cache:
            events = await self.store.events(entry=number, kinds=["link"])
            cache[number] = sorted({e.actor for e in events if e.actor is not None})
        result: list[int] = cache[number]
        return list(result)

    async def participants(self) -> list[int]:
        """Everyone who follows at least one entry."""
        return sorted({e.actor for e in await self.store.events(kinds=["link"])
                       if e.actor is not None})

    async def roles(self, user_id: int) -> Roles:
        return Roles(
            organiser=user_id in self.organisers,
            volunteer=user_id in await self.volunteers(),
            entries=tuple(await self.linked_entries(user_id)),
        )

    async def already_handled(self, update_id: int | None) -> bool:
        if update_id is None:
            return False
        return await self.store.handled(update_id)

    # -- derived state -------------------------------------------------------------------------

    async def _clock_events(self) -> tuple[dict[Any, Any], list[Event]]:
        _, cache = self._cached("clock", CLOCK_KINDS)
        if "events" not in cache:
            cache["events"] = await self.store.events(kinds=CLOCK_KINDS)
        events: list[Event] = cache["events"]
        return cache, events

    async def clock(self, category: str) -> CategoryClock:
        cache, events = await self._clock_events()
        if category not in cache:
            cache[category] = clock_for(self.contest, events, category)
        result: CategoryClock = cache[category]
        return result

    async def paused(self) -> bool:
        return general_pause_open((await self._clock_events())[1])

    async def state(self, number: int) -> EntryState | None:
        entry = await self.store.entry(number)
        if entry is None or self.contest.category(entry.category) is None:
            return None
        # the cache and the version first: whatever is written while the state is read below
        # makes the result stale, and then it must be stamped older than what was written
        _, cache = self._cached("entry_state", CLOCK_KINDS)
        version = self.store.entry_versions.get(number, 0)
        hit = cache.get(number)
        if hit is not None and hit[0] == version:
            state: EntryState = hit[1]
            return state
        clock = await self.clock(entry.category)
        events = await self.store.events(entry=number, kinds=ENTRY_KINDS)
        state = entry_state(self.contest, entry, events, clock, hit[1] if hit else None)
        cache[number] = (version, state)
        return state

    async def states(self, category: Category, at: datetime | None = None) -> list[EntryState]:
        """The entries holding a place in a category (at ``at``; default now), with their
        contest state. Each entry's state is kept until an event of that entry (or of the
        clock) is written, so a ranking recomputes only what changed."""
        _, cache = self._cached("entry_state", CLOCK_KINDS)  # before the clock: see state()
        clock = await self.clock(category.id)
        entries = await self._holding_places(category, at or CLOCK.now())
        missing, seen = self._stale(cache, entries)
        if missing:
            histories = await self._histories(missing)
            self._refold(cache, missing, seen, histories, clock)
        return [cache[e.number][1] for e in entries]

    async def _holding_places(self, category: Category, at: datetime) -> list[Entry]:
        """The category's entries whose place is confirmed at ``at``."""
        places, everyone = await self._places(at)
        return [e for e in everyone if e.category == category.id
                and places[e.number].status is Status.CONFIRMED]

    def _stale(
        self, cache: dict[Any, Any], entries: list[Entry]
    ) -> tuple[list[Entry], dict[int, int]]:
        """The entries whose cached state is missing or older than their history, with the
        version of each that its history is about to be read at."""
        versions = self.store.entry_versions
        missing = [e for e in entries
                   if (hit := cache.get(e.number)) is None or hit[0] != versions.get(e.number, 0)]
        # the versions the events below are read at: an event written while they are read
        # (another update, between two awaits) must not be stamped as seen by them
        seen = {e.number: versions.get(e.number, 0) for e in missing}
        return missing, seen

    async def _histories(self, entries: list[Entry]) -> dict[int, list[Event]]:
        """The entry events of each of ``entries``: those held in memory without a read, the
        rest read entry by entry, or all at once when there are many."""
        by_entry: dict[int, list[Event]] = {}
        for e in entries:  # histories already in memory: no read
            held = self.store.events_in_memory(e.number, ENTRY_KINDS)
            if held is not None:
                by_entry[e.number] = held
        rest = [e for e in entries if e.number not in by_entry]
        if len(rest) > 50:
            events = await self.store.events(kinds=ENTRY_KINDS)
        else:
            events = [ev for e in rest
                      for ev in await self.store.events(entry=e.number, kinds=ENTRY_KINDS)]
        wanted = {e.number for e in rest}
        for ev in events:
            if ev.entry in wanted:
                by_entry.setdefault(ev.entry, []).append(ev)
        return by_entry

    def _refold(
        self, cache: dict[Any, Any], entries: list[Entry], seen: dict[int, int],
        histories: dict[int, list[Event]], clock: CategoryClock,
    ) -> None:
        """Fold each entry's state again (from its cached one), stamped with ``seen``."""
        for en in entries:
            hit = cache.get(en.number)
            cache[en.number] = (seen[en.number], entry_state(
                self.contest, en, histories.get(en.number, []), clock,
                hit[1] if hit else None))

    async def _places(self, at: datetime) -> tuple[dict[int, Place], list[Entry]]:
        """Every entry and its place at ``at``, read once for all the categories of a ranking
        asked at that moment (each would otherwise read them again)."""

        _, cache = self._cached("places", ("entry", "payment", "withdraw"))
        hit = cache.get(at)
        if hit is None:
            everyone = await self.store.entries()
            places = await Registrations(self.contest, self.store).places(at)
            cache.clear()  # only the latest moment is worth keeping
            hit = cache[at] = (places, everyone)
        result: tuple[dict[int, Place], list[Entry]] = hit
        return result

    async def ranking(self, category: Category, at: datetime | None = None) -> list[Row]:
        """The category's rows; the same list as last time while none of its entries' states
        changed (``states`` keeps each one until its entry changes)."""
        states = await self.states(category, at)
        _, cache = self._cached("ranking", CLOCK_KINDS)
        hit = cache.get(category.id)
        if hit is not None and len(hit[0]) == len(states) and all(
                a is b for a, b in zip(hit[0], states, strict=True)):
            rows: list[Row] = hit[1]
            return rows
        rows = standings(self.contest, category, states)
        cache[category.id] = (states, rows)
        return rows

    async def _running(
        self, number: int, at: datetime, escape: bool = False
    ) -> tuple[EntryState, int] | Refusal:
        """The entry and its contest time at ``at``, or why nothing can be recorded for it."""
        state = await self.state(number)
        if state is None:
            return UnknownEntry(number)
        if escape and state.ledger is None:
            return NotEscape(number)
        t = state.clock.elapsed(at)
        if t is None:
            return ClockNotStarted(number)
        return state, t

    # -- linking -------------------------------------------------------------------------------

    async def link(
        self, user_id: int, code: str, at: datetime, update_id: int | None
    ) -> Linked | Refusal:
        async with self.store.transaction() as tx:
            entry = await tx.entry_by_code(code)
            if entry is None:
                return BadCode()
            if user_id in await self.linked_users(entry.number):
                return Linked(entry, already=True)
            eid = await tx.add_event(
                at=at, kind="link", role="participant", actor=user_id, entry=entry.number,
                ref=code, update_id=update_id,
            )
            return Linked(entry, event_id=eid)

    async def create_invite(self, organiser: int, at: datetime, update_id: int | None) -> str:
        code = new_code("v")
        async with self.store.transaction() as tx:
            await tx.add_event(
                at=at, kind="volunteer_invite", role="organiser", actor=organiser, ref=code,
                update_id=update_id,
            )
        return code

    async def join_volunteer(
        self, user_id: int, code: str, at: datetime, update_id: int | None
    ) -> VolunteerJoined | Refusal:
        async with self.store.transaction() as tx:
            if not await tx.has_ref("volunteer_invite", code):
                return BadCode()
            if await tx.has_ref("volunteer_join", code):
                return InviteUsed()
            if user_id in await self.volunteers():
                return VolunteerJoined(already=True)
            eid = await tx.add_event(
                at=at, kind="volunteer_join", role="volunteer", actor=user_id, ref=code,
                update_id=update_id,
            )
            return VolunteerJoined(event_id=eid)

    # -- the clock -----------------------------------------------------------------------------

    async def start_clock(
        self, organiser: int, category: str | None, at: datetime, update_id: int | None
    ) -> ClocksStarted | Refusal:
        cats = [c.id for c in self.contest.categories] if category is None else [category]
        async with self.store.transaction() as tx:
            started, already = [], []
            for cid in cats:
                if (await self.clock(cid)).started is not None:
                    already.append(cid)
                    continue
                await tx.add_event(
                    at=at, kind="clock_start", role="organiser", actor=organiser, category=cid,
                    update_id=update_id,
                )
                started.append(cid)
            if not started:
                return AlreadyStarted(tuple(already))
            return ClocksStarted(tuple(started), tuple(already))

    async def pause(self, organiser: int, at: datetime, update_id: int | None) -> Done | Refusal:
        async with self.store.transaction() as tx:
            if await self.paused():
                return AlreadyPaused()
            await tx.add_event(
                at=at, kind="pause", role="organiser", actor=organiser, update_id=update_id
            )
            return Done()

    async def resume(
        self, organiser: int, at: datetime, update_id: int | None
    ) -> Done | Refusal:
        async with self.store.transaction() as tx:
            if not await self.paused():
                return NotPaused()
            await tx.add_event(
                at=at, kind="resume", role="organiser", actor=organiser, update_id=update_id
            )
            return Done()

    # -- escape requests -----------------------------------------------------------------------

    async def request(
        self, user_id: int, number: int, kind: Kind, stage: int, at: datetime,
        update_id: int | None,
    ) -> Granted | Refusal:
        async with self.store.transaction() as tx:
            running = await self._running(number, at, escape=True)
            if isinstance(running, Refusal):
                return running
            state, t = running
            assert state.ledger is not None
            decision = check_request(state.ledger, kind, stage, t)
            if isinstance(decision, Refused):
                refusal = escape_refusal(decision, number)
                if isinstance(refusal, Cooldown):
                    # when the pair may ask again, in real time: the notice is due then
                    refusal = replace(refusal, moment=state.clock.instant_at(refusal.next_at))
                    await tx.add_event(
                        at=at, kind="request_refused", role="participant", actor=user_id,
                        entry=number, stage=stage, value=decision.next_at,
                        ref=f"cooldown:{number}:{decision.next_at}",
                        data={"request": kind.value, "reason": decision.reason},
                        update_id=update_id,
                    )
                return refusal
            assert isinstance(decision, Accepted)
            eid = await tx.add_event(
                at=at, kind=kind.value, role="participant", actor=user_id, entry=number,
                stage=stage, data={"tickets_used": decision.charge.tickets_used,
                                   "tickets_bought": decision.charge.tickets_bought},
                update_id=update_id,
            )
            new_state = await self.state(number)
            return Granted(decision.charge, new_state, eid)

    async def pending_notices(self) -> list[tuple[int, str, int, datetime]]:
        """Cooldown notices owed: (entry, key, contest seconds, real instant) not yet sent."""
        refused = await self.store.events(kinds=["request_refused"])
        sent = {e.ref for e in await self.store.events(kinds=["notice"])}
        owed: dict[str, tuple[int, str, int, datetime]] = {}
        for e in refused:
            if e.ref is None or e.ref in sent or e.entry is None or e.value is None:
                continue
            state = await self.state(e.entry)
            if state is None or state.ledger is None:
                continue
            if state.ledger.over(e.value) or state.ledger.next_request_at != e.value:
                continue  # escape over, or another request was accepted since
            moment = state.clock.instant_at(e.value)
            if moment is not None:
                owed[e.ref] = (e.entry, e.ref, e.value, moment)
        return sorted(owed.values(), key=lambda x: x[3])

    async def notice_due(self, key: str) -> bool:
        """Whether a cooldown notice is still owed (not sent, still meaningful)."""
        return any(n[1] == key for n in await self.pending_notices())

    async def record_notice(self, key: str, entry: int, at: datetime) -> None:
        async with self.store.transaction() as tx:
            await tx.add_event(at=at, kind="notice", role="system", entry=entry, ref=key)

    # -- handover at the escape time limit -----------------------------------------------------

    async def handover_moments(self) -> list[tuple[str, datetime]]:
        """Escape categories whose handover message is still owed, with its real instant."""
        if self.contest.escape is None:
            return []
        sent = {e.ref for e in await self.store.events(kinds=["handover"])}
        out = []
        for cat in self.contest.categories:
            if not cat.escape or f"handover:{cat.id}" in sent:
                continue
            moment = (await self.clock(cat.id)).instant_at(self.contest.escape.time_limit)
            if moment is not None:
                out.append((cat.id, moment))
        return out

    async def unsolved(self, category: Category) -> list[EntryState]:
        return [
            s for s in await self.states(category)
            if s.ledger is not None and s.ledger.solved_at is None
        ]

    async def record_handover(self, category: str, at: datetime) -> bool:
        """Record that the handover was sent; False if it already was."""
        async with self.store.transaction() as tx:
            if await tx.has_ref("handover", f"handover:{category}"):
                return False
            await tx.add_event(
                at=at, kind="handover", role="system", category=category,
                ref=f"handover:{category}",
            )
            return True

    # -- participants --------------------------------------------------------------------------

    async def ready(
        self, user_id: int, number: int, at: datetime, update_id: int | None
    ) -> ReadyNoted | Refusal:
        async with self.store.transaction() as tx:
            running = await self._running(number, at)
            if isinstance(running, Refusal):
                return running
            state, t = running
            if state.finish is not None:
                return AlreadyFinished(number)
            if state.ledger is not None and not state.ledger.over(t):
                return EscapeNotOver(number)
            if not within_limit(t, state.category.time_limit, self.contest.limit_inclusive):
                return PastLimit(t, state.category.time_limit)
            eid = await tx.add_event(
                at=at, kind="ready", role="participant", actor=user_id, entry=number, value=t,
                update_id=update_id,
            )
            return ReadyNoted(number, t, eid)

    # -- volunteers ----------------------------------------------------------------------------

    async def confirm_stage(
        self, actor: int, role: str, number: int, stage: int, at: datetime,
        update_id: int | None,
    ) -> StageRecorded | Refusal:
        async with self.store.transaction() as tx:
            running = await self._running(number, at, escape=True)
            if isinstance(running, Refusal):
                return running
            state, t = running
            assert state.ledger is not None
            refused = check_confirmation(state.ledger, stage, t)
            if refused is not None:
                return escape_refusal(refused, number)
            eid = await tx.add_event(
                at=at, kind="stage", role=role, actor=actor, entry=number, stage=stage,
                update_id=update_id,
            )
            return StageRecorded(number, stage, t, eid)

    async def solve(
        self, actor: int, role: str, number: int, typed: int | None, at: datetime,
        update_id: int | None,
    ) -> EscapeRecorded | Refusal:
        async with self.store.transaction() as tx:
            running = await self._running(number, at, escape=True)
            if isinstance(running, Refusal):
                return running
            state, now_t = running
            assert state.ledger is not None and self.contest.escape is not None
            t = typed if typed is not None else now_t
            if t > self.contest.escape.time_limit:
                return PastEscapeLimit()
            if typed is not None and typed > now_t:
                return InTheFuture(typed)
            previous = next(
                (e for e in reversed(await tx.events(entry=number, kinds=["escape"]))), None
            )
            ledger = state.ledger
            if previous is not None:  # a correction: decide without the old solve
                events = [
                    e for e in await tx.events(entry=number, kinds=("hint", "solution", "stage"))
                ]
                ledger = fold(self.contest.escape, escape_events(events, state.clock))
            if previous is not None and previous.value == t:
                return AlreadyRecorded(number, t)
            refused = check_solve(ledger, t)
            if refused is not None:
                return escape_refusal(refused, number)
            eid = await tx.add_event(
                at=at, kind="escape", role=role, actor=actor, entry=number,
                value=t, supersedes=previous.id if previous else None, update_id=update_id,
            )
            return EscapeRecorded(
                number, t, old=previous.value if previous else None,
                corrected=previous is not None, event_id=eid,
            )

    async def finish(
        self, actor: int, role: str, number: int, typed: int | None, at: datetime,
        update_id: int | None,
    ) -> FinishRecorded | Refusal:
        async with self.store.transaction() as tx:
            running = await self._running(number, at)
            if isinstance(running, Refusal):
                return running
            state, now_t = running
            data: dict[str, Any] = {}
            limit = state.category.time_limit
            if typed is not None:
                t = typed
                if not within_limit(t, limit, self.contest.limit_inclusive):
                    return PastLimit(t, limit)
                if typed > now_t:
                    return InTheFuture(typed)
            elif state.ready is not None:
                t = state.clock.elapsed(state.ready.at) or 0
                data["moment"] = to_ts(state.ready.at)
                data["ready_event"] = state.ready.id
            else:
                t = now_t
                data["moment"] = to_ts(at)
            if not within_limit(t, limit, self.contest.limit_inclusive):
                return PastLimit(t, limit)
            if state.ledger is not None:
                ledger = state.ledger
                if not ledger.over(t):
                    return EscapeNotOver(number)
                if ledger.solved_at is not None and t < ledger.solved_at:
                    return BeforeEscape(number, ledger.solved_at)
            previous = state.finish_event
            if previous is not None and state.finish == t:
                return AlreadyRecorded(number, t)
            eid = await tx.add_event(
                at=at, kind="finish", role=role, actor=actor, entry=number, value=typed,
                data=data, supersedes=previous.id if previous else None, update_id=update_id,
            )
            return FinishRecorded(
                number, t, old=state.finish, corrected=previous is not None,
                from_ready="ready_event" in data, event_id=eid,
                old_actor=previous.actor if previous is not None else None,
            )

    async def pieces(
        self, actor: int, role: str, number: int, count: int, at: datetime,
        update_id: int | None,
    ) -> PiecesRecorded | Refusal:
        async with self.store.transaction() as tx:
            state = await self.state(number)
            if state is None:
                return UnknownEntry(number)
            if count < 0 or count > state.category.pieces:
                return PiecesRange(count, state.category.pieces)
            if state.finish is not None:
                return AlreadyFinished(number)
            previous = state.pieces_event
            if previous is not None and state.pieces == count:
                return AlreadyRecordedPieces(number, count)
            eid = await tx.add_event(
                at=at, kind="pieces", role=role, actor=actor, entry=number, value=count,
                supersedes=previous.id if previous else None, update_id=update_id,
            )
            return PiecesRecorded(
                number, count, old=state.pieces, corrected=previous is not None, event_id=eid,
            )

    async def penalty(
        self, actor: int, role: str, number: int, kind_id: str, count: int, at: datetime,
        update_id: int | None,
    ) -> PenaltyRecorded | Refusal:
        """``count`` penalties of ``kind_id`` for entry ``number`` (added to the ones it has;
        /deshacer takes the last one back)."""
        kind = self.contest.penalty(kind_id)
        if kind is None:
            return UnknownPenalty(kind_id, tuple(k.id for k in self.contest.penalties))
        async with self.store.transaction() as tx:
            state = await self.state(number)
            if state is None:
                return UnknownEntry(number)
            eid = await tx.add_event(
                at=at, kind="penalty", role=role, actor=actor, entry=number, value=count,
                ref=kind.id, update_id=update_id,
            )
            return PenaltyRecorded(number, kind.id, count, kind.seconds * count,
                                   state.time_penalty + kind.seconds * count, eid)

    async def undo(
        self, actor: int, role: str, at: datetime, update_id: int | None
    ) -> Undone | Refusal:
        kinds = ORGANISER_UNDOABLE if role == "organiser" else VOLUNTEER_KINDS
        async with self.store.transaction() as tx:
            mine = await tx.events(actor=actor, kinds=kinds)
            if not mine:
                return NothingToUndo()
            last = mine[-1]
            eid = await tx.add_event(
                at=at, kind="undo", role=role, actor=actor, entry=last.entry,
                category=last.category, supersedes=last.id, update_id=update_id,
                data={"kind": last.kind},
            )
            return Undone(last, eid)

    async def history(self, number: int) -> Sequence[Event] | None:
        if await self.store.entry(number) is None:
            return None
        return await self.store.events(entry=number, effective=False)
