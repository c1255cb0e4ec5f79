"""CSV files: cells kept inert both ways (``inert``, ``uninert``, ``write_csv``), and the import of
entries registered elsewhere with its checks against the registration rules. The exports'
tables are in ``exports.py``."""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import TextIO
from zoneinfo import ZoneInfo

from bot.domain.contest import YES_NO, Category, Contest, Question
from bot.domain.events import EventKind
from bot.domain.numbers import YEARS, ascii_digits, parse_whole, parse_year
from bot.domain.places import Status
from bot.domain.rounds import Heat
from bot.features.registration.day import Registrations
from bot.features.registration.rules import (
    MAX_NAME,
    NAME_SEPARATOR,
    Member,
    already_entered,
    check_entry,
    clean_name,
    entry_value,
    is_local,
    is_member,
    name_key,
    name_problem,
    registration_window,
)
from bot.features.registration.texts import ineligible_text, slot_text
from bot.services.outcomes import new_code
from bot.storage.store import Store, to_ts

JOIN_CODE = re.compile(r"(?![vo])[A-Za-z0-9_-]{16,64}")  # v..., o...: invitations
YES = {"yes", "y", "si", "sí", "s", "oui", "o", "1", "true", "x"}
NO = {"no", "n", "non", "0", "false", ""}


class ImportError_(Exception):
    """A line of the file can't be imported: nothing is imported."""


@dataclass(frozen=True)
class ImportRow:
    number: int | None
    category: str
    members: list[Member]
    local: bool
    registered_at: datetime
    join_code: str | None
    where: str = ""  # "file.csv:3", for messages
    dated: bool = True  # registered_at came from the file (not "now")
    paid_at: datetime | None = None
    values: tuple[tuple[str, str], ...] = ()  # answers to the per-entry questions
    # the bot's own export of an entry it had imported (its ``source`` column): its
    # registered_at was checked then, and is kept as it is
    reimported: bool = False

    def answer(self, question_id: str) -> str | None:
        """As ``Entry.answer``: the per-entry answer, else the members' (joined by "/")."""
        own = next((v for q, v in self.values if q == question_id), None)
        return own if own is not None else entry_value(self.members, question_id)


def _split(value: str) -> list[str]:
    return [p.strip() for p in value.split(NAME_SEPARATOR)] if value.strip() else []


# A spreadsheet opening a CSV file takes a cell beginning with one of these as a formula (or
# as a command: "=HYPERLINK(...)", "@SUM(...)", "+cmd|..."): OWASP's "CSV injection".
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
QUOTE = "'"
NUMBER = re.compile(r"[+-]?\d+(\.\d+)?")


def inert(cell: object) -> object:
    """A cell as exported: text that a spreadsheet would run as a formula gets a leading
    apostrophe, as OWASP advises (the spreadsheet then shows it as text). Text already beginning
    with an apostrophe gets one more, so that ``uninert`` gives back exactly what was stored.
    Numbers (even negative ones) are left alone."""
    if not isinstance(cell, str) or not cell:
        return cell
    if cell.startswith(QUOTE) or (cell.startswith(FORMULA_START) and not NUMBER.fullmatch(cell)):
        return QUOTE + cell
    return cell


def uninert(cell: str) -> str:
    """A text cell as it was before ``inert`` (an exported file imported again)."""
    return cell[1:] if cell.startswith(QUOTE) else cell


def write_csv(out: TextIO, rows: Iterable[Sequence[object]], delimiter: str = ",") -> None:
    """Every CSV the bot writes: cells made inert (``inert``), quoted where needed; ``;``
    between cells for the spreadsheets of Spain and France (``export --excel``)."""
    csv.writer(out, delimiter=delimiter).writerows([inert(v) for v in row] for row in rows)


def _born(text: str, where: str) -> tuple[date | None, int | None]:
    t = ascii_digits(text.strip())
    if not t:
        return None, None
    year = parse_year(t)
    if year is not None and year in YEARS:
        return None, year
    for fmt in ("%Y-%m-%d", "%d/%m/%Y"):
        try:
            d = datetime.strptime(t, fmt).date()
        except ValueError:
            continue
        if d.year in YEARS:
            return d, d.year
    raise ImportError_(f"{where}: birth {t!r} is not a year (1980) or a date (1980-05-17) "
                       f"from {YEARS.start} on")


def _check_header(fieldnames: Sequence[str] | None, source: str) -> None:
    """The header is read before any row: an empty file or a missing column stops here."""
    if fieldnames is None:
        raise ImportError_(f"{source}: the file is empty")
    fields = {f.strip() for f in fieldnames if f}
    for needed in ("category", "names"):
        if needed not in fields:
            raise ImportError_(f"{source}: column {needed!r} is missing")


def _category(contest: Contest, row: dict[str, str], where: str) -> Category:
    cat = contest.category(row.get("category", "").lower())
    if cat is None:
        raise ImportError_(f"{where}: unknown category {row.get('category')!r} "
                           f"(known: {', '.join(c.id for c in contest.categories)})")
    return cat


def _names(cat: Category, row: dict[str, str], where: str) -> list[str]:
    names = [clean_name(n) for n in _split(uninert(row.get("names", "")))]
    if not cat.fewest <= len(names) <= cat.members:
        size = (str(cat.members) if cat.fewest == cat.members else
                f"{cat.fewest} to {cat.members}")
        raise ImportError_(f"{where}: {cat.id} entries have {size} member(s), "
                           f"found {len(names)} names")
    return names


def _births(row: dict[str, str], count: int, where: str) -> list[str]:
    """One birth per member; an empty column means none is known."""
    births = _split(row.get("born", "")) or [""] * count
    if len(births) != count:
        raise ImportError_(f"{where}: {count} names but {len(births)} births")
    return births


def _yes_no(text: str, count: int, qid: str, where: str) -> list[bool]:
    """One yes/no per member; a single value is the first member's, the others say no."""
    values = _split(text) or [""] * count
    if len(values) == 1 and count > 1:
        values = values + ["no"] * (count - 1)
    if len(values) != count:
        raise ImportError_(f"{where}: column {qid} needs one yes/no per member")
    answers = []
    for v in values:
        if v.lower() not in YES and v.lower() not in NO:
            raise ImportError_(f"{where}: column {qid}: {v!r} is not yes or no")
        answers.append(v.lower() in YES)
    return answers


def _answers(contest: Contest, row: dict[str, str], count: int, where: str) -> list[set[str]]:
    """The questions each member answered yes to; a question without a column is a no."""
    answers: list[set[str]] = [set() for _ in range(count)]
    for q in contest.questions:
        if q.id not in row or not q.yes_no or q.per_entry:
            continue
        for i, yes in enumerate(_yes_no(row[q.id], count, q.id, where)):
            if yes:
                answers[i].add(q.id)
    return answers


def _value(q: Question, text: str, where: str) -> str | None:
    """One answer to a choice or text question as the file gives it (empty: none). A choice
    is its id, in any case; a text is cleaned as names are, within its length."""
    if q.kind == YES_NO:
        if text.lower() not in YES | NO:
            raise ImportError_(f"{where}: column {q.id}: {text!r} is not yes or no")
        return ("yes" if text.lower() in YES else "no") if text else None
    if q.choices:
        if not text:
            return None
        found = next((c.id for c in q.choices if c.id.casefold() == text.casefold()), None)
        if found is None:
            raise ImportError_(f"{where}: column {q.id}: {text!r} is not one of "
                               f"{', '.join(c.id for c in q.choices)}")
        return found
    cleaned = clean_name(text)
    if len(cleaned) > q.max_length:
        raise ImportError_(f"{where}: column {q.id}: {len(cleaned)} characters, at most "
                           f"{q.max_length}")
    return cleaned if name_key(cleaned) else None


def _member_values(contest: Contest, row: dict[str, str], count: int,
                   where: str) -> list[list[tuple[str, str]]]:
    """Each member's answers to the choice and text questions: one value per member
    (``;``-separated, as exported), or one for them all; an empty one is no answer."""
    values: list[list[tuple[str, str]]] = [[] for _ in range(count)]
    for q in contest.questions:
        if q.id not in row or q.yes_no or q.per_entry:
            continue
        parts = _split(uninert(row[q.id]))
        if len(parts) == 1:
            parts = parts * count
        if parts and len(parts) != count:
            raise ImportError_(f"{where}: column {q.id} needs one answer per member "
                               f"({count}), found {len(parts)}")
        for i, part in enumerate(parts):
            value = _value(q, part, where)
            if value is not None:
                values[i].append((q.id, value))
    return values


def _entry_values(contest: Contest, row: dict[str, str], where: str) -> tuple[tuple[str, str], ...]:
    """The answers to the questions asked once per entry (one cell each)."""
    out = []
    for q in contest.questions:
        if q.per_entry and q.id in row:
            value = _value(q, uninert(row[q.id]).strip(), where)
            if value is not None:
                out.append((q.id, value))
    return tuple(out)


def _members(names: list[str], births: list[str], answers: list[set[str]],
             values: list[list[tuple[str, str]]], where: str) -> list[Member]:
    members = []
    for i, name in enumerate(names):
        if not name_key(name):  # nothing visible
            raise ImportError_(f"{where}: member {i + 1} has no name")
        if name_problem(name) is not None:  # as registration takes a name: never cut short
            raise ImportError_(f"{where}: member {i + 1}'s name is longer than {MAX_NAME} "
                               "characters")
        born, year = _born(births[i], where)
        members.append(Member(name, born=born, born_year=year,
                              answers=frozenset(answers[i]), values=tuple(values[i])))
    return members


def _check_eligible(contest: Contest, cat: Category, members: list[Member], where: str) -> None:
    """The same eligibility as a registration in the chat: a birth the category's rule needs
    must be there (a full date where it goes by age on the contest day). Never forced."""
    problem = check_entry(cat, members, contest.date)
    if problem is None:
        return
    member = members[problem.member]
    who = f"member {problem.member + 1} ({member.name})"
    if problem.reason == "birth_date_needed":
        given = f"only the year {member.year} is given" if member.year else "no birth is given"
        raise ImportError_(
            f"{where}: not eligible for {cat.id}: {who}: {given}, and {cat.id} goes by age on "
            f"the contest day ({contest.date.isoformat()}): give the full date of birth "
            "(1980-05-17)")
    if member.year is None:
        needs = " or ".join(slot_text("en", s) for s in problem.needs) or "-"
        raise ImportError_(f"{where}: not eligible for {cat.id}: {who}: no birth is given, and "
                           f"{cat.id} needs {needs}")
    raise ImportError_(f"{where}: not eligible for {cat.id}: {who}: "
                       + ineligible_text("en", problem).removeprefix("Not possible: ")
                       .rstrip("."))


def _number(row: dict[str, str], where: str, numbers: set[int]) -> int | None:
    """An optional entry number, positive and not used twice in the file (``numbers``)."""
    if not row.get("number"):
        return None
    number = parse_whole(row["number"], hash_mark=True)
    if number is None or number <= 0:
        raise ImportError_(f"{where}: number {row['number']!r} is not a positive number")
    if number in numbers:
        raise ImportError_(f"{where}: number {number} appears twice")
    numbers.add(number)
    return number


def _local(contest: Contest, row: dict[str, str], members: list[Member], where: str) -> bool:
    """Local by the contest's questions, or because the file says so: "no" can't undo it."""
    local_text = row.get("local", "").lower()
    local = is_local(contest, members) if contest.local_if_any else False
    if local_text:
        if local_text not in YES | NO:
            raise ImportError_(f"{where}: local {local_text!r} is not yes or no")
        local = local or local_text in YES
    return local


def _moment(contest: Contest, row: dict[str, str], column: str, where: str) -> datetime | None:
    """An ISO date or date-time, in the contest's time zone when it has no offset."""
    if not row.get(column):
        return None
    try:
        moment = datetime.fromisoformat(ascii_digits(row[column]))
    except ValueError:
        raise ImportError_(f"{where}: {column} is not a date-time") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=ZoneInfo(contest.timezone))
    if moment.year not in YEARS:
        raise ImportError_(f"{where}: {column} {row[column]!r} is not between "
                           f"{YEARS.start} and {YEARS.stop - 1}")
    return moment


def _registered_at(contest: Contest, row: dict[str, str], where: str) -> datetime:
    """ISO date-time, in the contest's time zone when it has no offset; now when empty."""
    return _moment(contest, row, "registered_at", where) or datetime.now(UTC)


def _join_code(row: dict[str, str], where: str) -> str | None:
    code = row.get("join_code") or None
    if code is not None and not JOIN_CODE.fullmatch(code):
        raise ImportError_(f"{where}: join_code must be 16-64 letters, digits, - or _, not "
                           "starting with v or o (a /start link carries nothing else: those "
                           "are invitations)")
    return code


def _read_row(contest: Contest, row: dict[str, str], where: str,
              numbers: set[int]) -> ImportRow:
    """One line, its columns checked in this order: the first problem is the one reported."""
    cat = _category(contest, row, where)
    for q in contest.questions:
        if not q.asks(cat.id) and uninert(row.get(q.id) or "").strip(" ;"):
            raise ImportError_(f"{where}: column {q.id}: this question is not asked in "
                               f"{cat.id} (questions.categories): leave it empty")
    for rnd in cat.rounds:  # a round split by a question: its heats by the answer
        by = rnd.heats_by
        if by is not None and not uninert(row.get(by) or "").strip(" ;"):
            raise ImportError_(f"{where}: column {by}: empty, but each entry of {cat.id} "
                               f"plays the heat of its answer in round {rnd.id} "
                               f"(categories.rounds.heats_by): one of "
                               f"{', '.join(rnd.heat_choices)}")
    names = _names(cat, row, where)
    births = _births(row, len(names), where)
    answers = _answers(contest, row, len(names), where)
    values = _member_values(contest, row, len(names), where)
    members = _members(names, births, answers, values, where)
    entry_values = _entry_values(contest, row, where)
    for i, m in enumerate(members):
        if (m.born is not None and m.born > contest.date) or (m.year or 0) > contest.date.year:
            raise ImportError_(f"{where}: member {i + 1} ({m.name}) is born after the contest "
                               f"day ({contest.date.isoformat()})")
    _check_eligible(contest, cat, members, where)
    number = _number(row, where, numbers)
    local = _local(contest, row, members, where)
    registered = _registered_at(contest, row, where)
    code = _join_code(row, where)
    paid = _moment(contest, row, "paid_at", where)
    if paid is not None and paid > datetime.now(UTC):
        raise ImportError_(f"{where}: paid_at {row['paid_at']!r} is in the future")
    return ImportRow(number, cat.id, members, local, registered, code, where,
                     dated=bool(row.get("registered_at")), paid_at=paid, values=entry_values,
                     reimported=row.get("source", "").lower() == "import"
                     and bool(row.get("registered_at")))


MOST_ERRORS = 50  # a file's errors said at once, at most


def read_entries(contest: Contest, fh: TextIO, source: str) -> list[ImportRow]:
    """Columns: category, names (members separated by ";"), born (year or date per member,
    ";"-separated), optional number, local (yes/no), registered_at (ISO), join_code, and one
    column per contest question id (per member, ";"-separated: yes/no, a choice's id or a
    text; one cell for a per-entry question)."""
    reader = csv.DictReader(fh)
    _check_header(reader.fieldnames, source)
    rows: list[ImportRow] = []
    numbers: set[int] = set()
    errors: list[str] = []
    for line_no, raw in enumerate(reader, start=2):
        row = {(k or "").strip(): (v or "").strip() for k, v in raw.items()}
        try:
            rows.append(_read_row(contest, row, f"{source}:{line_no}", numbers))
        except ImportError_ as exc:  # every line's error at once, not one per run (issue 48)
            errors.append(str(exc))
            if len(errors) == MOST_ERRORS:
                errors.append(f"(the first {MOST_ERRORS} errors; the file was read no further)")
                break
    if errors:
        raise ImportError_("\n".join(errors))
    return rows


async def import_entries(store: Store, rows: Iterable[ImportRow]) -> list[int]:
    """All or nothing: every row becomes an entry with a number and a join code."""
    existing = await store.entry_numbers()
    numbers = []
    async with store.transaction() as tx:
        for r in rows:
            if r.number is not None and r.number in existing:
                raise ImportError_(f"entry number {r.number} already exists")
            code = r.join_code or new_code("e")
            n = await tx.add_entry(
                number=r.number, category=r.category, join_code=code, local=r.local,
                registered_at=r.registered_at, members=r.members, source="import",
                values=r.values,
            )
            if r.paid_at is not None:
                await tx.add_event(at=r.paid_at, kind=EventKind.PAYMENT, role="organiser",
                                   actor=None, entry=n, value=to_ts(r.paid_at))
            existing.add(n)
            numbers.append(n)
    return numbers


def _when(moment: datetime, contest: Contest) -> str:
    return moment.astimezone(ZoneInfo(contest.timezone)).strftime("%Y-%m-%d %H:%M")


@dataclass
class ImportCheck:
    """What the registration rules say of a file: ``problems`` refuse it unless forced;
    ``notes`` are said and imported."""

    problems: list[str]
    notes: list[str]


async def refuse_people_entered_twice(contest: Contest, registrations: Registrations,
                                      rows: Sequence[ImportRow]) -> None:
    """With ``one_entry_per_person``: a member already in an entry of the category (one still
    in it, or an earlier line of the file) refuses the file (``ImportError_``), never forced."""
    if not contest.registration.one_entry_per_person:
        return
    across = contest.registration.one_entry_scope == "contest"
    seen: dict[str | None, list[tuple[int, Sequence[Member]]]] = {}
    for r in rows:
        scope = None if across else r.category
        if scope not in seen:
            seen[scope] = list(await registrations.entered(scope))
        twice = already_entered(r.members, seen[scope])
        if twice is not None:
            i, number = twice
            where = "twice in this line" if number == 0 else f"already in entry #{number}" if (
                number > 0) else f"already on line {-number}"
            of = "of the contest" if across else f"of {r.category}"
            raise ImportError_(f"{r.where}: member {i + 1} ({r.members[i].name}) is {where} "
                               f"{of} (registration.one_entry_per_person)")
        seen[scope].append((-int(r.where.rsplit(":", 1)[-1]), r.members))


async def check_import(contest: Contest, registrations: Registrations,
                       rows: Sequence[ImportRow], now: datetime) -> ImportCheck:
    """What the contest's registration rules would refuse in the chat, line by line: an
    entry registered after the closing, unpaid where a place needs payment, or beyond a
    category's (or the contest's) places. The import refuses the file for these unless forced
    (``import entries --force``): organisers may have their reasons, but not without a word.
    A line without ``registered_at`` imported after the closing is only noted: the file does not
    say when it was registered elsewhere, and importing late is what organisers do."""
    found = ImportCheck([], [])
    for r in rows:
        _check_dates(contest, r, found)
        if contest.registration.payment_required and r.paid_at is None:
            found.problems.append(f"{r.where}: no paid_at, and a place is held only once paid "
                                  "(registration.payment_required)")
    held: dict[str, int] = {}
    for status in await registrations.statuses(now):
        if status.place.status is Status.CONFIRMED:
            held[status.entry.category] = held.get(status.entry.category, 0) + 1
    found.problems += _over_capacity(contest, rows, held)
    found.problems += await _over_quota(contest, registrations, rows, now)
    shared = contest.registration.shared_capacity
    if shared is not None:
        taken = sum(held.values())
        if taken + len(rows) > shared:
            found.problems.append(
                f"the contest has {shared} places in all (registration.shared_capacity), "
                f"{taken} already taken: the file's {len(rows)} entries go "
                f"{taken + len(rows) - shared} over")
    return found


def _check_dates(contest: Contest, r: ImportRow, found: ImportCheck) -> None:
    """A line registered before registration opened for it, or after it closed: a problem,
    or a note where the bot's own import kept it (source import) or the file gives no date."""
    rules = contest.registration
    early = _too_early(contest, r)
    if early is not None:
        (found.notes if r.reimported else found.problems).append(
            early + (": kept, as when it was first imported (source import)"
                     if r.reimported else ""))
    if rules.closes is None or r.registered_at < rules.closes:
        return
    if r.reimported:
        found.notes.append(f"{r.where}: registered_at {_when(r.registered_at, contest)} is "
                           f"after registration closed ({_when(rules.closes, contest)}): "
                           "kept, as when it was first imported (source import)")
    elif r.dated:
        found.problems.append(f"{r.where}: registered_at {_when(r.registered_at, contest)} is "
                              f"after registration closed ({_when(rules.closes, contest)}, "
                              "registration.closes)")
    else:
        found.notes.append(f"{r.where}: no registered_at, imported after registration closed "
                           f"({_when(rules.closes, contest)}): registered now")


def _over_capacity(contest: Contest, rows: Sequence[ImportRow],
                   held: dict[str, int]) -> list[str]:
    """Per category with places of its own, the file's entries beyond them (``held``: the
    places already confirmed, by category)."""
    problems = []
    for cat in contest.categories:
        if cat.capacity is None:
            continue
        new = [r for r in rows if r.category == cat.id]
        taken = held.get(cat.id, 0)
        if taken + len(new) > cat.capacity:
            over = ", ".join(r.where.rsplit(":", 1)[-1] for r in new[max(0, cat.capacity - taken):])
            problems.append(f"{cat.id} has {cat.capacity} places (categories.capacity), "
                            f"{taken} already taken: the file's {len(new)} entries go "
                            f"{taken + len(new) - cat.capacity} over (lines {over})")
    return problems


async def refuse_entries_too_late(contest: Contest, registrations: Registrations,
                                  rows: Sequence[ImportRow], now: datetime) -> None:
    """A line for a category whose first round has begun (its heats by entry number or a
    draw), or for a heat chosen at registration that has begun (``heats_by``), at the import
    or at its ``registered_at`` if later: the round's entrants are set, so the entry would be
    in no heat, no ranking and no export. Refuses the file (``ImportError_``), never forced;
    where heats are chosen, the message names those still to come (the organiser may give
    the entry one of them)."""
    for r in rows:
        cat = contest.category(r.category)
        if cat is None or not cat.rounds:
            continue
        at = max(now, r.registered_at)
        late = await registrations.too_late(cat, at, dict(r.values))
        if late is None:
            continue
        rnd = cat.rounds[0]
        heat = Heat(cat, 0, late.begun.heat).id
        began = "has started" if late.begun.started else \
            f"closed its registration on {_when(late.begun.begins, contest)}" \
            if late.begun.deadline else f"began on {_when(late.begun.begins, contest)}"
        if rnd.heats_by is None:
            raise ImportError_(f"{r.where}: {cat.id}: its first round's heat {heat} {began}: "
                               "its entrants are set, and the entry would play in no heat")
        still = ", ".join(late.open_choices) or "none"
        raise ImportError_(f"{r.where}: column {rnd.heats_by}: {r.answer(rnd.heats_by)!r}: "
                           f"heat {heat} {began}: its entrants are set, and the entry would "
                           f"play in no heat (heats still to come: {still})")


def _too_early(contest: Contest, r: ImportRow) -> str | None:
    """A line registered before registration opened for it: ``opens``, or ``members_open``
    for an entry with a member (``members_if``), as the chat decides it."""
    rules = contest.registration
    window = registration_window(contest, r.registered_at, r.members)
    if window not in ("not_open_yet", "members_only") or rules.opens is None:
        return None
    said = f"{r.where}: registered_at {_when(r.registered_at, contest)} is before registration"
    if rules.members_open is None:
        return f"{said} opened ({_when(rules.opens, contest)}, registration.opens)"
    ids = ", ".join(rules.members_if)
    if is_member(contest, r.members):
        return (f"{said} opened for members ({_when(rules.members_open, contest)}, "
                "registration.members_open)")
    return (f"{said} opened for entries without a member ({_when(rules.opens, contest)}, "
            f"registration.opens; members, a yes to {ids} (registration.members_if), from "
            f"{_when(rules.members_open, contest)})")


async def _over_quota(contest: Contest, registrations: Registrations,
                      rows: Sequence[ImportRow], now: datetime) -> list[str]:
    """Per category, more entries with the same answer than a question's ``quota``, counting
    the places already confirmed (refused unless forced, as capacity is)."""
    problems = []
    statuses = [s for s in await registrations.statuses(now)
                if s.place.status is Status.CONFIRMED]
    for q in contest.questions:
        own = {c.id: c.places for c in q.choices if c.places is not None}
        if q.quota is None and not own:
            continue
        count: dict[tuple[str, str], int] = {}
        for s in statuses:
            value = s.entry.answer(q.id)
            if value is not None:
                count[(s.entry.category, value)] = count.get((s.entry.category, value), 0) + 1
        over: dict[tuple[str, str], list[str]] = {}
        for r in rows:
            value = r.answer(q.id)
            if value is None:
                continue
            key = (r.category, value)
            count[key] = count.get(key, 0) + 1
            most = own.get(value, q.quota)
            if most is not None and count[key] > most:
                over.setdefault(key, []).append(r.where.rsplit(":", 1)[-1])
        for (category, value), lines in over.items():
            where = "questions.choices.places" if value in own else "questions.quota"
            problems.append(f"{category}: at most {own.get(value, q.quota)} entries answer "
                            f"{value!r} to {q.id} ({where}): the file goes {len(lines)} over "
                            f"(lines {', '.join(lines)})")
    return problems
