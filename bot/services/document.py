"""A contest as one JSON document (``python -m bot export document``; read back with
``import document``): the contest file as written, the entries and their people, the whole
history every result is derived from, and, for readers, each round's heats and tables and every
ranking as the results export gives them. docs/document.md describes it, and
docs/document.schema.json holds its shape.

The public form (``--public``) is for publishing results: no births, no answers (but to the
questions marked ``public = true``), no Telegram ids, no codes, no history (it can't be
imported), no reason typed for a disqualification or an outcome (``PRIVATE_COLUMNS``: a
volunteer's words, a medical reason), and of the contest file only what it reads as
(``public_contest_file``: not its text, whose comments are the organisers' notes, nor the
escape's hints and solutions). Neither form carries a key to the running bot: no entry's join
code, no code of an organiser's or volunteer's link (the history keeps those events, their
codes blanked), no self-timed start's secret. A document newer than this bot reads is
refused, as a newer database is.
"""

from __future__ import annotations

import tomllib
from typing import Any

from bot.domain.contest import Contest, Question
from bot.domain.events import EventKind
from bot.domain.rounds import Heat, table_number
from bot.features.registration.rules import Member
from bot.services.contest_day import ContestDay
from bot.services.document_import import Imported, check_document, import_document
from bot.services.document_schema import FORMAT, VERSION, DocumentError, plain
from bot.services.exports import local_moment, result_rows
from bot.storage.records import Entry
from bot.support.wallclock import CLOCK

# reading back is bot/services/document_import.py's; its names are importable from here too
__all__ = ["FORMAT", "VERSION", "DocumentError", "Imported", "check_document", "export_document",
           "import_document", "plain"]

# -- writing ------------------------------------------------------------------------------------


# Events whose ``ref`` is a code that opens a door of the running bot: an entry's phone link,
# a volunteer's or organiser's one-time link (the invitation and the join naming it). A
# document keeps these events (who joined when) with ``ref`` null; the phone that registered
# an entry is linked with ``ref`` "registration" (bot/features/registration/day.py), no code.
CODE_REFS = frozenset({EventKind.LINK, EventKind.VOLUNTEER_INVITE, EventKind.VOLUNTEER_JOIN,
                       EventKind.ORGANISER_INVITE, EventKind.ORGANISER_JOIN})
NOT_A_CODE = "registration"
# keys of an event's ``data`` that are secrets: a self-timed start's seed, from which every
# entry's code is worked out (bot/features/selftimed/rules.py)
SECRET_DATA = frozenset({"seed"})
# the results' columns of free text about people, left out of the public form: the reason a
# volunteer typed for an outcome ("fainted: diabetic")
PRIVATE_COLUMNS = frozenset({"outcome_reason"})
# the parts of the contest file's ``[escape]`` that are its answers: the hints' and solutions'
# texts (an escape played again, in a series or next year, would be given away)
ESCAPE_ANSWERS = ("hints", "solutions", "enigmas")


class Shown:
    """What a document shows of people's answers: every answer in the whole form; in the
    public form only the answers to the questions marked ``public = true``."""

    def __init__(self, contest: Contest, public: bool) -> None:
        self.public = public
        self.questions: dict[str, Question] = {q.id: q for q in contest.questions
                                               if not public or q.public}
        # the results' columns of answers (one per choice or text question) left out, and in
        # the public form the reasons typed for outcomes
        self.hidden = frozenset(q.id for q in contest.questions if q.id not in self.questions
                                ) | (PRIVATE_COLUMNS if public else frozenset())

    def member(self, m: Member) -> dict[str, Any]:
        out: dict[str, Any] = {"name": m.name}
        if not self.public:
            out.update(born=m.born.isoformat() if m.born else None, born_year=m.year,
                       answers=sorted(m.answers), values=dict(m.values))
            return out
        if any(q.yes_no and not q.per_entry for q in self.questions.values()):
            out["answers"] = sorted(a for a in m.answers if a in self.questions)
        if any(not q.yes_no and not q.per_entry for q in self.questions.values()):
            out["values"] = {k: v for k, v in m.values if k in self.questions}
        return out

    def entry(self, e: Entry) -> dict[str, Any]:
        out: dict[str, Any] = {"number": e.number, "category": e.category, "local": e.local,
                               "members": [self.member(m) for m in e.members]}
        if not self.public:  # no join_code: whoever has it links a phone to the entry
            out.update(registered_at=e.registered_at.isoformat(), source=e.source,
                       registered_by=e.registered_by, meal_adults=e.meal_adults,
                       meal_children=e.meal_children, answers=dict(e.values))
        elif any(q.per_entry for q in self.questions.values()):
            out["answers"] = {k: v for k, v in e.values if k in self.questions}
        return out

    def result(self, header: list[str], row: list[object]) -> dict[str, object]:
        """A results row (the results export's columns); in the public form without the
        columns of the questions not public, nor the reasons typed for outcomes."""
        return {h: v for h, v in zip(header, row, strict=True) if h not in self.hidden}


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
    """Every event as recorded, but for its keys to the running bot (``CODE_REFS``,
    ``SECRET_DATA``): a reader of the document gets no link that works and no code."""
    out = []
    for e in events:
        data = {k: v for k, v in (e.data or {}).items() if k not in SECRET_DATA}
        out.append({"id": e.id, "at": e.at.isoformat(), "recorded_at": e.recorded_at.isoformat(),
                    "actor": e.actor, "role": e.role, "kind": e.kind, "entry": e.entry,
                    "category": e.category, "stage": e.stage, "value": e.value,
                    "ref": None if e.kind in CODE_REFS and e.ref != NOT_A_CODE else e.ref,
                    "data": data or None,
                    "supersedes": e.supersedes})
    return out


def public_contest_file(contest_text: str) -> dict[str, Any]:
    """The contest file as the public form gives it: its rules as read (``data``), without the
    escape's hints and solutions (``ESCAPE_ANSWERS``); its ``text`` empty, since the text as
    written carries those too, and comments, which are the organisers' own notes."""
    data = plain(tomllib.loads(contest_text))
    escape = data.get("escape")
    if isinstance(escape, dict):
        data["escape"] = {k: v for k, v in escape.items() if k not in ESCAPE_ANSWERS}
    return {"text": "", "data": data}


async def export_document(contest: Contest, contest_text: str, day: ContestDay,
                          public: bool = False) -> dict[str, Any]:
    """The whole contest as one document (``public``: for publishing results)."""
    store = day.store
    shown = Shown(contest, public)
    table = await result_rows(contest, day)
    header = [str(h) for h in table[0]]
    doc: dict[str, Any] = {
        "document": FORMAT, "version": VERSION, "public": public,
        "exported_at": CLOCK.now().isoformat(timespec="seconds"),
        "contest": {"name": contest.name, "date": contest.date.isoformat(),
                    "timezone": contest.timezone, "language": contest.language},
        "contest_file": (public_contest_file(contest_text) if public else
                         {"text": contest_text, "data": plain(tomllib.loads(contest_text))}),
        "entries": [shown.entry(e) for e in await store.entries()],
        "rounds": await _rounds(contest, day),
        "results": [shown.result(header, row) for row in table[1:]],
    }
    if not public:
        doc["people"] = await store.people_rows()
        doc["history"] = _history(await store.all_events())
    return doc
