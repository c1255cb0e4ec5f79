"""A contest document's history replayed through the rules the chat uses (``import document``):
each event, in the order it was recorded, must be one the bot could have written then, given
the events before it. Each kind is decided as its service decides it (bot/features/results/day.py,
the escape's operations, clocks.py, history.py...), through the same domain functions: a finish by
``decide_finish`` on the entry's state folded from its events before (``entry_state``) and its
clock as it stood (``clock_for``); a hint by ``check_request``, the cooldown between requests,
tickets and stages; a stage by ``check_confirmation``; a solve by ``check_solve``; pieces by
``decide_pieces``; a split by ``decide_split``; nothing of a heat after its round was
confirmed (``ContestDay.closed``); a member change by ``change_verdict``; results made final
as ``publishable`` takes them; an invitation as invitations.py writes one; a clock change not
dated well before a result already recorded of its clock. What an event's fields must be
taken alone is bot/services/document_events.py's.

Each event costs about the same however long the history: an entry's state is folded from
the few events it depends on (``Replay._state``), and what grows without end in a forged
document (an entry's events, pauses, corrections of one record) is bounded.

``Replay.add`` gives the first reason an event could not have been written, as a few words;
None: it could (and it joins the history the next ones are decided on)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence, Set
from dataclasses import replace
from datetime import date, datetime, timedelta
from typing import Any

from bot.domain.clock import CategoryClock, within_limit
from bot.domain.contest import Category, Contest
from bot.domain.events import (
    ACCEPT,
    CLOCK_KINDS,
    ENTRY_KINDS,
    INVITE_KINDS,
    MEMBER_FIX,
    OFFER,
    ORGANISER_UNDOABLE,
    REFUND,
    VOLUNTEER_KINDS,
)
from bot.domain.events import EventKind as K
from bot.domain.history import effective_ids
from bot.domain.places import Application, Status, allocate, seats
from bot.domain.ranking import titles
from bot.domain.rounds import Heat, finish_refused, heat_over, heats_by_id
from bot.features.escape import rules as esc
from bot.features.escape.answers import normalize
from bot.features.invitations.rules import (
    LAPSED,
    NO,
    YES,
    AlreadyAccepted,
    AlreadyDeclined,
    Answer,
    HeatBegun,
    Lapsed,
    NotInvited,
    begins_at,
    fold,
    reply_verdict,
)
from bot.features.members.rules import Allowed, Change, change_verdict, member_from, originals
from bot.features.payments.rules import CHARGE, EXTRA, GONE, HOLD, OWED_BACK
from bot.features.registration.day import PlaceMoves
from bot.features.registration.rules import (
    Member,
    birth_in_range,
    check_entry,
    clean_name,
    name_problem,
)
from bot.features.results import rules as res
from bot.features.selftimed.rules import PhotoRefused, PhotoUse, photo_use
from bot.features.standings.rules import standings as final_standings
from bot.features.standings.rules import to_tell, told_before
from bot.services.contest_day import OUTCOMES, round_ref, separate_of
from bot.services.document_events import (
    EARLIEST,
    LATEST,
    PARTICIPANT,
    clock_text,
    why,
)
from bot.services.state import EntryState, clock_for, entry_state, escape_events, standings
from bot.storage.records import Entry, Event, to_ts
from bot.support.registry import REGISTRY

# the events that move an entry's place (``PlaceMoves``)
PLACE_EVENTS = (K.PAYMENT, K.WITHDRAW, HOLD, OFFER, ACCEPT, REFUND)
MOST_PER_ENTRY = 2000  # events of one entry in one heat: far more than a day's
MOST_PENALTIES = 99  # penalties one command records (bot/features/penalties/handlers.py)
MOST_PAUSES = 500  # the organisers' pauses in one contest: far more than its days'
MOST_PUBLISHED = 200  # times one category's results are made final: far more than needed
# corrections and undos of one record (a payment, a finish...): each is worked out among all of
# them (``effective_ids``), so a chain of thousands would take minutes; a day has a few
MOST_CORRECTIONS = 200
# How much earlier than a result recorded before it a clock change may be dated. The bot records
# a clock change (a start, a pause, a resume) when its message comes, dated by Telegram: never
# much before what it recorded already, but for the few seconds between updates of different
# chats handled at once (and a start's button, dated when it was shown: its category's
# results can't come before its start). A pause dated hours back, added after the day's
# results, would move every one of them.
CLOCK_SKEW = timedelta(minutes=5)
# why an answer to an invitation was refused (``reply_verdict``), as an import's line says it
_REPLY_REFUSED: dict[type, str] = {
    NotInvited: "no invitation waiting", AlreadyDeclined: "the entry had declined",
    Lapsed: "its deadline had passed", HeatBegun: "the heat had begun",
    AlreadyAccepted: "the entry had accepted already"}
# the kinds recorded only while the entry's clock runs (``ContestDay.running``); pieces and
# penalties too, in a heat of a round
RUNNING = frozenset({K.FINISH, K.SPLIT, K.READY, K.NOT_FINISHED, K.RETAKE, K.HINT, K.SOLUTION,
                     K.STAGE, K.ESCAPE, K.REQUEST_REFUSED, K.PHOTO, K.OWN_START})
# An entry's state as the checks read it (its finish, pieces, /listo, outcome, splits and
# escape) depends on its latest record of each of these kinds in force...
LATEST_KINDS = (K.FINISH, K.PIECES, K.READY, K.NOT_FINISHED, K.OUTCOME)
# ... on every one of these in force (the escape's ledger and its solves; the penalties, for a
# ranking: ``HELD``)...
LEDGER = (K.HINT, K.SOLUTION, K.STAGE)
HELD = (*LEDGER, K.ESCAPE, K.PENALTY)
# ... and on the latest split of each puzzle: nothing else (photos, photos asked for again,
# own starts: each check reads them itself). So an entry's state is folded from those
# alone, a few events, whatever the length of its history (``_state``).
Unit = tuple[int | None, str | None]  # (entry, heat or None): an entry's events in one heat


def _member(m: Member) -> tuple[str, str | None, int | None]:
    return m.name, m.born.isoformat() if m.born is not None else None, m.year


def _same(m: Member, given: Mapping[str, Any]) -> bool:
    """Whether a change's member (``member_data``: name, born, year) is ``m``."""
    name, born, year = _member(m)
    return (given.get("name"), given.get("born"), given.get("year", year)) == (name, born, year)


class Replay:
    """The history so far (``add`` one event at a time, in id order) with what the rules
    read from it: the effective events (corrections and undos applied), the clocks, each
    entry's events by heat.

    Who recorded an event is not checked beyond its role (``document_events``): a document
    can't prove who anyone was (the events that said so are never imported, and a forger
    adds them as easily as anyone), and a document exported from an imported database has
    none of them."""

    def __init__(self, contest: Contest, entries: Mapping[int, Entry],
                 left_out: Set[int] = frozenset(),
                 changes: Mapping[int, Sequence[Mapping[str, Any]]] | None = None,
                 scrubbed: Set[int] = frozenset()) -> None:
        self.contest = contest
        self.entries = entries
        # the entries whose personal data was removed (bot/features/privacy): their members'
        # changes can't be checked again (the births they were checked with are gone)
        self.scrubbed = scrubbed
        self.left_out = left_out  # the ids of the events not imported (who is who)
        self.heats = heats_by_id(contest.categories)
        self.events: dict[int, Event] = {}
        self.dead: set[int] = set()
        self._supersedes: dict[int, int] = {}
        # the events joined by corrections and undos, by each of their ids: what is in force
        # among them is worked out among them alone (``effective_ids``)
        self._chains: dict[int, list[int]] = {}
        self._units: dict[Unit, list[Event]] = {}
        self._kinds: dict[tuple[int | None, str], list[Event]] = {}
        self._latest: dict[tuple[int | None, str | None, str], list[Event]] = {}
        self._splits: dict[tuple[int | None, str | None, int | None], list[Event]] = {}
        self._puzzles: dict[Unit, set[int | None]] = {}  # the puzzles split, of each unit
        # in force, of each unit and kind of ``HELD``
        self._held_in: dict[tuple[int | None, str | None, str], dict[int, Event]] = {}
        self._clocks: dict[str, CategoryClock] = {}
        self._break: Event | None = None  # the latest pause or resume in force
        self._undoable: dict[int, list[Event]] = {}
        self._confirmed: dict[str, Event] = {}  # round_final by its round's ref
        self._invitations: dict[str, list[Event]] = {}  # invitations and answers, by round
        # the latest date of a result recorded so far: in all, and in each clock's unit
        self._results_until: datetime | None = None
        self._results_in: dict[str, datetime] = {}
        # member changes: each entry's team as it was registered (its changes,
        # all of them, undone from its members now: None, they don't lead back) and as it is
        self._changes = changes or {}
        self._firsts: dict[int, tuple[Member, ...] | None] = {}
        # each entry's member changes (not corrections) replayed so far: what the originals
        # are read from, as ``change_members`` reads them (the team then, these undone)
        self._changes_so_far: dict[int, list[dict[str, Any]]] = {}
        self._teams: dict[int, tuple[Member, ...]] = {}
        self._changed: tuple[int, tuple[Member, ...]] | None = None  # by the change checked
        self._checks: dict[str, Callable[[Event], str | None]] = {
            K.CLOCK_START: self._clock_start, K.PAUSE: self._pause, K.RESUME: self._resume,
            K.UNDO: self._undo, K.PAYMENT: self._payment, K.REGISTERED: self._registered,
            K.WITHDRAW: self._withdraw, K.ROUND_FINAL: self._round_final,
            K.INVITED: self._invited, K.INVITE_REPLY: self._answer,
            K.INVITE_LAPSED: self._answer, K.RESULTS_FINAL: self._results_final,
            K.HANDOVER: self._handover, K.ALERT: self._alert,
            K.MEMBER_CHANGE: self._member_change, MEMBER_FIX: self._member_fix,
            esc.ATTEMPT: self._attempt,
        }
        self._played: dict[str, Callable[[Event, EntryState, int | None], str | None]] = {
            K.FINISH: self._finish, K.PIECES: self._pieces, K.SPLIT: self._split,
            K.OUTCOME: self._outcome, K.READY: self._ready, K.NOT_FINISHED: self._checked,
            K.RETAKE: self._retake, K.HINT: self._request, K.SOLUTION: self._request,
            K.REQUEST_REFUSED: self._refused, K.STAGE: self._stage, K.ESCAPE: self._escape,
            K.PHOTO: self._photo,
        }
        # the kinds whose check reads no state of the entry (its category only)
        self._plain: dict[str, Callable[[Event, Category], str | None]] = {
            K.PENALTY: self._penalty, K.OWN_START: self._own_start,
        }

    # -- the history so far ---------------------------------------------------------------------

    def add(self, ev: Event) -> str | None:
        """Why ``ev`` could not have been written after the events added so far; None: it
        could, and it is added."""
        if ev.entry is not None and ev.entry not in self.entries:
            return f"entry {ev.entry} is not in the document"
        if ev.supersedes in self.left_out:
            return f"it replaces event {ev.supersedes}, a link or invitation (never imported)"
        if ev.supersedes is not None and ev.supersedes not in self.events:
            return f"it replaces event {ev.supersedes}, which is not an event before it"
        chain = self._chains.get(ev.supersedes or 0, [])
        if len(chain) > MOST_CORRECTIONS:
            return f"more than {MOST_CORRECTIONS} corrections and undos of event {chain[0]}"
        check = self._checks.get(ev.kind)
        problem = check(ev) if check is not None else None
        if problem is None and ev.kind in ENTRY_KINDS:
            problem = self._entry_event(ev)
        elif problem is None and ev.kind in REGISTRY.kinds and ev.entry is not None:
            problem = self._named_heat(ev)  # a feature's event of an entry: in its own heat
        if problem is None and ev.supersedes is not None and ev.kind not in (
                K.FINISH, K.PIECES, K.ESCAPE, K.PAYMENT, K.UNDO):
            problem = f"it replaces event {ev.supersedes}: a {ev.kind} replaces nothing"
        if problem is None:
            self._keep(ev)
        return problem

    def _keep(self, ev: Event) -> None:
        self.events[ev.id] = ev
        self._kinds.setdefault((ev.entry, ev.kind), []).append(ev)
        if ev.kind in ENTRY_KINDS:
            self._units.setdefault((ev.entry, ev.category), []).append(ev)
            self._held(ev)
            self._results_until = max(self._results_until or ev.at, ev.at)
            unit = ev.category or self.entries[ev.entry or 0].category
            self._results_in[unit] = max(self._results_in.get(unit, ev.at), ev.at)
        if (ev.kind in ORGANISER_UNDOABLE or ev.kind in REGISTRY.undoable()) \
                and ev.actor is not None:
            self._undoable.setdefault(ev.actor, []).append(ev)
        if ev.kind in CLOCK_KINDS:
            self._clocks.clear()
            if ev.kind != K.CLOCK_START and (self._break is None or (
                    ev.at, ev.id) >= (self._break.at, self._break.id)):
                self._break = ev
        if ev.kind == K.ROUND_FINAL and ev.ref is not None:
            self._confirmed[ev.ref] = ev
        if ev.kind in INVITE_KINDS and ev.ref is not None:
            self._invitations.setdefault(ev.ref, []).append(ev)
        if ev.kind in (K.MEMBER_CHANGE, MEMBER_FIX):
            self._team_changed(ev)
        if ev.supersedes is not None:
            self._correct(ev)

    def _team_changed(self, ev: Event) -> None:
        """A member change or correction kept: the team as it made it (``_changed``), and a
        change's data among those the originals are read from."""
        if self._changed is None:
            return
        self._teams[self._changed[0]] = self._changed[1]
        self._changed = None
        if ev.kind == K.MEMBER_CHANGE and ev.entry is not None:
            self._changes_so_far.setdefault(ev.entry, []).append(dict(ev.data))

    def _correct(self, ev: Event) -> None:
        """A correction or an undo kept: what is in force in its chain worked out again."""
        if ev.supersedes is not None:
            self._supersedes[ev.id] = ev.supersedes
            chain = self._chains.pop(ev.supersedes, [ev.supersedes]) + [ev.id]
            for i in chain:
                self._chains[i] = chain
            alive = effective_ids((i, self._supersedes.get(i)) for i in chain)
            before = self.dead & set(chain)
            self.dead = (self.dead - set(chain)) | (set(chain) - alive)
            for i in before ^ (set(chain) - alive):  # in force again, or no longer
                self._in_force(self.events[i], i not in self.dead)
            if any(self.events[i].kind in CLOCK_KINDS for i in chain):
                self._clocks.clear()
                self._break = max((e for k in (K.PAUSE, K.RESUME) for e in self._live(None, k)),
                                  key=lambda e: (e.at, e.id), default=None)

    def _held(self, ev: Event) -> None:
        """A new event of an entry, filed where its state is folded from (``_state``)."""
        unit = (ev.entry, ev.category)
        if ev.kind in LATEST_KINDS:
            self._latest.setdefault((*unit, ev.kind), []).append(ev)
        elif ev.kind == K.SPLIT:
            self._splits.setdefault((*unit, ev.stage), []).append(ev)
            self._puzzles.setdefault(unit, set()).add(ev.stage)
        else:
            self._in_force(ev, True)

    def _in_force(self, ev: Event, alive: bool) -> None:
        """An event of ``HELD`` (a hint, a solve, a penalty...) in force (``alive``), or no
        longer."""
        if ev.kind not in HELD:
            return
        held = self._held_in.setdefault((ev.entry, ev.category, ev.kind), {})
        if alive:
            held[ev.id] = ev
        else:
            held.pop(ev.id, None)

    def _live(self, entry: int | None, kind: str) -> list[Event]:
        return [e for e in self._kinds.get((entry, kind), ()) if e.id not in self.dead]

    def _last(self, events: Sequence[Event] | None) -> Event | None:
        """The latest of ``events`` in force."""
        return next((e for e in reversed(events or ()) if e.id not in self.dead), None)

    def _clock(self, unit: str) -> CategoryClock:
        if unit not in self._clocks:
            clock_events = [e for k in CLOCK_KINDS for e in self._live(None, k)]
            self._clocks[unit] = clock_for(self.contest, clock_events, unit)
        return self._clocks[unit]

    def _category(self, ev: Event) -> Category | str:
        """The category an event names (a contest's category, not a heat)."""
        found = self.contest.category(ev.category or "")
        return found if found is not None else f"no category {ev.category!r} in the contest"

    def _closed(self, unit: str | None) -> str | None:
        """Why nothing is recorded in heat ``unit`` any more (``ContestDay.closed``): its
        round was confirmed. None: it is open (or not a heat)."""
        heat = self.heats.get(unit or "")
        ref = round_ref(heat.category, heat.round_index) if heat is not None else None
        if ref is None or ref not in self._confirmed:
            return None
        return f"in heat {unit}, after its round ({ref}) was confirmed (event " \
               f"{self._confirmed[ref].id}): its results can't change any more"

    # -- the clocks -----------------------------------------------------------------------------

    def _before_results(self, ev: Event, unit: str | None) -> str | None:
        """A clock change dated well before a result already recorded of a unit it moves
        (``unit``; None: every unit, the organisers' pause): never one the bot records."""
        latest = self._results_until if unit is None else self._results_in.get(unit)
        if latest is None or ev.at >= latest - CLOCK_SKEW:
            return None
        return f"dated {ev.at.isoformat()}, before a result recorded already (dated " \
               f"{latest.isoformat()}): a clock change is recorded when it is made"

    def _clock_start(self, ev: Event) -> str | None:
        unit = ev.category or ""
        category = self.contest.category(unit)
        if unit not in self.heats and (category is None or category.rounds):
            return f"no clock named {unit!r} in the contest (a category or a heat)"
        if self._clock(unit).started is not None:
            return f"the clock of {unit} had started already"
        return self._before_results(ev, unit)

    def _paused(self) -> bool:
        return self._break is not None and self._break.kind == K.PAUSE

    def _pause(self, ev: Event) -> str | None:
        if self._paused():
            return "a pause while the clocks were paused already"
        if len(self._kinds.get((None, K.PAUSE), ())) >= MOST_PAUSES:
            return f"more than {MOST_PAUSES} pauses"
        return self._before_results(ev, None)

    def _resume(self, ev: Event) -> str | None:
        if not self._paused():
            return "the clocks resumed while they were not paused"
        return self._before_results(ev, None)

    # -- corrections ----------------------------------------------------------------------------

    def _undo(self, ev: Event) -> str | None:
        """/deshacer: the actor's own last record of what their role may take back."""
        kinds = (ORGANISER_UNDOABLE if ev.role == "organiser" else VOLUNTEER_KINDS
                 ) + REGISTRY.undoable()
        assert ev.actor is not None and ev.supersedes is not None  # document_events' rule
        last = next((e for e in reversed(self._undoable.get(ev.actor, ()))
                     if e.id not in self.dead and e.kind in kinds), None)
        if last is None or last.id != ev.supersedes:
            return f"it takes back event {ev.supersedes}, not the last record of its actor " \
                   "that they may take back"
        if (ev.entry, ev.category, ev.data.get("kind")) != (last.entry, last.category,
                                                             last.kind):
            return f"its entry, category or details are not those of event {last.id}"
        closed = self._closed(last.category)  # a result, or its clock: its qualifiers known
        return f"it takes back event {last.id} {closed}" if closed is not None else None

    def _corrects(self, ev: Event, previous: Event | None) -> str | None:
        """A correction replaces the record in force (None: there is none, and it replaces
        nothing)."""
        wanted = previous.id if previous is not None else None
        if ev.supersedes == wanted:
            return None
        replaced = f"event {ev.supersedes}" if ev.supersedes is not None else "nothing"
        in_force = f"event {wanted}" if wanted is not None else "none"
        return f"it replaces {replaced} where the record in force is {in_force}"

    # -- registration and places ----------------------------------------------------------------

    def _registered(self, ev: Event) -> str | None:
        assert ev.entry is not None
        if ev.category != self.entries[ev.entry].category:
            return f"category {ev.category!r}, not the entry's"
        return f"entry {ev.entry} registered twice" if self._kinds.get(
            (ev.entry, K.REGISTERED)) else None

    def _payment(self, ev: Event) -> str | None:
        if ev.value is None:
            return "a payment without its date"
        if not to_ts(EARLIEST) <= ev.value < to_ts(LATEST):
            return f"paid at {ev.value}: not a date the bot records"
        if ev.ref not in (None, EXTRA, GONE):
            return f"ref {ev.ref!r}"
        if (ev.role == "participant") != (ev.data.get(CHARGE) is not None):
            return "a payment in the chat is its payer's, with its charge"
        in_force = self._paid(ev.entry)
        if ev.ref == GONE:  # paid in the chat for a place gone: owed back
            return "a correction of a payment owed back" if ev.supersedes is not None else None
        if ev.ref == EXTRA:  # paid twice in the chat: the entry was paid
            if ev.supersedes is not None or in_force is None:
                return "paid twice, but the entry was not paid"
            return None
        return self._corrects(ev, in_force)

    def _paid(self, entry: int | None) -> Event | None:
        """The entry's payment in force (one paid twice in the chat is owed back)."""
        return self._last([e for e in self._kinds.get((entry, K.PAYMENT), ())
                           if e.ref not in OWED_BACK])

    def _withdraw(self, ev: Event) -> str | None:
        return "the entry had withdrawn already" if self._live(ev.entry, K.WITHDRAW) else None

    def _member_change(self, ev: Event) -> str | None:
        """A member change: as bot/features/members/operations.py's ``change_members`` takes
        one, before the team plays, by ``change_verdict`` on the team as it was then (its
        members now with the document's changes undone, then changed again one by one), its
        member who leaves the one named, who comes in a member registration takes. An entry
        whose personal data was removed: taken as it is."""
        assert ev.entry is not None
        if ev.entry in self.scrubbed:
            return None
        entry = self.entries[ev.entry]
        if ev.category != entry.category:
            return f"category {ev.category!r}, not the entry's"
        category = self._category(ev)
        if isinstance(category, str):
            return category
        position, old, new = (ev.data.get(k) for k in ("position", "old", "new"))
        if old is None and new is None or (old is None) != (position is None):
            return "a change with no member in or out"
        if not category.rounds and self._clock(category.id).started is not None:
            return f"after the clock of {category.id} started: a team plays as it was then"
        first = self._first(ev.entry)
        if first is None:
            return f"entry {ev.entry}'s member changes do not lead back from its members " \
                   "to a team"
        team = self._teams.get(ev.entry, first)
        if old is not None and isinstance(position, int) and (
                not 0 <= position < len(team) or not _same(team[position], old)):
            return f"member {position + 1} ({str(old.get('name'))[:40]!r}) is not the " \
                   "team's then"
        problem = self._newcomer(new) if new is not None else None
        if problem is not None:
            return problem
        then = tuple(originals(team, self._changes_so_far.get(ev.entry, [])))
        verdict = change_verdict(category, team, then, Change(position, member_from(new)),
                                 self.contest.date)
        if not isinstance(verdict, Allowed):
            return why(verdict)
        self._changed = (ev.entry, verdict.members)
        return None

    def _member_fix(self, ev: Event) -> str | None:
        """A member corrected (bot/features/corrections): as ``fix_member`` takes one, before
        the team plays, the member named as the team had them then, written as registration
        takes a member, the team as corrected fitting its category. An entry whose personal
        data was removed: taken as it is."""
        assert ev.entry is not None
        if ev.entry in self.scrubbed:
            return None
        category = self.contest.category(self.entries[ev.entry].category)
        assert category is not None  # the entries were checked before the history
        if not category.rounds and self._clock(category.id).started is not None:
            return f"after the clock of {category.id} started: a team plays as it was then"
        position, old, new = (ev.data.get(k) for k in ("position", "old", "new"))
        first = self._first(ev.entry)
        team = self._teams.get(ev.entry, first)
        if team is None or not isinstance(position, int) or not 0 <= position < len(team):
            return f"entry {ev.entry} has no member {position}"
        if not isinstance(old, Mapping) or not isinstance(new, Mapping):
            return "a correction names the member before and after"
        problem = self._newcomer(new)
        if problem is not None:
            return problem
        if not _same(team[position], old):
            return f"member {position + 1} ({str(old.get('name'))[:40]!r}) is not the " \
                   "team's then"
        fixed = member_from(dict(new))
        assert fixed is not None
        after = (*team[:position], replace(team[position], name=fixed.name, born=fixed.born,
                                           born_year=fixed.born_year), *team[position + 1:])
        ineligible = check_entry(category, after, self.contest.date)
        if ineligible is not None:
            return f"the team as corrected does not fit {category.id}"
        self._changed = (ev.entry, after)
        return None

    def _first(self, number: int) -> tuple[Member, ...] | None:
        """The team entry ``number`` registered with: its members now, every change and
        correction of the document undone (None: they don't lead back to a team)."""
        if number not in self._firsts:
            try:
                first: tuple[Member, ...] | None = tuple(originals(
                    self.entries[number].members,
                    [dict(c) for c in self._changes.get(number, ())]))
            except (IndexError, KeyError, TypeError, ValueError):
                first = None
            self._firsts[number] = first
        return self._firsts[number]

    def _newcomer(self, new: Mapping[str, Any]) -> str | None:
        name = new["name"]
        if name != clean_name(name) or name_problem(name) is not None:
            return f"member name {name[:40]!r} is not one registration takes"
        born = new.get("born")
        year = date.fromisoformat(born).year if born else new.get("year")
        if new.get("year") not in (None, year) or (
                year is not None and not birth_in_range(year, self.contest.date)):
            return f"{name}: birth {born or year} is not one registration takes"
        return None

    def teams_problem(self) -> Event | None:
        """After the history: the last member change of the first entry whose changes, made
        one by one from the team it registered with, do not give its members now."""
        for number, changed in sorted(self._teams.items()):
            if [_member(m) for m in changed] != [_member(m) for m in
                                                  self.entries[number].members]:
                events: list[Event] = [*self._kinds.get((number, K.MEMBER_CHANGE), ()),
                                       *self._kinds.get((number, MEMBER_FIX), ())]
                return max(events, key=lambda e: e.id)
        return None

    # -- rounds and results ---------------------------------------------------------------------

    def _round(self, ev: Event, rounds_after: int = 0) -> tuple[Category, int] | str:
        """The category and round index the event's ``ref`` names ("solo/heats"), with at
        least ``rounds_after`` rounds after it."""
        for c in self.contest.categories:
            for i in range(len(c.rounds) - rounds_after):
                if round_ref(c, i) == ev.ref and ev.category in (None, c.id):
                    return c, i
        return f"no round {ev.ref!r} in the contest" + (" with a round after it"
                                                       if rounds_after else "")

    def _round_final(self, ev: Event) -> str | None:
        found = self._round(ev)
        if isinstance(found, str):
            return found
        category, index = found
        if ev.ref in self._confirmed:
            return f"round {ev.ref} confirmed twice"
        if index and round_ref(category, index - 1) not in self._confirmed:
            return f"round {ev.ref} confirmed before the round before it"
        qualifiers, order = ev.data["qualifiers"], ev.data.get("order", [])
        if ev.data.get("invite") and "order" not in ev.data:
            return "a round that invites its qualifiers, without their order"
        if len(set(qualifiers)) < len(qualifiers) or len(set(order)) < len(order):
            return "an entry listed twice among its qualifiers"
        listed = qualifiers + order
        strangers = [n for n in listed if n not in self.entries
                     or self.entries[n].category != category.id]
        return f"qualifier {strangers[0]} is not an entry of {category.id}" if strangers else None

    def _invited(self, ev: Event) -> str | None:
        found = self._round(ev, rounds_after=1)
        if isinstance(found, str):
            return found
        category, index = found
        assert ev.entry is not None
        if self.entries[ev.entry].category != category.id:
            return f"entry {ev.entry} is not in {category.id}"
        heats = category.rounds[index + 1].heats
        if not 1 <= ev.data["heat"] <= heats:
            return f"heat {ev.data['heat']}: the round after {ev.ref} has {heats}"
        replaces = ev.data.get("replaces")
        if replaces is not None and replaces not in self.entries:
            return f"it replaces entry {replaces}, which is not in the document"
        return self._qualified(ev)

    def _qualified(self, ev: Event) -> str | None:
        """An invitation as bot/services/invitations.py writes one: to a round confirmed
        inviting its qualifiers, of an entry ranked in it never invited to it before; one not
        among its qualifiers (``qualifiers``: the rule applied again, ``_next_in_line``)
        only once a place was given up, and in the place of an entry that gave it up."""
        assert ev.entry is not None and ev.ref is not None
        confirmed = self._confirmed.get(ev.ref)
        if confirmed is None or not confirmed.data.get("invite"):
            return f"an invitation to the round after {ev.ref}, not confirmed as a round " \
                   "that invites its qualifiers"
        qualifiers = confirmed.data["qualifiers"]
        if ev.entry not in qualifiers and ev.entry not in confirmed.data["order"]:
            return f"entry {ev.entry} is not ranked in {ev.ref}"
        invitations = fold(self._invitations.get(ev.ref, ()))
        if ev.entry in invitations:
            return f"entry {ev.entry} invited twice to the round after {ev.ref}"
        out = {n for n, i in invitations.items() if i.out}
        if ev.entry not in qualifiers and not out:
            return f"entry {ev.entry}, not a qualifier of {ev.ref}, invited while no place " \
                   "was given up"
        replaces = ev.data.get("replaces")
        if replaces is not None and replaces not in out:
            return f"in the place of entry {replaces}, which had not given it up"
        return None

    def _answer(self, ev: Event) -> str | None:
        """An answer to an invitation as bot/services/invitations.py's ``reply`` takes one
        (``reply_verdict``: before its deadline, nor after a no, a lapse or the heat's
        beginning); a lapse as ``lapse_due`` records one: at its deadline, of an invitation
        still unanswered."""
        answers = (YES, NO) if ev.kind == K.INVITE_REPLY else (LAPSED,)
        if ev.data["answer"] not in answers:
            return f"answer {ev.data['answer']!r}, not {' or '.join(answers)}"
        assert ev.entry is not None
        invitation = fold(sorted((e for k in INVITE_KINDS for e in self._live(ev.entry, k)
                                  if e.ref == ev.ref), key=lambda e: e.id)).get(ev.entry)
        found = self._round(ev, rounds_after=1)
        if invitation is None or isinstance(found, str):
            return f"entry {ev.entry} was not invited to the round after {ev.ref}"
        if ev.kind == K.INVITE_LAPSED:
            if invitation.answer is not None:
                return f"a lapse of an invitation answered already ({invitation.answer})"
            if ev.at < invitation.deadline:
                return f"a lapse dated {ev.at.isoformat()}, before its deadline " \
                       f"({invitation.deadline.isoformat()})"
            return None
        category, index = found
        heat = Heat(category, index + 1, invitation.heat)
        begins = begins_at(heat.round, heat.number, self.contest.timezone)
        if self._clock(heat.id).started is not None:
            begins = min(begins, ev.at)
        verdict = reply_verdict(invitation, ev.data["answer"] == YES, ev.at, begins)
        return None if isinstance(verdict, Answer) else \
            f"an answer refused then ({_REPLY_REFUSED[type(verdict)]})"

    def _results_final(self, ev: Event) -> str | None:
        category = self._category(ev)
        if isinstance(category, str):
            return category
        if ev.ref != category.id:
            return f"ref {ev.ref!r}: results made final are the category's ({category.id})"
        return self._publishable(category, ev)

    def _publishable(self, category: Category, ev: Event) -> str | None:
        """Results made final: as the final results' ``publishable`` takes it, once the
        category's time is up or every entry holding a place has a result (``heat_over``),
        no finish claimed at home waits for its review, and something changed since the last
        time (``to_tell``)."""
        if category.rounds:
            return f"{category.id} is played in rounds: each round is confirmed instead"
        clock = self._clock(category.id)
        elapsed = clock.elapsed(ev.at)
        if elapsed is None:
            return f"dated {ev.at.isoformat()}, before the clock of {category.id} started"
        before = [e for e in self._kinds.get((None, K.RESULTS_FINAL), ()) if e.ref == ev.ref]
        if len(before) >= MOST_PUBLISHED:
            return f"{category.id}'s results made final more than {MOST_PUBLISHED} times"
        states = self._holding(category, ev.at, clock)
        rows = standings(self.contest, category, states)
        if not rows:
            return f"no entry holds a place in {category.id}"
        if not heat_over(rows, elapsed, category.time_limit):
            playing = sum(1 for r in rows if r.position is None and r.competitor.outcome is None)
            return f"dated {ev.at.isoformat()}, while {playing} entries of {category.id} " \
                   f"were still playing ({clock_text(elapsed)} of " \
                   f"{clock_text(category.time_limit)})"
        waiting = [s.entry.number for s in states if s.ready is not None and s.finish is None]
        if category.self_timed and waiting:
            return f"while the finish entry {waiting[0]} claimed waited for its review"
        held = titles(separate_of(self.contest, category, rows, self.entries))
        if before and not to_tell(final_standings(category, rows, held),
                                  told_before(before[-1].data)):
            return f"nothing changed since event {before[-1].id} made them final"
        return None

    def _holding(self, category: Category, at: datetime, clock: CategoryClock
                 ) -> list[EntryState]:
        """The states of the category's entries holding a place at ``at`` (``allocate``,
        as ``ContestDay.states`` reads them), their penalties counted."""
        apps = []
        for e in self.entries.values():
            moves = PlaceMoves()  # as the chat reads them (Registrations.applications)
            for ev in sorted((ev for kind in PLACE_EVENTS for ev in self._live(e.number, kind)),
                             key=lambda ev: ev.id):
                moves.add(ev)
            apps.append(Application(
                number=e.number, category=e.category, local=e.local,
                registered_at=e.registered_at, paid_at=moves.paid.get(e.number),
                withdrawn_at=moves.out(e.number),
                preconfirmed=e.source == "import", quota_values=tuple(
                    (q.id, value) for q in self.contest.questions
                    if q.quota is not None or any(c.places is not None for c in q.choices)
                    if (value := e.answer(q.id)) is not None), people=seats(self.contest, e),
                hold_until=moves.held.get(e.number),
                offers=tuple(moves.offered.get(e.number, ())),
                accepted=tuple(moves.accepted.get(e.number, ()))))
        places = allocate(self.contest, apps, at)
        return [self._state(e, None, clock, penalties=True)
                for n, e in sorted(self.entries.items())
                if e.category == category.id and places[n].status is Status.CONFIRMED]

    def _handover(self, ev: Event) -> str | None:
        category = self._category(ev)
        if isinstance(category, str):
            return category
        return None if ev.ref == f"handover:{category.id}" else f"ref {ev.ref!r}"

    def _alert(self, ev: Event) -> str | None:
        if ev.category is None or ev.category in self.heats or self.contest.category(
                ev.category) is not None:
            return None
        return f"no category or heat {ev.category!r} in the contest"

    # -- an entry's play --------------------------------------------------------------------------

    def _named_heat(self, ev: Event) -> str | None:
        """Why the heat an entry's event names is not one its entry plays (a category played
        once: none named), if it is not."""
        assert ev.entry is not None
        category = self.contest.category(self.entries[ev.entry].category)
        assert category is not None  # the entries were checked before the history
        if ev.category is not None:
            heat = self.heats.get(ev.category)
            if heat is None or heat.category.id != category.id:
                return f"heat {ev.category!r} is not one of {category.id}'s"
        elif category.rounds:
            return f"no heat named: {category.id} is played in rounds"
        return None

    def _entry_event(self, ev: Event) -> str | None:
        """An event of an entry's play, decided on its state from its events before, in the
        heat it names (a category played once: none)."""
        assert ev.entry is not None
        entry = self.entries[ev.entry]
        category = self.contest.category(entry.category)
        assert category is not None  # the entries were checked before the history
        named = self._named_heat(ev)
        if named is not None:
            return named
        play = self.heats[ev.category].play if ev.category is not None else None
        closed = self._closed(ev.category)
        if closed is not None:
            return closed
        if len(self._units.get((ev.entry, ev.category), ())) >= MOST_PER_ENTRY:
            return f"more than {MOST_PER_ENTRY} events of one entry"
        clock = self._clock(ev.category or category.id)
        now = clock.elapsed(ev.at)
        if now is None and (ev.kind in RUNNING or play is not None and ev.kind in (
                K.PIECES, K.PENALTY)):
            return f"dated {ev.at.isoformat()}, before the clock of {(play or category).id} " \
                   "started"
        plain = self._plain.get(ev.kind)
        if plain is not None:
            return plain(ev, play or category)
        return self._played[ev.kind](ev, self._state(entry, play, clock), now)

    def _state(self, entry: Entry, play: Category | None, clock: CategoryClock,
               penalties: bool = False) -> EntryState:
        """The entry's state in heat ``play`` (None: its category played once) from the
        events it depends on (``LATEST_KINDS``, ``LEDGER`` and its solves, the latest split
        of each puzzle; its penalties too with ``penalties``, for a ranking): the state all its
        events in force give, but for its photos (``claim_photos``) and, without
        ``penalties``, its penalties, which no check reads."""
        unit = (entry.number, play.id if play is not None else None)
        events = self._in_unit(unit, (*LEDGER, K.ESCAPE, K.PENALTY) if penalties
                               else (*LEDGER, K.ESCAPE))
        for kind in LATEST_KINDS:
            last = self._last(self._latest.get((*unit, kind)))
            if last is not None:
                events.append(last)
        for puzzle in self._puzzles.get(unit, ()):
            last = self._last(self._splits.get((*unit, puzzle)))
            if last is not None:
                events.append(last)
        events.sort(key=lambda e: e.id)
        return entry_state(self.contest, entry, events, clock, play=play)

    def _in_unit(self, unit: Unit, kinds: Sequence[str]) -> list[Event]:
        """The events of ``kinds`` (of ``HELD``) in force in ``unit``, in id order."""
        return sorted((e for k in kinds for e in self._held_in.get((*unit, k), {}).values()),
                      key=lambda e: e.id)

    def _limit(self, category: Category) -> res.Limit:
        return res.Limit(category.time_limit, self.contest.limit_inclusive)

    def _finish(self, ev: Event, s: EntryState, now: int | None) -> str | None:
        assert now is not None
        if ev.value is not None and ev.value < 0:
            return f"a negative time ({ev.value})"
        refused = finish_refused(s.category, [k for k, _ in s.split_puzzles],
                                 s.outcome.ref if s.outcome is not None else None)
        if refused is not None:
            return why(refused)
        if s.category.own_start and ev.value is None:
            return "no time of the entry's own (each puzzle started at its own moment)"
        if ev.value is not None and {"moment", "ready_event"} & set(ev.data):
            return "a time typed, with the moment of a /listo"
        if ev.value is None:
            moment = self._moment(ev, s)
            if moment is not None:
                return moment
        ready = (s.clock.elapsed(s.ready.at) or 0) if s.ready is not None else None
        decision = res.decide_finish(res.FinishCase(
            typed=ev.value, now=now, limit=self._limit(s.category), ready=ready,
            recorded=s.finish, has_recorded=s.finish_event is not None,
            last_split=s.splits[-1] if s.splits else None, escape=s.ledger,
            confirm_correction=self.contest.confirm_correction, confirmed=True))
        if not isinstance(decision, res.Record):
            return why(decision)
        return self._corrects(ev, s.finish_event)

    def _moment(self, ev: Event, s: EntryState) -> str | None:
        """A finish without a time typed: at the /listo waiting (its moment and its event),
        else at the message's own moment."""
        if s.ready is not None:
            wanted = {"moment": to_ts(s.ready.at), "ready_event": s.ready.id}
        elif s.category.self_timed and s.finish is None:
            return "no finish claimed (/listo) to take its moment from"
        else:
            wanted = {"moment": to_ts(ev.at)}
        given = {k: ev.data.get(k) for k in ("moment", "ready_event") if k in ev.data}
        if given != wanted:
            return f"its moment {given} is not the one recorded then ({wanted})"
        return None

    def _pieces(self, ev: Event, s: EntryState, now: int | None) -> str | None:
        assert ev.value is not None
        decision = res.decide_pieces(ev.value, res.pieces_left(
            s.category, {k for k, _ in s.split_puzzles}), s.finish is not None, s.pieces,
            s.pieces_event is not None)
        return why(decision) if not isinstance(decision, res.Record) else self._corrects(
            ev, s.pieces_event)

    def _penalty(self, ev: Event, category: Category) -> str | None:
        assert ev.value is not None
        if self.contest.penalty(ev.ref or "") is None:
            return f"no penalty {ev.ref!r} in the contest"
        if not 1 <= ev.value <= MOST_PENALTIES:
            return f"{ev.value} penalties at once, not between 1 and {MOST_PENALTIES}"
        return None

    def _split(self, ev: Event, s: EntryState, now: int | None) -> str | None:
        assert now is not None and ev.value is not None
        if ev.value < 0:
            return f"a negative time ({ev.value})"
        if ev.data.get("joker"):
            if ev.value != now:
                return f"a joker at {ev.value}, not its clock's then ({now})"
            given = res.decide_joker(res.SplitCase(
                category=s.category, done=tuple(k for k, _ in s.split_puzzles),
                finished=s.finish is not None, typed=None, now=now,
                limit=self._limit(s.category), puzzle=ev.stage,
                jokers_used=len(s.jokers), counted=s.pieces_event is not None,
                last_split=s.splits[-1] if s.splits else None))
            if not isinstance(given, res.SplitAt):
                return why(given)
            return None if given.puzzle == ev.stage else f"puzzle {ev.stage}, not the next one"
        decision = res.decide_split(res.SplitCase(
            category=s.category, done=tuple(k for k, _ in s.split_puzzles),
            finished=s.finish is not None, typed=ev.value, now=now,
            limit=self._limit(s.category), puzzle=ev.stage,
            last_split=s.splits[-1] if s.splits else None))
        if not isinstance(decision, res.SplitAt):
            return why(decision)
        return None if decision.puzzle == ev.stage else f"puzzle {ev.stage}, not the next one"

    def _outcome(self, ev: Event, s: EntryState, now: int | None) -> str | None:
        if ev.ref not in OUTCOMES:
            return f"outcome {ev.ref!r}, not one of {', '.join(OUTCOMES)}"
        reason = ev.data.get("reason", "")
        decision = res.decide_outcome(ev.ref, reason, s.outcome.ref if s.outcome else None)
        return why(decision) if decision is not None else None

    def _ready(self, ev: Event, s: EntryState, now: int | None) -> str | None:
        """/listo: as bot/services/ready.py's ``ready`` takes one."""
        assert now is not None
        if ev.value != now:
            return f"its time {ev.value} is not its clock's then ({now})"
        if s.finish is not None:
            return "after the entry's finish"
        if s.category.self_timed and s.ready is not None:
            return "a second claim while the first waits for its review"
        if s.ledger is not None and not s.ledger.over(now):
            return "before the entry's escape was over"
        if not within_limit(now, s.category.time_limit, self.contest.limit_inclusive):
            return f"{clock_text(now)} is past the time limit ({clock_text(s.category.time_limit)})"
        return None

    def _line(self, ev: Event, s: EntryState) -> str | None:
        """A volunteer's answer to a "FINISHED?" line: about the /listo still waiting."""
        line = ev.data.get("ready_event")
        finished_from = s.finish_event.data.get("ready_event") if s.finish_event else None
        verdict = res.ready_line(line if isinstance(line, int) else -1,
                                 s.ready.id if s.ready is not None else None,
                                 finished_from if isinstance(finished_from, int) else None)
        return None if verdict is res.ReadyLine.OPEN else \
            f"about /listo {line}, not the one waiting then"

    def _checked(self, ev: Event, s: EntryState, now: int | None) -> str | None:
        return self._line(ev, s)

    def _retake(self, ev: Event, s: EntryState, now: int | None) -> str | None:
        problem = self._line(ev, s)
        if problem is not None:
            return problem
        assert s.ready is not None
        for e in reversed(self._units.get((ev.entry, ev.category), ())):
            if e.id <= s.ready.id or e.kind == K.PHOTO:
                break
            if e.kind == K.RETAKE:
                return "a second photo asked for before one came"
        return None

    def _request(self, ev: Event, s: EntryState, now: int | None) -> str | None:
        """A hint or a solution: as the escape's ``request`` (bot/features/escape) decides one."""
        if s.ledger is None:
            return f"{s.category.id} has no escape"
        assert now is not None and ev.stage is not None
        decision = esc.check_request(s.ledger, esc.Kind(ev.kind), ev.stage, now)
        if not isinstance(decision, esc.Accepted):
            return why(decision)
        charge = decision.charge
        given = (ev.data.get("tickets_used"), ev.data.get("tickets_bought"))
        if given != (charge.tickets_used, charge.tickets_bought):
            return f"tickets used and bought {given}, not what it cost " \
                   f"{(charge.tickets_used, charge.tickets_bought)}"
        return None

    def _refused(self, ev: Event, s: EntryState, now: int | None) -> str | None:
        """A request refused for the cooldown, noted for the notice owed when it ends."""
        asked = ev.data.get("request")
        if s.ledger is None or asked not in (esc.Kind.HINT, esc.Kind.SOLUTION):
            return "not a hint or solution refused in an escape"
        assert now is not None and ev.stage is not None
        decision = esc.check_request(s.ledger, esc.Kind(asked), ev.stage, now)
        if not isinstance(decision, esc.Cooldown) or decision.next_at != ev.value:
            return "a request the cooldown did not refuse"
        return None if ev.ref == f"cooldown:{ev.entry}:{ev.value}" else f"ref {ev.ref!r}"

    def _stage(self, ev: Event, s: EntryState, now: int | None) -> str | None:
        if s.ledger is None:
            return f"{s.category.id} has no escape"
        assert now is not None and ev.stage is not None
        if ev.role == PARTICIPANT:  # a right answer in the chat: into the next stage
            passed = esc.check_passed(s.ledger, ev.stage, now) or self._waiting(ev, s, now)
            return why(passed) if passed is not None else None
        refused = esc.check_confirmation(s.ledger, ev.stage, now)
        return why(refused) if refused is not None else None

    def _escape(self, ev: Event, s: EntryState, now: int | None) -> str | None:
        """The escape solved: as the escape's ``solve`` decides one (a correction
        decided without the solve it replaces)."""
        rules = self.contest.escape
        if s.ledger is None or rules is None:
            return f"{s.category.id} has no escape"
        assert now is not None and ev.value is not None
        if not 0 <= ev.value <= min(now, rules.time_limit):
            return f"an escape at {clock_text(ev.value)}: not between 0:00:00 and the clock then " \
                   "or the escape's time limit"
        previous = self._last(self._kinds.get((ev.entry, K.ESCAPE)))
        ledger = s.ledger
        if previous is not None:
            if previous.value == ev.value:
                return f"the same as recorded already ({ev.value})"
            held = self._in_unit((ev.entry, ev.category), LEDGER)
            ledger = esc.fold(rules, escape_events(held, s.clock))
        refused = esc.check_solve(ledger, ev.value)
        if refused is None and ev.role == PARTICIPANT:  # the last enigma answered in the chat
            passed = esc.check_passed(ledger, rules.stages + 1, ev.value) or \
                self._waiting(ev, s, ev.value)
            return why(passed) if passed is not None else self._corrects(ev, previous)
        return why(refused) if refused is not None else self._corrects(ev, previous)

    def _attempt(self, ev: Event) -> str | None:
        """A wrong answer typed in the chat, as the escape's ``attempt`` keeps one: to the
        stage the pair was in, while its escape ran and it was not waiting, by a pair still
        playing, with a letter or digit in it."""
        assert ev.entry is not None and ev.stage is not None  # its fields: "+?+---"
        entry = self.entries[ev.entry]
        category = self.contest.category(entry.category)
        rules = self.contest.escape
        if category is None or not category.escape or rules is None or not rules.in_chat:
            return "a wrong answer in the chat, where no escape is played in the chat"
        clock = self._clock(category.id)
        now = clock.elapsed(ev.at)
        if now is None:
            return f"dated {ev.at.isoformat()}, before the clock of {category.id} started"
        s = self._state(entry, None, clock)
        assert s.ledger is not None
        if not normalize(str(ev.data.get("answer", ""))):
            return why(esc.NotAnAnswer())
        if ev.stage != s.ledger.stage:
            return f"a wrong answer to stage {ev.stage}, where the entry was in stage " \
                   f"{s.ledger.stage}"
        refused = self._waiting(ev, s, now)
        return why(refused) if refused is not None else None

    def _waiting(self, ev: Event, s: EntryState, now: int
                 ) -> esc.EscapeOver | esc.NotInChat | esc.Paused | esc.OutOfPlay | None:
        """Why an answer in the chat at contest time ``now`` was not taken: the pair out of
        play, the escape over, or the pair waiting after its wrong answers in a row."""
        assert ev.entry is not None and s.ledger is not None
        if s.outcome is not None and s.outcome.ref in esc.OUT_OF_PLAY:
            return esc.OutOfPlay(str(s.outcome.ref))
        stage = s.ledger.stage
        wrong = [w for w in (s.clock.elapsed(e.at) for e in
                             self._kinds.get((ev.entry, esc.ATTEMPT), []) if e.stage == stage)
                 if w is not None]
        return esc.check_attempt(s.ledger, wrong, now)

    def _photo(self, ev: Event, s: EntryState, now: int | None) -> str | None:
        if not s.category.self_timed:
            return f"{s.category.id} is not played at home"
        assert now is not None
        over = not within_limit(now, s.category.time_limit, self.contest.limit_inclusive)
        use = photo_use(True, s.ready is not None, s.finish is not None, over,
                        s.pieces_event is not None)
        if isinstance(use, PhotoRefused):
            return f"a photo refused then ({use.why})"
        line = s.ready.id if use is PhotoUse.CLAIM and s.ready is not None else None
        if (ev.data["use"], ev.data.get("ready_event")) != (use.value, line):
            return f"a photo of use {ev.data['use']!r} (/listo {ev.data.get('ready_event')}) " \
                   f"where it was of use {use.value!r} (/listo {line})"
        repeat = ev.data.get("repeat_of")
        earlier = self.events.get(repeat) if isinstance(repeat, int) else None
        if repeat is not None and (earlier is None or earlier.kind != K.PHOTO or
                                   earlier.entry != ev.entry or earlier.id in self.dead):
            return f"a photo sent again of event {repeat}, not an earlier photo of the entry"
        return None

    def _own_start(self, ev: Event, category: Category) -> str | None:
        if not category.own_start:
            return f"{category.id} is not played from each entry's own start"
        assert ev.stage is not None
        puzzles = len(category.puzzles) or 1
        return None if 1 <= ev.stage <= puzzles else f"puzzle {ev.stage} of {puzzles}"
