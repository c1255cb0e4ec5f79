"""The reader under every section of a contest file: one TOML table at a time, each key
used once and its type checked, and the one error (``ContestFileError``) every problem is."""

from __future__ import annotations

import difflib
import math
import re
from datetime import date, datetime, time
from typing import Any, TypeVar
from zoneinfo import ZoneInfo

from bot.domain.clock import DurationError, parse_long_duration
from bot.support.contest_keys import DEPENDS, DeclarationError, Key, Section

LANGUAGES = ("es", "fr", "en", "de", "it", "pt", "nl")
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
T = TypeVar("T")
Number = int | float


MAX_DURATION_DAYS = 366  # a contest-file duration: a season at the most


_POSITION = re.compile(r"\[(\d+)\]")


def one_based(key: str) -> str:
    """A key as an organiser counts: ``categories[2]`` is the second ``[[categories]]``."""
    return _POSITION.sub(lambda m: f"[{int(m.group(1)) + 1}]", key)


def section_path(where: str) -> str:
    """The declared path of a table: ``categories[1].rounds[0]`` -> ``categories.rounds``."""
    return _POSITION.sub("", where)


class ContestFileError(Exception):
    """``key`` as the reader names it (positions from 0), said as an organiser counts."""

    def __init__(self, path: str, key: str, problem: str) -> None:
        self.path, self.key, self.problem = path, one_based(key), problem
        where = f"{path}: {self.key}: " if key else f"{path}: "
        super().__init__(where + problem)


class Table:
    """One TOML table being read: every key must be used, every type checked."""

    def __init__(self, ctx: Ctx, data: Any, where: str) -> None:
        self.ctx = ctx
        self.where = where
        if not isinstance(data, dict):
            raise ctx.error(where, f"must be a table, not {kind_of(data)}")
        self.data: dict[str, Any] = data
        self.seen: set[str] = set()
        # its declaration (bot/services/contest_model.py); none for a text per language
        self.section: Section | None = ctx.sections.get(section_path(where))

    def declared(self, name: str, accepts: tuple[type, ...] = (),
                 default: Any = ..., again: bool = False) -> Key | None:
        """``name``'s declaration, checked against how it is read: a key read as another
        kind, or with another default, than declared is a bug (``DeclarationError``).
        ``again``: a table read once more, where it is known to be there."""
        if self.section is None:
            return None
        key = self.section.key(name)
        where = f"{self.section.title} {name}"
        if key is None:
            raise DeclarationError(f"{where} is read but not declared")
        if not set(accepts) <= set(key.accepts):
            raise DeclarationError(f"{where} is read as {accepts}, declared {key.kind}")
        if default is not ... and default is not None and key.default is not DEPENDS \
                and default != key.default:
            raise DeclarationError(f"{where} defaults to {default!r}, declared "
                                   f"{key.default!r}")
        if (default is ...) != key.required and key.default is not DEPENDS and not again:
            how = "required" if default is ... else "optional"
            raise DeclarationError(f"{where} is read as {how}, declared otherwise")
        return key

    def key(self, name: str) -> str:
        return f"{self.where}.{name}" if self.where else name

    def has(self, name: str) -> bool:
        return name in self.data

    def required(self, name: str) -> ContestFileError:
        """``name`` missing: said so, with the key of the file that looks like a misspelling
        of it ("time_limt"), which would otherwise only be reported once the rest is read."""
        close = difflib.get_close_matches(name, [k for k in self.data if k not in self.seen
                                                 and isinstance(k, str)], n=1, cutoff=0.75)
        hint = f" (the file has {_shown(close[0])}: a misspelling of {name}?)" if close else ""
        return self.ctx.error(self.key(name), "is required" + hint)

    def get(self, name: str, kind: type[T] | tuple[type, ...], default: Any = ...) -> Any:
        self.seen.add(name)
        kinds = kind if isinstance(kind, tuple) else (kind,)
        declared = self.declared(name, kinds, default)
        if name not in self.data:
            if default is ...:
                raise self.required(name)
            return default
        value = self.data[name]
        ok = isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds)
        if kinds == (date,) and isinstance(value, datetime):
            ok = False
        if not ok:
            names = " or ".join(_type_name(k) for k in kinds)
            raise self.ctx.error(self.key(name), f"must be {names}, not {kind_of(value)}")
        if declared is not None and declared.choices and isinstance(value, str) \
                and value not in declared.choices:
            raise self.ctx.error(self.key(name), f"must be {_choices(declared)}, not {value!r}")
        return value

    def int(self, name: str, default: Any = ..., minimum: int | None = None,
            maximum: int | None = None) -> Any:
        """A whole number within its declared limits (``maximum`` given here only where the
        declaration says it depends on other keys: ``limits_doc``)."""
        v = self.get(name, int, default)
        low, high = self._limits(name, minimum, maximum)
        if isinstance(v, int) and v < low:
            raise self.ctx.error(self.key(name), f"must be at least {low}, not {v}")
        if isinstance(v, int) and high is not None and v > high:
            raise self.ctx.error(self.key(name), f"must be at most {high}, not {v}")
        return v

    def number(self, name: str, default: Any = ...) -> Any:
        """A number (whole or not) within its declared limits."""
        v = self.get(name, (int, float), default)
        low, high = self._limits(name, None, None)
        if isinstance(v, int | float) and not low <= v <= (math.inf if high is None else high):
            raise self.ctx.error(self.key(name), f"must be from {low} to {high}, not {v}")
        return v

    def _limits(self, name: str, minimum: Number | None, maximum: Number | None
                ) -> tuple[Number, Number | None]:
        key = self.section.key(name) if self.section is not None else None
        if key is None:
            return (0 if minimum is None else minimum), maximum
        low = key.minimum if key.minimum is not None else 0
        if minimum is not None and minimum != low:
            raise DeclarationError(f"{self.section} {name}: read with minimum {minimum}, "
                                   f"declared {low}")
        if maximum is not None and maximum != key.maximum and not key.limits_doc:
            raise DeclarationError(f"{name}: read with maximum {maximum}, declared "
                                   f"{key.maximum}")
        return low, (maximum if maximum is not None else key.maximum)

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
            seconds = parse_long_duration(v)
        except DurationError:
            raise self.ctx.error(
                self.key(name), 'must be a duration like "1:30:00", "5:00" (five minutes), '
                f'"3 days" or "8 weeks", not {v!r}'
            ) from None
        if seconds > MAX_DURATION_DAYS * 86400:
            raise self.ctx.error(self.key(name), f"must be at most {MAX_DURATION_DAYS} days "
                                 f"(a season), not {v!r}")
        return seconds

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

    def clock_time(self, name: str, day: date | None = None, default: Any = ...) -> Any:
        """A time of day on the contest day, or on ``day`` ("15:15"); ``default`` when the
        key is not given."""
        v = self.get(name, (str, time), default)
        if v is None or v is default:
            return v
        if isinstance(v, str):
            try:
                v = time.fromisoformat(v)
            except ValueError:
                raise self.ctx.error(self.key(name), f'is not a time like "15:15": {v!r}') from None
        assert isinstance(v, time)
        return datetime.combine(day or self.ctx.day, v, self.ctx.tz)

    def table(self, name: str, required: bool = False) -> Table | None:
        self.seen.add(name)
        self.declared(name, (dict,), ... if required else None, again=not required)
        if name not in self.data:
            if required:
                raise self.required(name)
            return None
        return Table(self.ctx, self.data[name], self.key(name))

    def tables(self, name: str, required: bool = False) -> list[Table]:
        self.seen.add(name)
        self.declared(name, (list,), ... if required else None)
        if name not in self.data:
            if required:
                raise self.required(name)
            return []
        items = self.data[name]
        if not isinstance(items, list):
            raise self.ctx.error(self.key(name), f"must be a list of tables, not {kind_of(items)}")
        return [Table(self.ctx, item, f"{self.key(name)}[{i}]") for i, item in enumerate(items)]

    def strings(self, name: str, default: Any = ...) -> Any:
        v = self.get(name, list, default)
        if not isinstance(v, list):
            return v
        for i, item in enumerate(v):
            if not isinstance(item, str):
                raise self.ctx.error(f"{self.key(name)}[{i}]", f"must be text, not {kind_of(item)}")
        return tuple(v)

    def done(self) -> None:
        """Every key of the table read: one more is a misspelling or a key of another table,
        named with the keys this table takes (as declared)."""
        known = sorted(self.seen)
        if self.section is not None:
            declared = [k.name for k in self.section.keys]
            if self.seen - set(declared):
                raise DeclarationError(f"{self.section.title}: read but not declared: "
                                       f"{sorted(self.seen - set(declared))}")
            known = declared
        unknown = sorted(set(self.data) - self.seen)
        if unknown:
            name = _shown(unknown[0])
            close = difflib.get_close_matches(unknown[0], known, n=1, cutoff=0.6)
            hint = f"did you mean {close[0]}? " if close else ""
            raise self.ctx.error(self.key(name), f"unknown key ({hint}the keys here: "
                                 f"{', '.join(known)})")


def _shown(key: str) -> str:
    """A key as written: a quoted TOML key may hold anything (a newline...), shown quoted, on
    one line."""
    return key if _BARE_KEY.fullmatch(key) else repr(key)


class Ctx:
    def __init__(self, path: str, sections: dict[str, Section] | None = None) -> None:
        self.path = path
        self.sections: dict[str, Section] = sections or {}
        self.tz: ZoneInfo = ZoneInfo("UTC")
        self.day: date = date(1970, 1, 1)

    def error(self, key: str, problem: str) -> ContestFileError:
        return ContestFileError(self.path, key, problem)


def _choices(key: Key) -> str:
    shown = [str(v).lower() if isinstance(v, bool) else f'"{v}"'
             for v in (*((True, False) if bool in key.also else ()), *key.choices)]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} or {shown[-1]}"


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


def kind_of(v: Any) -> str:
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


def lang_texts(t: Table, name: str, required: bool) -> dict[str, str]:
    """A text per language: ``{es = "...", fr = "...", en = "..."}``, or one plain text."""
    t.seen.add(name)
    t.declared(name, (str, dict), ... if required else None)
    if name not in t.data:
        if required:
            raise t.required(name)
        return {}
    v = t.data[name]
    if isinstance(v, str):
        return {lang: v for lang in LANGUAGES}
    sub = Table(t.ctx, v, t.key(name))
    out = {lang: sub.get(lang, str, None) for lang in LANGUAGES}
    sub.done()
    texts = {k: s for k, s in out.items() if s is not None}
    if not texts:
        raise t.ctx.error(t.key(name), f"needs at least one of {', '.join(LANGUAGES)}")
    return texts


def new_id(t: Table, pattern: re.Pattern[str], rule: str, taken: set[str]) -> str:
    """``id``: matching ``pattern`` (described by ``rule``), and not one of ``taken``."""
    value: str = t.get("id", str)
    if not pattern.fullmatch(value):
        raise t.ctx.error(t.key("id"), f"must be {rule}, not {value!r}")
    if value in taken:
        raise t.ctx.error(t.key("id"), f"{value!r} is used twice")
    return value


def one_line(t: Table, name: str, texts: dict[str, str]) -> None:
    for lang, text in texts.items():
        if not text.strip() or "\n" in text:
            raise t.ctx.error(f"{t.key(name)}.{lang}" if len(set(texts.values())) > 1
                              else t.key(name), "must be one line of text")
