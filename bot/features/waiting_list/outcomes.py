"""What accepting a place offered gives back, each outcome declared once, and what the person
who asked reads of it (``answer``: a ``match`` ending in ``assert_never``, so mypy proves each
has its line)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import ClassVar, assert_never

from bot.domain.contest import Contest
from bot.domain.places import Place, Status
from bot.features.registration.day import Card
from bot.features.registration.texts import card_lines, place_text
from bot.features.waiting_list.texts import accepted_text, not_offered_text, offer_ended_text
from bot.services.outcomes import Refusal, UnknownEntry
from bot.texts.common import moment_text, refusal


@dataclass(frozen=True)
class Accepted:
    """Entry ``number`` accepted the place offered to it: confirmed (``card``: what its
    people need to know of it)."""

    number: int
    place: Place
    card: Card | None


@dataclass(frozen=True)
class NotOffered(Refusal):
    """Entry ``number`` has no place offered to accept (``place``: what it has instead;
    ``until``: the deadline of the offer it did not accept in time, if that is why)."""

    code: ClassVar[str] = "not_offered"
    number: int
    place: Place
    until: datetime | None = None


Outcome = Accepted | NotOffered | UnknownEntry


def answer(lang: str, out: Outcome, contest: Contest) -> str:
    match out:
        case Accepted(number=number, card=card):
            return "\n".join([accepted_text(lang, number),
                              *(card_lines(lang, contest, card) if card else ())])
        case NotOffered(number=number, place=place, until=until):
            if place.status is Status.DECLINED and until is not None:
                return offer_ended_text(lang, number, moment_text(lang, contest, until))
            return not_offered_text(lang, number) + "\n" + place_text(lang, contest, number,
                                                                      place)
        case UnknownEntry():
            return refusal(lang, out, contest)
        case _:
            assert_never(out)
