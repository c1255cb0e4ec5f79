"""``python -m bot rating DOC...``: ratings across contests from their documents (the method:
bot/domain/ratings.py and docs/rules.md, "Ratings across contests").

The documents are read by bot/services/rating_documents.py (their events, the people in them,
every part's shape checked), and their people matched across documents by
bot/domain/rating_people.py, as ``one_entry_per_person`` matches them (``same_person``); names
alike that are not matched are reported as near matches for the organiser to confirm. Here: the
settings file, and what is printed and written.
"""

from __future__ import annotations

import csv
import io
import tomllib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from PIL import Image, ImageDraw

from bot.domain.rating_people import NearMatches as NearMatches
from bot.domain.rating_people import Person as Person
from bot.domain.rating_people import matched as matched
from bot.domain.rating_people import near_matches as near_matches
from bot.domain.rating_people import shown
from bot.domain.ratings import KINDS, UNFINISHED, WHO, Rating, Settings
from bot.features.registration.rules import name_key
from bot.services.picture import font, line_height
from bot.services.rating_documents import RatingError as RatingError
from bot.services.rating_documents import events_of as events_of


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
    who = shown(people)
    out = []
    for kind in KINDS:
        ordered = sorted(rated[kind].items(), key=lambda kv: (kv[1].value, kv[0]))
        out += [Line(kind, i, who[key], r) for i, (key, r) in enumerate(ordered, 1)]
    return out


# What is printed and written of a person: a name, a year of birth (never the full date: the
# rating needs no more, and the documents' dates are children's too) and the ratings.
COLUMNS = ["kind", "place", "name", "birth", "rating", "events", "last_event"]


def birth_year(person: Person) -> str:
    """The year of a person's birth ("1990"), or "" when unknown: all that is ever shown."""
    year = person.birth[:4]
    return year if year.isdigit() else ""


def write_csv(lines: Sequence[Line], out: TextIO) -> None:
    """The ratings as CSV: the ``birth`` column holds the year of birth only."""
    w = csv.writer(out, lineterminator="\n")
    w.writerow(COLUMNS)
    for line in lines:
        w.writerow([line.kind, line.place, line.person.name, birth_year(line.person),
                    f"{line.rating.value:.3f}", line.rating.events,
                    line.rating.history[-1][0]])


def text_lines(lines: Sequence[Line]) -> list[str]:
    """Each kind's ratings as printed (and drawn): a name and its rating, with the year of
    birth only where the same name is rated twice in that kind (to tell them apart)."""
    out: list[str] = []
    for kind in KINDS:
        of_kind = [line for line in lines if line.kind == kind]
        if not of_kind:
            continue
        names = Counter(name_key(line.person.name) for line in of_kind)
        out.append(f"{kind.capitalize()} ({len(of_kind)} rated):")
        out += [f"  {line.place}. {line.person.name}"
                + (f" ({birth_year(line.person) or 'no birth'})"
                   if names[name_key(line.person.name)] > 1 else "")
                + f": {line.rating.value:.3f} ({line.rating.events} "
                + ("event" if line.rating.events == 1 else "events") + ")" for line in of_kind]
    return out


def near_match_lines(near: NearMatches) -> list[str]:
    """The near matches as printed for the organiser to confirm, a line per group (never per
    pair of people), in the names' order: the people rated apart who share a name, how many and
    their years of birth ("Ana García: 14 rated apart (1990 ×2, no birth ×12)"); two names a
    letter or two apart with each one's people of the years both have ("Carla Ruis (1970) /
    Carla Ruiz (1970 ×2)"). Years only, never a date."""
    lines: list[tuple[tuple[str, str], str]] = []
    for name in near.namesakes:
        also = f" (also {', '.join(name.spellings[1:])})" if len(name.spellings) > 1 else ""
        lines.append(((name.key, ""), f"{name.spellings[0]}{also}: {len(name.people)} rated "
                                      f"apart ({_years(name.years)})"))
    for two in near.alike:
        sides = [f"{n.spellings[0]} ({_years(n.years, two.years)})"
                 for n in (two.first, two.second)]
        lines.append(((two.first.key, two.second.key), " / ".join(sides)))
    return [line for _, line in sorted(lines)]


def _years(years: Sequence[tuple[str, int]], only: Sequence[str] | None = None) -> str:
    """Years of birth and how many of each: "1990 ×2, 1991, no birth ×12"."""
    return ", ".join((year or "no birth") + (f" ×{n}" if n > 1 else "")
                     for year, n in years if only is None or year in only)


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

