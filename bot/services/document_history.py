"""A contest document's history replayed through the rules the chat uses (``import document``):
each event, in the order it was recorded, must be one the bot could have written then, given
the events before it. Each kind is decided as its service decides it (bot/services/results.py,
escape.py, clocks.py, history.py...), through the same domain functions: a finish by
``decide_finish`` on the entry's state folded from its events before (``entry_state``) and its
clock as it stood (``clock_for``); a hint by ``check_request``, the /pista's cooldown, tickets
and stages; a stage by ``check_confirmation``; a solve by ``check_solve``; pieces by
``decide_pieces``; a split by ``decide_split``. What an event's fields must be taken alone is
bot/services/document_events.py's.

``Replay.add`` gives the first reason an event could not have been written, as a few words;
None: it could (and it joins the history the next ones are decided on)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Set

from bot.domain import escape as esc
from bot.domain import results as res
from bot.domain.clock import CategoryClock, within_limit
from bot.domain.contest import Category, Contest
from bot.domain.events import (
    CLOCK_KINDS,
    ENTRY_KINDS,
    INVITE_KINDS,
    ORGANISER_UNDOABLE,
    VOLUNTEER_KINDS,
)
from bot.domain.events import EventKind as K
from bot.domain.history import effective_ids
from bot.domain.invitations import (
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
from bot.domain.rounds import Heat, finish_refused, heats_by_id
from bot.domain.selftimed import PhotoRefused, PhotoUse, photo_use
from bot.services.contest_day import OUTCOMES, round_ref
from bot.services.document_events import (
    EARLIEST,
    LATEST,
    PARTICIPANT,
    VOLUNTEER,
    clock_text,
    why,
)
from bot.services.escape import LEDGER_KINDS
from bot.services.state import EntryState, clock_for, entry_state, escape_events
from bot.storage.records import Entry, Event, to_ts

MOST_PER_ENTRY = 2000  # events of one entry in one heat: far more than a day's
MOST_PENALTIES = 99  # penalties one /penalizacion records (bot/handlers/penalties.py)
# why an answer to an invitation was refused (``reply_verdict``), as an import's line says it
_REPLY_REFUSED: dict[type, str] = {
    NotInvited: "no invitation waiting", AlreadyDeclined: "the entry had declined",
    Lapsed: "its deadline had passed", HeatBegun: "the heat had begun",
    AlreadyAccepted: "the entry had accepted already"}
# the kinds recorded only while the entry's clock runs (``ContestDay.running``); pieces and
# penalties too, in a heat of a round
RUNNING = frozenset({K.FINISH, K.SPLIT, K.READY, K.NOT_FINISHED, K.RETAKE, K.HINT, K.SOLUTION,
                     K.STAGE, K.ESCAPE, K.REQUEST_REFUSED, K.PHOTO, K.OWN_START})


class Replay:
    """The history so far (``add`` one event at a time, in id order) with what the rules
    read from it: the effective events (corrections and undos applied), the clocks, each
    entry's events by heat."""

    def __init__(self, contest: Contest, entries: Mapping[int, Entry],
                 left_out: Set[int] = frozenset()) -> None:
        self.contest = contest
        self.entries = entries
        self.left_out = left_out  # the ids of the events not imported (who is who)
        self.heats = heats_by_id(contest.categories)
        self.events: dict[int, Event] = {}
        self.dead: set[int] = set()
        self._supersedes: dict[int, int] = {}
        # the events joined by corrections and undos, by each of their ids: what is in force
        # among them is worked out among them alone (``effective_ids``)
        self._chains: dict[int, list[int]] = {}
        self._linked: set[tuple[int, int]] = set()  # (phone, entry)
        self._volunteers: set[int] = set()
        self._units: dict[tuple[int | None, str | None], list[Event]] = {}
        self._kinds: dict[tuple[int | None, str], list[Event]] = {}
        self._clocks: dict[str, CategoryClock] = {}
        self._undoable: dict[int, list[Event]] = {}
        self._checks: dict[str, Callable[[Event], str | None]] = {
            K.CLOCK_START: self._clock_start, K.PAUSE: self._pause, K.RESUME: self._resume,
            K.UNDO: self._undo, K.PAYMENT: self._payment, K.REGISTERED: self._registered,
            K.WITHDRAW: self._withdraw, K.ROUND_FINAL: self._round_final,
            K.INVITED: self._invited, K.INVITE_REPLY: self._answer,
            K.INVITE_LAPSED: self._answer, K.RESULTS_FINAL: self._results_final,
            K.HANDOVER: self._handover, K.ALERT: self._alert,
            K.MEMBER_CHANGE: self._member_change,
        }
        self._played: dict[str, Callable[[Event, EntryState, int | None], str | None]] = {
            K.FINISH: self._finish, K.PIECES: self._pieces, K.PENALTY: self._penalty,
            K.SPLIT: self._split, K.OUTCOME: self._outcome, K.READY: self._ready,
            K.NOT_FINISHED: self._checked, K.RETAKE: self._retake, K.HINT: self._request,
            K.SOLUTION: self._request, K.REQUEST_REFUSED: self._refused, K.STAGE: self._stage,
            K.ESCAPE: self._escape, K.PHOTO: self._photo, K.OWN_START: self._own_start,
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
        who = self._who(ev)
        if who is not None:
            return who
        check = self._checks.get(ev.kind)
        problem = check(ev) if check is not None else None
        if problem is None and ev.kind in ENTRY_KINDS:
            problem = self._entry_event(ev)
        if problem is None and ev.supersedes is not None and ev.kind not in (
                K.FINISH, K.PIECES, K.ESCAPE, K.PAYMENT, K.UNDO):
            problem = f"it replaces event {ev.supersedes}: a {ev.kind} replaces nothing"
        if problem is None:
            self._keep(ev)
        return problem

    def witness(self, ev: Event) -> None:
        """An event of who is who, never imported, but what says who could record what:
        the phones following each entry, the volunteers."""
        if ev.actor is None:
            return
        if ev.kind == K.LINK and ev.entry is not None:
            self._linked.add((ev.actor, ev.entry))
        elif ev.kind == K.VOLUNTEER_JOIN:
            self._volunteers.add(ev.actor)

    def _who(self, ev: Event) -> str | None:
        """A participant's event is from a phone following the entry (a registration's own
        comes first); a volunteer's from someone who joined as one (a claim of a line says
        "volunteer" for an organiser too)."""
        if ev.role == PARTICIPANT and ev.kind != K.REGISTERED and ev.entry is not None and \
                (ev.actor, ev.entry) not in self._linked:
            return f"by {ev.actor}, whose phone did not follow entry {ev.entry} then"
        if ev.role == VOLUNTEER and ev.kind != K.CLAIM and ev.actor not in self._volunteers:
            return f"by {ev.actor}, who had not joined as a volunteer then"
        return None

    def _keep(self, ev: Event) -> None:
        self.events[ev.id] = ev
        self._kinds.setdefault((ev.entry, ev.kind), []).append(ev)
        if ev.kind in ENTRY_KINDS:
            self._units.setdefault((ev.entry, ev.category), []).append(ev)
        if ev.kind in ORGANISER_UNDOABLE and ev.actor is not None:
            self._undoable.setdefault(ev.actor, []).append(ev)
        if ev.kind in CLOCK_KINDS:
            self._clocks.clear()
        if ev.supersedes is not None:
            self._supersedes[ev.id] = ev.supersedes
            chain = self._chains.pop(ev.supersedes, [ev.supersedes]) + [ev.id]
            for i in chain:
                self._chains[i] = chain
            alive = effective_ids((i, self._supersedes.get(i)) for i in chain)
            self.dead = (self.dead - set(chain)) | (set(chain) - alive)
            self._clocks.clear()

    def _live(self, entry: int | None, kind: str) -> list[Event]:
        return [e for e in self._kinds.get((entry, kind), ()) if e.id not in self.dead]

    def _clock(self, unit: str) -> CategoryClock:
        if unit not in self._clocks:
            clock_events = [e for k in CLOCK_KINDS for e in self._live(None, k)]
            self._clocks[unit] = clock_for(self.contest, clock_events, unit)
        return self._clocks[unit]

    def _category(self, ev: Event) -> Category | str:
        """The category an event names (a contest's category, not a heat)."""
        found = self.contest.category(ev.category or "")
        return found if found is not None else f"no category {ev.category!r} in the contest"

    # -- the clocks -----------------------------------------------------------------------------

    def _clock_start(self, ev: Event) -> str | None:
        unit = ev.category or ""
        category = self.contest.category(unit)
        if unit not in self.heats and (category is None or category.rounds):
            return f"no clock named {unit!r} in the contest (a category or a heat)"
        if self._clock(unit).started is not None:
            return f"the clock of {unit} had started already"
        return None

    def _paused(self) -> bool:
        latest = max((e for k in (K.PAUSE, K.RESUME) for e in self._live(None, k)),
                     key=lambda e: (e.at, e.id), default=None)
        return latest is not None and latest.kind == K.PAUSE

    def _pause(self, ev: Event) -> str | None:
        return "a pause while the clocks were paused already" if self._paused() else None

    def _resume(self, ev: Event) -> str | None:
        return None if self._paused() else "the clocks resumed while they were not paused"

    # -- corrections ----------------------------------------------------------------------------

    def _undo(self, ev: Event) -> str | None:
        """/deshacer: the actor's own last record of what their role may take back."""
        kinds = ORGANISER_UNDOABLE if ev.role == "organiser" else VOLUNTEER_KINDS
        assert ev.actor is not None and ev.supersedes is not None  # document_events' rule
        mine = [e for e in self._undoable.get(ev.actor, ()) if e.id not in self.dead
                and e.kind in kinds]
        if not mine or mine[-1].id != ev.supersedes:
            return f"it takes back event {ev.supersedes}, not the last record of its actor " \
                   "that they may take back"
        last = mine[-1]
        if (ev.entry, ev.category, ev.data.get("kind")) != (last.entry, last.category,
                                                             last.kind):
            return f"its entry, category or details are not those of event {last.id}"
        return None

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
        assert ev.value is not None
        if not to_ts(EARLIEST) <= ev.value < to_ts(LATEST):
            return f"paid at {ev.value}: not a date the bot records"
        paid = self._live(ev.entry, K.PAYMENT)
        return self._corrects(ev, paid[-1] if paid else None)

    def _withdraw(self, ev: Event) -> str | None:
        return "the entry had withdrawn already" if self._live(ev.entry, K.WITHDRAW) else None

    def _member_change(self, ev: Event) -> str | None:
        assert ev.entry is not None
        if ev.category != self.entries[ev.entry].category:
            return f"category {ev.category!r}, not the entry's"
        position, old, new = (ev.data.get(k) for k in ("position", "old", "new"))
        category = self._category(ev)
        if isinstance(category, str):
            return category
        if old is None and new is None or (old is not None and position is None):
            return "a change with no member in or out"
        if position is not None and not 0 <= position < category.members:
            return f"position {position}: a team of {category.id} has {category.members}"
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
        if self._live(None, K.ROUND_FINAL) and any(e.ref == ev.ref
                                                   for e in self._live(None, K.ROUND_FINAL)):
            return f"round {ev.ref} confirmed twice"
        if index and not any(e.ref == round_ref(category, index - 1)
                             for e in self._live(None, K.ROUND_FINAL)):
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
        return None

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

    def _entry_event(self, ev: Event) -> str | None:
        """An event of an entry's play, decided on its state from its events before, in the
        heat it names (a category played once: none)."""
        assert ev.entry is not None
        entry = self.entries[ev.entry]
        category = self.contest.category(entry.category)
        assert category is not None  # the entries were checked before the history
        play = None
        if ev.category is not None:
            heat = self.heats.get(ev.category)
            if heat is None or heat.category.id != category.id:
                return f"heat {ev.category!r} is not one of {category.id}'s"
            play = heat.play
        elif category.rounds:
            return f"no heat named: {category.id} is played in rounds"
        held = self._units.get((ev.entry, ev.category), [])
        if len(held) >= MOST_PER_ENTRY:
            return f"more than {MOST_PER_ENTRY} events of one entry"
        clock = self._clock(ev.category or category.id)
        state = entry_state(self.contest, entry, [e for e in held if e.id not in self.dead],
                            clock, play=play)
        now = clock.elapsed(ev.at)
        if now is None and (ev.kind in RUNNING or play is not None and ev.kind in (
                K.PIECES, K.PENALTY)):
            return f"dated {ev.at.isoformat()}, before the clock of {state.category.id} " \
                   "started"
        return self._played[ev.kind](ev, state, now)

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

    def _penalty(self, ev: Event, s: EntryState, now: int | None) -> str | None:
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
        """/listo: as bot/services/escape.py's ``ready`` takes one."""
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
        since = [e for e in self._units.get((ev.entry, ev.category), ())
                 if e.id > s.ready.id and e.kind in (K.PHOTO, K.RETAKE)]
        return "a second photo asked for before one came" if since and \
            since[-1].kind == K.RETAKE else None

    def _request(self, ev: Event, s: EntryState, now: int | None) -> str | None:
        """/pista, /solucion: as bot/services/escape.py's ``request`` decides one."""
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
        refused = esc.check_confirmation(s.ledger, ev.stage, now)
        return why(refused) if refused is not None else None

    def _escape(self, ev: Event, s: EntryState, now: int | None) -> str | None:
        """/escape: as bot/services/escape.py's ``solve`` decides one (a correction decided
        without the solve it replaces)."""
        rules = self.contest.escape
        if s.ledger is None or rules is None:
            return f"{s.category.id} has no escape"
        assert now is not None and ev.value is not None
        if not 0 <= ev.value <= min(now, rules.time_limit):
            return f"an escape at {clock_text(ev.value)}: not between 0:00:00 and the clock then " \
                   "or the escape's time limit"
        solved = self._live(ev.entry, K.ESCAPE)
        previous = solved[-1] if solved else None
        ledger = s.ledger
        if previous is not None:
            if previous.value == ev.value:
                return f"the same as recorded already ({ev.value})"
            held = [e for e in self._units.get((ev.entry, ev.category), ())
                    if e.id not in self.dead and e.kind in LEDGER_KINDS]
            ledger = esc.fold(rules, escape_events(held, s.clock))
        refused = esc.check_solve(ledger, ev.value)
        return why(refused) if refused is not None else self._corrects(ev, previous)

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
        if repeat is not None and repeat not in {e.id for e in self._live(ev.entry, K.PHOTO)}:
            return f"a photo sent again of event {repeat}, not an earlier photo of the entry"
        return None

    def _own_start(self, ev: Event, s: EntryState, now: int | None) -> str | None:
        if not s.category.own_start:
            return f"{s.category.id} is not played from each entry's own start"
        assert ev.stage is not None
        puzzles = len(s.category.puzzles) or 1
        return None if 1 <= ev.stage <= puzzles else f"puzzle {ev.stage} of {puzzles}"
