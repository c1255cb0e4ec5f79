"""Correcting a member as registration takes one: how ``/corregir`` is typed and whether the
correction may be made, pure.

A correction keeps the member's answers (what they decide, a discount, a local place, a
quota, stays as registered) and changes their name and birth only, each checked as
registration checks a member entered in the chat: the name (``name_problem``), the birth (a
date where the category goes by age on the day, else a year; ``birth_in_range``), and the
team as corrected still fitting its category (``check_entry``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from bot.domain.contest import Category
from bot.domain.events import MEMBER_FIX
from bot.domain.numbers import parse_whole
from bot.features.members.rules import NoSuchMember, NotEligible, SameMember, member_from
from bot.features.registration.rules import (
    Member,
    birth_in_range,
    check_entry,
    clean_name,
    name_key,
    name_problem,
    parse_birth,
)

__all__ = ["MEMBER_FIX"]  # its event kind (bot/domain/events.py)


@dataclass(frozen=True)
class Typed:
    """``/corregir [N] M NAME BIRTH`` read: the entry (None: the one the person follows),
    the member (0-based), the name as stored and the birth as typed."""

    entry: int | None
    position: int
    name: str
    birth: str


@dataclass(frozen=True)
class BadName:
    """The name is not one registration takes (``name_problem``'s reason)."""

    problem: str


@dataclass(frozen=True)
class BadBirth:
    """The birth can't be read, or is outside the years a birth may be."""


def parse_fix(args: list[str]) -> Typed | BadName | None:
    """``[N] M NAME BIRTH`` (None: not that): N and M are whole numbers, the birth is the last
    word (a year or a date), the name is everything between."""
    numbers: list[int] = []
    for word in args[:2]:
        n = parse_whole(word, hash_mark=True)
        if n is None:
            break
        numbers.append(n)
    rest = args[len(numbers):]
    if not numbers or len(rest) < 2 or numbers[-1] == 0:
        return None
    if parse_birth(rest[-1], False) is None and parse_birth(rest[-1], True) is None:
        return None
    name = clean_name(" ".join(rest[:-1]))
    problem = name_problem(name)
    if problem is not None:
        return BadName(problem)
    entry = numbers[0] if len(numbers) == 2 else None
    return Typed(entry, numbers[-1] - 1, name, rest[-1])


def _edits(a: str, b: str) -> int:
    """Letters to change, add or remove to turn ``a`` into ``b`` (Levenshtein)."""
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        previous, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (x != y))
    return row[-1]


def _close(word: str, other: str) -> bool:
    """One word written as the other: a prefix of it (a name completed, "Bea" and "Beatriz"),
    or a letter off (two in a long word)."""
    if other.startswith(word) or word.startswith(other):
        return True
    return _edits(word, other) <= (1 if min(len(word), len(other)) < 6 else 2)


def written_right(registered: str, typed: str) -> bool:
    """Whether ``typed`` is the name ``registered`` written right, not another person's: every
    word of the shorter name close to a word of the longer (``_close``), compared as
    registration compares names (``name_key``: case, accents, spaces). A surname added or a
    name completed is a correction; "Ana Uno" to "Bea Dos" is another person."""
    a, b = name_key(registered).split(), name_key(typed).split()
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    return all(any(_close(w, v) for v in long) for w in short)


def as_entered(current: Member, position: int, fixes: Sequence[dict[str, Any]]) -> Member:
    """Member ``position`` as registration (or the organisers' change of members) entered
    them: ``current`` with the corrections of that member (``fixes``, their events' data,
    oldest first) undone, newest first. What a participant's correction is compared with, so
    that corrections one after the other can't turn one person into another."""
    anchor = current
    for fix in reversed(fixes):
        new, old = member_from(fix.get("new")), member_from(fix.get("old"))
        if fix.get("position") == position and new is not None and old is not None and (
                new.name, new.born, new.year) == (anchor.name, anchor.born, anchor.year):
            anchor = old
    return anchor


@dataclass(frozen=True)
class NotTheSame:
    """A participant's correction that names another person (``written_right``): the
    organisers' to make, as a change of members."""

    entered: Member


@dataclass(frozen=True)
class Fixed:
    """The team as corrected: ``old`` is now ``new`` at its place."""

    members: tuple[Member, ...]
    old: Member
    new: Member


Verdict = Fixed | NoSuchMember | SameMember | NotEligible | BadBirth | NotTheSame


def fix_verdict(category: Category, members: tuple[Member, ...], typed: Typed,
                day: date, entered: Member | None = None) -> Verdict:
    """Whether member ``typed.position`` of a team of ``category`` may be written as typed:
    the birth as registration asks it, the same member's answers kept, a real correction
    (not the same name and birth), the team still fitting its category on ``day``;
    ``entered``: the member as entered (``as_entered``), whose name the typed one must be
    written right (a participant's correction; None: an organiser's, any name)."""
    if not 0 <= typed.position < len(members):
        return NoSuchMember(typed.position, len(members))
    if entered is not None and not written_right(entered.name, typed.name):
        return NotTheSame(entered)
    born = parse_birth(typed.birth, category.checks_age)
    if born is None or not birth_in_range(born[1], day):
        return BadBirth()
    old = members[typed.position]
    new = replace(old, name=typed.name, born=born[0], born_year=born[1])
    if new == old:  # the same name and birth, to the letter
        return SameMember(typed.position)
    after = members[:typed.position] + (new,) + members[typed.position + 1:]
    problem = check_entry(category, after, day)
    if problem is not None:
        return NotEligible(problem)
    return Fixed(after, old, new)
