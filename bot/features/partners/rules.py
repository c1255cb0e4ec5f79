"""Finding a partner: the rules, pure.

An entry registered alone (a ``seek`` event) holds no place and waits in no line until
partners join it. Two such entries of one category are matched into one: the one registered
first is kept, the other's members join it and the other withdraws (its people follow the
entry kept). Matched, the members must fit the category as a registration would (a child
with an adult; no more than it takes); when they are still fewer than it takes (a team of
four from two people alone), the entry kept goes on looking. Once it has the members it
needs, it counts as registered from the match: it takes a free place or joins the end of the
waiting list then, never before someone already waiting."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from bot.domain.contest import Category, Contest
from bot.domain.events import MATCH, PROPOSAL, SEEK
from bot.domain.places import PARTNERS
from bot.features.registration.rules import Ineligible, Member, check_entry, check_members

__all__ = ["MATCH", "PARTNERS", "PROPOSAL", "SEEK"]  # its event kinds (bot/domain/events.py)

BUTTON = "partner"  # its buttons' data: partner:yes:N:M (entry N asks for M), partner:no:N:M


@dataclass(frozen=True)
class PartnerRules:
    """``self_service``: people looking for a partner see each other (names only) and are
    matched when both ask for each other; False: only the organisers match them."""

    self_service: bool = True


def rules_of(contest: Contest) -> PartnerRules | None:
    """The contest's ``[partners]`` (None: nobody registers alone in pairs or teams)."""
    found = contest.settings(PARTNERS)
    return found if isinstance(found, PartnerRules) else None


@dataclass(frozen=True)
class Together:
    """The members matched, in order (the entry kept's first); ``complete``: as many as the
    category needs (else the entry kept goes on looking)."""

    members: tuple[Member, ...]
    complete: bool


@dataclass(frozen=True)
class TooMany:
    """Together they are more than the category takes."""

    count: int
    most: int


Verdict = Together | TooMany | Ineligible


def together(category: Category, kept: Sequence[Member], joining: Sequence[Member],
             day: date) -> Verdict:
    """Whether ``joining``'s members may join ``kept``'s in ``category`` (``day``: the
    contest's, ages are taken on it)."""
    members = (*kept, *joining)
    if len(members) > category.members:
        return TooMany(len(members), category.members)
    complete = len(members) >= category.fewest
    problem = (check_entry(category, members, day) if complete
               else check_members(category, members, day))
    if problem is not None:
        return problem
    return Together(members, complete)


def kept_and_joining(first: int, second: int) -> tuple[int, int]:
    """Which of two entries matched is kept (the one registered first: the lower number) and
    which joins it."""
    return (first, second) if first < second else (second, first)
