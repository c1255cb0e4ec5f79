"""``python -m bot rating DOC...``: ratings across contests from their documents (the method:
bot/domain/ratings.py and docs/rules.md, "Ratings across contests").

Each document gives one event per category played once, and one per round of a category in
rounds (the entries its classification lists in that round: those who went out there, or
played it last). People are matched across documents as ``one_entry_per_person`` matches them:
the same name without case, accents or spaces, and the same birth; names alike that are not
matched (a birth missing or different, a letter off) are reported as near matches for the
organiser to confirm.
"""

from __future__ import annotations

import csv
import difflib
import io
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any, TextIO

from PIL import Image, ImageDraw

from bot.domain.clock import DurationError, parse_long_duration
from bot.domain.ratings import (
    KINDS,
    UNFINISHED,
    WHO,
    Event,
    Performance,
    Rating,
    Settings,
    estimate,
    kind_of,
)
from bot.domain.registration import name_key
from bot.services.picture import font, line_height

OUTCOMES_LEFT_OUT = ("dns", "dsq", "oc")  # no time to rate: did not start, disqualified, o.c.


class RatingError(Exception):
    """A settings file or a document the rating can't use: one line saying why."""


def read_settings(path: str | None) -> Settings:
    """``rating.toml``: ``window_months = 12``, ``unfinished = "estimate"`` (or
    ``"leave_out"``), ``who = "everyone"`` (or ``"with_birth"``); each optional."""
    if path is None:
        return Settings()
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise RatingError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise RatingError(f"{path}: is not valid TOML: {exc}") from None
    unknown = set(data) - {"window_months", "unfinished", "who"}
    if unknown:
        raise RatingError(f"{path}: {sorted(unknown)[0]}: unknown key (window_months, "
                          "unfinished, who)")
    months = data.get("window_months", 12)
    if not isinstance(months, int) or isinstance(months, bool) or not 1 <= months <= 120:
        raise RatingError(f"{path}: window_months: must be a number of months from 1 to 120")
    for key, allowed in (("unfinished", UNFINISHED), ("who", WHO)):
        if data.get(key, allowed[0]) not in allowed:
            raise RatingError(f"{path}: {key}: must be one of {', '.join(allowed)}")
    return Settings(months, data.get("unfinished", "estimate"), data.get("who", "everyone"))


# -- people ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Person:
    key: str
    name: str
    birth: str  # ISO date, a year, or "" when unknown


def _person(member: dict[str, Any]) -> Person:
    born = member.get("born") or (str(member["born_year"]) if member.get("born_year") else "")
    year = born[:4]
    return Person(f"{name_key(member['name'])}|{year}", str(member["name"]), born)


def near_matches(people: Sequence[Person]) -> list[tuple[Person, Person]]:
    """Pairs of people not matched who may be one: the same name with a birth missing or
    different, or names a letter or two apart with the same birth year."""
    out = []
    listed = sorted({p.key: p for p in people}.values(), key=lambda p: p.key)
    for i, a in enumerate(listed):
        for b in listed[i + 1:]:
            name_a, year_a = a.key.split("|")
            name_b, year_b = b.key.split("|")
            if name_a == name_b or (year_a == year_b and difflib.SequenceMatcher(
                    None, name_a, name_b).ratio() >= 0.85):
                out.append((a, b))
    return out


# -- events from documents ------------------------------------------------------------------------


def _seconds(text: Any) -> int | None:
    if not text:
        return None
    try:
        return parse_long_duration(str(text))
    except DurationError:
        return None


def _limits(category: dict[str, Any], round_id: str | None) -> tuple[int, int]:
    """The puzzle's pieces and time limit of a category, or of one of its rounds."""
    pieces = int(category.get("pieces") or sum(category.get("puzzles") or ()) or 0)
    limit = _seconds(category.get("time_limit")) or 0
    for r in category.get("rounds", ()):
        if r.get("id") == round_id:
            pieces = int(r.get("pieces") or sum(r.get("puzzles") or ()) or pieces)
            limit = _seconds(r.get("time_limit")) or limit
    return pieces, limit


def _event_day(doc: dict[str, Any], category: str, round_id: str | None) -> date:
    for r in doc.get("rounds", ()):
        if r["category"] == category and r["round"] == round_id and r["heats"]:
            return min(date.fromisoformat(h["date"]) for h in r["heats"])
    return date.fromisoformat(doc["contest"]["date"])


def events_of(doc: dict[str, Any], where: str, settings: Settings
              ) -> tuple[list[Event], list[Person]]:
    """A document's events, and the people in them."""
    if doc.get("document") != "puzzlebot-contest":
        raise RatingError(f"{where}: not a contest document")
    categories = {c["id"]: c for c in doc["contest_file"]["data"].get("categories", ())}
    entries = {e["number"]: e for e in doc["entries"]}
    groups: dict[tuple[str, str | None], list[Performance]] = {}
    people: list[Person] = []
    name = Path(where).stem
    for row in doc["results"]:
        category = categories.get(row["category"])
        entry = entries.get(row["number"])
        if category is None or entry is None or row.get("outcome") in OUTCOMES_LEFT_OUT:
            continue
        round_id = row.get("round") or None
        pieces, limit = _limits(category, round_id)
        finished = row.get("finished") == "yes"
        time = _seconds(row.get("adjusted_time") or row.get("time")) if finished else \
            estimate(limit, row.get("pieces") if isinstance(row.get("pieces"), int) else None,
                     pieces)
        if time is None or time <= 0:
            continue
        for m in entry["members"]:
            person = _person(m)
            if settings.who == "with_birth" and not person.birth:
                continue
            people.append(person)
            groups.setdefault((row["category"], round_id), []).append(
                Performance(person.key, float(time), estimated=not finished))
    events = [Event(f"{name}/{c}" + (f"/{r}" if r else ""), _event_day(doc, c, r),
                    kind_of(int(categories[c].get("members", 1))), tuple(perfs))
              for (c, r), perfs in groups.items()]
    return events, people


# -- what it prints and writes --------------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    kind: str
    place: int
    person: Person
    rating: Rating


def ranked(rated: dict[str, dict[str, Rating]], people: Sequence[Person]) -> list[Line]:
    """Each kind's people, best (lowest) rating first, each named as first met (with the
    fullest birth any document gives)."""
    who: dict[str, Person] = {}
    for p in people:
        known = who.setdefault(p.key, p)
        if len(p.birth) > len(known.birth):
            who[p.key] = Person(p.key, known.name, p.birth)
    out = []
    for kind in KINDS:
        ordered = sorted(rated[kind].items(), key=lambda kv: (kv[1].value, kv[0]))
        out += [Line(kind, i, who[key], r) for i, (key, r) in enumerate(ordered, 1)]
    return out


COLUMNS = ["kind", "place", "name", "birth", "rating", "events", "last_event"]


def write_csv(lines: Sequence[Line], out: TextIO) -> None:
    w = csv.writer(out, lineterminator="\n")
    w.writerow(COLUMNS)
    for line in lines:
        w.writerow([line.kind, line.place, line.person.name, line.person.birth,
                    f"{line.rating.value:.3f}", line.rating.events,
                    line.rating.history[-1][0]])


def text_lines(lines: Sequence[Line]) -> list[str]:
    out: list[str] = []
    for kind in KINDS:
        of_kind = [line for line in lines if line.kind == kind]
        if not of_kind:
            continue
        out.append(f"{kind.capitalize()} ({len(of_kind)} rated):")
        out += [f"  {line.place}. {line.person.name}"
                + (f" ({line.person.birth})" if line.person.birth else "")
                + f": {line.rating.value:.3f} ({line.rating.events} "
                + ("event" if line.rating.events == 1 else "events") + ")" for line in of_kind]
    return out


def rating_png(lines: Sequence[Line], title: str) -> bytes:
    """The ratings as a picture to share: a title, then one line per person."""
    texts = [(title, "title")] + [(t, "header" if not t.startswith("  ") else "names")
                                  for t in text_lines(lines)]
    width = 1080
    height = 40 + sum(line_height(style) for _, style in texts) + 40
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    y = 40
    for text, style in texts:
        draw.text((48, y), text, fill="#111111", font=font(style))
        y += line_height(style)
    buf = io.BytesIO()
    image.save(buf, format="PNG", optimize=True)
    return buf.getvalue()

