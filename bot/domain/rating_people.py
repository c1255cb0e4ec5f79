"""People matched across contests' documents for the ratings (bot/domain/ratings.py), as
registration matches them (``bot.domain.registration.same_person``, the rule of
``one_entry_per_person``), and the near matches the organiser is shown.

Each document lists *appearances*: a member of an entry with a name and a birth (a full date,
a year only, or none). Two appearances are one person when ``same_person`` says so: the same
name (``name_key``) and the same date when both dates are known, else the same year. A year
alone joins the one person of that name and year with a full date; when two people of that name
and year have different dates it could be either, and it is rated apart (nothing is joined by
guess) and listed as a near match of both. Without a birth registration can't tell people
apart, and neither can the rating: such an appearance is one person within its own document's
entry (the same entry's rounds), never joined to another document's.

Near matches (people rated apart who may be one, for the organiser to confirm): the same name
with a birth missing or different, and names a letter or two apart with the same year of birth
(``LETTERS_APART``). They are found without comparing every pair (22,000 people are 240 million
pairs): the same names by their key, names alike through their deletion neighbourhoods (each
name with every choice of up to two letters left out: two names within two edits share one).
Pure: no clock, no storage.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date
from functools import lru_cache

from bot.domain.ratings import Event
from bot.domain.registration import Member, name_key, same_person


@dataclass(frozen=True)
class Person:
    key: str  # an appearance's key, or the person's once matched (``matched``)
    name: str
    birth: str  # ISO date, a year, or "" when unknown


@lru_cache(maxsize=65536)
def key_of(name: str) -> str:
    """``name_key``, remembered: a name comes back in every round and contest."""
    return name_key(name)


def appearance(name: str, born: date | None, year: int | None, entry: str) -> Person:
    """A member as a document lists them. ``entry``: the document and entry it is in
    ("castrillo-2023.json#12.1"), which alone tells a person without a birth."""
    birth = born.isoformat() if born is not None else str(year) if year is not None else ""
    return Person(f"{key_of(name)}|{birth or '#' + entry}", name, birth)


def _born(birth: str) -> tuple[date | None, int | None]:
    """A person's birth as ``Member`` holds it: (full date, year)."""
    if len(birth) == 4 and birth.isdigit():
        return None, int(birth)
    try:
        born = date.fromisoformat(birth)
    except ValueError:
        return None, None
    return born, born.year


def person_keys(people: Iterable[Person]) -> dict[str, str]:
    """Each appearance's key -> its person's key (that of the person's first full date)."""
    out: dict[str, str] = {}
    alike: dict[tuple[str, int], dict[str, Member]] = {}  # same_person needs both of these
    for p in people:
        if p.key in out:
            continue
        born, year = _born(p.birth)
        if year is None:
            out[p.key] = p.key
            continue
        alike.setdefault((key_of(p.name), year), {}).setdefault(p.key, Member(p.name, born, year))
        out[p.key] = p.key
    for members in alike.values():
        if len(members) > 1:
            out.update(_one_name(members))
    return out


def _one_name(members: dict[str, Member]) -> dict[str, str]:
    """Appearances of one name and year: those with a full date joined as ``same_person``
    joins them; one without joins the only person it is ``same_person`` of, else stays
    apart (none with a date, or two it can't be told between)."""
    people: list[tuple[Member, str]] = []  # each person: a member and the person's key
    out: dict[str, str] = {}
    for key, m in sorted(members.items()):
        if m.born is None:
            continue
        out[key] = next((k for rep, k in people if same_person(m, rep)), key)
        if out[key] == key:
            people.append((m, key))
    for key, m in sorted(members.items()):
        if m.born is None:
            found = [k for rep, k in people if same_person(m, rep)]
            out[key] = found[0] if len(found) == 1 else key
    return out


def matched(events: Sequence[Event], people: Sequence[Person]
            ) -> tuple[list[Event], list[Person]]:
    """The events and appearances with each appearance's key made its person's."""
    keys = person_keys(people)
    return ([replace(e, performances=tuple(replace(p, person=keys.get(p.person, p.person))
                                           for p in e.performances)) for e in events],
            [replace(p, key=keys[p.key]) for p in people])


def shown(people: Iterable[Person]) -> dict[str, Person]:
    """Each person as shown: named as first met, with the fullest birth any document gives."""
    who: dict[str, Person] = {}
    for p in people:
        known = who.setdefault(p.key, p)
        if len(p.birth) > len(known.birth):
            who[p.key] = Person(p.key, known.name, p.birth)
    return who


# -- near matches ---------------------------------------------------------------------------------

# Names "a letter or two apart": at most this many edits (a letter added, dropped or changed,
# or two side by side swapped) between their keys; two only when both have ``LONG_NAME``
# characters or more (in shorter ones two letters make another name: "ana" and "eva").
LETTERS_APART = 2
LONG_NAME = 12


def letters_allowed(a: str, b: str) -> int:
    return LETTERS_APART if min(len(a), len(b)) >= LONG_NAME else 1


def edits(a: str, b: str, most: int) -> int:
    """The edits between ``a`` and ``b`` (optimal string alignment: insertions, deletions,
    substitutions, swaps of two neighbours), or ``most + 1`` when more than ``most``."""
    if abs(len(a) - len(b)) > most:
        return most + 1
    before: list[int] = []
    row = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        now = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            now[j] = min(row[j] + 1, now[j - 1] + 1, row[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                now[j] = min(now[j], before[j - 2] + 1)
        if min(now) > most:
            return most + 1
        before, row = row, now
    return min(row[-1], most + 1)


def _deletions(word: str, most: int) -> set[str]:
    """``word`` with every choice of up to ``most`` (one or two) letters left out."""
    n = len(word)
    out = {word[:i] + word[i + 1:] for i in range(n)}
    if most > 1:
        out.update(word[:i] + word[i + 1:j] + word[j + 1:]
                   for i in range(n) for j in range(i + 1, n))
    out.add(word)
    return out


def alike_names(names: Iterable[str]) -> set[tuple[str, str]]:
    """The pairs (sorted) of different names within ``letters_allowed`` edits: two names so
    close share a deletion (each side leaves out the letters the other lacks or has changed),
    so only names sharing one are compared."""
    first: dict[str, str] = {}  # a deletion -> the first name that has it
    shared: dict[str, list[str]] = {}  # a deletion -> every name that has it, when two do
    for name in set(names):
        for variant in _deletions(name, LETTERS_APART if len(name) >= LONG_NAME else 1):
            other = first.setdefault(variant, name)
            if other is not name:
                shared.setdefault(variant, [other]).append(name)
    out: set[tuple[str, str]] = set()
    seen: set[tuple[str, str]] = set()
    for group in shared.values():
        for i, a in enumerate(group):
            for b in group[i + 1:]:
                pair = (a, b) if a < b else (b, a)
                if pair in seen:
                    continue
                seen.add(pair)
                most = letters_allowed(a, b)
                if edits(a, b, most) <= most:
                    out.add(pair)
    return out


def near_matches(people: Sequence[Person]) -> list[tuple[Person, Person]]:
    """Pairs of people not matched who may be one, each pair and the list in key order: the
    same name with a birth missing or different, or names a letter or two apart
    (``letters_allowed``) with the same year of birth (or both without one)."""
    who = shown(people)
    by_name: dict[str, list[str]] = {}
    by_year: dict[str, dict[str, list[str]]] = {}
    for key, p in who.items():
        name = key_of(p.name)
        by_name.setdefault(name, []).append(key)
        by_year.setdefault(p.birth[:4], {}).setdefault(name, []).append(key)
    pairs: set[tuple[str, str]] = set()
    for keys in by_name.values():
        pairs.update(_pairs(keys, keys))
    for names in by_year.values():
        for a, b in alike_names(names):
            pairs.update(_pairs(names[a], names[b]))
    return [(who[a], who[b]) for a, b in sorted(pairs)]


def _pairs(these: Sequence[str], those: Sequence[str]) -> Iterable[tuple[str, str]]:
    return ((a, b) if a < b else (b, a) for a in these for b in those if a != b)
