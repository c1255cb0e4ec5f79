"""A contest document read back into a fresh database (``python -m bot import document``):
read through the document's declared shape (bot/services/document_schema.py), its contest
file the one in use, its entries and people as registration takes them, its history replayed
through the rules the chat uses (bot/services/document_history.py). The first problem refuses
the whole document with one line, before anything is written; what is written is one
transaction. docs/document.md, "Importing", says what is checked and what is left out.

Left out, always: the events of who is who (links, the volunteers' and organisers' links and
who opened them) and every join code (each entry gets a new one): a document opens no door of
the bot it is imported into."""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from bot.domain.contest import Contest
from bot.domain.events import ERASE, MEMBER_FIX, PURGE, SEEK, EventKind
from bot.features.registration.rules import (
    Member,
    birth_in_range,
    check_entry,
    check_members,
    clean_name,
    name_problem,
)
from bot.features.registration.texts import ineligible_text
from bot.services.contest_file import ContestFileError, parse_contest
from bot.services.document_events import (
    EARLIEST,
    LATEST,
    SECRET_DATA,
    WHO_IS_WHO,
    event_problem,
)
from bot.services.document_history import Replay
from bot.services.document_schema import (
    FORMAT,
    LANGUAGES,
    VERSION,
    DocumentError,
    plain,
    shape_problem,
    value_problem,
)
from bot.services.outcomes import new_code
from bot.storage.records import Entry, Event
from bot.storage.store import Store

MOST_MEALS = 1000  # meals an entry orders, at most
SOURCES = ("chat", "import")


@dataclass(frozen=True)
class Imported:
    """What an import wrote: entries, events, people (``people_kept``: already in the
    database, kept as they were); ``left_out``: the events of who is who, not imported."""

    entries: int
    events: int
    left_out: int
    people: int
    people_kept: int


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON has")


def parse_document(text: str, where: str) -> dict[str, Any]:
    """A document's text read as JSON and checked as a document this bot imports (its
    kind, version and shape: ``check_document``)."""
    try:
        doc = json.loads(text, parse_constant=_no_constant)
    except RecursionError:  # arrays in arrays, thousands deep
        raise DocumentError(f"{where}: is not JSON this bot reads (nested too deep)") from None
    except ValueError as exc:  # not JSON, NaN, a number of thousands of digits
        raise DocumentError(f"{where}: is not JSON ({str(exc)[:200]})") from None
    check_document(doc, where)
    return doc  # type: ignore[no-any-return]


def check_document(doc: Any, where: str) -> None:
    """Whether ``doc`` is a whole document of a version this bot reads, of the declared shape
    (DocumentError: why not, in one line)."""
    if not isinstance(doc, dict) or doc.get("document") != FORMAT:
        raise DocumentError(f"{where}: not a contest document (no \"document\": \"{FORMAT}\")")
    version = doc.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise DocumentError(f"{where}: its version is not a number: {str(version)[:40]}")
    if version > VERSION:
        raise DocumentError(f"{where}: document version {version} is newer than this bot reads "
                            f"({VERSION}): update the bot to import it")
    if doc.get("public") is True:
        raise DocumentError(f"{where}: a public document (--public) has no history and no "
                            "births: it can't be imported, only read")
    problem = value_problem(doc) or shape_problem(doc)
    if problem is not None:
        raise DocumentError(f"{where}: {problem}")


# -- the contest, the entries, the people --------------------------------------------------------


def _contest(contest_text: str, doc: dict[str, Any], where: str,
             contest_path: str = "PUZZLEBOT_CONTEST") -> Contest:
    """The contest in use, when the document's contest file is it: its text and its data
    the same rules as the file in use, and the one as the other (read as the file at
    ``contest_path``: what it names beside it, an enigma's picture, is looked for there)."""
    read = tomllib.loads(contest_text)
    in_use = plain(read)
    try:
        its_own = plain(tomllib.loads(doc["contest_file"]["text"]))
    except (ValueError, RecursionError) as exc:  # TOMLDecodeError; nested too deep
        raise DocumentError(f"{where}: contest_file.text is not a contest file's TOML "
                            f"({str(exc)[:200]})") from None
    if its_own != doc["contest_file"]["data"]:
        raise DocumentError(f"{where}: contest_file.text and contest_file.data are not the "
                            "same contest file")
    if in_use != its_own:
        raise DocumentError(f"{where}: written for another contest file than the one set "
                            "(PUZZLEBOT_CONTEST): import it with the document's own, "
                            "--write-contest FILE writes it out")
    try:
        contest = parse_contest(read, contest_path)
    except ContestFileError as exc:  # a picture gone since the document was written
        raise DocumentError(f"{where}: its contest file can't be read here: {exc}") from None
    heading = doc["contest"]
    if (heading["name"], heading["date"], heading["timezone"], heading["language"]) != (
            contest.name, contest.date.isoformat(), contest.timezone, contest.language):
        raise DocumentError(f"{where}: its contest (name, date, time zone, language) is not "
                            "what its contest file says")
    return contest


def _moment(text: str, what: str) -> datetime:
    moment = datetime.fromisoformat(text)  # the shape holds it to a date-time with its offset
    if not EARLIEST <= moment < LATEST:
        raise ValueError(f"{what} {text} is not a date the bot records (1970 to 9000)")
    return moment


def _member(contest: Contest, m: dict[str, Any]) -> Member:
    name = m["name"]
    if name != clean_name(name) or name_problem(name) is not None:
        raise ValueError(f"member name {name[:40]!r} is not one registration takes")
    born = date.fromisoformat(m["born"]) if m.get("born") else None
    year = born.year if born is not None else m.get("born_year")
    if m.get("born_year") not in (None, year) or (
            year is not None and not birth_in_range(year, contest.date)):
        raise ValueError(f"{name}: birth {m.get('born') or year} is not one registration takes")
    asked = {q.id for q in contest.questions if not q.per_entry}
    yes_no = {q.id for q in contest.questions if q.yes_no and not q.per_entry}
    answers, values = set(m.get("answers") or ()), dict(m.get("values") or {})
    if answers - yes_no or set(values) - asked:
        unknown = sorted((answers - yes_no) | (set(values) - asked))[0]
        raise ValueError(f"{name}: an answer to {unknown!r}, not a question asked of members")
    return Member(name, born, year, frozenset(answers), tuple(values.items()))


def _entry(contest: Contest, e: dict[str, Any], seeking: bool, scrubbed: bool = False) -> Entry:
    """Entry row ``e``, checked as registration checks it (``seeking``: registered alone,
    looking for a partner: fewer members than its category takes; ``scrubbed``: its personal
    data removed, so its members are not checked against the category again)."""
    category = contest.category(e["category"])
    if category is None:
        raise ValueError(f"category {e['category']!r} is not one of the contest's")
    low = 1 if seeking else category.fewest
    if not low <= len(e["members"]) <= category.members:
        raise ValueError(f"{len(e['members'])} members: an entry of {category.id} has "
                         f"{category.fewest} to {category.members}")
    if "registered_at" not in e or e.get("source", "import") not in SOURCES:
        raise ValueError("no registered_at, or a source that is not chat or import")
    if e.get("registered_by") is not None and e["registered_by"] < 1 or max(e.get("meal_adults", 0),
                                                 e.get("meal_children", 0)) > MOST_MEALS:
        raise ValueError("registered_by is not a Telegram id, or meals beyond count")
    answers = dict(e.get("answers") or {})
    per_entry = {q.id for q in contest.questions if q.per_entry}
    if set(answers) - per_entry:
        raise ValueError(f"an answer to {sorted(set(answers) - per_entry)[0]!r}, not a "
                         "question asked once per entry")
    members = tuple(_member(contest, m) for m in e["members"])
    problem = (None if scrubbed else check_members(category, members, contest.date)
               if seeking and len(members) < category.fewest
               else check_entry(category, members, contest.date))
    if problem is not None:  # as registration, the CSV import and a member change: never taken
        raise ValueError(f"not eligible for {category.id}: member {problem.member + 1} "
                         f"({members[problem.member].name}): "
                         + ineligible_text("en", problem).removeprefix("Not possible: "))
    return Entry(number=e["number"], category=category.id, join_code="", local=e["local"],
                 registered_at=_moment(e["registered_at"], "registered_at"),
                 members=members,
                 source=e.get("source", "import"), registered_by=e.get("registered_by"),
                 meal_adults=e.get("meal_adults", 0), meal_children=e.get("meal_children", 0),
                 values=tuple(answers.items()))


def _entries(contest: Contest, rows: list[dict[str, Any]], where: str,
             seeking: set[int], scrubbed: set[int]) -> dict[int, Entry]:
    out: dict[int, Entry] = {}
    for i, row in enumerate(rows):
        if row["number"] in out:
            raise DocumentError(f"{where}: entries[{i}]: entry {row['number']} appears twice")
        try:
            out[row["number"]] = _entry(contest, row, row["number"] in seeking,
                                        row["number"] in scrubbed)
        except ValueError as exc:
            raise DocumentError(f"{where}: entries[{i}] (entry {row['number']}): {exc}") from None
    return out


def _people(rows: list[dict[str, Any]], where: str) -> list[dict[str, Any]]:
    seen: set[int] = set()
    for i, p in enumerate(rows):
        problem = None
        if p["id"] in seen:
            problem = f"person {p['id']} appears twice"
        elif p["id"] < 1:
            problem = f"id {p['id']} is not a Telegram id"
        elif p.get("language") not in (None, *LANGUAGES):
            problem = f"language {p['language']!r} is not one the bot speaks"
        elif len(p["name"]) > 300 or len(p.get("tg_language") or "") > 35:
            problem = "a name or a Telegram language longer than Telegram's"
        elif p["name"] != clean_name(p["name"]):
            problem = f"name {p['name'][:40]!r}: control characters or spaces the bot never " \
                      "stores (it stores a name as registration cleans one)"
        elif not (p.get("tg_language") or "").isprintable():
            problem = f"Telegram language {p['tg_language']!r} with control characters"
        if problem is not None:
            raise DocumentError(f"{where}: people[{i}]: {problem}")
        seen.add(p["id"])
    return rows


# -- the history --------------------------------------------------------------------------------


def _event(ev: dict[str, Any]) -> Event:
    return Event(ev["id"], datetime.fromisoformat(ev["at"]), ev["actor"], ev["role"], ev["kind"],
                 ev["entry"], ev["category"], ev["stage"], ev["value"], ev["ref"],
                 {k: v for k, v in (ev["data"] or {}).items() if k not in SECRET_DATA},
                 ev["supersedes"],
                 datetime.fromisoformat(ev["recorded_at"]))


def _named(ev: dict[str, Any]) -> str:
    of = f" of entry {ev['entry']}" if ev["entry"] is not None else ""
    return f"event {ev['id']} ({ev['kind']}{of})"


def _history(contest: Contest, entries: dict[int, Entry], rows: list[dict[str, Any]],
             where: str, unlinked: set[int]) -> tuple[list[Event], int]:
    """The events to import, each one the bot could have written after those before it, and
    how many were left out (who is who); ``unlinked``: the entries whose phones were removed
    (bot/features/privacy)."""
    left_out = {ev["id"] for ev in rows if ev["kind"] in WHO_IS_WHO}
    changes: dict[int, list[dict[str, Any]]] = {}  # each team's, to undo from its members
    for ev in rows:
        if ev["kind"] in (EventKind.MEMBER_CHANGE, MEMBER_FIX) and \
                isinstance(ev["entry"], int) and event_problem(ev, ev["entry"] in unlinked) is None:
            changes.setdefault(ev["entry"], []).append(ev["data"])
    replay = Replay(contest, entries, left_out, changes, unlinked)
    last = 0
    for ev in rows:
        if ev["id"] <= last:
            again = ev["id"] in replay.events or ev["id"] in left_out
            raise DocumentError(f"{where}: event {ev['id']} " + (
                "appears twice" if again else f"comes after event {last}: the history is in "
                "the order it was recorded"))
        last = ev["id"]
        if ev["kind"] in WHO_IS_WHO:
            continue
        problem = event_problem(ev, ev["entry"] in unlinked) or replay.add(_event(ev))
        if problem is not None:
            raise DocumentError(f"{where}: {_named(ev)}: {problem}")
    unfit = replay.teams_problem()
    if unfit is not None:
        raise DocumentError(f"{where}: event {unfit.id} ({unfit.kind} of entry {unfit.entry}): "
                            "the team its changes leave is not the entry's members")
    return list(replay.events.values()), len(left_out)


@dataclass(frozen=True)
class Prepared:
    """A document checked whole, ready to be written: its entries, its people and the events
    to import (``left_out``: how many of its events were not: who is who)."""

    entries: dict[int, Entry]
    people: list[dict[str, Any]]
    events: list[Event]
    left_out: int


def prepare_import(contest_text: str, doc: Any, where: str,
                   contest_path: str = "PUZZLEBOT_CONTEST") -> Prepared:
    """Everything ``import_document`` checks before it writes, without a database
    (DocumentError: the first problem)."""
    check_document(doc, where)
    contest = _contest(contest_text, doc, where, contest_path)
    # registered alone looking for a partner (bot/features/partners): fewer members; their
    # personal data removed (bot/features/privacy): births gone, eligibility not checked again
    seeking = {ev.get("entry") for ev in doc["history"] if ev.get("kind") == SEEK}
    scrubbed = ({row["number"] for row in doc["entries"]}
                if any(ev.get("kind") == PURGE for ev in doc["history"])
                else {ev.get("entry") for ev in doc["history"] if ev.get("kind") == ERASE})
    entries = _entries(contest, doc["entries"], where, {n for n in seeking if isinstance(n, int)},
                       {n for n in scrubbed if isinstance(n, int)})
    people = _people(doc["people"], where)
    events, left_out = _history(contest, entries, doc["history"], where,
                                {n for n in scrubbed if isinstance(n, int)})
    return Prepared(entries, people, events, left_out)


async def import_document(store: Store, contest_text: str, doc: Any, where: str,
                          contest_path: str = "PUZZLEBOT_CONTEST") -> Imported:
    """A document read into a fresh database (its contest file must be the one in use):
    the entries (each with a new join code), the people (those the database knows already
    kept as they are there) and the history as they were, but for who is who. Everything is
    checked before anything is written (DocumentError: the first problem); one
    transaction."""
    ready = prepare_import(contest_text, doc, where, contest_path)
    async with store.transaction() as tx:
        if tx.holds_contest():
            raise DocumentError("the database is not empty: a document is imported into a "
                                "fresh one (PUZZLEBOT_DB naming a file that does not exist yet)")
        # its own organiser link and who joined it are the new bot's: kept, after the history
        for e in ready.entries.values():
            await tx.add_entry(
                category=e.category, join_code=new_code("e"), local=e.local,
                registered_at=e.registered_at, members=e.members, number=e.number,
                source=e.source, registered_by=e.registered_by, meal_adults=e.meal_adults,
                meal_children=e.meal_children, values=e.values)
        written = sum(tx.import_person(p["id"], p["name"], p.get("language"),
                                       p.get("tg_language")) for p in ready.people)
        tx.make_room(max((ev.id for ev in ready.events), default=0))
        for ev in ready.events:
            tx.import_event(
                event_id=ev.id, at=ev.at, recorded_at=ev.recorded_at, actor=ev.actor,
                role=ev.role, kind=ev.kind, entry=ev.entry, category=ev.category,
                stage=ev.stage, value=ev.value, ref=ev.ref, data=ev.data or None,
                supersedes=ev.supersedes)
    return Imported(len(ready.entries), len(ready.events), ready.left_out, written,
                    len(ready.people) - written)
