"""A contest as one JSON document (``python -m bot export document``; read back with
``import document``): the contest file as written, the entries and their people, the whole
history every result is derived from, and, for readers, each round's heats and tables and every
ranking as the results export gives them. docs/document.md describes it, and
docs/document.schema.json holds its shape.

The public form (``--public``) is for publishing results: no births, no answers, no Telegram
ids, no history (it can't be imported). A document newer than this bot reads is refused, as a
newer database is.
"""

from __future__ import annotations

import tomllib
from datetime import date, datetime, time
from typing import Any

from bot.domain.contest import Contest
from bot.domain.registration import Member
from bot.domain.rounds import Heat, table_number
from bot.services.contest_day import ContestDay
from bot.services.exports import local_moment, result_rows
from bot.services.outcomes import new_code
from bot.storage.records import Entry
from bot.storage.store import Store
from bot.support.wallclock import CLOCK

FORMAT = "puzzlebot-contest"
VERSION = 1


class DocumentError(Exception):
    """A document that can't be read into this database: one line saying why."""


def plain(value: Any) -> Any:
    """TOML's values as JSON's: dates and times as ISO text."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    return value


# -- writing ------------------------------------------------------------------------------------


def _member(m: Member, public: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"name": m.name}
    if not public:
        out.update(born=m.born.isoformat() if m.born else None, born_year=m.year,
                   answers=sorted(m.answers), values=dict(m.values))
    return out


def _entry(e: Entry, public: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"number": e.number, "category": e.category, "local": e.local,
                           "members": [_member(m, public) for m in e.members]}
    if not public:
        out.update(registered_at=e.registered_at.isoformat(), source=e.source,
                   join_code=e.join_code, registered_by=e.registered_by,
                   meal_adults=e.meal_adults, meal_children=e.meal_children,
                   answers=dict(e.values))
    return out


async def _rounds(contest: Contest, day: ContestDay) -> list[dict[str, Any]]:
    """Each round reached, its heats with their day and venue, each entry at its table."""
    out = []
    for c in contest.categories:
        if not c.rounds:
            continue
        for r, heats in enumerate(await day.lineups(c)):
            rnd = c.rounds[r]
            listed = []
            for h, numbers in enumerate(heats, 1):
                when = rnd.when(h)
                listed.append({
                    "heat": Heat(c, r, h).id, "number": h, "name": dict(when.name),
                    "date": when.date.isoformat(),
                    "start": local_moment(contest, when.start) if when.start else None,
                    "venue": when.venue,
                    "entries": [{"number": n, "table": table_number(i, rnd.per_table)}
                                for i, n in enumerate(numbers)]})
            out.append({"category": c.id, "round": rnd.id, "name": dict(rnd.name),
                        "heats": listed})
    return out


def _history(events: list[Any]) -> list[dict[str, Any]]:
    return [{"id": e.id, "at": e.at.isoformat(), "recorded_at": e.recorded_at.isoformat(),
             "actor": e.actor, "role": e.role, "kind": e.kind, "entry": e.entry,
             "category": e.category, "stage": e.stage, "value": e.value, "ref": e.ref,
             "data": e.data or None, "supersedes": e.supersedes} for e in events]


async def export_document(contest: Contest, contest_text: str, day: ContestDay,
                          public: bool = False) -> dict[str, Any]:
    """The whole contest as one document (``public``: for publishing results)."""
    store = day.store
    table = await result_rows(contest, day)
    header = [str(h) for h in table[0]]
    doc: dict[str, Any] = {
        "document": FORMAT, "version": VERSION, "public": public,
        "exported_at": CLOCK.now().isoformat(timespec="seconds"),
        "contest": {"name": contest.name, "date": contest.date.isoformat(),
                    "timezone": contest.timezone, "language": contest.language},
        "contest_file": {"text": contest_text, "data": plain(tomllib.loads(contest_text))},
        "entries": [_entry(e, public) for e in await store.entries()],
        "rounds": await _rounds(contest, day),
        "results": [dict(zip(header, row, strict=True)) for row in table[1:]],
    }
    if not public:
        doc["people"] = await store.people_rows()
        doc["history"] = _history(await store.all_events())
    return doc


# -- reading back ---------------------------------------------------------------------------------


def check_document(doc: Any, where: str) -> None:
    """Whether ``doc`` is a document this bot reads and imports (DocumentError: why not)."""
    if not isinstance(doc, dict) or doc.get("document") != FORMAT:
        raise DocumentError(f"{where}: not a contest document (no \"document\": \"{FORMAT}\")")
    version = doc.get("version")
    if not isinstance(version, int) or version < 1:
        raise DocumentError(f"{where}: its version is not a number: {version!r}")
    if version > VERSION:
        raise DocumentError(f"{where}: document version {version} is newer than this bot reads "
                            f"({VERSION}): update the bot to import it")
    if doc.get("public"):
        raise DocumentError(f"{where}: a public document (--public) has no history and no "
                            "births: it can't be imported, only read")


def _member_from(m: dict[str, Any]) -> Member:
    return Member(str(m["name"]), date.fromisoformat(m["born"]) if m.get("born") else None,
                  m.get("born_year"), frozenset(m.get("answers") or ()),
                  tuple((str(k), str(v)) for k, v in (m.get("values") or {}).items()))


async def import_document(store: Store, contest_text: str, doc: dict[str, Any],
                          where: str) -> int:
    """A document read into a fresh database (its contest file must be the one in use):
    the entries, the people and the history as they were. How many entries."""
    check_document(doc, where)
    if plain(tomllib.loads(contest_text)) != doc["contest_file"]["data"]:
        raise DocumentError(f"{where}: written for another contest file than the one set "
                            "(PUZZLEBOT_CONTEST): import it with the document's own, "
                            "--write-contest FILE writes it out")
    if await store.entries() or await store.all_events():
        raise DocumentError("the database is not empty: a document is imported into a fresh "
                            "one (PUZZLEBOT_DB naming a file that does not exist yet)")
    async with store.transaction() as tx:
        for e in doc["entries"]:
            await tx.add_entry(
                category=e["category"], join_code=e.get("join_code") or new_code("e"),
                local=bool(e["local"]), registered_at=datetime.fromisoformat(e["registered_at"]),
                members=[_member_from(m) for m in e["members"]], number=int(e["number"]),
                source=e.get("source", "import"), registered_by=e.get("registered_by"),
                meal_adults=int(e.get("meal_adults", 0)),
                meal_children=int(e.get("meal_children", 0)),
                values=tuple((str(k), str(v)) for k, v in (e.get("answers") or {}).items()))
        for p in doc.get("people", ()):
            tx.import_person(int(p["id"]), str(p["name"]), p.get("language"),
                             p.get("tg_language"))
        for ev in doc["history"]:
            tx.import_event(
                event_id=int(ev["id"]), at=datetime.fromisoformat(ev["at"]),
                recorded_at=datetime.fromisoformat(ev["recorded_at"]), actor=ev["actor"],
                role=ev["role"], kind=ev["kind"], entry=ev["entry"], category=ev["category"],
                stage=ev["stage"], value=ev["value"], ref=ev["ref"], data=ev["data"],
                supersedes=ev["supersedes"])
    return len(doc["entries"])

