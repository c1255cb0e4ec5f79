"""``python -m bot export document``, ``import document`` and ``rating``: the contest as one
JSON document, a document read back into a fresh database (bot/services/document.py), and
ratings across contests from their documents (bot/services/ratings.py).

Every file written here goes through ``bot.support.outputs.write_output``: never over the
database, its settings, the contest file in use or a backup, and (with people's data in it:
the document, the ratings' CSV and picture) readable by its owner only."""

from __future__ import annotations

import io
import json
import sys
from datetime import date
from pathlib import Path
from typing import Any

from bot.domain.contest import Contest
from bot.domain.ratings import Event, in_window, ratings
from bot.services.contest_day import ContestDay
from bot.services.document import DocumentError, export_document, import_document
from bot.services.document_import import parse_document
from bot.services.ratings import (
    RatingError,
    events_of,
    matched,
    near_match_lines,
    near_matches,
    ranked,
    rating_png,
    read_settings,
    text_lines,
    write_csv,
)
from bot.storage.store import Store
from bot.support.config import Config
from bot.support.outputs import OutputRefused, check_output, write_output


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


async def write_document(config: Config, contest: Contest, store: Store, public: bool,
                         out: str | None) -> int:
    text = Path(config.contest_file).read_text(encoding="utf-8")
    doc = await export_document(contest, text, ContestDay(contest, store, config.organisers),
                                public)
    written = json.dumps(doc, ensure_ascii=False, indent=1) + "\n"
    if out is None:
        sys.stdout.write(written)
        return 0
    try:
        write_output(out, written.encode("utf-8"))
    except OutputRefused as exc:
        return _fail(str(exc))
    except OSError as exc:
        return _fail(f"{out}: cannot be written ({exc.strerror or exc})")
    print(f"written to {out}: {len(doc['entries'])} entries"
          + ("" if public else f", {len(doc['history'])} events"))
    return 0


def read_document(path: str) -> dict[str, Any]:
    """A whole document read and checked as this bot imports one (its kind, version, shape:
    bot/services/document_import.py), or DocumentError with one line."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise DocumentError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    except UnicodeDecodeError as exc:
        raise DocumentError(f"{path}: is not JSON ({exc})") from None
    return parse_document(text, path)


def write_contest_file(path: str, out: str) -> int:
    """``import document DOC --write-contest FILE``: the document's own contest file."""
    try:
        check_output(out, also=[(path, "the document read")])
        doc = read_document(path)
        # a contest file holds no one's data: written as any file the user makes
        write_output(out, str(doc["contest_file"]["text"]).encode("utf-8"), private=False,
                     also=[(path, "the document read")])
    except (DocumentError, OutputRefused) as exc:
        return _fail(str(exc))
    except OSError as exc:
        return _fail(f"{out}: cannot be written ({exc.strerror or exc})")
    print(f"written to {out}: the contest file of {doc['contest']['name']}")
    return 0


async def load_document(config: Config, store: Store, path: str) -> int:
    try:
        doc = read_document(path)
        done = await import_document(store, Path(config.contest_file).read_text(
            encoding="utf-8"), doc, path, config.contest_file)
    except DocumentError as exc:
        return _fail(f"{exc}; nothing was imported")
    print(f"imported {done.entries} entries and {done.events} events from {path}")
    if done.left_out:
        print(f"left out: {done.left_out} events of who is who (phones following entries, "
              "volunteers' and organisers' links): a document makes nobody a volunteer or an "
              "organiser; each entry has a new join code (export entries), volunteers and "
              "organisers a new link")
    if done.people_kept:
        print(f"{done.people_kept} people this database knew already kept as they are here")
    return 0


def _read_json(path: str) -> Any:
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise RatingError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    except RecursionError:  # arrays in arrays, thousands deep
        raise RatingError(f"{path}: not a contest document (nested too deep to read)"
                          ) from None
    except ValueError as exc:  # not UTF-8, not JSON, a number of thousands of digits
        raise RatingError(f"{path}: cannot be read as JSON ({str(exc)[:200]})") from None


def _day_asked(at: str | None) -> date | None:
    """``--at``: a date from 0001-01-01 to 9999-12-31."""
    try:
        return date.fromisoformat(at) if at is not None else None
    except ValueError:
        raise RatingError(f"--at {at}: not a date (YYYY-MM-DD, from 0001-01-01 to "
                          "9999-12-31)") from None


def _some_in_window(events: list[Event], day: date, months: int) -> None:
    """A rating on a day with no event in its window rates no one: said, not printed empty."""
    if not any(in_window(e.day, day, months) for e in events):
        days = sorted(e.day for e in events)
        raise RatingError(f"--at {day.isoformat()}: no event of these documents in the "
                          f"{months} months up to that day (theirs are from "
                          f"{days[0].isoformat()} to {days[-1].isoformat()})")


def rating(paths: list[str], settings_path: str | None, at: str | None, csv_out: str | None,
           png_out: str | None) -> int:
    """``python -m bot rating DOC...``: each person's rating per kind of category, printed
    (and written as CSV and a picture), with the near matches to confirm. Nothing printed or
    written says more of a person than a name, a year of birth and the ratings."""
    read = [(path, "one of the documents read") for path in paths]
    try:
        for out in (csv_out, png_out):  # before anything is read: a refused path writes nothing
            if out:
                check_output(out, also=read)
    except OutputRefused as exc:
        return _fail(str(exc))
    try:
        settings = read_settings(settings_path)
        asked = _day_asked(at)
        events, people = [], []
        seen: dict[tuple[str, str], str] = {}
        for path in paths:
            doc = _read_json(path)
            found, who = events_of(doc, path, settings)
            contest = (str(doc["contest"].get("name")), str(doc["contest"]["date"]))
            if contest in seen:  # counted twice, every result would weigh double
                raise RatingError(f"{path}: the same contest as {seen[contest]} "
                                  f"({contest[0]}, {contest[1]}): give each contest once")
            seen[contest] = path
            events += found
            people += who
        if not events:
            raise RatingError("no results to rate in these documents")
        events, people = matched(events, people)  # as registration matches people
        day = asked or max(e.day for e in events)
        _some_in_window(events, day, settings.window_months)
    except RatingError as exc:
        return _fail(str(exc))
    lines = ranked(ratings(events, settings, day), people)
    print(f"Ratings on {day.isoformat()} over {settings.window_months} months "
          f"({len(events)} events):")
    print("\n".join(text_lines(lines)))
    close = near_match_lines(near_matches(people))
    if close:
        print("Near matches to confirm (rated apart; the same name and birth would join them):")
        print("\n".join(f"  {line}" for line in close))
    files: list[tuple[str, bytes]] = []
    if csv_out:
        table = io.StringIO(newline="")
        write_csv(lines, table)
        files.append((csv_out, table.getvalue().encode("utf-8")))
    if png_out:
        files.append((png_out, rating_png(lines, f"Ratings on {day.isoformat()}")))
    for out, data in files:
        try:
            write_output(out, data, also=read)
        except OutputRefused as exc:
            return _fail(str(exc))
        except OSError as exc:
            return _fail(f"{out}: cannot be written ({exc.strerror or exc})")
    return 0
