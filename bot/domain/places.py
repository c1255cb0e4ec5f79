"""Places: who holds one, who waits, who is left out, lapsed or refunded, replayed from the
entries' registrations, payments and withdrawals at the moment asked (``allocate``)."""

from __future__ import annotations

import heapq
from bisect import insort
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from bot.domain.contest import Contest


class Status(StrEnum):
    CONFIRMED = "confirmed"
    PENDING_PAYMENT = "pending_payment"  # registered; no place is held until paid
    WAITING = "waiting"
    LEFT_OUT = "left_out"  # paid but without a place when registrations closed: refunded
    WITHDRAWN = "withdrawn"
    LAPSED = "lapsed"  # not paid within ``pay_within`` of registering: out, place freed
    # offered a freed place (``[waiting_list]``), not accepted by the offer's deadline: out of
    # the waiting list, the place offered to the next in line
    DECLINED = "declined"
    # registered alone in a category of pairs or teams, looking for a partner (``PARTNERS``):
    # no place held, not in the waiting list, until another entry's members join it
    SEEKING = "seeking"
    # still looking for a partner when registrations closed: out, what it paid given back
    UNMATCHED = "unmatched"


# the contest file's table that makes a freed place an offer the next in line accepts (the
# feature bot/features/waiting_list reads it); without it the next in line takes the place at once
WAITING_LIST = "waiting_list"
# the contest file's table that lets someone alone register in a category of pairs or teams and
# be matched with a partner (bot/features/partners)
PARTNERS = "partners"


@dataclass(frozen=True)
class Application:
    """What allocation needs to know of one entry."""

    number: int
    category: str
    local: bool
    registered_at: datetime
    paid_at: datetime | None = None
    withdrawn_at: datetime | None = None
    preconfirmed: bool = False  # registered elsewhere (imported): holds its place as given
    # the entry's answers to the questions with a quota: (question id, answer)
    quota_values: tuple[tuple[str, str], ...] = ()
    people: int = 1  # its people at the tables (a capacity in people counts them): ``seats``
    # where a place is held only once paid, the moment the place it holds while its people pay
    # in the chat is let go unless paid (``[payments] hold_minutes`` after registering; None:
    # no hold)
    hold_until: datetime | None = None
    # with offers (``WAITING_LIST``): each offer its people were told of, (when told, its
    # deadline), in order; each moment they accepted one
    offers: tuple[tuple[datetime, datetime], ...] = ()
    accepted: tuple[datetime, ...] = ()
    # registered alone looking for a partner (``PARTNERS``): it competes for a place only from
    # ``matched_at``, the moment a partner joined it, as an entry registering then does
    seeking: bool = False
    matched_at: datetime | None = None

    @property
    def joined_at(self) -> datetime | None:
        """From when the entry counts as registered for its place: its registration, or, for
        one that looked for a partner, the match (None: still looking)."""
        return self.matched_at if self.seeking else self.registered_at


@dataclass(frozen=True)
class Place:
    number: int
    status: Status
    waiting_position: int | None = None  # 1 = next in line (per category, or contest-wide
    # when the contest shares its capacity)
    refundable: bool = False  # the contest's rule gives back (some of) what was paid
    confirmed_at: datetime | None = None
    refund_percent: int = 0  # how much of what was paid is given back (withdrawn, left out)
    # a confirmed place held while its people pay: let go at this moment unless paid
    held_until: datetime | None = None
    # a confirmed place offered to the next in line and not accepted yet (``WAITING_LIST``),
    # held for it until ``offer_until`` (None: its people not told yet, no deadline running)
    offered: bool = False
    offer_until: datetime | None = None


def seats(contest: Contest, entry: Any) -> int:
    """The people an entry puts at the tables: its members, or its category's ``at_table``
    when fewer play at a time (``entry``: anything with ``category`` and ``members``)."""
    cat = contest.category(entry.category)
    count = len(entry.members)
    return min(count, cat.at_table) if cat is not None and cat.at_table else count


def refund_percent(contest: Contest, withdrawn_at: datetime) -> int:
    """The share of what was paid a withdrawal giving up its place at ``withdrawn_at`` gets
    back: the first ``refunds`` tier it comes before (0 after the last), else 100 before
    ``withdrawal_refund_until`` (0 from then), else always 100. Each ``until`` is the first
    moment the tier no longer applies."""
    rules = contest.registration
    if rules.refunds:
        return next((t.percent for t in rules.refunds if withdrawn_at < t.until), 0)
    until = rules.withdrawal_refund_until
    return 0 if until is not None and withdrawn_at >= until else 100


def refund_amount(paid: int, percent: int) -> int:
    """``percent`` % of ``paid`` cents, to the nearest cent (half a cent up)."""
    return (paid * percent + 50) // 100


def lapses_at(contest: Contest, a: Application) -> datetime | None:
    """When an entry lapses for want of payment (``pay_within`` after registering), or None: the
    contest sets no delay, the entry was registered elsewhere (imported: it holds its place as
    given), paid before the deadline (the payment's date counts, whenever it was recorded) or
    withdrew first."""
    delay = contest.registration.pay_within
    joined = a.joined_at
    if delay is None or a.preconfirmed or joined is None:
        return None
    deadline = joined + delay
    if a.paid_at is not None and a.paid_at < deadline:
        return None
    if a.withdrawn_at is not None and a.withdrawn_at <= deadline:
        return None
    return deadline


def holds_while_paying(contest: Contest, a: Application) -> bool:
    """Whether the entry holds a place while its people pay (``hold_until``) and has not paid
    before the hold ends: the place is let go at ``hold_until``."""
    if a.hold_until is None or a.preconfirmed or not contest.registration.payment_required:
        return False
    return a.paid_at is None or a.paid_at >= a.hold_until


def _priority(contest: Contest, a: Application) -> tuple[datetime, datetime, int]:
    joined = a.joined_at or a.registered_at
    if contest.registration.priority == "payment" and a.paid_at is not None:
        # matched after paying: its payment counts from the match
        return (max(a.paid_at, joined) if a.seeking else a.paid_at, joined, a.number)
    return (joined, joined, a.number)


def _candidate_from(contest: Contest, a: Application) -> datetime | None:
    """From when an entry competes for a place (None: not yet)."""
    joined = a.joined_at
    if joined is None:
        return None  # still looking for a partner
    if contest.registration.payment_required and not a.preconfirmed:
        if a.paid_at is None:
            return None
        return max(a.paid_at, joined)
    return joined


class _Pool:
    """The places held so far, with counts kept as they change (allocation stays linear)."""

    def __init__(self, contest: Contest) -> None:
        self.contest = contest
        self.confirmed: dict[int, Application] = {}
        self.in_category: dict[str, int] = {}
        self.people: dict[str, int] = {}  # per category; "" the whole contest
        self.non_local: dict[str, int] = {}
        # places held per (category, question id, answer), for the questions with a quota
        self.same_answer: dict[tuple[str, str, str], int] = {}
        self.quotas = {q.id: q.quota for q in contest.questions if q.quota is not None}
        # a choice's own places (a qualifier event's capacity): before the question's quota
        self.choice_places = {(q.id, c.id): c.places for q in contest.questions
                              for c in q.choices if c.places is not None}

    def add(self, a: Application) -> None:
        self.confirmed[a.number] = a
        self.in_category[a.category] = self.in_category.get(a.category, 0) + 1
        for where in (a.category, ""):
            self.people[where] = self.people.get(where, 0) + a.people
        if not a.local:
            self.non_local[a.category] = self.non_local.get(a.category, 0) + 1
        for qid, value in a.quota_values:
            key = (a.category, qid, value)
            self.same_answer[key] = self.same_answer.get(key, 0) + 1

    def remove(self, number: int) -> None:
        a = self.confirmed.pop(number)
        self.in_category[a.category] -= 1
        for where in (a.category, ""):
            self.people[where] -= a.people
        if not a.local:
            self.non_local[a.category] -= 1
        for qid, value in a.quota_values:
            self.same_answer[(a.category, qid, value)] -= 1

    def fits(self, a: Application, at: datetime) -> bool:
        contest = self.contest
        cat = contest.category(a.category)
        if cat is None:
            return False
        shared = contest.registration.shared_capacity
        if shared is not None and len(self.confirmed) >= shared:
            return False
        if not self._room_for_people(a, cat.people_capacity):
            return False
        for qid, value in a.quota_values:
            most = self.choice_places.get((qid, value), self.quotas.get(qid))
            if most is not None and self.same_answer.get((a.category, qid, value), 0) >= most:
                return False  # "at most 2 teams per country": this answer's places are taken
        if cat.capacity is not None:
            if self.in_category.get(a.category, 0) >= cat.capacity:
                return False
            for quota in cat.reserved:
                if at < quota.until and quota.for_kind == "local" and not a.local:
                    if self.non_local.get(a.category, 0) >= cat.capacity - quota.places:
                        return False
        return True

    def _room_for_people(self, a: Application, in_category: int | None) -> bool:
        """A capacity in people (``people_capacity``: the category's, the contest's
        ``shared_people_capacity``): the entry's members still fit, every one of them."""
        shared = self.contest.registration.shared_people_capacity
        return all(most is None or self.people.get(key, 0) + a.people <= most
                   for key, most in ((a.category, in_category), ("", shared)))


# Steps of the allocation replay, in this order when they happen at the same moment: a
# withdrawal or a lapse frees its place, an offer not accepted by its deadline passes on, a
# place held while paying is let go, a reserved quota ends, then new candidates compete for
# places.
_WITHDRAWAL = 0
_LAPSE = 1
_OFFER_END = 2
_HOLD_END = 3
_RELEASE = 4
_CANDIDATE = 5
_HELD = 6  # an entry registering holds a free place while its people pay; none free: nothing
_ACCEPT = 7  # an offered place accepted: confirmed from then
_Key = tuple[datetime, datetime, int]  # (first priority, then registration, then number)
_Step = tuple[datetime, int, _Key]
_NO_KEY_NUMBER = -1  # a quota release concerns no entry


def _withdrawn_by(a: Application, now: datetime) -> bool:
    return a.withdrawn_at is not None and a.withdrawn_at <= now


def _entry_steps(contest: Contest, a: Application, now: datetime) -> list[_Step]:
    """When an entry starts competing for a place, and when it withdraws or lapses, up to
    ``now``."""
    if a.hold_until is not None and not a.preconfirmed and contest.registration.payment_required:
        return _held_steps(contest, a, now)
    steps: list[_Step] = []
    start = _candidate_from(contest, a)
    if a.preconfirmed and start is not None:
        start = min(start, now)  # registered elsewhere: its place is held whenever asked
    withdrawn = a.withdrawn_at
    gone = withdrawn is not None and withdrawn <= (start or now)  # withdrew before competing
    lapse = lapses_at(contest, a)
    if lapse is not None and start is not None and lapse <= start:
        gone = True  # paid only after the deadline: it never competes
    if start is not None and start <= now and not gone:
        steps.append((start, _CANDIDATE, _priority(contest, a)))
    if lapse is not None:
        if lapse <= now:
            steps.append((lapse, _LAPSE, (lapse, lapse, a.number)))
    elif withdrawn is not None and withdrawn <= now:
        steps.append((withdrawn, _WITHDRAWAL, (withdrawn, withdrawn, a.number)))
    return steps


def _held_steps(contest: Contest, a: Application, now: datetime) -> list[_Step]:
    """An entry registered in the chat where a place is held only once paid, holding one while
    its people pay: it competes from registering; unless paid before ``hold_until`` it lets
    the place go then, and competes again from its payment, as any entry paying does."""
    assert a.hold_until is not None
    lapse = lapses_at(contest, a)
    out = min((m for m in (a.withdrawn_at, lapse) if m is not None), default=None)

    def before_out(moment: datetime) -> bool:
        return moment <= now and (out is None or moment < out)

    steps: list[_Step] = []
    if before_out(a.registered_at):
        steps.append((a.registered_at, _HELD, (a.registered_at, a.registered_at, a.number)))
    if holds_while_paying(contest, a) and before_out(a.hold_until):
        steps.append((a.hold_until, _HOLD_END, (a.hold_until, a.hold_until, a.number)))
    if a.paid_at is not None and before_out(a.paid_at):
        # paid: it competes as any entry paying does (nothing more if it holds its place)
        steps.append((max(a.paid_at, a.registered_at), _CANDIDATE, _priority(contest, a)))
    if lapse is not None:
        if lapse <= now:
            steps.append((lapse, _LAPSE, (lapse, lapse, a.number)))
    elif a.withdrawn_at is not None and a.withdrawn_at <= now:
        steps.append((a.withdrawn_at, _WITHDRAWAL, (a.withdrawn_at, a.withdrawn_at, a.number)))
    return steps


def _release_steps(contest: Contest, now: datetime) -> list[_Step]:
    """The moments reserved quotas ended, up to ``now``: their places open to anyone."""
    return [
        (quota.until, _RELEASE, (quota.until, quota.until, _NO_KEY_NUMBER))
        for cat in contest.categories
        for quota in cat.reserved
        if quota.until <= now
    ]


def _timeline(contest: Contest, apps: Iterable[Application], now: datetime) -> list[_Step]:
    steps = _release_steps(contest, now)
    for a in apps:
        steps += _entry_steps(contest, a, now)
    steps.sort()
    return steps


class _Replay:
    """Places as the timeline is replayed: the places held, the waiting list, and when each
    entry got its place or left."""

    def __init__(self, contest: Contest, apps: dict[int, Application], now: datetime,
                 steps: list[_Step]) -> None:
        self.apps = apps
        self.now = now
        self.steps = steps  # in order
        self.later: list[_Step] = []  # a heap: the steps of the offers made as it goes
        self.pool = _Pool(contest)
        self.waiting: list[_Key] = []  # in priority order
        self.confirmed_at: dict[int, datetime] = {}
        self.gave_up_place: set[int] = set()  # withdrew from a confirmed place
        self.offers_on = contest.settings(WAITING_LIST) is not None
        self.offers: dict[int, datetime | None] = {}  # offered, not accepted: its deadline
        self.declined: dict[int, datetime] = {}  # offered, not accepted by the deadline: when

    def run(self) -> None:
        """Every step in order, the offers' own as they come."""
        steps, later = self.steps, self.later
        i = 0
        while i < len(steps) or later:
            if later and (i == len(steps) or later[0] < steps[i]):
                self.step(*heapq.heappop(later))
            else:
                self.step(*steps[i])
                i += 1

    def step(self, at: datetime, kind: int, key: _Key) -> None:
        if kind in (_WITHDRAWAL, _LAPSE):
            self.withdraw(key[2], at)
        elif kind == _OFFER_END:
            self.offer_ends(key[2], at)
        elif kind == _ACCEPT:
            self.accept(key[2], at)
        elif kind == _HOLD_END:
            self.let_go(key[2], at)
        elif kind == _HELD:
            a = self.apps[key[2]]
            if self.pool.fits(a, at):
                self.confirm(a, at)
        elif kind == _RELEASE:
            self.promote(at)
        else:
            self.compete(key, at)

    def confirm(self, a: Application, at: datetime) -> None:
        self.pool.add(a)
        self.confirmed_at[a.number] = at

    def promote(self, at: datetime) -> None:
        """Freed places go to the waiting entries that fit, first in line first (with offers,
        each is offered its place: held for it until it accepts or the deadline passes)."""
        for key in list(self.waiting):
            a = self.apps[key[2]]
            if self.pool.fits(a, at):
                self.waiting.remove(key)
                self.confirm(a, at)
                if self.offers_on and not a.preconfirmed:
                    self.offer(a, at)

    def offer(self, a: Application, at: datetime) -> None:
        """Entry ``a`` is offered the place it now holds, from ``at``. Its deadline is the one
        its people were told with this offer (the first told from ``at`` on: one told before
        was another offer's; none yet, no deadline runs); it accepted if it did so from
        ``at`` and before that deadline."""
        until = next((u for told, u in a.offers if told >= at and u > at), None)
        self.offers[a.number] = until
        key = (at, at, a.number)
        accepted = next((x for x in a.accepted if at <= x <= self.now
                         and (until is None or x < until)), None)
        if accepted is not None:
            heapq.heappush(self.later, (accepted, _ACCEPT, key))
        elif until is not None and until <= self.now:
            heapq.heappush(self.later, (until, _OFFER_END, key))

    def accept(self, number: int, at: datetime) -> None:
        if number in self.offers:
            del self.offers[number]
            self.confirmed_at[number] = at

    def offer_ends(self, number: int, at: datetime) -> None:
        """An offer not accepted by its deadline: the entry is out, the place offered on."""
        if number in self.offers:
            del self.offers[number]
            self.pool.remove(number)
            self.declined[number] = at
            self.promote(at)

    def withdraw(self, number: int, at: datetime) -> None:
        if number in self.offers:  # an offer given up: as from the waiting list
            del self.offers[number]
            self.pool.remove(number)
            self.promote(at)
        elif number in self.pool.confirmed:
            self.pool.remove(number)
            self.gave_up_place.add(number)
            self.promote(at)
        else:
            self.waiting = [k for k in self.waiting if k[2] != number]

    def let_go(self, number: int, at: datetime) -> None:
        """A place held while paying let go, unpaid: it frees up for the next in line (the
        entry competes again once paid; it gave up nothing of what it paid)."""
        if number in self.pool.confirmed:
            self.pool.remove(number)
            self.promote(at)
        else:
            self.waiting = [k for k in self.waiting if k[2] != number]

    def compete(self, key: _Key, at: datetime) -> None:
        # Every waiting entry that fits was promoted when its place freed up, so the ones still
        # waiting cannot use this place: a newcomer that fits takes it.
        a = self.apps[key[2]]
        if a.number in self.pool.confirmed:
            return  # paid while holding its place: it keeps it
        if a.preconfirmed or self.pool.fits(a, at):
            self.confirm(a, at)
        else:
            insort(self.waiting, key)

    def waiting_positions(self, shared: bool) -> dict[int, int]:
        """1 = next in line, per category (or over the whole contest when it shares places)."""
        positions: dict[int, int] = {}
        counters: dict[str | None, int] = {}
        for key in self.waiting:
            a = self.apps[key[2]]
            line = None if shared else a.category
            counters[line] = counters.get(line, 0) + 1
            positions[a.number] = counters[line]
        return positions


def _withdrawn_place(contest: Contest, a: Application, gave_up_place: bool) -> Place:
    """A withdrawal from the waiting list (or before holding a place) is refunded in full; one
    giving up a place gets back what the contest's rules give at that moment
    (``refund_percent``)."""
    percent = 100
    if gave_up_place and a.withdrawn_at is not None:
        percent = refund_percent(contest, a.withdrawn_at)
    return Place(a.number, Status.WITHDRAWN, refundable=percent > 0, refund_percent=percent)


def _waiting_place(contest: Contest, a: Application, position: int, now: datetime) -> Place:
    """Still waiting; once registrations close, a paid entry without a place is left out."""
    closes = contest.registration.closes
    closed = closes is not None and now >= closes
    status = Status.LEFT_OUT if closed and contest.registration.payment_required else Status.WAITING
    return Place(a.number, status, position, refundable=True, refund_percent=100)


def _seeking_place(contest: Contest, a: Application, now: datetime) -> Place:
    """Still looking for a partner: once registrations close, out (unmatched), what it paid
    given back in full."""
    closes = contest.registration.closes
    if closes is not None and now >= closes:
        return Place(a.number, Status.UNMATCHED, refundable=True, refund_percent=100)
    return Place(a.number, Status.SEEKING, refundable=True, refund_percent=100)


def allocate(
    contest: Contest, applications: Iterable[Application], now: datetime
) -> dict[int, Place]:
    """Every entry's place at ``now``, replaying registrations, payments, withdrawals and quota
    releases in the order they happened. A confirmed place is never taken back by a later event;
    a freed place goes to the first waiting entry that fits."""
    apps = {a.number: a for a in applications}
    replay = _Replay(contest, apps, now, _timeline(contest, apps.values(), now))
    replay.run()
    positions = replay.waiting_positions(contest.registration.shared_capacity is not None)
    places: dict[int, Place] = {}
    for a in apps.values():
        lapse = lapses_at(contest, a)
        declined = replay.declined.get(a.number)
        if declined is not None and (lapse is None or declined < lapse):
            lapse = None  # out of the waiting list first: it lapses no more
        if lapse is not None and lapse <= now:
            # anything paid (after the deadline) is given back
            places[a.number] = Place(a.number, Status.LAPSED, refundable=True,
                                     refund_percent=100)
        elif declined is not None:  # out first: its money given back later changes nothing
            places[a.number] = Place(a.number, Status.DECLINED, refundable=True,
                                     refund_percent=100)
        elif _withdrawn_by(a, now):
            places[a.number] = _withdrawn_place(contest, a, a.number in replay.gave_up_place)
        elif a.seeking and (a.matched_at is None or a.matched_at > now):
            places[a.number] = _seeking_place(contest, a, now)
        elif a.number in replay.offers:
            places[a.number] = Place(a.number, Status.CONFIRMED,
                                     confirmed_at=replay.confirmed_at[a.number], offered=True,
                                     offer_until=replay.offers[a.number])
        elif a.number in replay.pool.confirmed:
            confirmed_at = replay.confirmed_at[a.number]
            held = (a.hold_until if holds_while_paying(contest, a) and a.hold_until is not None
                    and now < a.hold_until else None)
            places[a.number] = Place(a.number, Status.CONFIRMED, confirmed_at=confirmed_at,
                                     held_until=held)
        elif a.number in positions:
            places[a.number] = _waiting_place(contest, a, positions[a.number], now)
        else:
            places[a.number] = Place(a.number, Status.PENDING_PAYMENT)
    return places
