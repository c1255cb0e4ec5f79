"""The automatic backups on disk: each a checked copy of the database (``Store.backup_to``)
named by when it was taken, the old ones thinned out by ``rules.to_remove``; and a copy put
back in the database's place (``restore``), the database it replaces kept aside."""

from __future__ import annotations

import gzip
import os
import shutil
import sqlite3
import tempfile
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from bot.features.upkeep import rules
from bot.storage.backup import copy_database
from bot.storage.db import StoreError
from bot.storage.store import Store

PREFIX, SUFFIX = "puzzlebot-", ".sqlite3"
STAMP = "%Y%m%d-%H%M%SZ"  # in UTC: a change of summer time never gives two copies one name
SENT = "sent-to-organisers"  # the folder's note of the last day a copy went to the organisers


def copy_name(taken: datetime) -> str:
    return PREFIX + taken.astimezone(UTC).strftime(STAMP) + SUFFIX


def taken_at(path: Path) -> datetime | None:
    """When a copy was taken, from its name (None: not one of ours)."""
    name = path.name
    if not (name.startswith(PREFIX) and name.endswith(SUFFIX)):
        return None
    try:
        return datetime.strptime(name[len(PREFIX):-len(SUFFIX)], STAMP).replace(tzinfo=UTC)
    except ValueError:
        return None


def copies(folder: Path) -> dict[datetime, Path]:
    """The copies in ``folder``, by when each was taken ({}: none, or no folder)."""
    try:
        paths = list(folder.iterdir())
    except OSError:
        return {}
    return {t: p for p in paths if (t := taken_at(p)) is not None}


def newest(folder: Path) -> tuple[datetime, Path] | None:
    found = copies(folder)
    return max(found.items()) if found else None


@dataclass(frozen=True)
class Taken:
    path: Path
    events: int
    removed: tuple[Path, ...]


async def take(store: Store, folder: Path, now: datetime, zone: ZoneInfo) -> Taken:
    """A copy now into ``folder`` (made, readable by its owner only, if missing), then the
    copies no longer kept deleted. ``StoreError`` when it could not be taken (nothing
    deleted then)."""
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"{folder}: cannot be created ({exc.strerror or exc})") from None
    path = folder / copy_name(now)
    part = path.with_name(path.name + ".part")  # named as a copy only once whole and checked
    part.unlink(missing_ok=True)
    events = await store.backup_to(part)
    os.replace(part, path)
    found = copies(folder)
    removed = []
    for taken in rules.to_remove(found, zone, now):
        try:
            found[taken].unlink()
            removed.append(found[taken])
        except OSError:
            pass  # kept this time; the next copy tries again
    return Taken(path, events, tuple(removed))


def last_sent(folder: Path) -> date | None:
    """The last day a copy went to the organisers (None: never)."""
    try:
        return date.fromisoformat((folder / SENT).read_text().strip())
    except (OSError, ValueError):
        return None


def note_sent(folder: Path, day: date) -> None:
    (folder / SENT).write_text(day.isoformat() + "\n")


def packed(path: Path) -> bytes:
    """A copy compressed to be sent (a database shrinks to a fifth or less)."""
    return gzip.compress(path.read_bytes(), compresslevel=6)


# -- putting a copy back -------------------------------------------------------------------


@dataclass(frozen=True)
class Restored:
    events: int
    aside: Path | None  # where the database it replaced was kept (None: there was none)


def check_copy(path: Path) -> int:
    """How many events a copy holds, once it is known to be a whole puzzlebot database
    (``StoreError`` otherwise)."""
    try:
        con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            check = [str(r[0]) for r in con.execute("PRAGMA integrity_check")]
            tables = {str(r[0]) for r in con.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            if check != ["ok"]:
                raise StoreError(f"{path}: damaged ({'; '.join(check[:3])})")
            if not {"events", "entries", "outbox"} <= tables:
                raise StoreError(f"{path}: not a puzzlebot database")
            return int(con.execute("SELECT COUNT(*) FROM events").fetchone()[0])
        finally:
            con.close()
    except sqlite3.Error as exc:
        raise StoreError(f"{path}: not a database ({exc})") from None


def restore(source: Path, db: Path, now: datetime) -> Restored:
    """``source`` (a copy, or one sent as .gz) put in place of the database ``db``, checked
    first; the database it replaces is copied aside (``<name>-before-restore-<when>``), never
    deleted. The bot must be stopped (the caller holds the database's lock)."""
    if not source.is_file():
        raise StoreError(f"{source}: no such file")
    with tempfile.TemporaryDirectory(dir=db.resolve().parent) as tmp:
        plain = source
        if source.name.endswith(".gz"):
            plain = Path(tmp) / "copy.sqlite3"
            try:
                with gzip.open(source, "rb") as src, open(plain, "wb") as out:
                    shutil.copyfileobj(src, out)
            except (OSError, EOFError) as exc:
                raise StoreError(f"{source}: not a whole .gz file ({exc})") from None
        events = check_copy(plain)
        aside = None
        if db.exists():
            aside = db.with_name(f"{db.stem}-before-restore-"
                                 f"{now.astimezone(UTC).strftime(STAMP)}{db.suffix}")
            copy_database(db, aside)
        staged = Path(tmp) / "staged.sqlite3"
        copy_database(plain, staged)
        for extra in ("-wal", "-shm"):
            Path(str(db) + extra).unlink(missing_ok=True)
        os.replace(staged, db)
    return Restored(events, aside)
