"""People matched across contests' documents for the ratings (bot/domain/ratings.py), as
registration matches them (``bot.features.registration.rules.same_person``, the rule of
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
Nor are they listed pair by pair (2,200 people of one name are 2.4 million pairs): a group per
name shared by people rated apart, and one per two names alike with the years both have.
Pure: no clock, no storage.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date
from functools import lru_cache

from bot.domain.ratings import Event
from bot.features.registration.rules import Member, name_key, same_person


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


@dataclass(frozen=True)
class Name:
    """The people rated apart who share a name (``key_of``), as near matches list them."""
    key: str
    spellings: tuple[str, ...]  # the name as typed, first met (in key order) first
    people: tuple[Person, ...]  # in key order
    years: tuple[tuple[str, int], ...]  # each year of birth ("" without one): how many


@dataclass(frozen=True)
class AlikeNames:
    """Two names a letter or two apart (``letters_allowed``) and the years of birth both have
    ("" when both have people without one): each of the one's people with each of the other's
    of the same year may be one."""
    first: Name  # the names in key order
    second: Name
    years: tuple[str, ...]


@dataclass(frozen=True)
class NearMatches:
    """People rated apart who may be one, in groups whose size grows with the people, never
    with the pairs (2,200 people of one name are one group, not 2.4 million pairs)."""
    namesakes: tuple[Name, ...]  # names of two people or more (each two may be one), by key
    alike: tuple[AlikeNames, ...]  # by the names' keys

    def pairs(self) -> Iterable[tuple[Person, Person]]:
        """Every pair of people the groups stand for, each once (as many as the square of a
        group: for checking them, never for printing)."""
        for name in self.namesakes:
            for i, a in enumerate(name.people):
                for b in name.people[i + 1:]:
                    yield a, b
        for two in self.alike:
            for a in two.first.people:
                for b in two.second.people:
                    if year_of(a) == year_of(b) and year_of(a) in two.years:
                        yield a, b


def year_of(person: Person) -> str:
    """The year of a person's birth as near matches compare it ("" without a birth)."""
    return person.birth[:4]


def _year_order(year: str) -> tuple[bool, str]:
    return year == "", year.zfill(4)


def near_matches(people: Sequence[Person]) -> NearMatches:
    """People not matched who may be one, grouped: the same name with a birth missing or
    different (a group per name), and names a letter or two apart (``letters_allowed``) with
    the same year of birth or both without one (a group per two names). Built without the
    pairs of people: linear in them, and in the pairs of distinct names alike."""
    who = shown(people)
    by_name: dict[str, list[Person]] = {}
    for key in sorted(who):
        by_name.setdefault(key_of(who[key].name), []).append(who[key])
    names: dict[str, Name] = {}
    for key, these in by_name.items():
        years = Counter(year_of(p) for p in these)
        names[key] = Name(key, tuple(dict.fromkeys(p.name for p in these)), tuple(these),
                          tuple(sorted(years.items(), key=lambda yn: _year_order(yn[0]))))
    had = {key: {year for year, _ in name.years} for key, name in names.items()}
    alike = []
    for a, b in sorted(alike_names(names)):
        small, large = sorted((had[a], had[b]), key=len)
        both = sorted((year for year in small if year in large), key=_year_order)
        if both:
            alike.append(AlikeNames(names[a], names[b], tuple(both)))
    return NearMatches(tuple(names[key] for key in sorted(names) if len(names[key].people) > 1),
                       tuple(alike))
