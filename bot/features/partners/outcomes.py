"""What matching partners gives back, each outcome declared once, and what the person who
asked reads of it (``answer``: a ``match`` ending in ``assert_never``, so mypy proves each has
its line)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, assert_never

from bot.domain.contest import Contest
from bot.domain.places import Place, Status
from bot.features.partners.texts import asked_text, joined_text, matched_text, said_no_text
from bot.features.registration.day import Card, HeatStarted
from bot.features.registration.rules import Ineligible
from bot.features.registration.texts import (
    ineligible_text,
    meal_people,
    place_text,
    refusal_text,
)
from bot.services.outcomes import Done, Refusal, UnknownEntry
from bot.support.i18n import tr
from bot.texts.common import refusal
from bot.texts.desk import place_change_text


@dataclass(frozen=True)
class Matched(Done):
    """Entry ``joining``'s members joined entry ``kept`` (now ``members``), ``joining``
    withdrawn; ``complete``: the entry kept has the members it needs, and so ``place`` (with
    its ``card`` once confirmed)."""

    kept: int
    joining: int
    members: tuple[str, ...]
    complete: bool
    place: Place | None = None
    card: Card | None = None
    # the meals the entry that joined had booked, not carried over because the entry kept was
    # paid already (adults, children): to book again
    meals_left: tuple[int, int] = (0, 0)


@dataclass(frozen=True)
class NoRequest(Refusal):
    """Entry ``asking`` has not asked entry ``number`` to play together (or asked someone
    else since): nothing to say no to."""

    code: ClassVar[str] = "no_request"
    number: int
    asking: int


@dataclass(frozen=True)
class Asked(Done):
    """Entry ``number`` asked entry ``other`` (``other_names``) to play together."""

    number: int
    other: int
    other_names: tuple[str, ...]


@dataclass(frozen=True)
class SaidNo(Done):
    """Entry ``number`` would rather not play with entry ``asking``."""

    number: int
    asking: int


@dataclass(frozen=True)
class NotSeeking(Refusal):
    """Entry ``number`` is not looking for a partner (``place``: what it is instead)."""

    code: ClassVar[str] = "not_seeking"
    number: int
    place: Place


@dataclass(frozen=True)
class SameEntry(Refusal):
    code: ClassVar[str] = "same_entry"
    number: int


@dataclass(frozen=True)
class OtherCategory(Refusal):
    """The two entries are of different categories (their names)."""

    code: ClassVar[str] = "other_category"
    number: int
    other: int
    category: str
    other_category: str


@dataclass(frozen=True)
class TooManyTogether(Refusal):
    code: ClassVar[str] = "too_many_together"
    count: int
    most: int


@dataclass(frozen=True)
class Unfit(Refusal):
    """Together they don't fit the category: member ``name``'s ``problem`` (a child without
    an adult)."""

    code: ClassVar[str] = "unfit_together"
    problem: Ineligible
    name: str


@dataclass(frozen=True)
class OrganisersMatch(Refusal):
    """``[partners] self_service`` is off: only the organisers match entries."""

    code: ClassVar[str] = "organisers_match"


Outcome = (Matched | Asked | SaidNo | NotSeeking | SameEntry | OtherCategory | TooManyTogether
           | Unfit | OrganisersMatch | NoRequest | HeatStarted | UnknownEntry)


def matched_news(lang: str, out: Matched, contest: Contest) -> str:
    """What everyone following the entry kept reads: the match, and its place once it has
    the members it needs."""
    text = matched_text(lang, out.kept, out.members, out.complete)
    if out.meals_left != (0, 0):
        text += "\n" + tr(lang, "Entry #{entry} was paid already, so the meals booked with "
                          "the other entry ({meals}) are not on it: book them again with the "
                          "organisers.", entry=out.kept, meals=meal_people(lang, *out.meals_left))
    if out.place is None:
        return text
    return text + "\n" + place_change_text(lang, contest, out.kept, out.place,
                                           Status.SEEKING.value, None, out.card)


def answer(lang: str, out: Outcome, contest: Contest) -> str:
    match out:
        case Matched(kept=kept, joining=joining):
            return matched_news(lang, out, contest) + "\n" + joined_text(lang, kept, joining)
        case Asked(other=other, other_names=other_names):
            return asked_text(lang, other, other_names)
        case SaidNo(asking=asking):
            return said_no_text(lang, asking)
        case NotSeeking(number=number, place=place):
            return (tr(lang, "Entry #{entry} is not looking for a partner.", entry=number)
                    + "\n" + place_text(lang, contest, number, place))
        case SameEntry(number=number):
            return tr(lang, "Entry #{entry} can't be matched with itself.", entry=number)
        case OtherCategory(number=number, other=other, category=category,
                          other_category=other_category):
            return tr(lang, "Entry #{entry} is in {category} and entry #{other} in "
                      "{other_category}: partners are matched within one category.",
                      entry=number, other=other, category=category,
                      other_category=other_category)
        case TooManyTogether(count=count, most=most):
            return tr(lang, "Together they would be {count}: the category takes {most} at "
                      "most.", count=count, most=most)
        case Unfit(problem=problem, name=name):
            return ineligible_text(lang, problem, name)
        case NoRequest(number=number, asking=asking):
            return tr(lang, "Entry #{asking} has not asked to play with entry #{entry}: "
                      "nothing to answer.", asking=asking, entry=number)
        case HeatStarted():
            return refusal_text(lang, contest, out)
        case OrganisersMatch():
            return tr(lang, "In this contest the organisers match partners: they see your "
                      "entry and will tell you.")
        case UnknownEntry():
            return refusal(lang, out, contest)
        case _:
            assert_never(out)
