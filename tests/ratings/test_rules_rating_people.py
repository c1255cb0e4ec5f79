"""People matched across contests' documents for the ratings (bot/domain/rating_people.py;
docs/rules.md, "Ratings across contests", "Who" and "Near matches"): an appearance's key, a
year alone joining the one person it can be, people shown with their fullest birth, the edits
between two names, names alike, and the near matches grouped per name and per two names alike.
Pure domain, run against every mutant by ``make mutate``; every expected value is worked out by
hand from the rule."""

from __future__ import annotations

from datetime import date
from itertools import product

import pytest

from bot.domain.rating_people import (
    LETTERS_APART,
    LONG_NAME,
    AlikeNames,
    Name,
    NearMatches,
    Person,
    _born,
    _deletions,
    alike_names,
    appearance,
    edits,
    key_of,
    letters_allowed,
    matched,
    near_matches,
    person_keys,
    shown,
    year_of,
)
from bot.domain.ratings import Event, Performance


def test_an_appearances_key() -> None:
    assert key_of("  José   PÉREZ ") == "jose perez"
    # a full date: the name's key and the date
    assert appearance("José  Pérez", date(1990, 5, 1), None, "d.json#1.1") == Person(
        "jose perez|1990-05-01", "José  Pérez", "1990-05-01")
    assert appearance("José Pérez", date(1990, 5, 1), 1990, "d.json#1.1") == Person(
        "jose perez|1990-05-01", "José Pérez", "1990-05-01")
    # a year alone
    assert appearance("José Pérez", None, 1990, "d.json#1.1") == Person(
        "jose perez|1990", "José Pérez", "1990")
    # no birth: its own document's entry tells it
    assert appearance("José Pérez", None, None, "d.json#12.1") == Person(
        "jose perez|#d.json#12.1", "José Pérez", "")


def test_a_birth_read_back() -> None:
    assert _born("1990") == (None, 1990)
    assert _born("0980") == (None, 980)
    assert _born("1990-05-01") == (date(1990, 5, 1), 1990)
    for nothing in ("", "199", "19x0", "1990-13-01", "someday", "12345"):
        assert _born(nothing) == (None, None)


def p(name: str, birth: str, entry: str = "") -> Person:
    return Person(f"{key_of(name)}|{birth or '#' + entry}", name, birth)


def test_a_year_alone_joins_the_one_person_it_can_be() -> None:
    full = p("Ana García", "1990-05-01")
    year = p("ana garcia", "1990")
    keys = person_keys([year, full])
    assert keys == {year.key: full.key, full.key: full.key}
    # another year, or another name: nobody to join
    assert person_keys([p("Ana García", "1991"), full])["ana garcia|1991"] == "ana garcia|1991"
    assert person_keys([p("Ana Garcís", "1990"), full])["ana garcis|1990"] == "ana garcis|1990"
    # a year alone, nobody with a date: itself
    assert person_keys([year, p("Ana García", "1990")]) == {year.key: year.key}


def test_a_year_between_two_dates_is_rated_apart() -> None:
    one, two = p("Ana García", "1990-05-01"), p("Ana García", "1990-06-01")
    year = p("Ana García", "1990")
    keys = person_keys([one, year, two])
    assert keys == {one.key: one.key, two.key: two.key, year.key: year.key}


def test_without_a_birth_nobody_is_joined() -> None:
    a, b = p("Ana García", "", "x.json#1.1"), p("Ana García", "", "y.json#4.1")
    # an appearance met again changes nothing, and those after it are matched all the same
    year, full = p("Ana García", "1990"), p("Ana García", "1990-05-01")
    assert person_keys([year, year, full]) == {year.key: full.key, full.key: full.key}
    assert person_keys([a, b, a]) == {a.key: a.key, b.key: b.key}
    odd = Person("ana garcia|someday", "Ana García", "someday")  # not a birth
    assert person_keys([odd, p("Ana García", "1990-05-01")])[odd.key] == odd.key
    assert person_keys([]) == {}


def test_appearances_that_are_one_person_take_the_first_ones_key() -> None:
    # keys of the caller's own making: the person's key is that of its first full date (in key
    # order), and a year alone joins that person
    k2 = Person("k2", "ANA garcía", "1990-05-01")
    k1 = Person("k1", "Ana García", "1990-05-01")
    k3 = Person("k3", "Ana Garcia", "1990")
    k4 = Person("k4", "Ana García", "1990-07-07")
    assert person_keys([k2, k3, k1, k4]) == {"k1": "k1", "k2": "k1", "k3": "k3", "k4": "k4"}
    # without k4 the year alone can only be k1's person
    assert person_keys([k2, k3, k1]) == {"k1": "k1", "k2": "k1", "k3": "k1"}


def test_events_and_people_matched() -> None:
    full, year = p("Ana García", "1990-05-01"), p("Ana García", "1990")
    other = p("Bea Gil", "", "d.json#2.1")
    events = [Event("c-2023/adultos", date(2023, 5, 1), "individual",
                    (Performance(year.key, 3000.0), Performance(other.key, 4000.0, True),
                     Performance("stranger", 5000.0))),
              Event("c-2024/adultos", date(2024, 5, 1), "individual",
                    (Performance(full.key, 2900.0),))]
    got_events, got_people = matched(events, [year, other, full])
    assert [[(q.person, q.time, q.estimated) for q in e.performances] for e in got_events] == [
        [(full.key, 3000.0, False), (other.key, 4000.0, True), ("stranger", 5000.0, False)],
        [(full.key, 2900.0, False)]]
    assert [e.id for e in got_events] == ["c-2023/adultos", "c-2024/adultos"]
    assert got_people == [Person(full.key, "Ana García", "1990"), other, full]


def test_a_person_shown_as_first_met_with_the_fullest_birth() -> None:
    people = [Person("k", "Ana Garcia", ""), Person("k", "ANA GARCÍA", "1990"),
              Person("k", "Ana García", "1990-05-01"), Person("k", "ana", "1991"),
              Person("j", "Bea", "1980")]
    assert shown(people) == {"k": Person("k", "Ana Garcia", "1990-05-01"),
                             "j": Person("j", "Bea", "1980")}
    assert shown([]) == {}


# -- names a letter or two apart ---------------------------------------------------------------


def test_how_many_letters_apart_names_may_be() -> None:
    assert (LETTERS_APART, LONG_NAME) == (2, 12)
    twelve, eleven = "a" * 12, "a" * 11
    assert letters_allowed(twelve, twelve) == 2
    assert letters_allowed(twelve + "bc", twelve) == 2
    assert letters_allowed(twelve, eleven) == 1
    assert letters_allowed(eleven, twelve) == 1
    assert letters_allowed("ana", "eva") == 1


@pytest.mark.parametrize(("a", "b", "most", "expected"), [
    ("abc", "abc", 1, 0),
    ("", "", 1, 0),
    ("carla ruis", "carla ruiz", 1, 1),  # a letter changed
    ("ana", "anna", 1, 1),  # added
    ("anna", "ana", 1, 1),  # dropped
    ("abcd", "abdc", 2, 1),  # two side by side swapped
    ("abcd", "bacd", 1, 1),
    ("ana", "eva", 2, 2),
    ("ana", "eva", 1, 2),  # more than most: most + 1
    ("ana", "eva", 3, 2),
    ("kitten", "sitting", 3, 3),
    ("kitten", "sitting", 2, 3),
    ("kitten", "sitting", 5, 3),
    ("a", "abcd", 2, 3),  # lengths too far apart
    ("abcd", "a", 3, 3),
    ("", "ab", 2, 2),
    ("ab", "", 1, 2),
    ("ca", "abc", 3, 3),  # a swapped pair is not edited again
    ("abcdef", "badcfe", 3, 3),  # three swaps
    ("abcdef", "badcfe", 2, 3),
    ("xabcdefgh", "yabcdefgh", 1, 1),
    ("abcdefgh", "zyxwvuts", 1, 2),  # cut short
    ("ab", "ab", 1, 0),
    ("aaa", "a", 2, 2),  # two dropped
    ("aa", "bbbb", 2, 3),  # four apart, within two letters of length: most + 1
])
def test_the_edits_between_two_names(a: str, b: str, most: int, expected: int) -> None:
    assert edits(a, b, most) == expected


def test_a_words_deletions() -> None:
    assert _deletions("abc", 1) == {"abc", "bc", "ac", "ab"}
    assert _deletions("abc", 2) == {"abc", "bc", "ac", "ab", "c", "b", "a"}
    assert _deletions("a", 2) == {"a", ""}
    assert _deletions("aab", 1) == {"aab", "ab", "aa"}


def test_names_alike() -> None:
    names = ["ana", "eva", "anna", "carla ruis", "carla ruiz", "ana", "karla ruiz",
             "maria fernandez", "mario fernandes", "maria fernando", "abcdefghijkl",
             "abcdefghijxy", "abcdefghijk", "abcdefghixy"]
    assert alike_names(names) == {
        ("ana", "anna"),  # one letter added
        ("carla ruis", "carla ruiz"), ("carla ruiz", "karla ruiz"),  # one letter changed
        ("maria fernandez", "mario fernandes"),  # two changed, both long
        ("maria fernandez", "maria fernando"),  # one changed, one dropped: 15 and 14
        ("abcdefghijkl", "abcdefghijxy"),  # two apart, both 12
        ("abcdefghijk", "abcdefghijkl"),  # one apart, one of them 11
        ("abcdefghijxy", "abcdefghixy"),  # one apart, one of them 11
    }
    # "carla ruis" and "karla ruiz" are two apart, short: two people; "mario fernandes" and
    # "maria fernando" three apart; "abcdefghijk" and "abcdefghijxy" two apart, one of 11
    assert alike_names([]) == set()
    assert alike_names(["ana", "ana"]) == set()
    assert alike_names(["ab", "ba"]) == {("ab", "ba")}  # swapped
    assert alike_names(["zoe", "zoey", "zoe "]) == {("zoe", "zoey"), ("zoe", "zoe "),
                                                   ("zoe ", "zoey")}


def osa(a: str, b: str) -> int:
    """The edits between two words by the definition (optimal string alignment), uncapped."""
    d = {(i, j): max(i, j) if min(i, j) == 0 else 0
         for i in range(len(a) + 1) for j in range(len(b) + 1)}
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            d[i, j] = min(d[i - 1, j] + 1, d[i, j - 1] + 1,
                          d[i - 1, j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i, j] = min(d[i, j], d[i - 2, j - 2] + 1)
    return d[len(a), len(b)]


def test_names_alike_are_every_pair_the_definition_takes() -> None:
    # many names sharing many deletions: short ones over two letters, and long ones (12 and
    # 13 letters, two edits allowed between two of them)
    short = ["".join(t) for n in range(1, 5) for t in product("ab", repeat=n)]
    long = ["abcabcabca" + "".join(t) for n in (2, 3) for t in product("ab", repeat=n)]
    names = short + long
    expected = {(a, b) for a in names for b in names
                if a < b and osa(a, b) <= (2 if min(len(a), len(b)) >= 12 else 1)}
    assert len(expected) > 100
    assert alike_names(names) == expected
    assert all(edits(a, b, 2) == min(osa(a, b), 3) for a in short for b in short)


# -- near matches -------------------------------------------------------------------------------

P1 = Person("ana garcia|1990-05-01", "Ana García", "1990-05-01")
P2 = Person("ana garcia|1990-06-01", "ana garcia", "1990-06-01")
P3 = Person("ana garcia|#d1.json#3.1", "Ana Garcia", "")
BEA = Person("bea|1980", "Bea", "1980")
Q1 = Person("carla ruis|1970", "Carla Ruis", "1970")
Q2 = Person("carla ruiz|1970-01-01", "Carla Ruiz", "1970-01-01")
Q3 = Person("carla ruiz|1970-02-02", "CARLA RUIZ", "1970-02-02")
Q4 = Person("carla ruiz|1985", "Carla Ruiz", "1985")
GARCIS = Person("ana garcis|1975", "Ana Garcis", "1975")


def test_near_matches_grouped_per_name_and_per_two_names() -> None:
    near = near_matches([Q4, P1, BEA, Q1, P2, Q3, P3, Q2, GARCIS])
    # in key order: "#" before the digits
    ana = Name("ana garcia", ("Ana Garcia", "Ana García", "ana garcia"), (P3, P1, P2),
               (("1990", 2), ("", 1)))
    ruiz = Name("carla ruiz", ("Carla Ruiz", "CARLA RUIZ"), (Q2, Q3, Q4),
                (("1970", 2), ("1985", 1)))
    ruis = Name("carla ruis", ("Carla Ruis",), (Q1,), (("1970", 1),))
    # Bea is alone; "ana garcis" is alike "ana garcia" but has none of its years
    assert near == NearMatches((ana, ruiz), (AlikeNames(ruis, ruiz, ("1970",)),))
    assert list(near.pairs()) == [(P3, P1), (P3, P2), (P1, P2), (Q2, Q3), (Q2, Q4), (Q3, Q4),
                                  (Q1, Q2), (Q1, Q3)]


def test_two_people_of_one_name_are_a_group() -> None:
    near = near_matches([P1, P2, BEA])
    assert near.namesakes == (Name("ana garcia", ("Ana García", "ana garcia"), (P1, P2),
                                   (("1990", 2),)),)
    assert list(near.pairs()) == [(P1, P2)]


def test_one_person_seen_in_several_documents_is_one() -> None:
    near = near_matches([P1, Person(P1.key, "ANA GARCIA", "1990"), Q1])
    assert near == NearMatches((), ())
    assert list(near.pairs()) == []
    assert near_matches([]) == NearMatches((), ())


def test_names_alike_without_a_birth_and_years_in_order() -> None:
    a1 = Person("carla ruis|#d#1", "Carla Ruis", "")
    a2 = Person("carla ruis|980", "Carla Ruis", "980")
    a3 = Person("carla ruis|2001", "Carla Ruis", "2001")
    b1 = Person("carla ruiz|#d#2", "Carla Ruiz", "")
    b2 = Person("carla ruiz|0980-03-03", "Carla Ruiz", "0980-03-03")
    b3 = Person("carla ruiz|2001", "Carla Ruiz", "2001")
    b4 = Person("carla ruiz|1999", "Carla Ruiz", "1999")
    near = near_matches([a1, a2, a3, b1, b2, b3, b4])
    ruis = Name("carla ruis", ("Carla Ruis",), (a1, a3, a2),
                (("980", 1), ("2001", 1), ("", 1)))  # by year: 980 before 2001
    ruiz = Name("carla ruiz", ("Carla Ruiz",), (b1, b2, b4, b3),
                (("0980", 1), ("1999", 1), ("2001", 1), ("", 1)))
    assert near.namesakes == (ruis, ruiz)
    # "980" and "0980" are not the same text: years in common are 2001 and none
    assert near.alike == (AlikeNames(ruis, ruiz, ("2001", "")),)
    assert [(x.key, y.key) for x, y in near.pairs()][-2:] == [(a1.key, b1.key),
                                                             (a3.key, b3.key)]


def test_a_years_of_a_person() -> None:
    assert year_of(P1) == "1990" and year_of(P3) == "" and year_of(Q1) == "1970"
