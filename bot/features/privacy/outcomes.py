"""What removing personal data gives back, each outcome declared once, and what the organiser
reads of it (``answer``: exhaustive, mypy proves each has its line)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, assert_never

from bot.domain.contest import Contest
from bot.domain.places import Place
from bot.features.privacy.names import KEEP_DATA
from bot.features.registration.texts import place_text
from bot.services.outcomes import Done, Refusal, UnknownEntry
from bot.support.commands import typed
from bot.support.i18n import ntr, tr
from bot.texts.common import refusal
from bot.texts.names import names


@dataclass(frozen=True)
class Removed(Done):
    """The contest's retention ran: ``births`` members' births removed, ``kept_births`` kept
    (a category ranking by age, or agreed for the ratings), ``phones`` people forgotten."""

    births: int
    kept_births: int
    phones: int


@dataclass(frozen=True)
class Erased(Done):
    """Entry ``number``'s data erased; ``names``: what it is listed under now (its names kept
    when it has a result the rankings show: ``named``); ``phones``: people forgotten."""

    number: int
    names: tuple[str, ...]
    named: bool
    phones: int


@dataclass(frozen=True)
class Consent(Done):
    """Entry ``number``'s people agree (``keep``) to keep its births for the ratings, or no."""

    number: int
    keep: bool


@dataclass(frozen=True)
class StillIn(Refusal):
    """Entry ``number`` still takes part and has played nothing (``place``): withdrawn first,
    then erased (an erasure never withdraws an entry by itself)."""

    code: ClassVar[str] = "still_in"
    number: int
    place: Place


@dataclass(frozen=True)
class ErasedAlready(Refusal):
    code: ClassVar[str] = "erased_already"
    number: int


@dataclass(frozen=True)
class RemovedAlready(Refusal):
    code: ClassVar[str] = "removed_already"


Outcome = Removed | Erased | Consent | StillIn | ErasedAlready | RemovedAlready | UnknownEntry


def removed_text(lang: str, out: Removed) -> str:
    """To the organisers, once the contest's retention ran."""
    text = tr(lang, "Personal data removed, as the contest file says ([privacy]): births, the "
              "answers no rule reads any more, and the phones (who registered or follows each "
              "entry, their names and languages, the texts sent to them).")
    text += " " + ntr(lang, "{n} birth removed", "{n} births removed", out.births)
    text += "; " + ntr(lang, "{n} kept (a category ranking by age, or agreed for the ratings)",
                       "{n} kept (a category ranking by age, or agreed for the ratings)",
                       out.kept_births)
    text += "; " + ntr(lang, "{n} person forgotten.", "{n} people forgotten.", out.phones)
    return text + " " + tr(lang, "Names, results, payments and refunds stay. Backups made "
                           "before today still hold it all: they go as they are replaced.")


def answer(lang: str, out: Outcome, contest: Contest) -> str:
    match out:
        case Removed():
            return removed_text(lang, out)
        case Erased(number=number, names=listed, named=named, phones=phones):
            text = tr(lang, "Entry #{entry}'s data erased: births, answers no rule reads, and "
                      "its phones ({count}).", entry=number, count=phones)
            if named:
                return text + " " + tr(lang, "Its names stay, because it has a result the "
                                       "rankings show: {names}.", names=names(listed))
            return text + " " + tr(lang, "It is listed as {names} from now on.",
                                   names=names(listed))
        case Consent(number=number, keep=keep):
            if keep:
                return tr(lang, "Noted: entry #{entry}'s births are kept for the ratings across "
                          "contests when the rest is removed. To take it back: {command} "
                          "{entry} no", entry=number, command=typed(lang, KEEP_DATA))
            return tr(lang, "Noted: entry #{entry}'s births will be removed with the rest.",
                      entry=number)
        case StillIn(number=number, place=place):
            return (tr(lang, "Entry #{entry} still takes part and has no result: withdraw it "
                       "first ({command} {entry}), then erase its data.", entry=number,
                       command=typed(lang, "baja"))
                    + "\n" + place_text(lang, contest, number, place))
        case ErasedAlready(number=number):
            return tr(lang, "Entry #{entry}'s data was erased already.", entry=number)
        case RemovedAlready():
            return tr(lang, "Personal data was removed already.")
        case UnknownEntry():
            return refusal(lang, out, contest)
        case _:
            assert_never(out)
