"""Reading a contest file (TOML) into ``bot.domain.contest.Contest``.

Every problem is reported as one ``ContestFileError`` naming the file, the key (dotted path,
``categories[2].slots[0].born_to``) and what is wrong. See ``contests/*.toml`` for the format.
"""

from __future__ import annotations

import math
import re
import tomllib
from datetime import date, datetime, time, timedelta
from pathlib import Path
from typing import Any, NamedTuple, TypeVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.domain.clock import DurationError, parse_duration
from bot.domain.contest import (
    CHOICE,
    PER_ENTRY,
    PER_MEMBER,
    TEXT,
    YES_NO,
    Advancement,
    Break,
    Category,
    Choice,
    Contest,
    Discount,
    EscapeRules,
    ExtraPrize,
    HeatSchedule,
    Meal,
    PenaltyKind,
    Question,
    RefundTier,
    RegistrationRules,
    ReservedQuota,
    Round,
    SeparateRanking,
    Slot,
)
from bot.domain.ranking import SHARED_PRIZES, TIE_BREAKS
from bot.domain.registration import heat_begins
from bot.domain.rounds import SEATINGS, heats_of
from bot.services.exports import ENTRY_COLUMNS, REFUND_COLUMN, RESULT_COLUMNS, STATUS_COLUMNS

LANGUAGES = ("es", "fr", "en")
MAX_MEMBERS = 8  # teams are 1-4 people; eligibility tries every seating, so keep it small
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
PENALTY_ID = re.compile(r"[a-z0-9_-]{1,32}")
MAX_AGE = 120  # years, in slots
MAX_PENALTY = 24 * 3600  # seconds one penalty may add
ROUND_ID = re.compile(r"[a-z0-9_]{1,24}")
MAX_HEATS = 50
MAX_PER_TABLE = 4  # entries sharing one table
MAX_DAYS = 31  # rounds within a month of the contest's first day
MAX_PAY_WITHIN_DAYS = 365
QUESTION_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")
# a choice is stored, exported ("ES; FR") and joined ("ES/FR"): none of ; / , or line breaks
CHOICE_ID = re.compile(r"[^\W_][\w .'()-]{0,31}")
MAX_CHOICES = 60  # buttons, 3 a row
MAX_TEXT_ANSWER = 200  # characters of a text answer
# the columns the CSV files have besides the questions': a question may not take their name
_OWN_COLUMNS = frozenset(ENTRY_COLUMNS + STATUS_COLUMNS + RESULT_COLUMNS
                         + ["paid_at", REFUND_COLUMN])
T = TypeVar("T")


class ContestFileError(Exception):
    def __init__(self, path: str, key: str, problem: str) -> None:
        self.path, self.key, self.problem = path, key, problem
        where = f"{path}: {key}: " if key else f"{path}: "
        super().__init__(where + problem)


class _Table:
    """One TOML table being read: every key must be used, every type checked."""

    def __init__(self, ctx: _Ctx, data: Any, where: str) -> None:
        self.ctx = ctx
        self.where = where
        if not isinstance(data, dict):
            raise ctx.error(where, f"must be a table, not {_kind(data)}")
        self.data: dict[str, Any] = data
        self.seen: set[str] = set()

    def key(self, name: str) -> str:
        return f"{self.where}.{name}" if self.where else name

    def has(self, name: str) -> bool:
        return name in self.data

    def get(self, name: str, kind: type[T] | tuple[type, ...], default: Any = ...) -> Any:
        self.seen.add(name)
        if name not in self.data:
            if default is ...:
                raise self.ctx.error(self.key(name), "is required")
            return default
        value = self.data[name]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        ok = isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds)
        if kinds == (date,) and isinstance(value, datetime):
            ok = False
        if not ok:
            names = " or ".join(_type_name(k) for k in kinds)
            raise self.ctx.error(self.key(name), f"must be {names}, not {_kind(value)}")
        return value

    def int(self, name: str, default: Any = ..., minimum: int = 0,
            maximum: int | None = None) -> Any:
        v = self.get(name, int, default)
        if isinstance(v, int) and v < minimum:
            raise self.ctx.error(self.key(name), f"must be at least {minimum}, not {v}")
        if isinstance(v, int) and maximum is not None and v > maximum:
            raise self.ctx.error(self.key(name), f"must be at most {maximum}, not {v}")
        return v

    def money(self, name: str, default: Any = ...) -> Any:
        v = self.get(name, (int, float), default)
        if v is None or v is default:
            return v
        if not math.isfinite(v):
            raise self.ctx.error(self.key(name), f"must be an amount of money, not {v}")
        if v < 0:
            raise self.ctx.error(self.key(name), f"must not be negative, not {v}")
        cents = round(v * 100)
        if abs(cents - v * 100) > 1e-6:
            raise self.ctx.error(self.key(name), f"has more than two decimals: {v}")
        return cents

    def duration(self, name: str, default: Any = ...) -> Any:
        v = self.get(name, str, default)
        if not isinstance(v, str):
            return v
        try:
            return parse_duration(v)
        except DurationError:
            raise self.ctx.error(
                self.key(name), f'must be a duration like "1:30:00" or "5:00", not {v!r}'
            ) from None

    def moment(self, name: str, default: Any = ...) -> Any:
        """A local date-time (contest time zone) or a plain date (its midnight)."""
        v = self.get(name, (datetime, date, str), default)
        if v is None or v is default:
            return v
        if isinstance(v, str):
            try:
                v = datetime.fromisoformat(v)
            except ValueError:
                raise self.ctx.error(
                    self.key(name), f"is not a date-time like 2023-04-15T00:00:00: {v!r}"
                ) from None
        if isinstance(v, datetime):
            if v.tzinfo is not None:
                raise self.ctx.error(
                    self.key(name), "give local time without an offset (the contest's timezone)"
                )
            return v.replace(tzinfo=self.ctx.tz)
        return datetime.combine(v, time(0), self.ctx.tz)

    def clock_time(self, name: str, day: date | None = None) -> datetime:
        """A time of day on the contest day, or on ``day`` ("15:15")."""
        v = self.get(name, (str, time))
        if isinstance(v, str):
            try:
                v = time.fromisoformat(v)
            except ValueError:
                raise self.ctx.error(self.key(name), f'is not a time like "15:15": {v!r}') from None
        assert isinstance(v, time)
        return datetime.combine(day or self.ctx.day, v, self.ctx.tz)

    def table(self, name: str, required: bool = False) -> _Table | None:
        self.seen.add(name)
        if name not in self.data:
            if required:
                raise self.ctx.error(self.key(name), "is required")
            return None
        return _Table(self.ctx, self.data[name], self.key(name))

    def tables(self, name: str, required: bool = False) -> list[_Table]:
        self.seen.add(name)
        if name not in self.data:
            if required:
                raise self.ctx.error(self.key(name), "is required")
            return []
        items = self.data[name]
        if not isinstance(items, list):
            raise self.ctx.error(self.key(name), f"must be a list of tables, not {_kind(items)}")
        return [_Table(self.ctx, item, f"{self.key(name)}[{i}]") for i, item in enumerate(items)]

    def strings(self, name: str, default: Any = ...) -> Any:
        v = self.get(name, list, default)
        if not isinstance(v, list):
            return v
        for i, item in enumerate(v):
            if not isinstance(item, str):
                raise self.ctx.error(f"{self.key(name)}[{i}]", f"must be text, not {_kind(item)}")
        return tuple(v)

    def done(self) -> None:
        unknown = sorted(set(self.data) - self.seen)
        if unknown:
            # A quoted TOML key may hold anything (a newline...): show it quoted, on one line.
            name = unknown[0] if _BARE_KEY.fullmatch(unknown[0]) else repr(unknown[0])
            raise self.ctx.error(self.key(name), "unknown key")


class _Ctx:
    def __init__(self, path: str) -> None:
        self.path = path
        self.tz: ZoneInfo = ZoneInfo("UTC")
        self.day: date = date(1970, 1, 1)

    def error(self, key: str, problem: str) -> ContestFileError:
        return ContestFileError(self.path, key, problem)


def _type_name(k: type) -> str:
    return {
        str: "text",
        int: "a whole number",
        float: "a number",
        bool: "true or false",
        list: "a list",
        dict: "a table",
        date: "a date (2023-04-22)",
        datetime: "a date-time (2023-04-15T00:00:00)",
        time: "a time (15:15)",
    }.get(k, k.__name__)


def _kind(v: Any) -> str:
    if isinstance(v, bool):
        return f"{str(v).lower()} (true/false)"
    if isinstance(v, datetime):
        return f"the date-time {v.isoformat()}"
    if isinstance(v, date):
        return f"the date {v.isoformat()}"
    if isinstance(v, (int, float)):
        return f"the number {v}"
    if isinstance(v, str):
        return f"the text {v!r}"
    if isinstance(v, list):
        return "a list"
    if isinstance(v, dict):
        return "a table"
    return type(v).__name__


def _texts(t: _Table, name: str, required: bool) -> dict[str, str]:
    """A text per language: ``{es = "...", fr = "...", en = "..."}``, or one plain text."""
    t.seen.add(name)
    if name not in t.data:
        if required:
            raise t.ctx.error(t.key(name), "is required")
        return {}
    v = t.data[name]
    if isinstance(v, str):
        return {lang: v for lang in LANGUAGES}
    sub = _Table(t.ctx, v, t.key(name))
    out = {lang: sub.get(lang, str, None) for lang in LANGUAGES}
    sub.done()
    texts = {k: s for k, s in out.items() if s is not None}
    if not texts:
        raise t.ctx.error(t.key(name), "needs at least one of es, fr, en")
    return texts


def _slot(t: _Table, nested: bool = False) -> Slot:
    """One member's place: birth years or ages, ``with_adult`` (only beside another member of
    at least that age), and ``or``: alternatives, each such a place (not nested further)."""
    alternatives: tuple[Slot, ...] = ()
    if not nested:
        alternatives = tuple(_slot(a, nested=True) for a in t.tables("or"))
        for i, alt in enumerate(alternatives):
            if alt.is_open:
                raise t.ctx.error(f"{t.key('or')}[{i}]", "takes anyone: give it a condition "
                                  "(or leave the place as {} for anyone)")
    slot = Slot(
        born_from=t.get("born_from", int, None),
        born_to=t.get("born_to", int, None),
        min_age=t.int("min_age", None, maximum=MAX_AGE),
        max_age=t.int("max_age", None, maximum=MAX_AGE),
        with_adult=t.int("with_adult", None, minimum=1, maximum=MAX_AGE),
        alternatives=alternatives,
    )
    t.done()
    if (slot.born_from is not None or slot.born_to is not None) and slot.uses_age:
        raise t.ctx.error(t.where, "use birth years or ages, not both")
    if slot.born_from is not None and slot.born_to is not None and slot.born_from > slot.born_to:
        raise t.ctx.error(t.key("born_from"), "is after born_to")
    if slot.min_age is not None and slot.max_age is not None and slot.min_age > slot.max_age:
        raise t.ctx.error(t.key("min_age"), "is above max_age")
    return slot


def _category_id(t: _Table, ids: set[str]) -> str:
    """Ids name categories in commands and exports: lowercase, one per category."""
    cid: str = t.get("id", str)
    if not cid or not cid.replace("-", "").replace("_", "").isalnum() or cid != cid.lower():
        raise t.ctx.error(t.key("id"), f"must be lowercase letters, digits, - or _: {cid!r}")
    if cid in ids:
        raise t.ctx.error(t.key("id"), f"{cid!r} is used by another category")
    ids.add(cid)
    return cid


def _members(t: _Table) -> int:
    members: int = t.int("members", minimum=1)
    if members > MAX_MEMBERS:
        raise t.ctx.error(t.key("members"), f"must be at most {MAX_MEMBERS}, not {members}")
    return members


def _slots(t: _Table, members: int) -> tuple[Slot, ...]:
    """One slot per member (all open when none is given), all by birth year or all by age."""
    slot_tables = t.tables("slots")
    slots = tuple(_slot(s) for s in slot_tables) if slot_tables else (Slot(),) * members
    if len(slots) != members:
        raise t.ctx.error(
            t.key("slots"), f"has {len(slots)} entries but the category has {members} members"
        )
    kinds = set()
    for s in slots:
        for part in (s, *s.alternatives):
            if part.born_from is not None or part.born_to is not None:
                kinds.add("years")
            if (part.min_age is not None or part.max_age is not None
                    or part.with_adult is not None):
                kinds.add("ages")
    if len(kinds) > 1:
        raise t.ctx.error(t.key("slots"), "mixes birth years and ages")
    return slots


def _reserved(t: _Table, capacity: int | None) -> tuple[ReservedQuota, ...]:
    """``[[categories.reserved]]``: places kept for local entries, within the capacity."""
    reserved = []
    for q in t.tables("reserved"):
        quota = ReservedQuota(
            places=q.int("places", minimum=1), for_kind=q.get("for", str), until=q.moment("until")
        )
        q.done()
        if quota.for_kind != "local":
            raise t.ctx.error(q.key("for"), f'must be "local", not {quota.for_kind!r}')
        if capacity is None or quota.places > capacity:
            raise t.ctx.error(q.key("places"), "needs a category capacity at least this large")
        reserved.append(quota)
    return tuple(reserved)


def _extra_prizes(t: _Table) -> tuple[ExtraPrize, ...]:
    """``[[categories.extra_prizes]]``: prizes besides the positions (best local entry...)."""
    extras = []
    for e in t.tables("extra_prizes"):
        extra = ExtraPrize(
            id=e.get("id", str),
            name=e.get("name", str),
            prize=e.get("prize", str),
            among=e.get("among", str, "all"),
            cumulative=e.get("cumulative", bool, True),
        )
        e.done()
        if extra.among not in ("all", "local"):
            raise t.ctx.error(e.key("among"), f'must be "all" or "local", not {extra.among!r}')
        extras.append(extra)
    return tuple(extras)


def _advancement(t: _Table, qids: set[str]) -> Advancement:
    """``advance = { per_heat = 2, best = 8, max_per = 2, by = "country" }``."""
    rule = Advancement(
        per_heat=t.int("per_heat", None, minimum=1),
        best=t.int("best", None, minimum=1),
        top_percent=t.int("top_percent", None, minimum=1, maximum=100),
        better_than=t.duration("better_than", None),
        max_per=t.int("max_per", None, minimum=1),
        by=t.get("by", str, None),
    )
    t.done()
    if (rule.per_heat, rule.best, rule.top_percent, rule.better_than) == (None,) * 4:
        raise t.ctx.error(t.where, "needs per_heat, best, top_percent or better_than")
    if (rule.max_per is None) != (rule.by is None):
        raise t.ctx.error(t.key("by" if rule.by is None else "max_per"),
                          "is required with " + ("max_per" if rule.by is None else "by"))
    if rule.by is not None and rule.by not in qids:
        raise t.ctx.error(t.key("by"), f"must be a choice or text question (or a yes/no "
                          f"one asked per entry), not {rule.by!r}")
    return rule


def _new_id(t: _Table, pattern: re.Pattern[str], rule: str, taken: set[str]) -> str:
    """``id``: matching ``pattern`` (described by ``rule``), and not one of ``taken``."""
    value: str = t.get("id", str)
    if not pattern.fullmatch(value):
        raise t.ctx.error(t.key("id"), f"must be {rule}, not {value!r}")
    if value in taken:
        raise t.ctx.error(t.key("id"), f"{value!r} is used twice")
    return value


def _puzzles(t: _Table) -> tuple[int, ...]:
    """``puzzles = [500, 500]``: puzzles played one after the other (split times)."""
    v = t.get("puzzles", list, [])
    for i, n in enumerate(v):
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise t.ctx.error(f"{t.key('puzzles')}[{i}]", "must be a number of pieces (1 or more)")
    if len(v) == 1:
        raise t.ctx.error(t.key("puzzles"), "needs two puzzles or more (one puzzle: pieces)")
    return tuple(v)


def _heat_schedule(h: _Table, day: date) -> HeatSchedule:
    """``[[categories.rounds.heat]]``: one heat's own ``date``, ``start`` and ``venue``."""
    when = h.get("date", date, day)
    if not h.ctx.day <= when <= h.ctx.day.fromordinal(h.ctx.day.toordinal() + MAX_DAYS):
        raise h.ctx.error(h.key("date"), f"must be from the contest's date ({h.ctx.day}) to "
                          f"{MAX_DAYS} days after it, not {when}")
    schedule = HeatSchedule(when, h.clock_time("start", when) if h.has("start") else None,
                            h.get("venue", str, ""))
    h.seen.add("start")
    h.done()
    return schedule


def _puzzle_rules(t: _Table, puzzles: tuple[int, ...]) -> dict[str, Any]:
    """``puzzle_order = "any"`` and ``play = N`` (N of the listed puzzles, chosen by each
    entry), for puzzles in sequence."""
    order = t.get("puzzle_order", str, "fixed")
    if order not in ("fixed", "any"):
        raise t.ctx.error(t.key("puzzle_order"), f'must be "fixed" or "any", not {order!r}')
    play = t.int("play", None, minimum=2) or 0
    if (order != "fixed" or play) and not puzzles:
        raise t.ctx.error(t.key("puzzle_order" if order != "fixed" else "play"),
                          "needs puzzles (two or more)")
    if play > len(puzzles):
        raise t.ctx.error(t.key("play"), f"is more than the {len(puzzles)} puzzles")
    if play and order != "any":
        raise t.ctx.error(t.key("play"), 'needs puzzle_order = "any" (each entry chooses)')
    return {"puzzle_order": order, "play": play if play != len(puzzles) else 0}


def _pieces(t: _Table, puzzles: tuple[int, ...], default: Any = ...) -> int:
    """``pieces``: the puzzles' total when they are listed (and then it may be left out)."""
    if puzzles and not t.has("pieces"):
        t.seen.add("pieces")
        return sum(puzzles)
    pieces: int = t.int("pieces", default, minimum=1)
    if puzzles and pieces != sum(puzzles):
        raise t.ctx.error(t.key("pieces"), f"is {pieces}, but the puzzles add up to "
                          f"{sum(puzzles)}")
    return pieces


def _rounds(t: _Table, pieces: int, time_limit: int, qids: set[str],
            cat_puzzles: tuple[int, ...], questions: dict[str, Question]) -> tuple[Round, ...]:
    """``[[categories.rounds]]``: heats, semi-finals, the final, each on its own day."""
    rounds: list[Round] = []
    items = t.tables("rounds")
    for i, r in enumerate(items):
        rid = _new_id(r, ROUND_ID, "lowercase letters, digits or _ (at most 24)",
                      {x.id for x in rounds})
        day = r.get("date", date, r.ctx.day)
        if not r.ctx.day <= day <= r.ctx.day.fromordinal(r.ctx.day.toordinal() + MAX_DAYS):
            raise r.ctx.error(r.key("date"), f"must be from the contest's date ({r.ctx.day}) "
                              f"to {MAX_DAYS} days after it, not {day}")
        if rounds and day < max([rounds[-1].date] + [h.date for h in rounds[-1].schedule]):
            raise r.ctx.error(r.key("date"), "is before the round before (or one of its heats)")
        start = r.clock_time("start", day) if r.has("start") else None
        r.seen.add("start")
        if start is not None and rounds and rounds[-1].start is not None \
                and start <= rounds[-1].start:
            raise r.ctx.error(r.key("start"), "is not after the round before's start")
        last = i == len(items) - 1
        a = r.table("advance")
        if a is None and not last:
            raise r.ctx.error(r.key("advance"), "is required (who goes to the next round)")
        if a is not None and last:
            raise r.ctx.error(r.key("advance"), "is for rounds before the last")
        puzzles = _puzzles(r) or (cat_puzzles if not r.has("pieces") else ())
        heats_by = r.get("heats_by", str, None)
        heats = r.int("heats", 1, minimum=1, maximum=MAX_HEATS)
        if heats_by is not None:
            q = questions.get(heats_by)
            if q is None or not q.choices or not q.per_entry:
                raise r.ctx.error(r.key("heats_by"), "must be a choice question asked once "
                                  f"per entry (per = \"entry\"), not {heats_by!r}")
            if rounds:
                raise r.ctx.error(r.key("heats_by"), "is for the first round (the entries "
                                  "choose at registration)")
            if r.has("heats") and heats != len(q.choices):
                raise r.ctx.error(r.key("heats"), f"is {heats}, but {heats_by} has "
                                  f"{len(q.choices)} choices (one heat each)")
            heats = len(q.choices)
        schedule = tuple(_heat_schedule(h, day) for h in r.tables("heat"))
        if schedule and len(schedule) != heats:
            raise r.ctx.error(r.key("heat"), f"lists {len(schedule)} heats, but the round "
                              f"has {heats}")
        seating = r.get("seating", str, "")
        if seating and seating not in SEATINGS:
            raise r.ctx.error(r.key("seating"), f"must be one of {', '.join(SEATINGS)}, "
                              f"not {seating!r}")
        if seating == "seeded" and not rounds:
            raise r.ctx.error(r.key("seating"), "seeded needs a round before (its results); "
                              "the first round is seated in blocks or drawn")
        rounds.append(Round(
            id=rid, name=_texts(r, "name", True), date=day, start=start,
            pieces=_pieces(r, puzzles, pieces),
            puzzles=puzzles,
            time_limit=r.duration("time_limit", None) or time_limit,
            heats=heats, heats_by=heats_by, schedule=schedule,
            heat_choices=tuple(c.id for c in questions[heats_by].choices) if heats_by else (),
            advance=_advancement(a, qids) if a is not None else None,
            seating=seating,
            per_table=r.int("per_table", 1, minimum=1, maximum=MAX_PER_TABLE),
            **_puzzle_rules(r, puzzles),
        ))
        r.done()
    return tuple(rounds)


def _separate(t: _Table, questions: dict[str, Question]) -> tuple[SeparateRanking, ...]:
    """``[[categories.rankings]]``: rankings of their own within the category."""
    out: list[SeparateRanking] = []
    for r in t.tables("rankings"):
        rid = _new_id(r, PENALTY_ID, "lowercase letters, digits, - or _", {x.id for x in out})
        qid = r.get("question", str, None)
        answers = r.strings("answers", ())
        sr = SeparateRanking(
            id=rid, name=_texts(r, "name", True),
            min_age=r.int("min_age", None, maximum=MAX_AGE),
            max_age=r.int("max_age", None, maximum=MAX_AGE),
            question=qid, answers=tuple(answers), prizes=r.strings("prizes", ()))
        r.done()
        if sr.min_age is None and sr.max_age is None and qid is None:
            raise r.ctx.error(r.where, "needs min_age, max_age or question (who is in it)")
        if sr.min_age is not None and sr.max_age is not None and sr.min_age > sr.max_age:
            raise r.ctx.error(r.key("max_age"), "is below min_age")
        if qid is not None:
            q = questions.get(qid)
            if q is None:
                raise r.ctx.error(r.key("question"), f"unknown question {qid!r}")
            if not answers:
                raise r.ctx.error(r.key("answers"), "is required with question (which answers "
                                  "are in this ranking)")
            allowed = ({c.id.lower() for c in q.choices} if q.choices else
                       {"yes", "no"} if q.yes_no else None)
            for i, a in enumerate(answers):
                if allowed is not None and a.lower() not in allowed:
                    raise r.ctx.error(f"{r.key('answers')}[{i}]", f"{a!r} is not an answer "
                                      f"to {qid}")
        elif answers:
            raise r.ctx.error(r.key("answers"), "needs question")
        out.append(sr)
    return tuple(out)


def _category(t: _Table, escape: EscapeRules | None, ids: set[str], qids: set[str],
              questions: dict[str, Question] | None = None) -> Category:
    cid = _category_id(t, ids)
    members = _members(t)
    fewest = t.int("min_members", None, minimum=1)
    if fewest is not None and fewest > members:
        raise t.ctx.error(t.key("min_members"), f"is more than members ({members})")
    slots = _slots(t, members)
    capacity = t.int("capacity", None, minimum=1)
    reserved = _reserved(t, capacity)
    extras = _extra_prizes(t)
    is_escape = t.get("escape", bool, False)
    if is_escape and escape is None:
        raise t.ctx.error(t.key("escape"), "is true but the contest has no [escape] table")
    puzzles = _puzzles(t)
    pieces, time_limit = _pieces(t, puzzles), t.duration("time_limit")
    rounds = _rounds(t, pieces, time_limit, qids, puzzles, questions or {})
    if rounds and is_escape:
        raise t.ctx.error(t.key("rounds"), "are not for escape categories")
    cat = Category(
        id=cid,
        name=t.get("name", str),
        members=members,
        pieces=pieces,
        time_limit=time_limit,
        fee=t.money("fee"),
        slots=slots,
        capacity=capacity,
        escape=is_escape,
        prizes=t.strings("prizes", ()),
        reserved=reserved,
        extra_prizes=extras,
        min_members=fewest if fewest != members else None,
        rounds=rounds,
        puzzles=puzzles,
        separate=_separate(t, questions or {}),
        **_puzzle_rules(t, puzzles),
    )
    t.done()
    if escape is not None and cat.escape and escape.time_limit > cat.time_limit:
        raise t.ctx.error(t.key("time_limit"), "is shorter than the escape time limit")
    return cat


def _escape(t: _Table) -> EscapeRules:
    stages = t.int("stages", minimum=1)
    caps = t.get("caps_by_stage", list)
    for i, c in enumerate(caps):
        if not isinstance(c, int) or isinstance(c, bool) or c < 0:
            raise t.ctx.error(f"{t.key('caps_by_stage')}[{i}]", "must be a whole number >= 0")
    if len(caps) != stages:
        raise t.ctx.error(
            t.key("caps_by_stage"), f"has {len(caps)} values but there are {stages} stages"
        )

    def per_stage(name: str) -> dict[int, str]:
        out: dict[int, str] = {}
        for item in t.tables(name):
            stage = item.int("stage", minimum=1)
            if stage > stages:
                raise t.ctx.error(item.key("stage"), f"is past the last stage ({stages})")
            out[stage] = item.get("text", str)
            item.done()
        return out

    rules = EscapeRules(
        stages=stages,
        initial_tickets=t.int("initial_tickets"),
        hint_cost=t.int("hint_cost", minimum=1),
        solution_cost=t.int("solution_cost", minimum=1),
        cooldown=t.duration("cooldown"),
        ticket_value=t.duration("ticket_value"),
        time_limit=t.duration("time_limit"),
        cap_solved=t.int("cap_solved"),
        caps_by_stage=tuple(caps),
        hint_ticket_penalty=t.duration("hint_ticket_penalty"),
        solution_ticket_penalty=t.duration("solution_ticket_penalty"),
        confirmation_grace=t.duration("confirmation_grace", "15:00"),
        hints=per_stage("hints"),
        solutions=per_stage("solutions"),
    )
    t.done()
    return rules


class _Heading(NamedTuple):
    """What ``[contest]`` says besides the date and time zone kept in ``_Ctx``."""

    name: str
    timezone: str
    language: str
    currency: str
    venue: str
    limit_inclusive: bool
    results_at: datetime | None
    start: datetime | None
    penalised_finish_counts: bool = True
    tie_break: str = "shared"
    shared_prizes: str = "each"
    confirm_correction: int = 5 * 60


def _heading(root: _Table) -> _Heading:
    """``[contest]``; sets the context's time zone and day, which later tables read."""
    c = root.table("contest", required=True)
    assert c is not None
    tz_name: str = c.get("timezone", str)
    try:
        c.ctx.tz = ZoneInfo(tz_name)
    except (ZoneInfoNotFoundError, ValueError, OSError):  # OSError: "Europe" is a folder
        raise c.ctx.error(c.key("timezone"), f"unknown time zone {tz_name!r}") from None
    c.ctx.day = c.get("date", date)
    language = c.get("language", str, "es")
    if language not in LANGUAGES:
        raise c.ctx.error(c.key("language"), f"must be one of {', '.join(LANGUAGES)}")
    name = c.get("name", str)
    currency = c.get("currency", str, "EUR")
    venue = c.get("venue", str, "")
    limit_inclusive = c.get("finish_at_limit_counts", bool, True)
    penalised = c.get("penalised_finish_counts", bool, True)
    results_at = c.clock_time("results_at") if c.has("results_at") else None
    c.seen.add("results_at")
    start = c.clock_time("start") if c.has("start") else None
    c.seen.add("start")
    tie_break = c.get("tie_break", str, "shared")
    if tie_break not in TIE_BREAKS:
        raise c.ctx.error(c.key("tie_break"), f"must be one of {', '.join(TIE_BREAKS)}")
    shared_prizes = c.get("shared_prizes", str, "each")
    if shared_prizes not in SHARED_PRIZES:
        raise c.ctx.error(c.key("shared_prizes"), f"must be one of {', '.join(SHARED_PRIZES)}")
    confirm_minutes = c.get("confirm_correction_minutes", int, 5)
    if not 0 <= confirm_minutes <= 24 * 60:
        raise c.ctx.error(c.key("confirm_correction_minutes"), "must be 0 to 1440 minutes")
    c.done()
    return _Heading(name, tz_name, language, currency, venue, limit_inclusive, results_at, start,
                    penalised, tie_break, shared_prizes, confirm_minutes * 60)


def _registration(root: _Table) -> RegistrationRules:
    """``[registration]``, optional: without it registrations are always open, first come."""
    r = root.table("registration")
    if r is None:
        return RegistrationRules()
    reg = RegistrationRules(
        opens=r.moment("opens", None),
        closes=r.moment("closes", None),
        priority=r.get("priority", str, "registration"),
        payment_required=r.get("payment_required", bool, False),
        shared_capacity=r.int("shared_capacity", None, minimum=1),
        withdrawal_refund_until=r.moment("withdrawal_refund_until", None),
        left_out_refund=r.get("left_out_refund", str, ""),
        one_entry_per_person=r.get("one_entry_per_person", bool, False),
        pay_within=_pay_within(r),
        members_open=r.moment("members_open", None),
        members_if=r.strings("members_if", ()),
        refunds=_refunds(r),
    )
    if reg.priority not in ("registration", "payment"):
        raise r.ctx.error(r.key("priority"), 'must be "registration" or "payment"')
    if reg.priority == "payment" and not reg.payment_required:
        raise r.ctx.error(r.key("priority"), '"payment" needs payment_required = true')
    if reg.opens and reg.closes and reg.opens >= reg.closes:
        raise r.ctx.error(r.key("closes"), "is not after opens")
    _members_open(r, reg)
    if reg.refunds and reg.withdrawal_refund_until is not None:
        raise r.ctx.error(r.key("refunds"), "cannot be used with withdrawal_refund_until "
                          "(100 % until then, the simple case of refunds): keep one of them")
    r.done()
    return reg


def _pay_within(r: _Table) -> timedelta | None:
    """``pay_within_days = 7``: an entry not paid within 7 days of registering lapses."""
    days = r.int("pay_within_days", None, minimum=1, maximum=MAX_PAY_WITHIN_DAYS)
    return None if days is None else timedelta(days=days)


def _members_open(r: _Table, reg: RegistrationRules) -> None:
    """``members_open`` and ``members_if`` go together, before ``opens`` (the question ids are
    checked once the questions are read: ``_members_if``)."""
    if reg.members_open is None and reg.members_if:
        raise r.ctx.error(r.key("members_open"), "is required with members_if")
    if reg.members_open is None:
        return
    if not reg.members_if:
        raise r.ctx.error(r.key("members_if"), "is required with members_open: the ids of the "
                          "yes/no questions that make an entry a member's")
    if reg.opens is None:
        raise r.ctx.error(r.key("members_open"), "needs opens (members may register before "
                          "everyone else)")
    if reg.members_open >= reg.opens:
        raise r.ctx.error(r.key("members_open"), "is not before opens")


def _refunds(r: _Table) -> tuple[RefundTier, ...]:
    """``[[registration.refunds]]`` (``until``, ``percent``): later tiers end later and give
    back no more."""
    given = r.has("refunds")
    tables = r.tables("refunds")
    if given and not tables:
        raise r.ctx.error(r.key("refunds"), "needs at least one table (until, percent)")
    tiers: list[RefundTier] = []
    for i, t in enumerate(tables):
        tier = RefundTier(until=t.moment("until"), percent=t.int("percent", maximum=100))
        t.done()
        if tiers and tier.until <= tiers[-1].until:
            raise t.ctx.error(t.key("until"), f"is not after refunds[{i - 1}].until "
                              f"({tiers[-1].until.strftime('%Y-%m-%d %H:%M')}): list the "
                              "tiers in increasing until order")
        if tiers and tier.percent > tiers[-1].percent:
            raise t.ctx.error(t.key("percent"), f"is more than refunds[{i - 1}].percent "
                              f"({tiers[-1].percent}): refunds may only decrease as the "
                              "contest approaches")
        tiers.append(tier)
    return tuple(tiers)


def _members_if(root: _Table, reg: RegistrationRules, questions: tuple[Question, ...]) -> None:
    """``registration.members_if``: yes/no questions asked of each member, as [local]'s."""
    key = "registration.members_if"
    for i, f in enumerate(reg.members_if):
        q = next((q for q in questions if q.id == f), None)
        if q is None:
            raise root.ctx.error(f"{key}[{i}]", f"names no question: {f!r}")
        if not q.yes_no or q.per_entry:
            raise root.ctx.error(f"{key}[{i}]", f"{f!r} must be a yes/no question asked of "
                                 'each member (kind = "yes_no", per = "member")')


def _one_line(t: _Table, name: str, texts: dict[str, str]) -> None:
    for lang, text in texts.items():
        if not text.strip() or "\n" in text:
            raise t.ctx.error(f"{t.key(name)}.{lang}" if len(set(texts.values())) > 1
                              else t.key(name), "must be one line of text")


def _choices(q: _Table) -> tuple[Choice, ...]:
    """``choices = ["ES", "FR"]``, or tables ``{ id = "ES", label = { es = "España", ... } }``
    (the two may be mixed): ids are stored and exported, labels shown on the buttons."""
    q.seen.add("choices")
    items = q.data.get("choices")
    if items is None:
        raise q.ctx.error(q.key("choices"), 'is required when kind = "choice"')
    if not isinstance(items, list):
        raise q.ctx.error(q.key("choices"), f"must be a list, not {_kind(items)}")
    if not items:
        raise q.ctx.error(q.key("choices"), "needs at least one choice")
    if len(items) > MAX_CHOICES:
        raise q.ctx.error(q.key("choices"), f"has {len(items)} choices: at most {MAX_CHOICES}")
    choices: list[Choice] = []
    for i, item in enumerate(items):
        where = f"{q.key('choices')}[{i}]"
        if isinstance(item, str):
            choice = Choice(item)
        elif isinstance(item, dict):
            c = _Table(q.ctx, item, where)
            choice = Choice(c.get("id", str), _texts(c, "label", False),
                            c.int("places", None, minimum=1))
            _one_line(c, "label", choice.label)
            c.done()
            where = c.key("id")
        else:
            raise q.ctx.error(where, f"must be text or a table, not {_kind(item)}")
        if not CHOICE_ID.fullmatch(choice.id) or choice.id != " ".join(choice.id.split()):
            raise q.ctx.error(where, "must be 1 to 32 letters, digits, single spaces, . _ ' ( ) "
                              f"or -, beginning with a letter or digit, not {choice.id!r}")
        if any(c.id.casefold() == choice.id.casefold() for c in choices):
            raise q.ctx.error(where, f"{choice.id!r} is a choice twice")
        choices.append(choice)
    return tuple(choices)


def _question(q: _Table, ids: set[str]) -> Question:
    qid: str = q.get("id", str)
    if not QUESTION_ID.fullmatch(qid):
        raise q.ctx.error(q.key("id"), "must be letters, digits, - or _ (it names a CSV "
                          f"column), not {qid!r}")
    if qid in ids:
        raise q.ctx.error(q.key("id"), f"{qid!r} is used by another question")
    if qid in _OWN_COLUMNS:
        raise q.ctx.error(q.key("id"), f"{qid!r} is a column of the CSV files already")
    ids.add(qid)
    text = _texts(q, "text", True)
    kind = q.get("kind", str, YES_NO)
    if kind not in (YES_NO, CHOICE, TEXT):
        raise q.ctx.error(q.key("kind"), f'must be "yes_no", "choice" or "text", not {kind!r}')
    per = q.get("per", str, PER_MEMBER)
    if per not in (PER_MEMBER, PER_ENTRY):
        raise q.ctx.error(q.key("per"), f'must be "member" or "entry", not {per!r}')
    label = _texts(q, "label", False)
    _one_line(q, "label", label)
    only = {"choices": CHOICE, "quota": CHOICE, "max_length": TEXT}
    for key, needs in only.items():
        if q.has(key) and kind != needs:
            raise q.ctx.error(q.key(key), f'is only for kind = "{needs}" questions')
    if q.has("show") and kind == YES_NO:
        raise q.ctx.error(q.key("show"), 'is only for kind = "choice" or "text" questions')
    question = Question(
        id=qid, text=text, kind=kind, per=per,
        choices=_choices(q) if kind == CHOICE else (),
        show=q.get("show", bool, False),
        quota=q.int("quota", None, minimum=1),
        max_length=q.int("max_length", 40, minimum=1, maximum=MAX_TEXT_ANSWER),
        label=label,
        categories=q.strings("categories", ()),
    )
    q.done()
    return question


def _questions(root: _Table) -> tuple[Question, ...]:
    """``[[questions]]``: asked of every member (or once per entry) at registration."""
    ids: set[str] = set()
    return tuple(_question(q, ids) for q in root.tables("questions"))


def _yes_no_per_member(t: _Table, name: str, flags: tuple[str, ...],
                       questions: tuple[Question, ...]) -> None:
    """``[local]`` and ``[discount]`` go by members answering yes."""
    for i, f in enumerate(flags):
        q = next(q for q in questions if q.id == f)
        if not q.yes_no or q.per_entry:
            raise t.ctx.error(f"{t.key(name)}[{i}]", f"{f!r} must be a yes/no question asked "
                              'of each member (kind = "yes_no", per = "member")')


def _known(t: _Table, name: str, qids: set[str]) -> tuple[str, ...]:
    """A list of question ids: a typo would silently never match, so each must exist."""
    flags: tuple[str, ...] = t.strings(name)
    for i, f in enumerate(flags):
        if f not in qids:
            raise t.ctx.error(f"{t.key(name)}[{i}]", f"names no question: {f!r}")
    return flags


def _local(root: _Table, questions: tuple[Question, ...]) -> tuple[str, ...]:
    """``[local]``: an entry is local when a member answers yes to one of these questions."""
    local_t = root.table("local")
    if local_t is None:
        return ()
    local_if_any = _known(local_t, "any_member", {q.id for q in questions})
    _yes_no_per_member(local_t, "any_member", local_if_any, questions)
    local_t.done()
    return local_if_any


def _discount(root: _Table, questions: tuple[Question, ...]) -> Discount | None:
    d = root.table("discount")
    if d is None:
        return None
    discount = Discount(amount=d.money("amount"),
                        any_of=_known(d, "any_of", {q.id for q in questions}))
    _yes_no_per_member(d, "any_of", discount.any_of, questions)
    d.done()
    return discount


def _meal(root: _Table) -> Meal | None:
    m = root.table("meal")
    if m is None:
        return None
    meal = Meal(adult=m.money("adult"), child=m.money("child"))
    m.done()
    return meal


def _penalties(root: _Table) -> tuple[PenaltyKind, ...]:
    """``[[penalties]]``: the kinds of penalty volunteers record, each adding ``seconds``."""
    kinds: list[PenaltyKind] = []
    for p in root.tables("penalties"):
        pid = _new_id(p, PENALTY_ID, "lowercase letters, digits, - or _ (it is typed in "
                      "/penalizacion)", {k.id for k in kinds})
        name = _texts(p, "name", True)
        for lang, text in name.items():
            if not text.strip() or "\n" in text:
                raise p.ctx.error(f"{p.key('name')}.{lang}" if len(set(name.values())) > 1
                                  else p.key("name"), "must be one line of text")
        kinds.append(PenaltyKind(id=pid, name=name,
                                 seconds=p.int("seconds", minimum=1, maximum=MAX_PENALTY)))
        p.done()
    return tuple(kinds)


def _breaks(root: _Table) -> tuple[Break, ...]:
    """``[[breaks]]``: times of the contest day (or of ``date``, for a contest over several
    days) when every clock stops."""
    breaks = []
    for b in root.tables("breaks"):
        day = b.get("date", date, b.ctx.day)
        br = Break(start=b.clock_time("start", day), end=b.clock_time("end", day))
        b.done()
        if br.end <= br.start:
            raise b.ctx.error(b.key("end"), "is not after start")
        breaks.append(br)
    return tuple(breaks)


def _categories(
    root: _Table, escape: EscapeRules | None, local_if_any: tuple[str, ...],
    qids: set[str], questions: dict[str, Question],
) -> tuple[Category, ...]:
    """``[[categories]]``, at least one; local quotas and prizes need ``[local]``."""
    ids: set[str] = set()
    categories = tuple(_category(t, escape, ids, qids, questions)
                       for t in root.tables("categories", True))
    if not categories:
        raise root.ctx.error("categories", "needs at least one category")
    for i, q in enumerate(questions.values()):
        unknown = [c for c in q.categories if c not in ids]
        if unknown:
            raise root.ctx.error(f"questions[{i}].categories", f"unknown category {unknown[0]!r}")
    heat_ids = set(ids)
    for i, cat in enumerate(categories):
        for h in heats_of(cat):
            if h.id in heat_ids:
                raise root.ctx.error(f"categories[{i}].rounds[{h.round_index}].id",
                                     f"gives the heat {h.id!r}, which is also the name of "
                                     "a category or another heat")
            heat_ids.add(h.id)
    for i, cat in enumerate(categories):
        if any(q.for_kind == "local" for q in cat.reserved) and not local_if_any:
            raise root.ctx.error(f"categories[{i}].reserved", "needs [local] any_member questions")
        if any(x.among == "local" for x in cat.extra_prizes) and not local_if_any:
            raise root.ctx.error(
                f"categories[{i}].extra_prizes", "needs [local] any_member questions"
            )
    return categories


def parse_contest(data: dict[str, Any], path: str) -> Contest:
    """The tables in the order they depend on each other: [contest] first (its time zone and
    day give every later time its meaning), questions before what names them, [escape] before
    the categories; unknown top-level keys are reported last."""
    ctx = _Ctx(path)
    root = _Table(ctx, data, "")
    heading = _heading(root)
    registration = _registration(root)
    questions = _questions(root)
    _members_if(root, registration, questions)
    local_if_any = _local(root, questions)
    discount = _discount(root, questions)
    meal = _meal(root)
    breaks = _breaks(root)
    penalties = _penalties(root)
    e = root.table("escape")
    escape = _escape(e) if e is not None else None
    # advancement quotas group entries by a choice or text answer (country, club)
    groups = {q.id for q in questions if q.kind != YES_NO or q.per == PER_ENTRY}
    categories = _categories(root, escape, local_if_any, groups,
                             {q.id: q for q in questions})
    root.done()
    return Contest(
        name=heading.name,
        date=ctx.day,
        timezone=heading.timezone,
        categories=categories,
        registration=registration,
        language=heading.language,
        currency=heading.currency,
        venue=heading.venue,
        questions=questions,
        local_if_any=local_if_any,
        discount=discount,
        meal=meal,
        breaks=breaks,
        escape=escape,
        limit_inclusive=heading.limit_inclusive,
        penalties=penalties,
        penalised_finish_counts=heading.penalised_finish_counts,
        results_at=heading.results_at,
        start=heading.start,
        tie_break=heading.tie_break,
        shared_prizes=heading.shared_prizes,
        confirm_correction=heading.confirm_correction,
    )


def load_contest(path: str | Path) -> Contest:
    p = str(path)
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise ContestFileError(p, "", f"cannot be read ({exc.strerror or exc})") from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ContestFileError(p, "", "is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise ContestFileError(p, "", f"is not valid TOML: {exc}") from None
    return parse_contest(data, p)


def contest_warnings(contest: Contest, path: str) -> list[str]:
    """What a valid file may still get wrong, one line each (``check-contest`` prints them):
    registration closing after a category's first heat begins. The round's entrants are set
    when its heats begin, so the chat and the import refuse a later entry (or, where heats
    are chosen at registration, offer only the heats still to come)."""
    closes = contest.registration.closes
    if closes is None:
        return []
    out = []
    for i, cat in enumerate(contest.categories):
        if not cat.rounds:
            continue
        rnd = cat.rounds[0]
        begins = min(heat_begins(contest, cat, h) for h in range(1, rnd.heats + 1))
        if closes <= begins:
            continue
        said = (f"{path}: registration.closes: {_on_the_hall_clock(closes, contest)} is after "
                f"{cat.id}'s first heat begins ({_on_the_hall_clock(begins, contest)}, "
                f"categories[{i}].rounds[0]): ")
        if rnd.heats_by is not None:
            out.append(said + "from then on an entry can choose only a heat still to come")
        else:
            out.append(said + f"from then on {cat.id} takes no more entries")
    return out


def _on_the_hall_clock(moment: datetime, contest: Contest) -> str:
    return moment.astimezone(ZoneInfo(contest.timezone)).strftime("%Y-%m-%d %H:%M")
