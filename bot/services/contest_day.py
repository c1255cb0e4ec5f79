"""What people do on the contest day, as operations on the store through bot/domain.

Each operation reads the history, decides with the domain, and appends its event inside one
transaction, so two phones tapping at once are decided one after the other. Results are typed:
what was recorded (a ``Done``) or why not (a ``Refusal``, one class per reason, with its data);
handlers turn them into messages in the person's language.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, datetime
from datetime import time as dtime
from typing import Any, ClassVar
from zoneinfo import ZoneInfo

from bot.domain.clock import CategoryClock, within_limit
from bot.domain.contest import Category, Contest, SeparateRanking
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
from bot.domain.events import (
    CLOCK_KINDS,
    ENTRY_KINDS,
    PLACE_KINDS,
    ROUND_KINDS,
)
from bot.domain.ranking import Competitor, Row, ages_fit, rank, separate
from bot.domain.registration import Place, Status
from bot.domain.rounds import (
    EARLY_START,
    AfterRunning,
    AllStarted,
    Heat,
    HeatClock,
    NotTimeYet,
    StartNow,
    classification,
    heat_over,
    heats_by_id,
    merged,
    next_heats,
    qualifiers,
    seat,
    table_number,
)
from bot.services.outcomes import (
    AlreadyFinished,
    AlreadyRecorded,
    ClockNotStarted,
    Done,
    EscapeNotOver,
    InTheFuture,
    PastLimit,
    Refusal,
    UnknownEntry,
    new_code,
)
from bot.services.registrations import Registrations
from bot.services.state import (
    EntryState,
    clock_for,
    entry_state,
    escape_events,
    general_pause_open,
    standings,
)
from bot.storage.store import Entry, Event, Store
from bot.support.wallclock import CLOCK


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
class RoundNotOver(Refusal):
    """A heat still running, with entries that have no result yet."""

    code: ClassVar[str] = "round_not_over"
    heat: str
    waiting: tuple[int, ...]


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
class HeatNotStarted(Refusal):
    """A round can't be confirmed before each of its heats was played."""

    code: ClassVar[str] = "heat_not_started"
    heat: str


@dataclass(frozen=True)
class NoQualifiers(Refusal):
    """The round's advancement rule lets nobody through: the next round would be empty."""

    code: ClassVar[str] = "no_qualifiers"
    heat: str


@dataclass(frozen=True)
class NothingToStart(Refusal):
    """No category waiting for its clock, and no heat with entrants waiting for its own."""

    code: ClassVar[str] = "nothing_to_start"


@dataclass(frozen=True)
class RoundClosed(Refusal):
    """A result of a round the organiser already confirmed: it can't change any more."""

    code: ClassVar[str] = "round_closed"
    heat: str


@dataclass(frozen=True)
class RoundsOver(Refusal):
    """Every round of the category is already confirmed."""

    code: ClassVar[str] = "rounds_over"
    category: str


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
class OrganiserInviteUsed(Refusal):
    code: ClassVar[str] = "organiser_invite_used"


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
class OrganiserJoined(Done):
    already: bool = False
    event_id: int | None = None


@dataclass(frozen=True)
class ClocksStarted(Done):
    started: tuple[str, ...]
    already: tuple[str, ...]
    later: tuple[str, ...] = ()  # heats whose scheduled start is still to come (not started)
    behind: tuple[HeatRunning, ...] = ()  # heats waiting for the one before them to end


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









def round_ref(category: Category, round_index: int) -> str:
    """What the confirmation of a round is recorded under."""
    return f"{category.id}/{category.rounds[round_index].id}"


@dataclass(frozen=True)
class RoundConfirmed(Done):
    """A round confirmed final: ``qualifiers`` (best first) make up the next round's
    ``heats`` (empty after the last round)."""

    category: Category
    round_index: int
    qualifiers: tuple[int, ...]
    ranking: tuple[Row, ...]
    heats: tuple[list[int], ...]
    event_id: int | None = None


def in_ranking(contest: Contest, sr: SeparateRanking, entry: Entry) -> bool:
    """Whether ``entry`` is in the separate ranking ``sr`` (its members' ages on the contest
    day, its answer to ``sr.question``: a per-member yes/no one is "yes" when a member said
    yes)."""
    if (sr.min_age is not None or sr.max_age is not None) and not ages_fit(
            ((m.born, m.born_year) for m in entry.members), contest.date, sr.min_age,
            sr.max_age):
        return False
    if sr.question is None:
        return True
    question = next((q for q in contest.questions if q.id == sr.question), None)
    if question is not None and question.yes_no and not question.per_entry:
        answer: str | None = "yes" if any(sr.question in m.answers
                                          for m in entry.members) else "no"
    else:
        answer = entry.answer(sr.question)
    return answer is not None and answer.lower() in {a.lower() for a in sr.answers}


class ContestDay:
    def __init__(self, contest: Contest, store: Store, organisers: frozenset[int]) -> None:
        self.contest = contest
        self.store = store
        self.organisers = organisers
        self._caches: dict[str, tuple[tuple[int, ...], dict[Any, Any], int]] = {}
        self.heats: dict[str, Heat] = heats_by_id(contest.categories)
        # rounds of several heats, by name ("pairs-heats"): their ranking over all the heats
        self.rounds: dict[str, tuple[Category, int]] = {
            f"{c.id}-{r.id}": (c, i) for c in contest.categories
            for i, r in enumerate(c.rounds) if r.heats > 1}

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

    async def all_organisers(self) -> frozenset[int]:
        """The organisers: those of the settings (``PUZZLEBOT_ORGANISERS``) and everyone who
        opened an organiser link."""
        _, cache = self._cached("organisers", ("organiser_join",))
        if "all" not in cache:
            cache["all"] = self.organisers | {
                e.actor for e in await self.store.events(kinds=["organiser_join"]) if e.actor
            }
        result: frozenset[int] = cache["all"]
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
            organiser=user_id in await self.all_organisers(),
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
        if entry is None:
            return None
        category = self.contest.category(entry.category)
        if category is None:
            return None
        if category.rounds:
            heat = await self.heat_of(entry.number, category)
            return None if heat is None else (await self._round_states(heat, [entry]))[0]
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

    # -- rounds --------------------------------------------------------------------------------

    async def lineups(self, category: Category) -> list[list[list[int]]]:
        """For each round reached so far (the first, then each one whose round before was
        confirmed), the entry numbers of each of its heats, in table order.

        The first round's entrants are the category's confirmed entries when its first heat's
        clock started: until then, as they are now, or at the round's scheduled start (its
        day's midnight) while that is still to come (a payment at the desk in the morning
        still counts); from then on, a withdrawal or a late payment no longer moves anyone."""
        _, cache = self._cached("lineups", PLACE_KINDS + ROUND_KINDS + CLOCK_KINDS)
        hit = cache.get(category.id)
        if hit is not None:
            result: list[list[list[int]]] = hit
            return result
        first = category.rounds[0]
        starts = [(await self.clock(Heat(category, 0, h).id)).started
                  for h in range(1, first.heats + 1)]
        begun = min((t for t in starts if t is not None), default=None)
        # the entries first, then their places: an entry registered between the two reads
        # has a place but is not listed (never listed without a place)
        everyone = {e.number: e for e in await self.store.entries(category.id)}
        regs = Registrations(self.contest, self.store)
        by = first.heats_by

        def answer(number: int) -> str | None:  # the heat the entry chose at registration
            return everyone[number].answer(by) if by is not None else None

        async def holding(heat: int, started: datetime | None) -> list[int]:
            """Confirmed when the heat (the round: ``heat`` 1) began, or at its scheduled
            start (its day's midnight) while that is to come, or now."""
            when = first.when(heat)
            planned = when.start or datetime.combine(when.date, dtime(0), ZoneInfo(
                self.contest.timezone))
            places = await regs.places(started or max(CLOCK.now(), planned))
            return [n for n in everyone
                    if (p := places.get(n)) is not None and p.status is Status.CONFIRMED]

        if by is None:
            heats = seat(category, 0, await holding(1, begun))
        else:  # heats chosen at registration: each heat's entrants are set when it begins
            heats = [seat(category, 0, await holding(h, started), answer)[h - 1]
                     for h, started in enumerate(starts, 1)]
        lineup = [heats]
        confirmed = {e.ref: e for e in await self.store.events(kinds=list(ROUND_KINDS))}
        for i in range(1, len(category.rounds)):
            done = confirmed.get(round_ref(category, i - 1))
            if done is None:
                break
            lineup.append(seat(category, i, [int(n) for n in done.data["qualifiers"]]))
        if all(t is not None for t in starts) if by is not None else begun is not None:
            cache[category.id] = lineup  # fixed from now on: kept until something is written
        return lineup

    async def heat_of(self, number: int, category: Category) -> Heat | None:
        """The heat an entry plays in now: in the latest round it reached (None: not in
        one, or a category played once)."""
        if not category.rounds:
            return None
        for r, heats in reversed(list(enumerate(await self.lineups(category)))):
            for h, numbers in enumerate(heats, 1):
                if number in numbers:
                    return Heat(category, r, h)
        return None

    async def table_of(self, number: int, heat: Heat) -> int | None:
        """The entry's table in its heat (1: the front, where the best seed sits)."""
        lineup = await self.lineups(heat.category)
        numbers = lineup[heat.round_index][heat.number - 1]
        return table_number(numbers.index(number), heat.round.per_table) \
            if number in numbers else None

    async def confirmed_rounds(self, category: Category) -> int:
        """How many of the category's rounds the organiser confirmed as final."""
        return len(await self.lineups(category)) - 1 + int(
            await self.store.has_ref("round_final", round_ref(category,
                                                              len(category.rounds) - 1)))

    async def units(self, latest_only: bool = False) -> list[Category]:
        """What has a clock: each category without rounds, and each heat of a round reached
        (as a category of its own: its pieces and limit); ``latest_only``: only the heats of
        the latest round each category reached (what the projector shows)."""
        out: list[Category] = []
        for c in self.contest.categories:
            if not c.rounds:
                out.append(c)
                continue
            lineup = await self.lineups(c)
            first = len(lineup) - 1 if latest_only else 0
            for r in range(first, len(lineup)):
                out.extend(Heat(c, r, h).play for h in range(1, len(lineup[r]) + 1))
        return out

    async def current_units(self) -> list[Category]:
        return await self.units(latest_only=True)

    async def unit(self, unit_id: str) -> Category | None:
        """A category without rounds, or a heat, by id."""
        heat = self.heats.get(unit_id)
        if heat is not None:
            return heat.play
        category = self.contest.category(unit_id)
        return category if category is not None and not category.rounds else None

    async def _round_states(self, heat: Heat, entries: list[Entry]) -> list[EntryState]:
        """The results of ``entries`` in ``heat`` (from the events tagged with it)."""
        _, cache = self._cached("round_state", CLOCK_KINDS + ROUND_KINDS)
        clock = await self.clock(heat.id)
        out = []
        for e in entries:
            key = (e.number, heat.id)
            version = self.store.entry_versions.get(e.number, 0)  # before the read: see state
            hit = cache.get(key)
            if hit is None or hit[0] != version:
                events = [ev for ev in await self.store.events(entry=e.number, kinds=ENTRY_KINDS)
                          if ev.category == heat.id]
                hit = cache[key] = (version, entry_state(self.contest, e, events, clock,
                                                         hit[1] if hit else None, heat.play))
            out.append(hit[1])
        return out

    async def heat_states(self, heat: Heat) -> list[EntryState]:
        lineup = await self.lineups(heat.category)
        if heat.round_index >= len(lineup):
            return []
        numbers = lineup[heat.round_index][heat.number - 1]
        entries = [e for n in numbers if (e := await self.store.entry(n)) is not None]
        return await self._round_states(heat, entries)

    async def _competitors(self, heat: Heat) -> list[Competitor]:
        """The heat's results, each with its ranking time in the round before when ties are
        broken by it."""
        found = [s.competitor() for s in await self.heat_states(heat)]
        if self.contest.tie_break != "earlier_round" or heat.round_index == 0:
            return found
        earlier: dict[int, int | None] = {}
        for r in merged(heat.category, heat.round_index - 1,
                        [await self.heat_ranking(Heat(heat.category, heat.round_index - 1, h))
                         for h in range(1, heat.category.rounds[heat.round_index - 1].heats + 1)],
                        self.contest.limit_inclusive, self.contest.penalised_finish_counts):
            earlier[r.number] = r.time if r.finished else None
        return [replace(c, earlier=earlier.get(c.number)) for c in found]

    async def heat_ranking(self, heat: Heat) -> list[Row]:
        return rank(heat.play, await self._competitors(heat), self.contest.limit_inclusive,
                    self.contest.penalised_finish_counts, self.contest.tie_break)

    async def round_ranking(self, category: Category, round_index: int
                            ) -> tuple[list[list[Row]], list[Row]]:
        """A round's ranking in each heat, and over all its heats."""
        heats = [await self.heat_ranking(Heat(category, round_index, h))
                 for h in range(1, category.rounds[round_index].heats + 1)]
        return heats, merged(category, round_index, heats, self.contest.limit_inclusive,
                             self.contest.penalised_finish_counts, self.contest.tie_break)

    async def classification(self, category: Category) -> list[Row]:
        """The category's classification over its rounds (see ``bot.domain.rounds``)."""
        lineup = await self.lineups(category)
        rounds: list[tuple[list[Competitor], set[int]]] = []
        for r in range(len(lineup)):
            competitors = [c for h in range(1, len(lineup[r]) + 1)
                           for c in await self._competitors(Heat(category, r, h))]
            went_on = {n for heat in lineup[r + 1] for n in heat} if r + 1 < len(lineup) else set()
            rounds.append((competitors, went_on))
        return classification(category, rounds, self.contest.limit_inclusive,
                              self.contest.penalised_finish_counts, self.contest.tie_break,
                              self.contest.shared_prizes,
                              final=await self.confirmed_rounds(category) >= len(lineup))

    async def separate_rankings(self, category: Category
                                ) -> list[tuple[SeparateRanking, list[Row]]]:
        """The category's rankings of their own (under 18s, residents): its ranking (its
        classification, with rounds) among the entries each one takes."""
        if not category.separate:
            return []
        rows = await self.ranking(category)
        entries = {e.number: e for e in await self.store.entries(category.id)}
        out = []
        for sr in category.separate:

            def keep(number: int, sr: SeparateRanking = sr) -> bool:
                entry = entries.get(number)
                return entry is not None and in_ranking(self.contest, sr, entry)

            out.append((sr, separate(rows, keep, sr.prizes, self.contest.shared_prizes)))
        return out

    async def confirm_round(self, organiser: int, category: Category, at: datetime,
                            update_id: int | None) -> RoundConfirmed | Refusal:
        """The organiser says the category's current round is final: its qualifiers are
        recorded (best first), and they make up the next round's heats."""
        async with self.store.transaction() as tx:
            lineup = await self.lineups(category)
            index = len(lineup) - 1
            if await tx.has_ref("round_final", round_ref(category, index)):
                return RoundsOver(category.id)
            heats, ranking = await self.round_ranking(category, index)
            for h, rows in enumerate(heats, 1):
                heat = Heat(category, index, h)
                clock = await self.clock(heat.id)
                if rows and clock.started is None:
                    return HeatNotStarted(heat.id)
                waiting = tuple(r.number for r in rows
                                if r.position is None and r.competitor.outcome is None)
                if waiting and not heat_over(rows, clock.elapsed(at), heat.play.time_limit):
                    return RoundNotOver(heat.id, waiting)
            rule = category.rounds[index].advance
            chosen: list[int] = []
            if rule is not None:
                by = rule.by
                entries = {e.number: e for e in await self.store.entries(category.id)}

                def group_of(number: int) -> str | None:
                    e = entries.get(number)
                    return e.answer(by) if e is not None and by is not None else None

                chosen = qualifiers(rule, heats, ranking, group_of)
                if not chosen:
                    return NoQualifiers(Heat(category, index, 1).id)
            await tx.add_event(
                at=at, kind="round_final", role="organiser", actor=organiser,
                ref=round_ref(category, index), data={"qualifiers": chosen},
                update_id=update_id,
            )
            return RoundConfirmed(category, index, tuple(chosen), tuple(ranking),
                                  tuple(seat(category, index + 1, chosen))
                                  if rule is not None else ())

    async def states(self, category: Category, at: datetime | None = None) -> list[EntryState]:
        """The entries holding a place in a category (at ``at``; default now), with their
        contest state. Each entry's state is kept until an event of that entry (or of the
        clock) is written, so a ranking recomputes only what changed. A heat's: its entrants;
        a category with rounds: the entrants of the latest round it reached."""
        if category.id in self.heats or category.rounds:
            return await self._states_in_rounds(category)
        _, cache = self._cached("entry_state", CLOCK_KINDS)  # before the clock: see state()
        clock = await self.clock(category.id)
        entries = await self._holding_places(category, at or CLOCK.now())
        missing, seen = self._stale(cache, entries)
        if missing:
            histories = await self._histories(missing)
            self._refold(cache, missing, seen, histories, clock)
        return [cache[e.number][1] for e in entries]

    async def _states_in_rounds(self, category: Category) -> list[EntryState]:
        heat = self.heats.get(category.id)
        if heat is not None:
            return await self.heat_states(heat)
        lineup = await self.lineups(category)
        r = len(lineup) - 1
        return [s for h in range(1, len(lineup[r]) + 1)
                for s in await self.heat_states(Heat(category, r, h))]

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
        changed (``states`` keeps each one until its entry changes). A heat's ranking; for a
        category with rounds, its classification over them."""
        heat = self.heats.get(category.id)
        if heat is not None:
            return await self.heat_ranking(heat)
        if category.rounds:
            return await self.classification(category)
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

    async def running(
        self, number: int, at: datetime, escape: bool = False
    ) -> tuple[EntryState, int] | Refusal:
        """The entry and its contest time at ``at``, or why nothing can be recorded for it."""
        state = await self.state(number)
        if state is None:
            return UnknownEntry(number)
        if escape and state.ledger is None:
            return NotEscape(number)
        closed = await self.closed(state)
        if closed is not None:
            return closed
        t = state.clock.elapsed(at)
        if t is None:
            return ClockNotStarted(number)
        return state, t

    async def closed(self, state: EntryState) -> Refusal | None:
        """Why nothing can be recorded in the entry's heat any more: its round was confirmed
        (an entry that went out stays in its last heat). None for a category played once."""
        heat = self.heats.get(state.unit or "")
        if heat is not None and await self.confirmed_rounds(heat.category) > heat.round_index:
            return RoundClosed(heat.id)
        return None

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
        """A one-time link for a volunteer, made by an organiser in the chat."""
        return await self._invite("v", "volunteer_invite", organiser, at, update_id)

    async def _invite(self, prefix: str, kind: str, organiser: int, at: datetime,
                      update_id: int | None) -> str:
        code = new_code(prefix)
        async with self.store.transaction() as tx:
            await tx.add_event(at=at, kind=kind, role="organiser", actor=organiser, ref=code,
                               update_id=update_id)
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

    async def create_organiser_invite(self, organiser: int, at: datetime,
                                      update_id: int | None) -> str:
        """A one-time link for another organiser, made by an organiser in the chat."""
        return await self._invite("o", "organiser_invite", organiser, at, update_id)

    async def standing_organiser_invite(self, at: datetime, create: bool) -> str | None:
        """The organiser link the bot prints at start (``python -m bot run``, ``setup``): the
        one it made before while nobody has opened it, so every start prints the same link;
        else, with ``create``, a new one (and None without)."""
        async with self.store.transaction() as tx:
            joined = {e.ref for e in await tx.events(kinds=["organiser_join"])}
            for e in reversed(await tx.events(kinds=["organiser_invite"])):
                if e.role == "system" and e.ref and e.ref not in joined:
                    return e.ref
            if not create:
                return None
            code = new_code("o")
            await tx.add_event(at=at, kind="organiser_invite", role="system", ref=code)
            return code

    async def join_organiser(
        self, user_id: int, code: str, at: datetime, update_id: int | None
    ) -> OrganiserJoined | Refusal:
        async with self.store.transaction() as tx:
            if not await tx.has_ref("organiser_invite", code):
                return BadCode()
            if await tx.has_ref("organiser_join", code):
                return OrganiserInviteUsed()
            if user_id in await self.all_organisers():
                return OrganiserJoined(already=True)  # the link stays for someone else
            eid = await tx.add_event(
                at=at, kind="organiser_join", role="organiser", actor=user_id, ref=code,
                update_id=update_id,
            )
            return OrganiserJoined(event_id=eid)

    # -- the clock -----------------------------------------------------------------------------

    async def start_clock(
        self, organiser: int, category: str | None, at: datetime, update_id: int | None
    ) -> ClocksStarted | Refusal:
        """Start the clock of a category, of a heat, or (``category`` None) of every category
        not started yet. A category with rounds (by its id, or with every category) starts its
        next heat by ``next_heats``: the first heat not started of the latest round reached,
        on its day, from half an hour before its scheduled start, and not while the heat
        before it at the same venue is still being played. By its own name a heat starts
        whenever the organiser says."""
        async with self.store.transaction() as tx:
            heat = self.heats.get(category or "")
            if heat is not None:
                lineup = await self.lineups(heat.category)
                if heat.round_index >= len(lineup) or \
                        not lineup[heat.round_index][heat.number - 1]:
                    return NotReached(heat.id)
            started: list[str] = []
            due, already, later, behind = await self._to_start(category, at)
            for cid in due:
                if (await self.clock(cid)).started is not None:
                    already.append(cid)
                    continue
                await tx.add_event(
                    at=at, kind="clock_start", role="organiser", actor=organiser, category=cid,
                    update_id=update_id,
                )
                started.append(cid)
            if not started and later:  # what waits says more than what already runs
                return self.not_yet(later[0], at)
            if not started and behind:
                return behind[0]
            if not started and not already:
                return NothingToStart()
            if not started:
                return AlreadyStarted(tuple(already))
            return ClocksStarted(tuple(started), tuple(already), tuple(later), tuple(behind))

    def not_yet(self, heat_id: str, at: datetime) -> NotYet:
        """Why heat ``heat_id`` is not started at ``at``: its day is to come (or its hour,
        today)."""
        heat = self.heats[heat_id]
        when = heat.round.when(heat.number)
        today = at.astimezone(ZoneInfo(self.contest.timezone)).date()
        return NotYet(heat_id, when.date, when.start if when.date == today else None)

    async def _to_start(self, category: str | None, at: datetime
                        ) -> tuple[list[str], list[str], list[str], list[HeatRunning]]:
        """The clocks to start; those already started; the heats left for their scheduled
        time; the heats waiting for the one before them."""
        if category is not None:
            cat = self.contest.category(category)
            if cat is None or not cat.rounds:
                return [category], [], [], []  # a heat by its name, or a category played once
            cats = [cat]
        else:
            cats = list(self.contest.categories)
        today = at.astimezone(ZoneInfo(self.contest.timezone)).date()
        due: list[str] = []
        already: list[str] = []
        later: list[str] = []
        behind: list[HeatRunning] = []
        for c in cats:
            if not c.rounds:
                due.append(c.id)
                continue
            lineup = await self.lineups(c)
            r = len(lineup) - 1
            heats = [Heat(c, r, h) for h in range(1, len(lineup[r]) + 1) if lineup[r][h - 1]]
            clocks = [HeatClock(h.number, (await self.clock(h.id)).started is not None,
                                await self._being_played(h, at)) for h in heats]
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

    async def _being_played(self, heat: Heat, at: datetime) -> bool:
        """Whether the heat's clock runs with time left and an entrant without a result."""
        clock = await self.clock(heat.id)
        if clock.started is None:
            return False
        return not heat_over(await self.heat_ranking(heat), clock.elapsed(at),
                             heat.play.time_limit)

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
            running = await self.running(number, at, escape=True)
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
                category=state.unit, update_id=update_id,
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
            running = await self.running(number, at)
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
                category=state.unit, update_id=update_id,
            )
            return ReadyNoted(number, t, eid)

    # -- volunteers ----------------------------------------------------------------------------

    async def confirm_stage(
        self, actor: int, role: str, number: int, stage: int, at: datetime,
        update_id: int | None,
    ) -> StageRecorded | Refusal:
        async with self.store.transaction() as tx:
            running = await self.running(number, at, escape=True)
            if isinstance(running, Refusal):
                return running
            state, t = running
            assert state.ledger is not None
            refused = check_confirmation(state.ledger, stage, t)
            if refused is not None:
                return escape_refusal(refused, number)
            eid = await tx.add_event(
                at=at, kind="stage", role=role, actor=actor, entry=number, stage=stage,
                category=state.unit, update_id=update_id,
            )
            return StageRecorded(number, stage, t, eid)

    async def solve(
        self, actor: int, role: str, number: int, typed: int | None, at: datetime,
        update_id: int | None,
    ) -> EscapeRecorded | Refusal:
        async with self.store.transaction() as tx:
            running = await self.running(number, at, escape=True)
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
                value=t, supersedes=previous.id if previous else None, category=state.unit,
                update_id=update_id,
            )
            return EscapeRecorded(
                number, t, old=previous.value if previous else None,
                corrected=previous is not None, event_id=eid,
            )
