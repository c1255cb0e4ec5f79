"""Registration (docs/rules.md): names, eligibility, fees and meals, the registration window and
the heats still open; places and the waiting list are `bot/domain/places.py`."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from unicodedata import category as unicode_category
from unicodedata import combining, normalize
from zoneinfo import ZoneInfo

from bot.domain.clock import CategoryClock, wall_clock_limit
from bot.domain.contest import Category, Contest, Slot
from bot.domain.numbers import ascii_digits, parse_year


@dataclass(frozen=True)
class Member:
    name: str
    born: date | None = None  # full birth date, when the contest checks ages
    born_year: int | None = None  # enough when the contest checks birth years
    answers: frozenset[str] = frozenset()  # ids of the yes/no questions answered "yes"
    # answers to choice and text questions: (question id, answer), in the contest's order
    values: tuple[tuple[str, str], ...] = ()

    @property
    def year(self) -> int | None:
        return self.born.year if self.born is not None else self.born_year

    def value(self, question_id: str) -> str | None:
        """This member's answer to a choice or text question (None: not answered)."""
        return next((v for q, v in self.values if q == question_id), None)


# The answers of an entry's members that differ, joined into the entry's answer ("ES/FR").
ANSWER_JOIN = "/"


def entry_value(members: Iterable[Member], question_id: str) -> str | None:
    """An entry's answer to a per-member choice or text question: the answer when every member
    who answered gave the same one, else the distinct answers, sorted, joined with "/" (an
    "ES" and "FR" pair is "ES/FR", whichever member is first); None when nobody answered."""
    distinct = sorted({v for m in members if (v := m.value(question_id)) is not None})
    return ANSWER_JOIN.join(distinct) if distinct else None


# Members' names are kept in one cell of the organisers' files, separated by this.
NAME_SEPARATOR = ";"


def clean_name(text: str) -> str:
    """A name as it is stored: control characters (a tab, a line break, or the invisible ones a
    copy-paste brings, which spreadsheets refuse) become spaces, runs of spaces become one, none
    at either end. Everything else is kept as written: accents, emoji, right-to-left text."""
    spaced = "".join(" " if unicode_category(c) == "Cc" else c for c in text)
    return " ".join(spaced.split())


# Formatting characters a short note keeps: the joiners an emoji or a Persian word needs and
# the direction marks of right-to-left text (each affects only the characters beside it).
_NOTE_FORMATS = frozenset("\u200c\u200d\u200e\u200f\u061c")


# The longest name a member may have: real names run long ('María de los Ángeles
# Fernández-Villaverde y ...'), but not to a page.
MAX_NAME = 100


def name_problem(name: str) -> str | None:
    """Why a member's name (as ``clean_name`` stores it) can't be taken, wherever a member is
    entered (registration in the chat, a team's member changed): "length" (nothing visible, or
    longer than ``MAX_NAME``) or "separator" (it holds ``NAME_SEPARATOR``, which the
    organisers' files put between the members' names); None: it can."""
    if not name_key(name) or len(name) > MAX_NAME:
        return "length"
    if NAME_SEPARATOR in name:
        return "separator"
    return None


# Births are taken from this year on, up to the contest's own year.
FIRST_BIRTH_YEAR = 1900


def parse_birth(text: str, full_date: bool) -> tuple[date | None, int | None] | None:
    """A birth as typed: (date, year), or (None, year) where a year is enough (``full_date``
    false); None when it can't be read."""
    t = ascii_digits(text.strip())
    year = parse_year(t)
    if not full_date and year is not None:
        return None, year
    for fmt in ("%Y-%m-%d", "%d/%m/%Y", "%d-%m-%Y", "%d.%m.%Y"):
        try:
            d = datetime.strptime(t, fmt).date()
        except ValueError:
            continue
        return d, d.year
    return None


def birth_in_range(year: int | None, contest_day: date) -> bool:
    """Whether a birth in ``year`` may be entered for a contest on ``contest_day``."""
    return year is not None and FIRST_BIRTH_YEAR <= year <= contest_day.year


def clean_note(text: str) -> str:
    """A short note typed on the day (a disqualification's reason) as it is stored: cleaned as a
    name is (``clean_name``), and without the other invisible formatting characters: those that
    turn the direction of all that follows (U+202E shows the rest of a line backwards, in the
    chat and in a spreadsheet), zero-width spaces, byte order marks, tags."""
    kept = "".join(c for c in clean_name(text)
                   if unicode_category(c) != "Cf" or c in _NOTE_FORMATS)
    return " ".join(kept.split())


def name_key(name: str) -> str:
    """A name compared without case, accents, extra spaces or invisible characters (a zero-width
    space or a direction mark a copy-paste brings): "José  Pérez" = "jose perez"."""
    bare = "".join(c for c in normalize("NFKD", clean_name(name))
                   if not combining(c) and unicode_category(c) != "Cf")
    return " ".join(bare.split()).casefold()


def typed_name_key(text: str) -> str:
    """A category's or heat's name as someone types it, compared as ``name_key`` does, with
    hyphens and underscores as spaces: "Adultos parejas" = "adultos-parejas"."""
    return name_key(text.replace("-", " ").replace("_", " "))


def same_person(a: Member, b: Member) -> bool:
    """Two members are one person when their names match (``name_key``) and so do their births:
    the same date when both are known, else the same year. Without a birth on either side it
    cannot be told, and they are taken as two people."""
    if a.year is None or a.year != b.year:
        return False
    if a.born is not None and b.born is not None and a.born != b.born:
        return False
    return name_key(a.name) == name_key(b.name)


def already_entered(members: Sequence[Member],
                    others: Iterable[tuple[int, Sequence[Member]]]) -> tuple[int, int] | None:
    """For "one entry per person per category": (the index of the first member who is already
    in one of ``others``, that entry's number), or None. ``others``: the category's entries
    still in it (number, members). A person twice in the same new entry counts too (number
    None is not possible: the entry is reported as 0)."""
    for i, m in enumerate(members):
        if any(same_person(m, earlier) for earlier in members[:i]):
            return i, 0
        for number, theirs in others:
            if any(same_person(m, t) for t in theirs):
                return i, number
    return None


def age_on(born: date, day: date) -> int:
    """Whole years of age on ``day``."""
    return day.year - born.year - ((day.month, day.day) < (born.month, born.day))


def slot_accepts(slot: Slot, member: Member, contest_day: date,
                 others: Sequence[Member] | None = None) -> bool:
    """Whether ``member`` may take ``slot``: its own conditions, or one of its alternatives.
    ``others``: the entry's other members, for ``with_adult``; None while the entry is still
    being entered (an adult may come later: accepted for now, checked on the complete entry)."""
    own = not slot.alternatives or _conditions(slot)  # "{ or = [A, B] }" is A or B
    return (own and _meets(slot, member, contest_day, others)) or any(
        _meets(alt, member, contest_day, others) for alt in slot.alternatives)


def _conditions(slot: Slot) -> bool:
    """The slot says something of its own (besides its alternatives)."""
    return any(v is not None for v in (slot.born_from, slot.born_to, slot.min_age,
                                       slot.max_age, slot.with_adult))


def _meets(slot: Slot, member: Member, contest_day: date,
           others: Sequence[Member] | None) -> bool:
    if slot.with_adult is not None and others is not None and not any(
            o.born is not None and age_on(o.born, contest_day) >= slot.with_adult
            for o in others):
        return False
    year = member.year
    if slot.born_from is not None and (year is None or year < slot.born_from):
        return False
    if slot.born_to is not None and (year is None or year > slot.born_to):
        return False
    if slot.uses_age:
        if member.born is None:
            return False
        age = age_on(member.born, contest_day)
        if slot.min_age is not None and age < slot.min_age:
            return False
        if slot.max_age is not None and age > slot.max_age:
            return False
    return True


def _seatable(slots: Sequence[Slot], members: Sequence[Member], day: date,
              complete: bool = False, without: int | None = None) -> bool:
    """Whether ``members`` can each take a distinct slot (``without``: that slot left out).
    ``complete``: these are all the entry's members (``with_adult`` is decided on them).

    Whether a member fits a slot does not depend on where the others sit, so this is a
    matching (augmenting paths): a few steps even for a team of eight, where trying every
    seating took a second and more."""
    fits = [[j for j, s in enumerate(slots) if j != without and slot_accepts(
        s, m, day, [o for k, o in enumerate(members) if k != i] if complete else None)]
        for i, m in enumerate(members)]
    holder: dict[int, int] = {}  # slot -> the member seated there

    def seat(i: int, tried: set[int]) -> bool:
        for j in fits[i]:
            if j not in tried:
                tried.add(j)
                if j not in holder or seat(holder[j], tried):
                    holder[j] = i
                    return True
        return False

    return all(seat(i, set()) for i in range(len(members)))


@dataclass(frozen=True)
class Ineligible:
    """Member ``member`` (0-based) cannot take part as entered.

    ``reason``: ``too_many`` (the entry is already full), ``birth_date_needed`` (the contest
    checks age on the day and only a year was given), ``requirements`` (born or aged outside
    what the places left need; ``needs`` lists them), ``adult_needed`` (the member may take part
    only with another member aged ``adult_age`` or more, and there is none),
    ``missing_members``.
    """

    member: int
    reason: str
    born_year: int | None = None
    age: int | None = None
    needs: tuple[Slot, ...] = ()
    adult_age: int | None = None


def check_members(category: Category, members: Sequence[Member], day: date,
                  complete: bool = False) -> Ineligible | None:
    """Check members one by one, as they are entered: the first one that can't fit is named.

    ``day`` is the contest day (ages are taken on it). ``complete``: ``members`` is the whole
    entry, so a place "with an adult" is decided (before, an adult may still come).
    """
    slots = category.slots
    for k in range(1, len(members) + 1):
        member = members[k - 1]
        if k > len(slots):
            return Ineligible(k - 1, "too_many")
        if category.checks_age and member.born is None:
            return Ineligible(k - 1, "birth_date_needed", born_year=member.year)
        if _seatable(slots, members[:k], day):
            continue
        age = age_on(member.born, day) if member.born is not None else None
        return Ineligible(k - 1, "requirements", member.year, age,
                          open_slots(category, members[: k - 1], day))
    if complete and members and not _seatable(slots, members, day, complete=True):
        # every member fits, but a place "with an adult" has no adult beside it
        alone = [i for i, m in enumerate(members)
                 if not any(slot_accepts(s, m, day, ()) for s in slots)]
        who = alone[0] if alone else len(members) - 1
        member = members[who]
        adult = min(a for s in slots for a in _adult_ages(s))  # only "with an adult" fails
        age = age_on(member.born, day) if member.born is not None else None
        return Ineligible(who, "adult_needed", member.year, age, adult_age=adult)
    return None


def open_slots(category: Category, members: Sequence[Member], day: date) -> tuple[Slot, ...]:
    """The places the next member may take beside ``members`` (who fit), each once: what the
    next member needs. Empty when the entry is full."""
    slots = category.slots
    free: list[Slot] = []
    for j, s in enumerate(slots):
        if s not in free and _seatable(slots, members, day, without=j):
            free.append(s)
    return tuple(free)


def fitting_categories(contest: Contest, current: Category, members: Sequence[Member],
                       day: date, alone: bool = False) -> tuple[Category, ...]:
    """The other categories of the same size as ``current`` (a pair stays a pair) that
    ``members`` (as entered so far in ``current``, the last one maybe refused there) fit as they
    are: each member fitting a place and, once a member has answered, the same questions asked
    of each member (their answers stay valid). A switch to one of them keeps everything typed.
    ``alone``: instead, the categories for ``members`` on their own, as many as they are (the
    second child of a pair: an entry of their own)."""
    if not members:
        return ()
    per_member = [q for q in contest.questions if not q.per_entry]
    return tuple(
        c for c in contest.categories
        if c.id != current.id
        and ((c.fewest <= len(members) <= c.members) if alone
             else (c.members == current.members and len(members) <= c.members))
        and check_members(c, members, day, complete=len(members) == c.members) is None
        and (len(members) == 1 or all(q.asks(c.id) == q.asks(current.id) for q in per_member)))


def _adult_ages(slot: Slot) -> list[int]:
    return [s.with_adult for s in (slot, *slot.alternatives) if s.with_adult is not None]


def check_entry(category: Category, members: Sequence[Member], day: date) -> Ineligible | None:
    """A complete entry: every member eligible, as many as the category takes (``fewest`` to
    ``members``)."""
    enough = category.fewest <= len(members) <= category.members
    problem = check_members(category, members, day, complete=enough)
    if problem is not None:
        return problem
    if not enough:
        return Ineligible(len(members), "missing_members")
    return None


def seeking_problem(category: Category, members: Sequence[Member], day: date
                    ) -> Ineligible | None:
    """An entry registered by someone alone looking for a partner: at least one member and
    fewer than its category takes (``fewest``), each eligible as entered so far (whether a
    child has an adult beside it is decided when the partner joins)."""
    if not members or len(members) >= category.fewest:
        return Ineligible(len(members), "too_many" if members else "missing_members")
    return check_members(category, members, day)


def is_local(contest: Contest, members: Iterable[Member]) -> bool:
    """At least one member answered yes to one of the contest's "local" questions."""
    flags = set(contest.local_if_any)
    return any(flags & m.answers for m in members)


@dataclass(frozen=True)
class Fee:
    entry: int  # cents, the category's fee
    discount: int  # cents taken off the entry fee (never more than it)
    meal: int  # cents for the meals booked
    discounted_members: int = 0
    meal_adults: int = 0
    meal_children: int = 0

    @property
    def entry_due(self) -> int:
        return self.entry - self.discount

    @property
    def total(self) -> int:
        return self.entry_due + self.meal


def meal_total(contest: Contest, adults: int, children: int) -> int:
    if contest.meal is None or adults < 0 or children < 0:
        return 0
    return adults * contest.meal.adult + children * contest.meal.child


def fee(
    contest: Contest,
    category: Category,
    members: Sequence[Member],
    meal_adults: int = 0,
    meal_children: int = 0,
) -> Fee:
    """The amount due: entry fee minus one discount per qualifying member, plus meals."""
    discounted = 0
    discount = 0
    if contest.discount is not None:
        flags = set(contest.discount.any_of)
        discounted = sum(1 for m in members if flags & m.answers)
        discount = min(category.fee, discounted * contest.discount.amount)
    adults = max(meal_adults, 0)
    children = max(meal_children, 0)
    return Fee(
        entry=category.fee,
        discount=discount,
        meal=meal_total(contest, adults, children),
        discounted_members=discounted,
        meal_adults=adults,
        meal_children=children,
    )


def is_member(contest: Contest, members: Iterable[Member]) -> bool:
    """At least one member answered yes to one of the questions that open registration early
    (``registration.members_if``)."""
    flags = set(contest.registration.members_if)
    return any(flags & m.answers for m in members)


def registration_window(contest: Contest, at: datetime,
                        members: Sequence[Member] | None = None) -> str | None:
    """None when registrations are open at ``at``; else ``not_open_yet``, ``members_only``
    (open from ``members_open`` to entries with a member, and ``members`` has none) or
    ``closed``. ``members`` None: the entry is not known yet (the start of the conversation),
    so registration is open to it as soon as it is open to anyone."""
    rules = contest.registration
    if rules.opens is not None and at < rules.opens:
        early = rules.members_open
        if early is None or at < early:
            return "not_open_yet"
        if members is not None and not is_member(contest, members):
            return "members_only"
    if rules.closes is not None and at >= rules.closes:
        return "closed"
    return None


@dataclass(frozen=True)
class HeatBegun:
    """An entry can no longer join heat ``heat`` (1-based) of its category's first round: the
    heat began at ``begins`` (its scheduled start), or its clock has started (``started``), or
    registration for it closed at ``begins`` before it (``deadline``: the heat's ``closes``)."""

    heat: int
    begins: datetime
    started: bool = False
    deadline: bool = False


def heat_begins(contest: Contest, category: Category, heat: int) -> datetime:
    """When heat ``heat`` (1-based) of the category's first round begins: its scheduled start,
    or, when it has none, the start (midnight) of its day."""
    when = category.rounds[0].when(heat)
    if when.start is not None:
        return when.start
    day = when.date
    return datetime(day.year, day.month, day.day, tzinfo=ZoneInfo(contest.timezone))


def begun_heats(contest: Contest, category: Category, at: datetime,
                started: Collection[int] = ()) -> list[HeatBegun]:
    """The heats of the category's first round that have begun at ``at`` (their scheduled
    start has come, or their clock has started: ``started``, heat numbers), or whose own
    registration deadline has passed, in order. Empty for a category played once."""
    if not category.rounds:
        return []
    out = []
    for h in range(1, category.rounds[0].heats + 1):
        begins = heat_begins(contest, category, h)
        closes = category.rounds[0].when(h).closes
        if h in started or begins <= at:
            out.append(HeatBegun(h, begins, started=h in started))
        elif closes is not None and closes <= at:
            out.append(HeatBegun(h, closes, deadline=True))
    return out


def heat_of_choice(category: Category, choice: str | None) -> int | None:
    """The first round's heat (1-based) an answer to its ``heats_by`` question plays in (None:
    no such heat, or the round is not split by a question)."""
    if not category.rounds or category.rounds[0].heats_by is None or choice is None:
        return None
    choices = [c.lower() for c in category.rounds[0].heat_choices[:category.rounds[0].heats]]
    return choices.index(choice.lower()) + 1 if choice.lower() in choices else None


def heat_choices_open(contest: Contest, category: Category, at: datetime,
                      started: Collection[int] = ()) -> tuple[str, ...]:
    """For a first round whose heats are chosen at registration (``heats_by``): the choices
    whose heat has not begun at ``at``, in order: what a registration may still choose."""
    if not category.rounds or category.rounds[0].heats_by is None:
        return ()
    gone = {b.heat for b in begun_heats(contest, category, at, started)}
    rnd = category.rounds[0]
    return tuple(c for h, c in enumerate(rnd.heat_choices[:rnd.heats], 1) if h not in gone)


def too_late_to_join(contest: Contest, category: Category, at: datetime,
                     started: Collection[int] = (), choice: str | None = None,
                     chosen: bool = True) -> HeatBegun | None:
    """Why an entry registering at ``at`` could play no heat of the category's first round
    (None: it can). The round's entrants are fixed when its heats begin, so an entry that
    comes later would be in no heat, no ranking and no export:

    - a round split in heats by entry number, a draw or seeding: once its first heat has
      begun, the category takes no more entries (the first heat begun is returned);
    - a round whose heats are chosen at registration (``heats_by``, qualifiers held as events
      of their own): the heat of ``choice`` must not have begun. ``chosen`` False: the choice
      is still to be made, and the category is closed only once every heat has begun.

    Categories played once are not concerned (None)."""
    gone = begun_heats(contest, category, at, started)
    if not gone:
        return None
    if category.rounds[0].heats_by is None:
        return min(gone, key=lambda b: (b.begins, b.heat))
    if not chosen:
        return gone[0] if len(gone) == category.rounds[0].heats else None
    heat = heat_of_choice(category, choice)
    if heat is None:
        return None  # not one of the heats' choices: the question's own rules refuse it
    return next((b for b in gone if b.heat == heat), None)


# -- the confirmation card: when and where an entry plays, and until when it pays -----------


@dataclass(frozen=True)
class Outing:
    """When and where an entry plays its category's first event, as the contest file says:
    its day and start (None: the file gives no hour), its venue ("" when none), and for a
    category played at home over a window (self-timed), when the window closes. ``heat``:
    the first round's heat it plays (1-based) when known, 0 when the category has rounds and
    the heat is still to be drawn (``start`` is then the first heat's), None without rounds."""

    day: date
    start: datetime | None = None
    venue: str = ""
    ends: datetime | None = None
    heat: int | None = None


def outing(contest: Contest, category: Category, choice: str | None) -> Outing:
    """The entry's first event: a round's heat chosen at registration (``choice``: its answer
    to the round's ``heats_by``), its round's first heat, or the contest day."""
    if category.rounds:
        rnd = category.rounds[0]
        heat = heat_of_choice(category, choice)
        when = rnd.when(heat or 1)
        # a round played at home: the window to play its heat, as without rounds
        ends = window_end(contest, when.start, rnd.time_limit) \
            if category.self_timed and when.start is not None else None
        return Outing(when.date, when.start, when.venue or contest.venue, ends,
                      heat=heat if heat is not None else 0)
    start = contest.start_of(category)
    ends = window_end(contest, start, category.time_limit) \
        if category.self_timed and start is not None else None
    return Outing(contest.date, start, contest.venue, ends)


def window_end(contest: Contest, start: datetime, limit: int) -> datetime:
    """When a home contest's time to play ends: ``limit`` on the clock after ``start`` as the
    clock counts it (a time of whole days ends at the hour it began, across a change to or
    from summer time: ``wall_clock_limit``), the breaks that fall within it added."""
    clock = CategoryClock(start.astimezone(UTC))
    end = start.astimezone(UTC) + timedelta(
        seconds=wall_clock_limit(limit, clock, contest.timezone))
    for pause in sorted(contest.breaks, key=lambda b: b.start):
        if start <= pause.start < end:
            end += pause.end - pause.start
    return end


def pay_by(contest: Contest, registered_at: datetime) -> date | None:
    """The last day a payment counts for an entry registered (in the chat) at
    ``registered_at`` when the contest sets ``pay_within`` (None: no deadline): the day of the
    deadline, on the hall's calendar; a deadline at midnight leaves the day before."""
    delay = contest.registration.pay_within
    if delay is None:
        return None
    deadline = (registered_at + delay).astimezone(ZoneInfo(contest.timezone))
    return (deadline - timedelta(microseconds=1)).date()


PAY_REMINDER = timedelta(days=1)  # an entry not paid yet is reminded this long before it lapses
SHORTEST_PAY_REMINDED = timedelta(hours=4)  # less time than this to pay: no reminder


def pay_reminder_at(lapses: datetime, pay_within: timedelta) -> datetime | None:
    """When an entry still unpaid that lapses at ``lapses`` is reminded: a day before, or a
    quarter of the time to pay when that is shorter; None with less than 4 hours to pay."""
    if pay_within < SHORTEST_PAY_REMINDED:
        return None
    return lapses - min(PAY_REMINDER, pay_within / 4)


CLOSING_WARNING = timedelta(days=1)  # the organisers' list before registrations close
SHORTEST_CLOSING_WARNED = timedelta(hours=4)  # registrations open less long: no list before


def closing_warning_at(opens: datetime | None, closes: datetime) -> datetime | None:
    """When the organisers get the list of what the closing would leave out or unreachable:
    a day before it, or a quarter of the time registrations are open when that is shorter;
    None when they are open less than 4 hours (the closing report says it all then)."""
    if opens is None:
        return closes - CLOSING_WARNING
    open_for = closes - opens
    if open_for < SHORTEST_CLOSING_WARNED:
        return None
    return closes - min(CLOSING_WARNING, open_for / 4)


def pay_reminder_key(number: int, lapses: datetime) -> str:
    """The notice recording that entry ``number`` was reminded to pay before ``lapses``."""
    return f"pay-remind:{number}:{int(lapses.timestamp())}"
