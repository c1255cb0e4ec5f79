"""Changing a team's members before it plays: a member replaced, added or removed.

A category with ``keep_originals`` takes changes: the team keeps at least that many of the
members it registered with (its originals; a member who left and came back counts again), stays
within the category's size and places (ages, "with an adult"), and no new member may already be
in another entry where one entry per person is the rule. A member replaced by the same person
(``same_person``, as registration compares people) is nothing to change. A change is recorded
as an event with the member before and after, so the originals are always the members with
every change undone. Pure: no clock, no storage.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from bot.domain.contest import Category
from bot.features.registration.rules import Ineligible, Member, check_entry, same_person


@dataclass(frozen=True)
class Change:
    """``position`` (0-based; None: a member added) becomes ``new`` (None: removed)."""

    position: int | None
    new: Member | None


def apply(members: Sequence[Member], change: Change) -> tuple[Member, ...]:
    out = list(members)
    if change.position is None:
        assert change.new is not None
        out.append(change.new)
    elif change.new is None:
        del out[change.position]
    else:
        out[change.position] = change.new
    return tuple(out)


def member_data(m: Member | None) -> dict[str, Any] | None:
    """A member as an event's data (what a change replaced, or what it put)."""
    if m is None:
        return None
    return {"name": m.name, "born": m.born.isoformat() if m.born else None, "year": m.year}


def member_from(data: dict[str, Any] | None) -> Member | None:
    if data is None:
        return None
    born = date.fromisoformat(data["born"]) if data.get("born") else None
    return Member(str(data["name"]), born, data.get("year"))


def originals(members: Sequence[Member], changes: Iterable[dict[str, Any]]) -> list[Member]:
    """The members the team registered with: ``members`` now with ``changes`` (their events'
    data, oldest first: ``position``, ``old``, ``new``) undone, newest first."""
    out = list(members)
    for c in reversed(list(changes)):
        old, position = member_from(c.get("old")), c.get("position")
        if c.get("new") is None and old is not None:  # removed: back in its place
            out.insert(int(position), old)
        elif old is None:  # added: it was the last one
            out.pop()
        elif position is not None:
            out[int(position)] = old
    return out


def kept(first: Sequence[Member], members: Sequence[Member]) -> int:
    """How many of the originals ``first`` are among ``members``."""
    return sum(1 for m in first if any(same_person(m, n) for n in members))


# -- whether a change may be made ---------------------------------------------------------------


@dataclass(frozen=True)
class NoChanges:
    """The category takes no member changes (no ``keep_originals``)."""


@dataclass(frozen=True)
class NoSuchMember:
    position: int  # 0-based
    count: int


@dataclass(frozen=True)
class SameMember:
    """The member at ``position`` replaced by the same person, as registration tells people
    apart (``same_person``: the name's key and the birth): nothing to change."""

    position: int  # 0-based


@dataclass(frozen=True)
class Full:
    """A member added to a team already as large as the category takes."""

    most: int


@dataclass(frozen=True)
class TooFew:
    """A member removed from a team already as small as the category takes."""

    fewest: int


@dataclass(frozen=True)
class TooFewOriginals:
    """The change would leave fewer than ``needed`` of the members it registered with."""

    needed: int


@dataclass(frozen=True)
class NotEligible:
    """The team as changed does not fit the category's places."""

    problem: Ineligible


@dataclass(frozen=True)
class Allowed:
    members: tuple[Member, ...]


ChangeVerdict = (NoChanges | NoSuchMember | SameMember | Full | TooFew | TooFewOriginals
                 | NotEligible | Allowed)


def change_verdict(category: Category, members: Sequence[Member], first: Sequence[Member],
                   change: Change, day: date) -> ChangeVerdict:
    """Whether ``change`` may be made to a team of ``category`` with ``members`` now, who
    registered with ``first``; ``day``: the contest's date (ages are counted on it)."""
    if category.keep_originals is None:
        return NoChanges()
    if change.position is not None and not 0 <= change.position < len(members):
        return NoSuchMember(change.position, len(members))
    if change.position is not None and change.new is not None and \
            same_person(members[change.position], change.new):
        return SameMember(change.position)
    if change.position is None and len(members) >= category.members:
        return Full(category.members)
    if change.new is None and len(members) <= category.fewest:
        return TooFew(category.fewest)
    after = apply(members, change)
    if kept(first, after) < min(category.keep_originals, len(first)):
        return TooFewOriginals(category.keep_originals)
    problem = check_entry(category, after, day)
    if problem is not None:
        return NotEligible(problem)
    return Allowed(after)
