"""What people do on the contest day, as operations on the store through bot/domain.

Each operation reads the history, decides with the domain, and appends its event inside one
transaction, so two phones tapping at once are decided one after the other. Results are typed:
what was recorded (a ``Done``) or why not (a ``Refusal``, one class per reason, with its data);
handlers turn them into messages in the person's language.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from datetime import time as dtime
from typing import Any, ClassVar
from zoneinfo import ZoneInfo

from bot.domain.clock import CategoryClock
from bot.domain.contest import Category, Contest, SeparateRanking
from bot.domain.events import (
    CLOCK_KINDS,
    ENTRY_KINDS,
    ENTRY_ROWS,
    INVITE_KINDS,
    PLACE_KINDS,
    ROUND_KINDS,
    EventKind,
)
from bot.domain.places import Place, Status
from bot.domain.ranking import Competitor, Row, ages_fit, rank, separate
from bot.domain.rounds import (
    Heat,
    classification,
    heats_by_id,
    merged,
    seat,
    seat_groups,
)
from bot.features.invitations.rules import Invitation, accepted, fold
from bot.features.registration.day import Registrations
from bot.services.outcomes import (
    ClockNotStarted,
    NotEscape,
    Refusal,
    UnknownEntry,
)
from bot.services.readmodel import ReadModel
from bot.services.state import (
    EntryState,
    clock_for,
    entry_state,
    general_pause_open,
    standings,
)
from bot.storage.store import Entry, Event, Store
from bot.support.wallclock import CLOCK

OUTCOMES = ("dns", "dsq", "oc")  # did not start, disqualified, out of competition
# more entries than this to read (a ranking's, a heat's) are read in a few queries, not one by
# one: one read per entry costs a trip to the database's thread each (a big day's 1,000)
BULK_READ = 50


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
class RoundClosed(Refusal):
    """A result of a round the organiser already confirmed: it can't change any more."""

    code: ClassVar[str] = "round_closed"
    heat: str


def pieces_left(state: EntryState) -> int:
    """The most pieces a pieces count typed may say: the puzzle's; with puzzles in
    sequence, those of the puzzles still to finish (the largest ones still to play)."""
    category = state.category
    if not category.puzzles:
        return category.pieces
    done = {k for k, _ in state.split_puzzles}
    unfinished = sorted((size for k, size in enumerate(category.puzzles, 1) if k not in done),
                        reverse=True)
    return sum(unfinished[:max(0, category.puzzles_played - len(done))])


def round_ref(category: Category, round_index: int) -> str:
    """What the confirmation of a round is recorded under."""
    return f"{category.id}/{category.rounds[round_index].id}"


def separate_of(contest: Contest, category: Category, rows: Sequence[Row],
                entries: Mapping[int, Entry]) -> list[tuple[SeparateRanking, list[Row]]]:
    """The category's rankings of their own (under 18s, residents) out of its ranking
    ``rows``: each one's entries (of ``entries``, by number) placed among themselves."""
    out = []
    for sr in category.separate:

        def keep(number: int, sr: SeparateRanking = sr) -> bool:
            entry = entries.get(number)
            return entry is not None and in_ranking(contest, sr, entry)

        out.append((sr, separate(rows, keep, sr.prizes, contest.shared_prizes)))
    return out


def in_ranking(contest: Contest, sr: SeparateRanking, entry: Entry) -> bool:
    """Whether ``entry`` is in the separate ranking ``sr`` (its members' ages on the contest
    day, its answer to ``sr.question``: a per-member yes/no one is "yes" when a member said
    yes)."""
    if (sr.min_age is not None or sr.max_age is not None) and not ages_fit(
            ((m.born, m.born_year) for m in entry.members), contest.date, sr.min_age,
            sr.max_age, sr.age_by == "year"):
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


def answer_to(entries: dict[int, Entry], question: str | None) -> Callable[[int], str | None]:
    """An entry's answer to ``question`` by its number (None: no such entry, or no question):
    the heat a round split by a question gives it, its group for an advancement cap."""
    def answer(number: int) -> str | None:
        e = entries.get(number)
        return e.answer(question) if e is not None and question is not None else None
    return answer


@dataclass
class Links:
    """Who follows which entry (``ContestDay._links``): read up to event ``last_id``, as of
    the link writes ``version`` and the corrections and undos ``stamp``."""

    stamp: tuple[Any, ...]
    version: int = -1
    last_id: int = 0
    by_user: dict[int, set[int]] = field(default_factory=dict)
    by_entry: dict[int, set[int]] = field(default_factory=dict)


class ContestDay:
    def __init__(self, contest: Contest, store: Store, organisers: frozenset[int]) -> None:
        self._links_held: Links | None = None
        self.contest = contest
        self.store = store
        self.organisers = organisers
        self.read = ReadModel(store)  # every cache of derived state, stamped one way
        self.registrations = Registrations(contest, store, self.read)
        self.heats: dict[str, Heat] = heats_by_id(contest.categories)
        # rounds of several heats, by name ("pairs-heats"): their ranking over all the heats
        self.rounds: dict[str, tuple[Category, int]] = {
            f"{c.id}-{r.id}": (c, i) for c in contest.categories
            for i, r in enumerate(c.rounds) if r.heats > 1}

    # -- who is who ----------------------------------------------------------------------------

    async def volunteers(self) -> set[int]:
        cache = self.read.projection("volunteers", (EventKind.VOLUNTEER_JOIN,))
        if "all" not in cache:
            cache["all"] = {
                e.actor for e in await self.store.events(kinds=[EventKind.VOLUNTEER_JOIN])
                if e.actor
            }
        result: set[int] = cache["all"]
        return result

    async def all_organisers(self) -> frozenset[int]:
        """The organisers: those of the settings (``PUZZLEBOT_ORGANISERS``) and everyone who
        opened an organiser link."""
        cache = self.read.projection("organisers", (EventKind.ORGANISER_JOIN,))
        if "all" not in cache:
            cache["all"] = self.organisers | {
                e.actor for e in await self.store.events(kinds=[EventKind.ORGANISER_JOIN])
                if e.actor
            }
        result: frozenset[int] = cache["all"]
        return result

    async def linked_entries(self, user_id: int) -> list[Entry]:
        cache = self.read.projection("links_by_user", (EventKind.LINK, ENTRY_ROWS))
        if user_id not in cache:
            numbers = (await self._links()).by_user.get(user_id)
            if numbers:  # the entries in one read (kept by the store), not one by one
                everyone = {e.number: e for e in await self.store.entries()}
                cache[user_id] = [everyone[n] for n in sorted(numbers) if n in everyone]
            else:
                cache[user_id] = []
        result: list[Entry] = cache[user_id]
        return list(result)

    async def linked_users(self, number: int) -> list[int]:
        return sorted((await self._links()).by_entry.get(number, ()))

    async def _links(self) -> Links:
        """Who follows which entry, from every link in force. Kept, and brought up to date
        with the links written since (by id) when only links were; read whole again after a
        correction or an undo (a link may have been taken back)."""
        stamp = self.read.stamp(())  # the corrections and the undos
        version = self.store.versions.get(EventKind.LINK, 0)  # before the read: see state()
        held = self._links_held
        if held is not None and held.stamp == stamp and held.version == version:
            return held
        if held is None or held.stamp != stamp:
            held = Links(stamp)
        for event_id, actor, entry in await self.store.links_after(held.last_id):
            held.last_id = event_id
            if actor is not None and entry:
                held.by_user.setdefault(actor, set()).add(entry)
                held.by_entry.setdefault(entry, set()).add(actor)
        if held.stamp == self.read.stamp(()):  # no undo meanwhile: what was read stands
            held.version = version
            self._links_held = held
        return held

    async def participants(self) -> list[int]:
        """Everyone who follows at least one entry."""
        return sorted({e.actor for e in await self.store.events(kinds=[EventKind.LINK])
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
        cache = self.read.projection("clock", CLOCK_KINDS)
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
        cache = self.read.projection("entry_state", CLOCK_KINDS)
        version = self.read.entry_stamp(number)
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
        cache = self.read.projection("lineups", PLACE_KINDS + ROUND_KINDS + INVITE_KINDS
                                     + CLOCK_KINDS)
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
        regs = self.registrations
        by = first.heats_by

        answer = answer_to(everyone, by)  # the heat the entry chose at registration

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
            came = {n: h for h, numbers in enumerate(lineup[-1], 1) for n in numbers}
            split_by = category.rounds[i].heats_by
            if done.data.get("invite"):  # invited: who accepted, each in the heat it was told
                lineup.append(seat_groups(category, i, accepted(
                    await self.invitations(category, i - 1), done.data["order"],
                    category.rounds[i].heats)))
                continue
            lineup.append(seat(category, i, [int(n) for n in done.data["qualifiers"]],
                               answer_to(everyone, split_by), came.get))
        if all(t is not None for t in starts) if by is not None else begun is not None:
            cache[category.id] = lineup  # fixed from now on: kept until something is written
        return lineup

    async def invitations(self, category: Category, round_index: int) -> dict[int, Invitation]:
        """The invitations to the round after ``round_index`` (its qualifiers invited), by
        entry (empty: the round does not invite, or is not confirmed)."""
        ref = round_ref(category, round_index)
        return fold(e for e in await self.store.events(kinds=list(INVITE_KINDS)) if e.ref == ref)

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

    async def confirmed_rounds(self, category: Category) -> int:
        """How many of the category's rounds the organiser confirmed as final."""
        return len(await self.lineups(category)) - 1 + int(
            await self.store.has_ref(EventKind.ROUND_FINAL, round_ref(category,
                                                              len(category.rounds) - 1)))

    async def _round_states(self, heat: Heat, entries: list[Entry]) -> list[EntryState]:
        """The results of ``entries`` in ``heat`` (from the events tagged with it)."""
        cache = self.read.projection("round_state", CLOCK_KINDS + ROUND_KINDS)
        clock = await self.clock(heat.id)
        stamp = self.read.entry_stamp
        stale = [e for e in entries if (hit := cache.get((e.number, heat.id))) is None
                 or hit[0] != stamp(e.number)]
        # many: their histories in a few reads, at the versions taken before (see state)
        seen = {e.number: stamp(e.number) for e in stale}
        histories = await self._histories(stale) if len(stale) > BULK_READ else None
        out = []
        for e in entries:
            key = (e.number, heat.id)
            version = seen.get(e.number, stamp(e.number))  # before the read: see state
            hit = cache.get(key)
            if hit is None or hit[0] != version:
                if histories is not None and e.number in seen:
                    history = histories.get(e.number, [])
                else:  # few, or one written to while the others were read
                    history = await self.store.events(entry=e.number, kinds=ENTRY_KINDS)
                events = [ev for ev in history if ev.category == heat.id]
                hit = cache[key] = (version, entry_state(self.contest, e, events, clock,
                                                         hit[1] if hit else None, heat.play))
            out.append(hit[1])
        return out

    async def heat_states(self, heat: Heat) -> list[EntryState]:
        lineup = await self.lineups(heat.category)
        if heat.round_index >= len(lineup):
            return []
        numbers = lineup[heat.round_index][heat.number - 1]
        if len(numbers) > BULK_READ:  # the entries in one read, not one by one
            everyone = {e.number: e for e in await self.store.entries()}
            entries = [everyone[n] for n in numbers if n in everyone]
        else:
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

    async def states(self, category: Category, at: datetime | None = None) -> list[EntryState]:
        """The entries holding a place in a category (at ``at``; default now), with their
        contest state. Each entry's state is kept until an event of that entry (or of the
        clock) is written, so a ranking recomputes only what changed. A heat's: its entrants;
        a category with rounds: the entrants of the latest round it reached."""
        if category.id in self.heats or category.rounds:
            return await self._states_in_rounds(category)
        cache = self.read.projection("entry_state", CLOCK_KINDS)  # before the clock: see state()
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

    async def holds_place(self, number: int, at: datetime) -> bool:
        """Whether entry ``number``'s place is confirmed at ``at`` (not withdrawn, not
        waiting)."""
        places, _ = await self._places(at)
        place = places.get(number)
        return place is not None and place.status is Status.CONFIRMED

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
        stamp = self.read.entry_stamp
        missing = [e for e in entries
                   if (hit := cache.get(e.number)) is None or hit[0] != stamp(e.number)]
        # the versions the events below are read at: an event written while they are read
        # (another update, between two awaits) must not be stamped as seen by them
        seen = {e.number: stamp(e.number) for e in missing}
        return missing, seen

    async def fold(self, numbers: Iterable[int]) -> None:
        """The states of ``numbers`` folded together, their histories read at once (what
        ``state`` of each then finds without a read): the entries whose cooldown notices a
        start owes, a few of them with a thousand refusals each, read only for what their state
        is made of. A category in rounds is left to ``state``."""
        cache = self.read.projection("entry_state", CLOCK_KINDS)  # before the clock: see state()
        by_category: dict[str, list[Entry]] = {}
        for number in sorted(set(numbers)):
            entry = await self.store.entry(number)
            category = None if entry is None else self.contest.category(entry.category)
            if entry is not None and category is not None and not category.rounds:
                by_category.setdefault(entry.category, []).append(entry)
        for category_id, entries in by_category.items():
            clock = await self.clock(category_id)
            missing, seen = self._stale(cache, entries)
            if missing:
                histories = await self._histories(missing, at_once=True)
                self._refold(cache, missing, seen, histories, clock)

    async def _histories(self, entries: list[Entry], at_once: bool = False
                         ) -> dict[int, list[Event]]:
        """The entry events of each of ``entries``: those held in memory without a read, the
        rest read entry by entry, or all at once when there are many (or ``at_once``)."""
        by_entry: dict[int, list[Event]] = {}
        for e in entries:  # histories already in memory: no read
            held = self.store.events_in_memory(e.number, ENTRY_KINDS)
            if held is not None:
                by_entry[e.number] = held
        rest = [e for e in entries if e.number not in by_entry]
        if at_once or len(rest) > BULK_READ:  # theirs only, in a few reads
            by_entry.update(await self.store.events_of_entries(
                (e.number for e in rest), ENTRY_KINDS))
            return by_entry
        for e in rest:
            for ev in await self.store.events(entry=e.number, kinds=ENTRY_KINDS):
                by_entry.setdefault(e.number, []).append(ev)
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

        cache = self.read.projection("places", PLACE_KINDS)
        hit = cache.get(at)
        if hit is None:
            everyone = await self.store.entries()
            places = await self.registrations.places(at)
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
        cache = self.read.projection("ranking", CLOCK_KINDS)
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
    ) -> tuple[EntryState, int] | UnknownEntry | NotEscape | ClockNotStarted | RoundClosed:
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

    async def closed(self, state: EntryState) -> RoundClosed | None:
        """Why nothing can be recorded in the entry's heat any more: its round was confirmed
        (an entry that went out stays in its last heat). None for a category played once."""
        heat = self.heats.get(state.unit or "")
        if heat is not None and await self.confirmed_rounds(heat.category) > heat.round_index:
            return RoundClosed(heat.id)
        return None

    # -- volunteers ----------------------------------------------------------------------------

