"""What ``python -m bot rating`` reads of a contest document (``export document``): its events
and the people in them (bot/domain/rating_people.py matches them across documents). Every part
read is checked as the bot writes it, so that any other document ends in one line naming the
document, the part and the problem (``RatingError``), never in a traceback.

Each document gives one event per category played once, and one per round of a category in
rounds (the entries its classification lists in that round: those who went out there, or
played it last). A public document (``--public``), or one where no one has a birth, is
refused: its people can't be matched across contests as registration matches them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from bot.domain.clock import DurationError, parse_long_duration
from bot.domain.rating_people import Person, appearance, key_of
from bot.domain.ratings import Event, Performance, Settings, estimate, kind_of
from bot.services.contest_model import MAX_MEMBERS
from bot.services.contest_toml import MAX_DURATION_DAYS
from bot.services.document import FORMAT, VERSION

OUTCOMES_LEFT_OUT = ("dns", "dsq", "oc")  # no time to rate: did not start, disqualified, o.c.
MOST_PIECES = 1_000_000
MOST_SECONDS = MAX_DURATION_DAYS * 86400
MOST_NUMBER = 1_000_000_000


class RatingError(Exception):
    """A settings file or a document the rating can't use: one line saying why."""


class _Bad(Exception):
    """A part of a document not as the bot writes it: (which part, what is wrong)."""

    def __init__(self, part: str, problem: str) -> None:
        super().__init__(part, problem)
        self.part, self.problem = part, problem


def _shown(value: Any) -> str:
    """A value found, as the problem's line shows it: short, as JSON writes it."""
    if isinstance(value, bool) or value is None:
        return {True: "true", False: "false", None: "null"}[value]
    if isinstance(value, dict | list):
        return "an object" if isinstance(value, dict) else "a list"
    text = repr(value) if not isinstance(value, int) or value.bit_length() < 128 else "a number"
    return text if len(text) <= 40 else text[:37] + "..."


def _key(obj: dict[str, Any], key: str, part: str) -> Any:
    if key not in obj:
        raise _Bad(f"{part}.{key}" if part else key, "missing")
    return obj[key]


def _obj(value: Any, part: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _Bad(part, f"must be an object, not {_shown(value)}")
    return value


def _list(value: Any, part: str) -> list[Any]:
    if not isinstance(value, list):
        raise _Bad(part, f"must be a list, not {_shown(value)}")
    return value


def _text(value: Any, part: str) -> str:
    if not isinstance(value, str):
        raise _Bad(part, f"must be a text, not {_shown(value)}")
    return value


def _whole(value: Any, part: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise _Bad(part, f"must be a whole number from {low} to {high}, not {_shown(value)}")
    return value


def _day(value: Any, part: str) -> date:
    try:
        return date.fromisoformat(_text(value, part))
    except ValueError:
        raise _Bad(part, f"must be a date (YYYY-MM-DD), not {_shown(value)}") from None


def _seconds(text: str) -> int | None:
    try:
        seconds = parse_long_duration(text) if 0 < len(text) <= 40 else None
    except (DurationError, ValueError):
        return None
    return seconds if seconds is not None and seconds <= MOST_SECONDS else None


def _duration(value: Any, part: str) -> int | None:
    """A time as the exports write it ("1:02:03"), or None when empty or below zero (no time
    to rate)."""
    if value is None or value == "":
        return None
    text = _text(value, part)
    seconds = _seconds(text[1:] if text.startswith("-") else text)
    if seconds is None:
        raise _Bad(part, f"must be a time (h:mm:ss) of at most {MAX_DURATION_DAYS} days, not "
                   f"{_shown(value)}")
    return None if text.startswith("-") else seconds


# -- the contest's categories ---------------------------------------------------------------------


@dataclass(frozen=True)
class _Puzzle:
    pieces: int
    limit: int  # seconds


@dataclass(frozen=True)
class _Category:
    members: int
    puzzle: _Puzzle
    rounds: dict[str, _Puzzle] = field(default_factory=dict)


def _puzzle(t: dict[str, Any], part: str, inherited: _Puzzle) -> _Puzzle:
    """A category's (or round's) pieces and time limit: its own, else its puzzles' total, else
    the category's."""
    own = t.get("pieces")
    pieces = _whole(own, f"{part}.pieces", 0, MOST_PIECES) if own is not None else 0
    puzzles = [_whole(p, f"{part}.puzzles[{i}]", 0, MOST_PIECES)
               for i, p in enumerate(_list(t.get("puzzles", []), f"{part}.puzzles"))]
    limit = _duration(t.get("time_limit"), f"{part}.time_limit")
    return _Puzzle(pieces or sum(puzzles) or inherited.pieces, limit or inherited.limit)


def _categories(doc: dict[str, Any]) -> dict[str, _Category]:
    part = "contest_file.data"
    data = _obj(_key(_obj(_key(doc, "contest_file", ""), "contest_file"), "data",
                     "contest_file"), part)
    out = {}
    for i, c in enumerate(_list(data.get("categories", []), f"{part}.categories")):
        at = f"{part}.categories[{i}]"
        c = _obj(c, at)
        cid = _text(_key(c, "id", at), f"{at}.id")
        puzzle = _puzzle(c, at, _Puzzle(0, 0))
        rounds = {}
        for j, r in enumerate(_list(c.get("rounds", []), f"{at}.rounds")):
            r = _obj(r, f"{at}.rounds[{j}]")
            rounds[_text(_key(r, "id", f"{at}.rounds[{j}]"), f"{at}.rounds[{j}].id")] = \
                _puzzle(r, f"{at}.rounds[{j}]", puzzle)
        out[cid] = _Category(_whole(c.get("members", 1), f"{at}.members", 1, MAX_MEMBERS),
                             puzzle, rounds)
    return out


# -- entries, rounds' days, results ---------------------------------------------------------------


def _member(m: Any, part: str, entry: str) -> Person:
    m = _obj(m, part)
    name = _text(_key(m, "name", part), f"{part}.name")
    if not key_of(name):
        raise _Bad(f"{part}.name", "is empty")
    born = _day(m["born"], f"{part}.born") if m.get("born") is not None else None
    year = m.get("born_year")
    year = _whole(year, f"{part}.born_year", 1, 9999) if year is not None else None
    if born is not None and year is not None and born.year != year:
        raise _Bad(part, f"born {born.isoformat()} and born_year {year} disagree")
    return appearance(name, born, year if born is None else born.year, entry)


def _entries(doc: dict[str, Any], where: str) -> dict[int, list[Person]]:
    out = {}
    for i, e in enumerate(_list(_key(doc, "entries", ""), "entries")):
        e = _obj(e, f"entries[{i}]")
        number = _whole(_key(e, "number", f"entries[{i}]"), f"entries[{i}].number", 1,
                        MOST_NUMBER)
        out[number] = [_member(m, f"entries[{i}].members[{j}]", f"{where}#{number}.{j}")
                       for j, m in enumerate(_list(_key(e, "members", f"entries[{i}]"),
                                                   f"entries[{i}].members"))]
    return out


def _round_days(doc: dict[str, Any]) -> dict[tuple[str, str], date]:
    """Each round's day: its first heat's."""
    out = {}
    for i, r in enumerate(_list(doc.get("rounds", []), "rounds")):
        at = f"rounds[{i}]"
        r = _obj(r, at)
        key = (_text(_key(r, "category", at), f"{at}.category"),
               _text(_key(r, "round", at), f"{at}.round"))
        days = [_day(_key(_obj(h, f"{at}.heats[{j}]"), "date", f"{at}.heats[{j}]"),
                     f"{at}.heats[{j}].date")
                for j, h in enumerate(_list(_key(r, "heats", at), f"{at}.heats"))]
        if days:
            out[key] = min(days)
    return out


@dataclass(frozen=True)
class _Row:
    category: str
    number: int
    round: str
    time: float | None  # seconds: the ranking time, or the estimate for a non-finisher
    finished: bool
    left_out: bool


def _row(row: Any, at: str, categories: dict[str, _Category]) -> _Row:
    row = _obj(row, at)
    category = _text(_key(row, "category", at), f"{at}.category")
    number = _whole(_key(row, "number", at), f"{at}.number", 1, MOST_NUMBER)
    round_id = _text(row.get("round") or "", f"{at}.round")
    outcome = _text(row.get("outcome") or "", f"{at}.outcome")
    finished = _text(_key(row, "finished", at), f"{at}.finished")
    if finished not in ("yes", "no"):
        raise _Bad(f"{at}.finished", f"must be yes or no, not {_shown(finished)}")
    time: float | None = _duration(row.get("adjusted_time"), f"{at}.adjusted_time") or \
        _duration(row.get("time"), f"{at}.time")
    pieces = row.get("pieces")
    pieces = None if pieces in (None, "") else _whole(pieces, f"{at}.pieces", 0, MOST_PIECES)
    c = categories.get(category)
    if finished == "no" and c is not None:
        puzzle = c.rounds.get(round_id, c.puzzle) if round_id else c.puzzle
        time = estimate(puzzle.limit, pieces, puzzle.pieces)
    return _Row(category, number, round_id, time, finished == "yes",
                outcome in OUTCOMES_LEFT_OUT)


def events_of(doc: Any, where: str, settings: Settings) -> tuple[list[Event], list[Person]]:
    """A document's events, and the people in them (each as this document lists them)."""
    if not isinstance(doc, dict) or doc.get("document") != FORMAT:
        raise RatingError(f"{where}: not a contest document (no \"document\": \"{FORMAT}\")")
    try:
        return _events(doc, where, settings)
    except _Bad as bad:
        raise RatingError(f"{where}: {bad.part}: {bad.problem}") from None


def _header(doc: dict[str, Any]) -> None:
    """A document of a version this bot reads, and whole (not public)."""
    version = doc.get("version")
    if isinstance(version, int) and not isinstance(version, bool) and version > VERSION:
        raise _Bad("version", f"{version} is newer than this bot reads ({VERSION}): update "
                   "the bot")
    _whole(version, "version", 1, VERSION)
    if doc.get("public", False) is not False:
        if doc.get("public") is not True:
            raise _Bad("public", f"must be true or false, not {_shown(doc.get('public'))}")
        raise _Bad("public", "a public document (--public) has no births: its people can't be "
                   "matched across contests; rate the whole document (export document "
                   "without --public)")


def _events(doc: dict[str, Any], where: str, settings: Settings
            ) -> tuple[list[Event], list[Person]]:
    _header(doc)
    contest_day = _day(_key(_obj(_key(doc, "contest", ""), "contest"), "date", "contest"),
                       "contest.date")
    categories = _categories(doc)
    entries = _entries(doc, where)
    if entries and not any(p.birth for members in entries.values() for p in members):
        raise RatingError(f"{where}: no one in it has a birth (a date or a year): its people "
                          "can't be matched across contests as registration matches them")
    round_days = _round_days(doc)
    groups: dict[tuple[str, str], list[Performance]] = {}
    people: list[Person] = []
    for i, row in enumerate(_list(_key(doc, "results", ""), "results")):
        r = _row(row, f"results[{i}]", categories)
        members = entries.get(r.number)
        if r.category not in categories or members is None or r.left_out or not r.time:
            continue
        for person in members:
            if settings.who == "with_birth" and not person.birth:
                continue
            people.append(person)
            groups.setdefault((r.category, r.round), []).append(
                Performance(person.key, float(r.time), estimated=not r.finished))
    name = Path(where).stem
    return [Event(f"{name}/{c}" + (f"/{r}" if r else ""),
                  round_days.get((c, r), contest_day) if r else contest_day,
                  kind_of(categories[c].members), tuple(perfs))
            for (c, r), perfs in groups.items()], people
