"""What changing an answer gives back, each outcome declared once, and what people read of it
(``answer``: exhaustive, mypy proves each has its line)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, assert_never

from bot.domain.contest import Contest
from bot.features.corrections.outcomes import RegistrationClosed
from bot.features.members.outcomes import AlreadyPlaying
from bot.services.outcomes import Done, Refusal, UnknownEntry
from bot.support.i18n import tr
from bot.texts.common import refusal
from bot.texts.names import heat_by_id


@dataclass(frozen=True)
class AnswerChanged(Done):
    """Entry ``number``'s ``label`` is now ``new`` (was ``old``), as people read them."""

    number: int
    label: str
    old: str
    new: str


@dataclass(frozen=True)
class NoSuchRow(Refusal):
    """Entry ``number`` has ``count`` answers that may change, and no row ``row``."""

    code: ClassVar[str] = "no_such_row"
    number: int
    row: int
    count: int


@dataclass(frozen=True)
class Unchanged(Refusal):
    code: ClassVar[str] = "answer_unchanged"
    number: int
    label: str


@dataclass(frozen=True)
class BadAnswer(Refusal):
    """The answer typed is not one the question takes (``why``: what it takes, in the
    person's language, said when refused)."""

    code: ClassVar[str] = "bad_answer"
    why: str


Outcome = (AnswerChanged | NoSuchRow | Unchanged | BadAnswer | RegistrationClosed
           | AlreadyPlaying | UnknownEntry)


def changed_text(lang: str, out: AnswerChanged) -> str:
    return tr(lang, "Entry #{entry}: {label} is now {new} (was {old}).", entry=out.number,
              label=out.label, new=out.new, old=out.old)


def notice(lang: str, out: AnswerChanged, by: str) -> str:
    """To the entry's other phones."""
    return tr(lang, "{who} changed an answer of entry #{entry}: {label} is now {new} (was "
              "{old}).", who=by or "-", entry=out.number, label=out.label, new=out.new,
              old=out.old)


def answer(lang: str, out: Outcome, contest: Contest) -> str:
    match out:
        case AnswerChanged():
            return changed_text(lang, out)
        case NoSuchRow(number=number, row=row, count=count):
            return tr(lang, "Entry #{entry} has no answer {row} to change (it has {count}).",
                      entry=number, row=row, count=count)
        case Unchanged(number=number, label=label):
            return tr(lang, "Nothing to change: that is already entry #{entry}'s {label}.",
                      entry=number, label=label)
        case BadAnswer(why=why):
            return why
        case RegistrationClosed(entry=entry):
            return tr(lang, "Registration is closed: entry #{entry}'s answers stay as they "
                      "are. Ask the organisers.", entry=entry)
        case AlreadyPlaying(entry=entry, category=unit):
            plain = contest.category(unit)
            return tr(lang, "Entry #{entry} plays in {unit}, whose clock has started: its "
                      "answers stay as they are.", entry=entry,
                      unit=plain.name if plain is not None else heat_by_id(lang, contest, unit))
        case UnknownEntry():
            return refusal(lang, out, contest)
        case _:
            assert_never(out)
