"""Registrations as operations on the store through the registration rules (rules.py)

An entry registered in the chat is a row in ``entries`` plus a ``registered`` event; payments
(``payment``, its date in ``value``) and withdrawals (``withdraw``) are events, corrections
supersede. Places are never stored: they are recomputed with ``allocate`` at the moment asked.
Every status a person was told is recorded (``status_notice``) so a change (a promotion, a team
left out at closing) is announced once, even across restarts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta
from typing import ClassVar

from bot.domain.contest import Category, Contest
from bot.domain.events import ACCEPT, MATCH, OFFER, PLACE_KINDS, REFUND, SEEK, EventKind
from bot.domain.places import (
    Application,
    Place,
    Status,
    allocate,
    lapses_at,
    refund_amount,
    seats,
)
from bot.domain.rounds import heat_id
from bot.features.payments.rules import CHARGE, EXTRA, GONE, HOLD, OWED_BACK, PROVIDER_CHARGE
from bot.features.registration.rules import (
    Fee,
    HeatBegun,
    Ineligible,
    Member,
    Outing,
    already_entered,
    check_entry,
    closing_warning_at,
    fee,
    heat_choices_open,
    is_local,
    registration_window,
    seeking_problem,
    too_late_to_join,
)
from bot.services.outcomes import Done, Refusal, UnknownEntry, new_code
from bot.services.readmodel import ReadModel
from bot.storage.store import Entry, Event, Store, from_ts, to_ts

OFFERED = "offered"  # what its people were told of a place offered (``status_key``)


class PlaceMoves:
    """What an entry's events say of its place, read in the order they were recorded: its
    payment's date, its withdrawal, the place held while paying, the offers told and accepted,
    and when the money it paid for its place was given back (``gave_back``: a refund beyond
    what it paid twice; an entry whose money is given back leaves the waiting list then, as a
    withdrawal does: a place freed later is no longer its)."""

    def __init__(self) -> None:
        self.paid: dict[int, datetime] = {}
        self.withdrawn: dict[int, datetime] = {}
        self.held: dict[int, datetime] = {}
        self.offered: dict[int, list[tuple[datetime, datetime]]] = {}  # (told, deadline)
        self.accepted: dict[int, list[datetime]] = {}
        self.extra: dict[int, int] = {}  # cents paid beyond its payment (owed back)
        self.refunded: dict[int, int] = {}
        self.gave_back: dict[int, datetime] = {}
        self.seeking: set[int] = set()  # registered alone, looking for a partner
        self.matched: dict[int, datetime] = {}  # ... and when a partner joined it

    def add(self, e: Event) -> None:
        n = e.entry
        if n is None:
            return
        if e.kind == SEEK:
            self.seeking.add(n)
        elif e.kind == MATCH and e.data.get("complete"):  # its members all in
            self.matched.setdefault(n, e.at)
        if e.kind == EventKind.PAYMENT and e.ref in OWED_BACK:  # it pays for no place
            self.extra[n] = self.extra.get(n, 0) + int(e.data.get("amount") or 0)
        elif e.kind == EventKind.PAYMENT:
            self.paid[n] = from_ts(e.value) if e.value is not None else e.at
        elif e.kind == EventKind.WITHDRAW:
            self.withdrawn.setdefault(n, e.at)
        elif e.kind == ACCEPT:
            self.accepted.setdefault(n, []).append(e.at)
        elif e.value is None:
            return
        elif e.kind == HOLD:
            self.held.setdefault(n, from_ts(e.value))
        elif e.kind == OFFER:
            self.offered.setdefault(n, []).append((e.at, from_ts(e.value)))
        elif e.kind == REFUND:
            self.refunded[n] = self.refunded.get(n, 0) + e.value
            if self.refunded[n] > self.extra.get(n, 0):
                self.gave_back.setdefault(n, e.at)

    def out(self, number: int) -> datetime | None:
        """When the entry left: its withdrawal, or its money given back, the earlier."""
        moments = [m for m in (self.withdrawn.get(number), self.gave_back.get(number))
                   if m is not None]
        return min(moments, default=None)


def _reserved_left(category: Category, taken: Sequence[EntryStatus], now: datetime) -> int:
    """Of a category's free places, those only local entries may take at ``now``."""
    if category.capacity is None:
        return 0
    free = max(0, category.capacity - len(taken))
    left = 0
    for q in category.reserved:
        if now < q.until:
            non_local = sum(1 for s in taken if not s.entry.local)
            room_for_anyone = max(0, category.capacity - q.places - non_local)
            left += free - min(free, room_for_anyone)
    return left


def _passed(contest: Contest, apps: Sequence[Application], now: datetime) -> tuple[int, ...]:
    """How many of each date that moves a place are at or before ``now``: registrations,
    payments, withdrawals, holds' ends, lapses, offers' deadlines, acceptances."""
    registered = paid = withdrawn = held = lapsed = offers = accepted = matched = 0
    lapsing = contest.registration.pay_within is not None
    for a in apps:  # every ranking asks: one pass, the common case (nothing but a
        # registration and a payment) at two compares
        if a.registered_at <= now:
            registered += 1
        if a.paid_at is not None and a.paid_at <= now:
            paid += 1
        if a.withdrawn_at is not None and a.withdrawn_at <= now:
            withdrawn += 1
        if a.hold_until is not None and a.hold_until <= now:
            held += 1
        if lapsing and (lapse := lapses_at(contest, a)) is not None and lapse <= now:
            lapsed += 1
        if a.offers:
            offers += sum(1 for _, until in a.offers if until <= now)
        if a.accepted:
            accepted += sum(1 for x in a.accepted if x <= now)
        if a.matched_at is not None and a.matched_at <= now:
            matched += 1
    return registered, paid, withdrawn, held, lapsed, offers, accepted, matched


@dataclass(frozen=True)
class EntryStatus:
    entry: Entry
    place: Place
    fee: Fee
    paid_at: datetime | None
    # cents paid in the chat beyond the entry's payment (paid twice): given back in full
    extra: int = 0
    # cents the organisers recorded as given back (bot/features/refunds)
    refunded: int = 0

    @property
    def refund(self) -> int:
        """Cents to give back: the share of the fee paid that its place's rule gives back
        (withdrawn, left out, lapsed after paying late; 0 when nothing was paid), and all of
        what was paid twice."""
        if self.paid_at is None or self.place.status not in (
                Status.WITHDRAWN, Status.LEFT_OUT, Status.LAPSED, Status.DECLINED,
                Status.UNMATCHED):
            return self.extra
        return refund_amount(self.fee.total, self.place.refund_percent) + self.extra

    @property
    def owed_back(self) -> int:
        """Cents still to give back: what is owed (``refund``) less what was given back."""
        return max(0, self.refund - self.refunded)


@dataclass(frozen=True)
class Card:
    """What the people of an entry are told with its place (the confirmation card): its
    first event as the contest file says (``outing``), what it owes (``total`` cents, ``paid``
    or not, and the last day a payment counts, ``pay_by``, under ``pay_within``) and its table
    once drawn (None: not yet, or never in this contest)."""

    entry: Entry
    category: Category
    place: Place
    outing: Outing
    total: int
    paid: bool
    pay_by: date | None = None
    table: int | None = None


@dataclass(frozen=True)
class RegistrationShut(Refusal):
    """Registration is not open yet, or has closed (``window``: "not_open_yet" or "closed")."""

    code: ClassVar[str] = "registration_shut"
    window: str

    @property
    def reason(self) -> str:
        return self.window


@dataclass(frozen=True)
class HeatStarted(Refusal):
    """The entry could play no heat: its category's first round (or the heat it chose) has
    begun (``bot.features.registration.rules.too_late_to_join``)."""

    code: ClassVar[str] = "heat_started"
    category: str
    begun: HeatBegun
    open_choices: tuple[str, ...] = ()  # heats_by: the heats still to come, by their choice
    started_at: datetime | None = None  # its clock started (``begun.started``) then


@dataclass(frozen=True)
class NotEligible(Refusal):
    code: ClassVar[str] = "ineligible"
    problem: Ineligible


@dataclass(frozen=True)
class AlreadyEntered(Refusal):
    """Member ``member`` (0-based) is already in entry ``entry`` of the category (0: twice in
    this one), and the contest allows one entry per person (``one_entry_per_person``);
    ``category``: that entry's category's name, when the rule holds across the contest."""

    code: ClassVar[str] = "already_entered"
    member: int
    name: str
    entry: int
    category: str | None = None


@dataclass(frozen=True)
class AlreadyWithdrawn(Refusal):
    code: ClassVar[str] = "already_withdrawn"
    entry: int


@dataclass(frozen=True)
class AlreadyLapsed(Refusal):
    """The entry lapsed for want of payment, or did not accept the place offered in time
    (``status``): it is out already, nothing to withdraw."""

    code: ClassVar[str] = "already_lapsed"
    entry: int
    status: Status = Status.LAPSED


@dataclass(frozen=True)
class Registered(Done):
    number: int
    place: Place


@dataclass(frozen=True)
class Withdrawn(Done):
    entry: int
    place: Place
    paid: bool  # it had paid: a refund may be due
    was: Status  # its place before
    refund: int = 0  # cents given back of what it paid (``place.refund_percent`` of it)


@dataclass(frozen=True)
class Paid(Done):
    entry: int
    place: Place
    corrected: bool  # an earlier payment date was replaced
    # entries that held a place before this payment and lost it to it (its date came first:
    # a payment recorded late), with their place now (waiting or left out)
    displaced: tuple[tuple[Entry, Place], ...] = ()


@dataclass(frozen=True)
class PaidInChat(Done):
    """A payment in the chat recorded (``extra``: the entry was paid already, so all of it is
    owed back), the entry's place after it, and the entries it took the place of."""

    entry: int
    place: Place
    amount: int
    extra: bool
    displaced: tuple[tuple[Entry, Place], ...] = ()
    gone: bool = False  # it came for a place gone (withdrawn, lapsed, left out): owed back


@dataclass(frozen=True)
class PaidInChatAlready(Refusal):
    """/pagado for an entry paid in the chat (at ``at``, ``amount`` cents): nothing recorded;
    a payment at the desk too is to be given back."""

    code: ClassVar[str] = "paid_in_chat_already"
    entry: int
    at: datetime
    amount: int


@dataclass(frozen=True)
class ChargeKnown(Done):
    """This charge was recorded already (Telegram gave the payment's message again)."""

    entry: int


@dataclass(frozen=True)
class CategorySummary:
    """A category's places for the organisers (/inscritos)."""

    taken: list[EntryStatus]
    waiting: list[EntryStatus]  # waiting or left out, in the list's order
    pending: list[EntryStatus]
    free: int | None  # None: the category has no capacity of its own
    reserved_left: int  # of the free places, those only local entries may take
    lapsed: list[EntryStatus]
    refunds: list[EntryStatus]
    # looking for a partner, or out for want of one (``bot/features/partners``)
    seeking: list[EntryStatus] = field(default_factory=list)


# why a new entry is not taken (``Registrations.register``)
RegistrationRefusal = RegistrationShut | NotEligible | AlreadyEntered | HeatStarted


class Registrations:
    def __init__(self, contest: Contest, store: Store, read: ReadModel | None = None) -> None:
        self.contest = contest
        self.store = store
        # the day's read model (``ContestDay.registrations``); alone, one of its own
        self.read = read if read is not None else ReadModel(store)

    async def applications(self) -> list[Application]:
        cache = self.read.projection("applications", PLACE_KINDS)
        # the table's size too: another process's import adds entries without a write here
        entries = await self.store.entries()
        size = (len(entries), entries[-1].number if entries else 0)
        hit = cache.get("all")
        if hit is not None and hit[0] == size:
            result: list[Application] = hit[1]
            return result
        apps = await self._applications()
        cache["all"] = (size, apps)
        return apps

    async def _applications(self) -> list[Application]:
        moves = PlaceMoves()
        for e in await self.store.events(kinds=[EventKind.PAYMENT, EventKind.WITHDRAW, HOLD,
                                                OFFER, ACCEPT, REFUND, SEEK, MATCH]):
            moves.add(e)
        return [
            Application(
                number=en.number, category=en.category, local=en.local,
                registered_at=en.registered_at, paid_at=moves.paid.get(en.number),
                withdrawn_at=moves.out(en.number), preconfirmed=en.source == "import",
                quota_values=self.quota_values(en), people=seats(self.contest, en),
                hold_until=moves.held.get(en.number),
                offers=tuple(moves.offered.get(en.number, ())),
                accepted=tuple(moves.accepted.get(en.number, ())),
                seeking=en.number in moves.seeking, matched_at=moves.matched.get(en.number),
            )
            for en in await self.store.entries()
        ]

    async def hold_moments(self, now: datetime) -> list[tuple[int, datetime]]:
        """The places held while paying still to be let go after ``now``: (entry, moment)."""
        places = await self.places(now)
        return sorted(((n, p.held_until) for n, p in places.items()
                       if p.held_until is not None and p.held_until > now),
                      key=lambda x: x[1])

    async def extras(self) -> dict[int, int]:
        """Per entry, the cents paid in the chat beyond its payment (owed back in full)."""
        out: dict[int, int] = {}
        for e in await self.store.events(kinds=[EventKind.PAYMENT]):
            if e.entry is not None and e.ref in OWED_BACK:
                out[e.entry] = out.get(e.entry, 0) + int(e.data.get("amount") or 0)
        return out

    async def refunded(self) -> dict[int, int]:
        """Per entry, the cents the organisers recorded as given back."""
        out: dict[int, int] = {}
        for e in await self.store.events(kinds=[REFUND]):
            if e.entry is not None and e.value is not None:
                out[e.entry] = out.get(e.entry, 0) + e.value
        return out

    def quota_values(self, entry: Entry) -> tuple[tuple[str, str], ...]:
        """The entry's answers to the questions with a quota (``Entry.answer``: a pair of
        two countries is "ES/FR", a value of its own); unanswered ones count for none."""
        return tuple((q.id, value) for q in self.contest.questions
                     if q.quota is not None or any(c.places is not None for c in q.choices)
                     if (value := entry.answer(q.id)) is not None)

    async def places(self, now: datetime) -> dict[int, Place]:
        """Places at ``now``. Allocation depends on time only through the dates of
        registrations, payments and withdrawals and the moments when places change by
        themselves: it is recomputed only when one of those is on the other side of ``now``."""
        cache = self.read.projection("allocation", PLACE_KINDS)
        apps = await self.applications()
        # which side of ``now`` each date that moves a place is on
        key = (len(apps), _passed(self.contest, apps, now),
               tuple(now >= m for _, m in self.moments()))
        hit = cache.get("at")
        if hit is not None and hit[0] == key:
            result: dict[int, Place] = hit[1]
            return result
        places = allocate(self.contest, apps, now)
        cache["at"] = (key, places)
        return places

    def fee_of(self, entry: Entry) -> Fee:
        category = self.contest.category(entry.category)
        assert category is not None
        return fee(self.contest, category, entry.members, entry.meal_adults, entry.meal_children)

    async def statuses(self, now: datetime, numbers: Sequence[int] | None = None
                       ) -> list[EntryStatus]:
        places = await self.places(now)
        apps = {a.number: a for a in await self.applications()}
        extras = await self.extras()
        refunded = await self.refunded()
        out = []
        for en in await self.store.entries():
            if numbers is not None and en.number not in numbers:
                continue
            out.append(EntryStatus(en, places[en.number], self.fee_of(en),
                                   apps[en.number].paid_at, extras.get(en.number, 0),
                                   refunded.get(en.number, 0)))
        return out

    async def register(
        self, user_id: int, category: Category, members: Sequence[Member], meal_adults: int,
        meal_children: int, at: datetime, update_id: int | None,
        values: Sequence[tuple[str, str]] = (), hold: timedelta | None = None,
        seeking: bool = False,
    ) -> Registered | RegistrationRefusal:
        """A new entry from the chat; ``values``: its answers to the per-entry questions;
        ``hold``: how long a place free now is held while its people pay in the chat (an
        invoice is sent with the answer), where a place is held only once paid; ``seeking``:
        registered by someone alone (fewer members than its category takes) looking for a
        partner (``bot/features/partners``): it holds no place until one joins it."""
        window = registration_window(self.contest, at, members)
        if window is not None:
            return RegistrationShut(window)
        problem = (seeking_problem(category, members, self.contest.date) if seeking
                   else check_entry(category, members, self.contest.date))
        if problem is not None:
            return NotEligible(problem)
        async with self.store.transaction() as tx:
            late = await self.too_late(category, at, dict(values))
            if late is not None:
                return late
            if self.contest.registration.one_entry_per_person:
                across = self.contest.registration.one_entry_scope == "contest"
                others = await self.entered(None if across else category.id)
                twice = already_entered(members, others)
                if twice is not None:
                    other = await self.store.entry(twice[1]) if across and twice[1] else None
                    theirs = self.contest.category(other.category) if other else None
                    return AlreadyEntered(twice[0], members[twice[0]].name, twice[1],
                                          theirs.name if theirs is not None else None)
            number = await tx.add_entry(
                category=category.id, join_code=new_code("e"),
                local=is_local(self.contest, members), registered_at=at, members=members,
                source="chat", registered_by=user_id, meal_adults=meal_adults,
                meal_children=meal_children, values=values,
            )
            await tx.add_event(at=at, kind=EventKind.REGISTERED, role="participant", actor=user_id,
                               entry=number, category=category.id, update_id=update_id)
            await tx.add_event(at=at, kind=EventKind.LINK, role="participant", actor=user_id,
                               entry=number, ref="registration")
            if seeking:
                await tx.add_event(at=at, kind=SEEK, role="participant", actor=user_id,
                                   entry=number)
            elif hold is not None and self.contest.registration.payment_required:
                await tx.add_event(at=at, kind=HOLD, role="system", entry=number,
                                   value=to_ts(at + hold))
        place = (await self.places(at))[number]
        await self.record_status(number, place, at)
        return Registered(number, place)

    async def started_heats(self, category: Category) -> dict[int, datetime]:
        """The heats (numbers) of the category's first round whose clock has started, each
        with the moment it first started."""
        if not category.rounds:
            return {}
        ids = {heat_id(category, 0, h): h for h in range(1, category.rounds[0].heats + 1)}
        out: dict[int, datetime] = {}
        for e in await self.store.events(kinds=[EventKind.CLOCK_START]):
            if e.category in ids and ids[e.category] not in out:
                out[ids[e.category]] = e.at
        return out

    async def open_choices(self, category: Category, at: datetime) -> tuple[str, ...]:
        """The heats an entry registering at ``at`` may still choose (``heats_by``)."""
        return heat_choices_open(self.contest, category, at, await self.started_heats(category))

    async def too_late(self, category: Category, at: datetime,
                       values: dict[str, str] | None = None) -> HeatStarted | None:
        """Whether an entry registering at ``at`` would play no heat (``too_late_to_join``);
        ``values``: its per-entry answers (None: not chosen yet)."""
        if not category.rounds:
            return None
        started = await self.started_heats(category)
        by = category.rounds[0].heats_by
        choice = values.get(by) if values is not None and by is not None else None
        begun = too_late_to_join(self.contest, category, at, started, choice,
                                 chosen=values is not None)
        if begun is None:
            return None
        return HeatStarted(category.id, begun,
                           heat_choices_open(self.contest, category, at, started),
                           started.get(begun.heat) if begun.started else None)

    async def meal_asked_with(self, user_id: int, now: datetime) -> list[Entry]:
        """The entries this person registered in the chat that are still in (neither withdrawn
        nor lapsed): the meal was asked with them (asked once per person), and what they booked
        stays booked there. Empty: the meal is still to be asked."""
        mine = [e for e in await self.store.entries()
                if e.source == "chat" and e.registered_by == user_id]
        if not mine:
            return []
        places = await self.places(now)
        return [e for e in mine if places[e.number].status not in (
            Status.WITHDRAWN, Status.LAPSED, Status.DECLINED, Status.UNMATCHED)]

    async def entered(self, category: str | None) -> list[tuple[int, tuple[Member, ...]]]:
        """The category's entries (None: the contest's) not withdrawn, with their members."""
        gone = {a.number for a in await self.applications() if a.withdrawn_at is not None}
        return [(e.number, e.members) for e in await self.store.entries(category)
                if e.number not in gone]

    async def withdraw(self, user_id: int, role: str, number: int, at: datetime,
                       update_id: int | None
                       ) -> Withdrawn | UnknownEntry | AlreadyWithdrawn | AlreadyLapsed:
        async with self.store.transaction() as tx:
            entry = await tx.entry(number)
            if entry is None:
                return UnknownEntry(number)
            before = (await self.places(at))[number]
            if before.status is Status.WITHDRAWN:
                return AlreadyWithdrawn(number)
            if before.status in (Status.LAPSED, Status.DECLINED, Status.UNMATCHED):
                return AlreadyLapsed(number, before.status)
            await tx.add_event(at=at, kind=EventKind.WITHDRAW, role=role, actor=user_id,
                               entry=number, update_id=update_id)
        place = (await self.places(at))[number]
        await self.record_status(number, place, at)
        [status] = await self.statuses(at, [number])
        return Withdrawn(number, place, paid=status.paid_at is not None, was=before.status,
                         refund=status.refund)

    async def refund_if_withdrawn(self, number: int, at: datetime) -> tuple[int, int] | None:
        """What the entry would get back were it to withdraw at ``at``, and what it paid
        (cents; paid twice included); None: it paid nothing (or is gone already)."""
        statuses = await self.statuses(at, [number])
        if not statuses or statuses[0].paid_at is None or statuses[0].place.status in (
                Status.WITHDRAWN, Status.LAPSED, Status.DECLINED, Status.UNMATCHED):
            return None
        s = statuses[0]
        apps = [replace(a, withdrawn_at=at) if a.number == number else a
                for a in await self.applications()]
        place = allocate(self.contest, apps, at)[number]
        return (refund_amount(s.fee.total, place.refund_percent) + s.extra,
                s.fee.total + s.extra)

    async def pay(self, organiser: int, number: int, paid_at: datetime, at: datetime,
                  update_id: int | None) -> Paid | UnknownEntry | PaidInChatAlready:
        async with self.store.transaction() as tx:
            entry = await tx.entry(number)
            if entry is None:
                return UnknownEntry(number)
            paid = await tx.events(entry=number, kinds=[EventKind.PAYMENT])
            # the payment in force (one paid twice in the chat is owed back, not corrected)
            previous = next((e for e in reversed(paid) if e.ref not in OWED_BACK), None)
            if previous is not None and previous.data.get(CHARGE):
                # paid in the chat: a payment at the desk too is one to give back, never a
                # correction of Telegram's (its charge, its date)
                return PaidInChatAlready(number, previous.at,
                                         int(previous.data.get("amount") or 0))
            before = await self.places(at)
            await tx.add_event(at=at, kind=EventKind.PAYMENT, role="organiser", actor=organiser,
                               entry=number, value=to_ts(paid_at),
                               supersedes=previous.id if previous else None,
                               update_id=update_id)
        after = await self.places(at)
        lost = [n for n, p in before.items() if n != number and p.status is Status.CONFIRMED
                and after[n].status in (Status.WAITING, Status.LEFT_OUT)]
        displaced = tuple((e, after[e.number]) for e in await self.store.entries()
                          if e.number in lost)
        return Paid(number, after[number], corrected=previous is not None, displaced=displaced)

    async def pay_in_chat(self, user_id: int, number: int, amount: int, currency: str,
                          charge: str, provider_charge: str, at: datetime,
                          update_id: int | None) -> PaidInChat | ChargeKnown | UnknownEntry:
        """A payment Telegram took in the chat, at ``at`` (its message's date), recorded once
        per ``charge``. An entry paid already records it as paid twice (``EXTRA``: owed back
        in full); otherwise it is the entry's payment, dated ``at``, which may give it its
        place (and take one from an entry that registered earlier, where the date of payment
        decides)."""
        data = {"amount": amount, "currency": currency, CHARGE: charge,
                PROVIDER_CHARGE: provider_charge, "via": "telegram"}
        async with self.store.transaction() as tx:
            entry = await tx.entry(number)
            if entry is None:
                return UnknownEntry(number)
            paid = await tx.events(entry=number, kinds=[EventKind.PAYMENT])
            if any(e.data.get(CHARGE) == charge for e in paid):
                return ChargeKnown(number)
            extra = any(e.ref not in OWED_BACK for e in paid)
            before = await self.places(at)
            gone = not extra and before[number].status in (
                Status.WITHDRAWN, Status.LAPSED, Status.LEFT_OUT, Status.DECLINED,
                Status.UNMATCHED)
            await tx.add_event(at=at, kind=EventKind.PAYMENT, role="participant", actor=user_id,
                               entry=number, value=to_ts(at),
                               ref=EXTRA if extra else GONE if gone else None,
                               data=data, update_id=update_id)
        after = await self.places(at)
        lost = [n for n, p in before.items() if n != number and p.status is Status.CONFIRMED
                and after[n].status in (Status.WAITING, Status.LEFT_OUT)]
        displaced = tuple((e, after[e.number]) for e in await self.store.entries()
                          if e.number in lost)
        return PaidInChat(number, after[number], amount, extra, displaced, gone)

    # -- announcing changes ------------------------------------------------------------------

    @staticmethod
    def status_key(number: int, place: Place) -> str:
        """What a person was told of an entry's place: its status, and on the waiting list its
        position ("12:waiting:3"), so that a move on the list is told once too."""
        key = f"{number}:{place.status.value}"
        if place.status is Status.WAITING and place.waiting_position is not None:
            key += f":{place.waiting_position}"
        elif place.offered:  # offered, to accept: accepting it is told by its own answer
            key += f":{OFFERED}"
        return key

    @staticmethod
    def told_place(key: str | None) -> tuple[str | None, int | None]:
        """(status, waiting position) of a ``status_key`` (None: never told; a key recorded
        before positions were, "12:waiting", has no position)."""
        if not key:
            return None, None
        parts = key.split(":")
        position = int(parts[2]) if len(parts) > 2 and parts[2].isdigit() else None
        return (parts[1] if len(parts) > 1 else None), position

    async def announced(self) -> dict[int, str]:
        last: dict[int, str] = {}
        for e in await self.store.events(kinds=[EventKind.STATUS_NOTICE]):
            if e.entry is not None and e.ref is not None:
                last[e.entry] = e.ref
        return last

    async def record_status(self, number: int, place: Place, at: datetime) -> None:
        async with self.store.transaction() as tx:
            await tx.add_event(at=at, kind=EventKind.STATUS_NOTICE, role="system", entry=number,
                               ref=self.status_key(number, place))

    async def record_offer(self, number: int, at: datetime, until: datetime) -> None:
        """Entry ``number``'s people told at ``at`` of the place offered to it: its deadline
        runs from now (``[waiting_list]``)."""
        async with self.store.transaction() as tx:
            await tx.add_event(at=at, kind=OFFER, role="system", entry=number,
                               value=to_ts(until))

    async def changes(self, now: datetime) -> list[tuple[Entry, Place]]:
        """Entries whose place changed since the person was last told (promotions, left out,
        a move on the waiting list). An entry told of its place at a later moment than ``now``
        is left alone: a timer of a past moment run late (the bot was off) never tells a place
        older than one told since."""
        told = await self.announced()
        newer = {e.entry for e in await self.store.events(kinds=[EventKind.STATUS_NOTICE])
                 if e.entry is not None and e.at > now}
        places = await self.places(now)
        out = []
        for en in await self.store.entries():
            if en.source != "chat" or en.number in newer:
                continue
            place = places[en.number]
            key = self.status_key(en.number, place)
            if told.get(en.number) != key and place.status in (
                Status.CONFIRMED, Status.LEFT_OUT, Status.WAITING, Status.LAPSED,
                Status.DECLINED, Status.UNMATCHED,
            ):
                out.append((en, place))
        return out

    async def recipients(self, number: int) -> list[int]:
        events = await self.store.events(entry=number, kinds=[EventKind.LINK, EventKind.REGISTERED])
        return sorted({e.actor for e in events if e.actor is not None})

    def moments(self) -> list[tuple[str, datetime]]:
        """When places change by themselves: reserved quotas released, registrations closing."""
        out = []
        for cat in self.contest.categories:
            for q in cat.reserved:
                out.append((f"release:{cat.id}", q.until))
        rules = self.contest.registration
        if rules.closes is not None:
            soon = closing_warning_at(rules.opens, rules.closes)
            if soon is not None:
                out.append(("closing-soon", soon))
            out.append(("closing", rules.closes))
        return out

    async def lapse_moments(self) -> list[tuple[int, datetime]]:
        """When entries lapse for want of payment (``pay_within``): (entry, moment), by the
        history as it stands (a payment dated before the deadline takes its entry out)."""
        if self.contest.registration.pay_within is None:
            return []
        return sorted(((a.number, m) for a in await self.applications()
                       if (m := lapses_at(self.contest, a)) is not None), key=lambda x: x[1])

    async def lapse_of(self, number: int) -> datetime | None:
        """When this entry lapses (None: it does not)."""
        return next((m for n, m in await self.lapse_moments() if n == number), None)

    async def category_summary(self, category: Category, now: datetime) -> CategorySummary:
        statuses = [s for s in await self.statuses(now) if s.entry.category == category.id]
        taken = [s for s in statuses if s.place.status is Status.CONFIRMED]
        waiting = sorted((s for s in statuses if s.place.status in (Status.WAITING,
                                                                     Status.LEFT_OUT)),
                         key=lambda s: s.place.waiting_position or 0)
        pending = [s for s in statuses if s.place.status is Status.PENDING_PAYMENT]
        lapsed = [s for s in statuses if s.place.status is Status.LAPSED]
        seeking = [s for s in statuses if s.place.status in (Status.SEEKING, Status.UNMATCHED)]
        refunds = [s for s in statuses if s.owed_back > 0]
        free = None if category.capacity is None else max(0, category.capacity - len(taken))
        return CategorySummary(taken=taken, waiting=waiting, pending=pending, free=free,
                               reserved_left=_reserved_left(category, taken, now),
                               lapsed=lapsed, refunds=refunds,
                               seeking=seeking)
