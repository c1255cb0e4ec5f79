"""What making results final gives back (``Published``), what it would do (``Publishable``,
the question asked first) and why a category is not made final; their words are ``texts.py``'s."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import ClassVar

from bot.domain.contest import Category
from bot.domain.ranking import Row
from bot.features.standings.rules import Standing
from bot.services.outcomes import Done, Refusal


@dataclass(frozen=True)
class NotStarted(Refusal):
    code: ClassVar[str] = "results_not_started"
    category: str  # its name


@dataclass(frozen=True)
class StillPlaying(Refusal):
    """Its time is not up and some entries have no result yet."""

    code: ClassVar[str] = "results_still_playing"
    category: str
    playing: int
    time_left: int  # seconds of its time limit still to play


@dataclass(frozen=True)
class NoEntries(Refusal):
    code: ClassVar[str] = "results_no_entries"
    category: str


@dataclass(frozen=True)
class InRounds(Refusal):
    code: ClassVar[str] = "results_in_rounds"
    category: str


@dataclass(frozen=True)
class NothingNew(Refusal):
    """Published already, and nothing has changed since."""

    code: ClassVar[str] = "results_nothing_new"
    category: str
    moment: datetime  # when it was published


@dataclass(frozen=True)
class ClaimsToReview(Refusal):
    """Played at home: the finishes these entries claimed (``waiting``) still wait for a
    reviewer; the results can't be final before each is confirmed or turned down."""

    code: ClassVar[str] = "results_claims_to_review"
    category: str
    waiting: tuple[int, ...]


StandingsRefusal = NotStarted | NoEntries | StillPlaying | InRounds | NothingNew | ClaimsToReview


@dataclass(frozen=True)
class Publishable:
    """A category whose results may be made final now: ``tell``, the entries to tell (all of
    them the first time; afterwards those whose result moved), ``again`` when it was
    published before."""

    category: Category
    rows: tuple[Row, ...]
    now: tuple[Standing, ...]
    tell: tuple[Standing, ...]
    again: bool


@dataclass(frozen=True)
class Published(Done):
    categories: tuple[Publishable, ...]
    refused: tuple[StandingsRefusal, ...]




def worth_saying(refused: list[StandingsRefusal], named: bool) -> list[StandingsRefusal]:
    """Without a category named, those played in rounds (made final round by round), those
    already final and those without entries are left out of the answer."""
    return refused if named else [
        r for r in refused if not isinstance(r, InRounds | NothingNew | NoEntries)]
