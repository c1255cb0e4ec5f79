"""``python -m bot export document``, ``import document`` and ``rating``: the contest as one
JSON document, a document read back into a fresh database (bot/services/document.py), and
ratings across contests from their documents (bot/services/ratings.py)."""

from __future__ import annotations

import json
import sys
from datetime import date
from pathlib import Path
from typing import Any

from bot.domain.contest import Contest
from bot.domain.ratings import ratings
from bot.services.contest_day import ContestDay
from bot.services.document import DocumentError, check_document, export_document, import_document
from bot.services.ratings import (
    RatingError,
    events_of,
    near_matches,
    ranked,
    rating_png,
    read_settings,
    text_lines,
    write_csv,
)
from bot.storage.store import Store
from bot.support.config import Config


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
        Path(out).write_text(written, encoding="utf-8")
    except OSError as exc:
        return _fail(f"{out}: cannot be written ({exc.strerror or exc})")
    print(f"written to {out}: {len(doc['entries'])} entries"
          + ("" if public else f", {len(doc['history'])} events"))
    return 0


def read_document(path: str) -> dict[str, Any]:
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise DocumentError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DocumentError(f"{path}: is not JSON ({exc})") from None
    check_document(doc, path)
    return doc  # type: ignore[no-any-return]


def write_contest_file(path: str, out: str) -> int:
    """``import document DOC --write-contest FILE``: the document's own contest file."""
    try:
        doc = read_document(path)
        Path(out).write_text(doc["contest_file"]["text"], encoding="utf-8")
    except DocumentError as exc:
        return _fail(str(exc))
    except OSError as exc:
        return _fail(f"{out}: cannot be written ({exc.strerror or exc})")
    print(f"written to {out}: the contest file of {doc['contest']['name']}")
    return 0


async def load_document(config: Config, store: Store, path: str) -> int:
    try:
        doc = read_document(path)
        count = await import_document(store, Path(config.contest_file).read_text(
            encoding="utf-8"), doc, path)
    except DocumentError as exc:
        return _fail(f"{exc}; nothing was imported")
    print(f"imported {count} entries and {len(doc['history'])} events from {path}")
    return 0


def rating(paths: list[str], settings_path: str | None, at: str | None, csv_out: str | None,
           png_out: str | None) -> int:
    """``python -m bot rating DOC...``: each person's rating per kind of category, printed
    (and written as CSV and a picture), with the near matches to confirm."""
    try:
        settings = read_settings(settings_path)
        events, people = [], []
        for path in paths:
            try:
                doc = json.loads(Path(path).read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
                raise RatingError(f"{path}: cannot be read as JSON ({exc})") from None
            found, who = events_of(doc, path, settings)
            events += found
            people += who
        if not events:
            raise RatingError("no results to rate in these documents")
        day = date.fromisoformat(at) if at else max(e.day for e in events)
    except (RatingError, ValueError) as exc:
        return _fail(str(exc))
    lines = ranked(ratings(events, settings, day), people)
    print(f"Ratings on {day.isoformat()} over {settings.window_months} months "
          f"({len(events)} events):")
    print("\n".join(text_lines(lines)))
    close = near_matches(people)
    if close:
        print("Near matches to confirm (rated apart; the same name and birth would join them):")
        for a, b in close:
            print(f"  {a.name} ({a.birth or 'no birth'}) / {b.name} ({b.birth or 'no birth'})")
    if csv_out:
        with open(csv_out, "w", encoding="utf-8", newline="") as fh:
            write_csv(lines, fh)
    if png_out:
        Path(png_out).write_bytes(rating_png(lines, f"Ratings on {day.isoformat()}"))
    return 0
