"""The contest as data: every setting of the rules (docs/rules.md).

A contest file (TOML, read by ``bot/services/contest_file.py``) becomes these frozen dataclasses.
Nothing here knows about files, Telegram or SQL; times are timezone-aware datetimes and
durations are whole seconds. Money is in cents.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any


@dataclass(frozen=True)
class Slot:
    """What one member of an entry must satisfy. Empty slot = anyone.

    Birth-year bounds are inclusive; ages are whole years on the contest day, inclusive
    ("under 12" is ``max_age = 11``).
    """

    born_from: int | None = None
    born_to: int | None = None
    min_age: int | None = None
    max_age: int | None = None
    # only with another member of the entry aged at least this on the contest day (an adult)
    with_adult: int | None = None
    # or any of these instead ("14 or over, or any age with an adult": ``min_age = 14`` with
    # the alternative ``with_adult = 18``)
    alternatives: tuple[Slot, ...] = ()

    @property
    def uses_age(self) -> bool:
        return (self.min_age is not None or self.max_age is not None
                or self.with_adult is not None or any(a.uses_age for a in self.alternatives))

    @property
    def is_open(self) -> bool:
        return (
            self.born_from is None
            and self.born_to is None
            and self.min_age is None
            and self.max_age is None
            and self.with_adult is None
            and not self.alternatives
        )


@dataclass(frozen=True)
class ReservedQuota:
    """``places`` of a category are kept for entries of kind ``for_kind`` until ``until``."""

    places: int
    for_kind: str  # "local" is the only kind the rules know
    until: datetime


@dataclass(frozen=True)
class ExtraPrize:
    id: str
    name: str
    prize: str
    among: str  # "local": only local entries compete for it
    cumulative: bool = True  # may an entry that won a position prize also take this one?


@dataclass(frozen=True)
class Invite:
    """Advancement as an invitation: the qualifiers are told and say yes or no; a place
    declined, or not answered in time, goes to the next in line, who is told in turn.

    - ``by``: the qualifiers told when the round is confirmed answer by this moment;
    - ``within`` (seconds): the next in line (and, without ``by``, every qualifier) answers
      within this long of being told; without it the next in line also answers by ``by``.

    - ``remind`` (seconds): an invitation still unanswered this long before its deadline is
      told again (None: a day, or a quarter of the time to answer when that is shorter, and
      none when there are less than 4 hours to answer; 0: never).

    No answer is taken once the heat the entry would play has begun."""

    by: datetime | None = None
    within: int | None = None
    remind: int | None = None


@dataclass(frozen=True)
class Advancement:
    """Who goes from a round to the next (all the set rules together, in this order):

    - ``per_heat``: the top N of each heat;
    - ``best``: then the best of the rest across heats, until this many qualifiers in all;
    - ``top_percent``: the best X % of the round's ranked entries (rounded down);
    - ``better_than``: every finisher whose ranking time is below this (seconds);
    - ``max_per`` with ``by`` (a question id): at most K qualifiers with the same answer
      (country, club); the next best is taken instead.

    Entries tied on the last qualifying place all go through. An entry without a result
    never advances."""

    per_heat: int | None = None
    best: int | None = None
    top_percent: int | None = None
    better_than: int | None = None
    max_per: int | None = None
    by: str | None = None
    invite: Invite | None = None  # qualifiers are invited and confirm (None: they go on)


@dataclass(frozen=True)
class HeatSchedule:
    """A heat's own day, start and venue (a qualifier held as an event of its own), and when
    registration for it closes (None: when it begins)."""

    date: date
    start: datetime | None = None
    venue: str = ""
    closes: datetime | None = None
    # a later round's heat: the heats (1-based) of the round before whose qualifiers play it
    # ("the top 2 of each library of the county"); empty: the round's seating rule decides
    takes: tuple[int, ...] = ()
    name: dict[str, str] = field(default_factory=dict)  # language code -> "Dane County"


@dataclass(frozen=True)
class Round:
    """One round of a category (heats, a semi-final, the final): its own day, start, puzzle
    and time limit. Its entrants are split into ``heats`` played on their own clocks; the
    first round's are the category's confirmed entries, a later round's the qualifiers of
    the round before (``advance`` of that round)."""

    id: str
    name: dict[str, str]  # language code -> name
    date: date
    start: datetime | None  # the scheduled start (clocks still start with /inicio)
    pieces: int
    time_limit: int  # seconds of contest time
    heats: int = 1
    advance: Advancement | None = None  # None only for the last round
    puzzles: tuple[int, ...] = ()  # pieces of each puzzle played in sequence (split times)
    # how entrants are split into heats and seated: "blocks" (by entry number), "draw" (a
    # random draw anyone can repeat) or "seeded" (by the round before's results, the
    # fastest at the front); "" is "blocks" for a first round, "seeded" for a later one
    seating: str = ""
    per_table: int = 1  # entries sharing a table (two pairs at one table: 2)
    puzzle_order: str = "fixed"  # "any": the puzzles in the order the entry chooses
    play: int = 0  # how many of the puzzles each entry plays (0: all of them)
    # a choice question (asked once per entry) whose answer is the entry's heat: one heat
    # per choice, in the question's order (qualifiers held as events of their own)
    heats_by: str | None = None
    heat_choices: tuple[str, ...] = ()  # with heats_by: the choice ids, one per heat
    schedule: tuple[HeatSchedule, ...] = ()  # each heat's own day, start and venue

    def when(self, heat: int) -> HeatSchedule:
        """Heat ``heat`` (1-based)'s day, start and venue."""
        if self.schedule:
            return self.schedule[heat - 1]
        return HeatSchedule(self.date, self.start)

    def seating_rule(self, first: bool) -> str:
        return self.seating or ("blocks" if first else "seeded")


@dataclass(frozen=True)
class SeparateRanking:
    """A ranking of its own within a category (under 18s, residents): the entries that
    qualify for it, in the category's order, placed among themselves, with its own prizes.

    An entry qualifies when every member is aged ``min_age``..``max_age`` on the contest day
    (a member known by the year of birth only: whichever age the year allows), and, when
    ``question`` is set, its answer is one of ``answers`` (see ``bot.domain.ranking``)."""

    id: str
    name: dict[str, str]  # language code -> name
    min_age: int | None = None
    max_age: int | None = None
    question: str | None = None
    answers: tuple[str, ...] = ()
    prizes: tuple[str, ...] = ()
    # "day": the age on the contest day; "year": the age reached in the contest's year (the
    # year of birth is enough: a member known by the year only is never left out)
    age_by: str = "day"


@dataclass(frozen=True)
class Category:
    id: str
    name: str
    members: int
    pieces: int
    time_limit: int  # seconds of contest time
    fee: int  # cents, per entry
    slots: tuple[Slot, ...]
    capacity: int | None = None
    escape: bool = False
    prizes: tuple[str, ...] = ()
    reserved: tuple[ReservedQuota, ...] = ()
    extra_prizes: tuple[ExtraPrize, ...] = ()
    min_members: int | None = None  # teams of min_members to members (None: exactly members)
    rounds: tuple[Round, ...] = ()  # empty: one round, on the contest day (pieces, time_limit)
    # at most this many people in its entries holding a place (a hall's seats), besides
    # ``capacity`` in entries
    people_capacity: int | None = None
    at_table: int | None = None  # members playing at a time (None: all of them)
    # played once: its own scheduled start (else the contest's) and how its tables are given
    # ("draw": drawn; else in number order)
    start: datetime | None = None
    seating: str = ""
    puzzles: tuple[int, ...] = ()  # pieces of each puzzle played in sequence (split times)
    separate: tuple[SeparateRanking, ...] = ()  # rankings of their own within the category
    puzzle_order: str = "fixed"  # "any": the puzzles in the order the entry chooses
    play: int = 0  # how many of the puzzles each entry plays (0: all of them)
    # puzzles an entry may give up (a marathon's joker), each counting nothing; an
    # entry that gave one up is ranked by its pieces (its other puzzles whole) even when it
    # finishes the rest; ``joker_bonus`` pieces are added for each joker not used, when
    # pieces rank the entry
    jokers: int = 0
    joker_bonus: int = 0
    # how entries that did not finish are ordered (``bot.domain.ranking.UNFINISHED_KEYS``):
    # by pieces placed (equal pieces share a place), or by more keys in turn
    unfinished_order: tuple[str, ...] = ("pieces",)
    # played at home: each entry claims its own finish (/listo) and backs it with a photo,
    # which a reviewer confirms (``bot.features.selftimed.rules``); False: volunteers record
    # finishes
    self_timed: bool = False
    # self-timed, each entry starting each puzzle at its own moment (its own start): its time is the
    # sum of its puzzles' own times, not the category clock's (a league over weeks)
    own_start: bool = False
    # a team's members may be changed before it plays, keeping at least this many of those it
    # registered with (0: any change; None: members are not changed)
    keep_originals: int | None = None

    @property
    def puzzles_played(self) -> int:
        """How many puzzles an entry plays in sequence (1: one puzzle, no split times)."""
        return self.play or len(self.puzzles) or 1

    @property
    def fewest(self) -> int:
        """The fewest members an entry may have (``members`` is the most)."""
        return self.min_members if self.min_members is not None else self.members

    @property
    def checks_age(self) -> bool:
        return any(s.uses_age for s in self.slots)


FALLBACK_LANGUAGE = "en"


def localized(texts: Mapping[str, str], lang: str, contest_language: str = "") -> str | None:
    """A text of the contest file in the reader's language; else in English, which more
    readers share than any other; else in the contest's own; else the first one written
    (None: none). A German phone in a Spanish contest with English names reads English."""
    for code in (lang, FALLBACK_LANGUAGE, contest_language):
        if code and texts.get(code):
            return texts[code]
    return next((t for t in texts.values() if t), None)


@dataclass(frozen=True)
class Choice:
    """One answer a choice question offers: ``id`` is what is stored and exported ("ES"),
    ``label`` what people see on its button (language code -> text; empty: the id)."""

    id: str
    label: dict[str, str] = field(default_factory=dict)
    places: int | None = None  # at most this many entries with this answer hold a place

    def shown(self, lang: str) -> str:
        return localized(self.label, lang) or self.id


YES_NO, CHOICE, TEXT = "yes_no", "choice", "text"
PER_MEMBER, PER_ENTRY = "member", "entry"


@dataclass(frozen=True)
class Question:
    """A question asked at registration: of every member (``per = "member"``) or once for the
    entry (``per = "entry"``). ``kind``: yes/no (a member club, a resident...), one of
    ``choices`` (a country), or a line of free ``text`` (a club's name, at most
    ``max_length`` characters). ``show``: its answer is shown after the names in rankings;
    ``quota``: at most this many entries with the same answer hold a place in a category;
    ``public``: its answers may be published (``export document --public`` carries them;
    without it, a public document carries no answer to it)."""

    id: str
    text: dict[str, str]  # language code -> question
    kind: str = YES_NO
    per: str = PER_MEMBER
    choices: tuple[Choice, ...] = ()
    show: bool = False
    quota: int | None = None
    max_length: int = 40
    label: dict[str, str] = field(default_factory=dict)  # short name for summaries
    categories: tuple[str, ...] = ()  # asked only of entries of these (empty: of all)
    public: bool = False
    # its answers are printed on the table lists (a need: an accessible table, left-handed)
    on_tables: bool = False

    def asks(self, category_id: str) -> bool:
        return not self.categories or category_id in self.categories

    @property
    def yes_no(self) -> bool:
        return self.kind == YES_NO

    @property
    def per_entry(self) -> bool:
        return self.per == PER_ENTRY

    def choice(self, choice_id: str) -> Choice | None:
        return next((c for c in self.choices if c.id == choice_id), None)

    def label_in(self, lang: str) -> str:
        """The short name of the question (its label, else its id): never the question."""
        return localized(self.label, lang) or self.id

    def asked(self, lang: str) -> str:
        return localized(self.text, lang) or self.id

    def short(self, lang: str) -> str:
        """What a summary shows after a member who answered yes: its label, else the question
        without its question marks ("¿Es socio/a de Aepuzz?" -> "Es socio/a de Aepuzz")."""
        if self.label:
            return self.label_in(lang)
        return self.asked(lang).strip().strip("¿?").strip() or self.id


@dataclass(frozen=True)
class PenaltyKind:
    """A penalty volunteers record (bot/features/penalties): each one adds ``seconds`` to the
    entry's ranking time ("lost piece: +10 s each")."""

    id: str
    name: dict[str, str]  # language code -> name
    seconds: int


@dataclass(frozen=True)
class Discount:
    amount: int  # cents, per member who answered yes to any of ``any_of``
    any_of: tuple[str, ...]


@dataclass(frozen=True)
class Meal:
    adult: int  # cents per adult
    child: int  # cents per child


@dataclass(frozen=True)
class Break:
    start: datetime
    end: datetime


@dataclass(frozen=True)
class RefundTier:
    """A withdrawal before ``until`` gets back ``percent`` % of what the entry paid."""

    until: datetime
    percent: int


@dataclass(frozen=True)
class RegistrationRules:
    opens: datetime | None = None
    closes: datetime | None = None
    priority: str = "registration"  # "registration" (first come) or "payment" (paid first)
    payment_required: bool = False  # a place is only held once paid
    shared_capacity: int | None = None  # places across all categories
    shared_people_capacity: int | None = None  # people across all categories' entries
    withdrawal_refund_until: datetime | None = None  # None: a withdrawal is always refunded
    left_out_refund: str = ""  # how those left without a place are refunded (shown to people)
    one_entry_per_person: bool = False  # a person (name and birth) in one entry per category
    # ... or, "contest", in one entry of the whole contest (a series: one team per player)
    one_entry_scope: str = "category"
    # an entry not paid (payment dated) within this long after registering lapses then
    pay_within: timedelta | None = None
    # entries where a member answered yes to one of ``members_if`` may register from
    # ``members_open`` (earlier than ``opens``)
    members_open: datetime | None = None
    members_if: tuple[str, ...] = ()
    # refunds that decrease as the contest approaches (increasing ``until``); after the last
    # tier a withdrawal giving up a place gets nothing back
    refunds: tuple[RefundTier, ...] = ()
    # how to pay, told with the fee to an entry not paid yet (language code -> text: "Bank
    # transfer to ES12 3456 ..., with the entry's number"); empty: the file does not say
    how_to_pay: dict[str, str] = field(default_factory=dict)


# how the escape is played: volunteers hand the clues over and confirm the stages, with the
# game itself elsewhere ("volunteers"), or the bot hosts the enigmas in the chat ("chat")
ESCAPE_PLAYS = ("volunteers", "chat")


# an enigma's picture sent as a photo (any other file: as a document)
PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp")


@dataclass(frozen=True)
class Enigma:
    """One stage's enigma, played in the chat (``[[escape.enigmas]]``): its text (language
    code -> text), a picture or file shipped beside the contest file (its path, resolved), the
    answers accepted (compared as people type them: bot/features/escape/answers.py), and the
    clue and the solution the bot sends when they are bought."""

    stage: int
    text: dict[str, str]
    answers: tuple[str, ...]
    picture: str | None = None
    numbers: bool = False  # a whole-number answer is also right written in words
    choices: tuple[str, ...] = ()  # offered as buttons
    hint: dict[str, str] = field(default_factory=dict)
    solution: dict[str, str] = field(default_factory=dict)

    @property
    def photo(self) -> bool:
        """Its picture goes as a photo (else as a document)."""
        return self.picture is not None and self.picture.lower().endswith(PHOTO_SUFFIXES)


@dataclass(frozen=True)
class EscapeRules:
    stages: int
    initial_tickets: int
    hint_cost: int
    solution_cost: int
    cooldown: int  # seconds between two requests of the same entry
    ticket_value: int  # seconds subtracted per unused ticket
    time_limit: int  # seconds of contest time the escape lasts
    cap_solved: int  # tickets that may be compensated when solved
    caps_by_stage: tuple[int, ...]  # index 0 = stage 1, when unsolved at the time limit
    hint_ticket_penalty: int  # seconds added per ticket bought for a hint
    solution_ticket_penalty: int  # seconds added per ticket bought for a solution
    confirmation_grace: int = 15 * 60  # seconds after the escape end a stage may still be confirmed
    hints: dict[int, str] = field(default_factory=dict)  # stage -> hint text
    solutions: dict[int, str] = field(default_factory=dict)  # stage -> solution text
    play: str = "volunteers"  # one of ESCAPE_PLAYS
    enigmas: tuple[Enigma, ...] = ()  # play = "chat": one per stage, in stage order
    pause_after: int = 3  # play = "chat": wrong answers in a row before a pause
    pause: int = 60  # seconds of that pause
    tell_volunteers: bool = False  # play = "chat": the volunteers hear of clues given

    @property
    def in_chat(self) -> bool:
        """The bot hosts the enigmas: it knows every pair's stage without anyone walking."""
        return self.play == "chat"

    def enigma(self, stage: int) -> Enigma | None:
        return self.enigmas[stage - 1] if self.in_chat and 1 <= stage <= len(self.enigmas) \
            else None


@dataclass(frozen=True)
class Contest:
    name: str
    date: date
    timezone: str
    categories: tuple[Category, ...]
    registration: RegistrationRules = RegistrationRules()
    language: str = "es"
    currency: str = "EUR"
    venue: str = ""
    # what to bring, told when a place is confirmed (language code -> text); empty: nothing said
    bring: dict[str, str] = field(default_factory=dict)
    questions: tuple[Question, ...] = ()
    local_if_any: tuple[str, ...] = ()  # an entry is local when a member answered yes to one
    discount: Discount | None = None
    meal: Meal | None = None
    breaks: tuple[Break, ...] = ()
    escape: EscapeRules | None = None
    limit_inclusive: bool = True  # finishing exactly at the limit counts as finished
    penalties: tuple[PenaltyKind, ...] = ()
    # a finish within the time limit on the clock stays a finish when its penalties take its
    # ranking time past the limit (False: it then ranks as not finished, with every piece)
    penalised_finish_counts: bool = True
    results_at: datetime | None = None
    start: datetime | None = None  # the scheduled start (clocks still start with /inicio)
    # equal results: "shared" (one place for all) or "earlier_round" (the better result in the
    # round before first; still equal: shared)
    tie_break: str = "shared"
    # the prize of a shared place: "each" tied entry gets it, or "pooled": they share the
    # prizes of the places they take up together
    shared_prizes: str = "each"
    # a finish typed that moves a recorded finish by more than this many seconds asks the
    # volunteer to confirm with a button first (0: never asks)
    confirm_correction: int = 5 * 60
    # a finish faster than this many seconds per piece of the puzzle is asked with a button
    # before it is recorded (0: never asks): 2 s is faster than the speed-puzzling records
    plausible_seconds_per_piece: float = 2.0
    # who besides the organisers may read a category's ranking: its entries'
    # people "final" (once its results are final), "always", or "never"
    participants_see_ranking: str = "final"
    # the tables of the categories played in one round (``bot.features.tables.rules``): numbered
    # through the hall, category after category ("categories"), or each entry at the table
    # of its own number ("numbers")
    seating: str = "categories"
    # played at home: how long after time's up a photo of the puzzle as it stood then is still
    # taken (seconds; ``time_up_photo_minutes``), for the reviewers to count its pieces
    time_up_photo: int = 15 * 60
    # what each feature package read from its own table of the contest file (feature name ->
    # its settings; bot/support/registry.py): a feature reads its own with ``settings``
    features: tuple[tuple[str, Any], ...] = ()

    def settings(self, feature: str) -> Any:
        """The settings feature ``feature`` read from its table; None when the file has none."""
        return next((v for name, v in self.features if name == feature), None)

    def rule_questions(self) -> frozenset[str]:
        """The questions whose answers a rule of the contest reads: a discount, a local
        entry, the members' early registration, a quota or a choice's places, a separate
        ranking, a round's heats, the answer a round's qualifiers are counted by (at most K
        per country). Changing them moves money or places; removing them changes results."""
        found = {q.id for q in self.questions
                 if q.quota is not None or any(c.places is not None for c in q.choices)}
        if self.discount is not None:
            found.update(self.discount.any_of)
        found.update(self.local_if_any)
        found.update(self.registration.members_if)
        for cat in self.categories:
            found.update(s.question for s in cat.separate if s.question is not None)
            for r in cat.rounds:
                if r.heats_by is not None:
                    found.add(r.heats_by)
                if r.advance is not None and r.advance.by is not None:
                    found.add(r.advance.by)
        return frozenset(found)

    def question(self, question_id: str) -> Question | None:
        return next((q for q in self.questions if q.id == question_id), None)

    def penalty(self, penalty_id: str) -> PenaltyKind | None:
        return next((p for p in self.penalties if p.id == penalty_id), None)

    def has_rounds(self) -> bool:
        return any(c.rounds for c in self.categories)

    def start_of(self, category: Category) -> datetime | None:
        """When a category played once is due to start: its own start, else the contest's."""
        return category.start or self.start

    def category(self, category_id: str) -> Category | None:
        for c in self.categories:
            if c.id == category_id:
                return c
        return None
