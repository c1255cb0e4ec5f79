"""A team's members changed before it plays (bot/features/members/rules.py; docs/rules.md, the team
changes with ``keep_originals``): a change applied, recorded and undone (the originals), the
originals kept as registration compares people, and whether a change may be made (no changes
taken, no such member, the same person, full, too few, too few originals, not eligible).
Pure domain, run against every mutant by ``make mutate``; every expected value is worked out by
hand from the rule."""

from __future__ import annotations

from datetime import date

from bot.domain.contest import Category, Slot
from bot.features.members.rules import (
    Allowed,
    Change,
    Full,
    NoChanges,
    NoSuchMember,
    NotEligible,
    SameMember,
    TooFew,
    TooFewOriginals,
    apply,
    change_verdict,
    kept,
    member_data,
    member_from,
    originals,
)
from bot.features.registration.rules import Member

DAY = date(2027, 7, 10)
# as an event's data gives a member back: its date and its year
A = Member("Ana García", date(1990, 5, 1), 1990)
B = Member("Berta Ruiz", date(1985, 2, 3), 1985)
C = Member("Carla Díaz", date(1992, 8, 9), 1992)
D = Member("Dora Gil", date(1979, 1, 1), 1979)
E = Member("Elena Sanz", date(2000, 12, 31), 2000)
F = Member("Flor Vega", date(1995, 6, 6), 1995)


def team(keep: int | None = 2, slots: tuple[Slot, ...] = (Slot(),) * 4) -> Category:
    # teams of 3 to 4, keeping at least ``keep`` of the members it registered with
    return Category("teams", "Teams", 4, 1000, 7200, 0, slots, min_members=3,
                    keep_originals=keep)


def test_a_change_applied() -> None:
    assert apply((A, B, C), Change(1, E)) == (A, E, C)  # replaced
    assert apply((A, B, C), Change(None, E)) == (A, B, C, E)  # added, last
    assert apply((A, B, C), Change(0, None)) == (B, C)  # removed
    assert apply((A, B, C), Change(2, None)) == (A, B)


def test_a_member_as_an_events_data_and_back() -> None:
    assert member_data(None) is None and member_from(None) is None
    assert member_data(A) == {"name": "Ana García", "born": "1990-05-01", "year": 1990}
    by_year = Member("Ana García", None, 1990)
    assert member_data(by_year) == {"name": "Ana García", "born": None, "year": 1990}
    assert member_data(Member("Ana")) == {"name": "Ana", "born": None, "year": None}
    assert member_from(member_data(A)) == A
    assert member_from(member_data(by_year)) == by_year
    assert member_from({"name": "Ana", "born": "", "year": 1990}) == Member("Ana", None, 1990)
    assert member_from({"name": "Ana"}) == Member("Ana")
    assert member_from({"name": 12, "born": "2001-02-03"}) == Member("12", date(2001, 2, 3))


def change(position: int | None, old: Member | None, new: Member | None) -> dict[str, object]:
    return {"position": position, "old": member_data(old), "new": member_data(new)}


def test_the_originals_are_the_members_with_every_change_undone() -> None:
    # registered A, B, C; B replaced by E (A, E, C), F added (A, E, C, F), A removed (E, C, F)
    changes = [change(1, B, E), change(None, None, F), change(0, A, None)]
    assert originals((E, C, F), changes) == [A, B, C]
    assert originals((E, C, F), []) == [E, C, F]
    # the changes are undone newest first: D replaced E at 0 after E replaced A there
    assert originals((D, B, C), [change(0, A, E), change(0, E, D)]) == [A, B, C]
    # a member removed from the middle goes back in its place; two added are both taken off
    assert originals((A, C), [change(1, B, None)]) == [A, B, C]
    assert originals((A, B, C, E, F), [change(None, None, E), change(None, None, F)]) == [A, B, C]
    # positions as the event's JSON may hold them
    assert originals((A, C), [{"position": "1", "old": member_data(B), "new": None}]) == [A, B, C]


def test_the_originals_kept_as_registration_compares_people() -> None:
    assert kept((A, B, C), (A, B, C)) == 3
    assert kept((A, B, C), (E, C, A)) == 2
    assert kept((A, B, C), (D, E, F)) == 0
    assert kept((), (A,)) == 0
    # the same name typed otherwise and the same birth: the same person
    assert kept((A,), (Member("ANA  garcia", date(1990, 5, 1)),)) == 1
    # another birth: another person
    assert kept((A,), (Member("Ana García", date(1990, 5, 2)),)) == 0


def test_a_category_without_keep_originals_takes_no_change() -> None:
    assert change_verdict(team(None), (A, B, C), (A, B, C), Change(0, E), DAY) == NoChanges()


def test_no_such_member() -> None:
    cat = team()
    assert change_verdict(cat, (A, B, C), (A, B, C), Change(3, E), DAY) == NoSuchMember(3, 3)
    assert change_verdict(cat, (A, B, C), (A, B, C), Change(-1, E), DAY) == NoSuchMember(-1, 3)
    assert change_verdict(cat, (A, B, C), (A, B, C), Change(5, None), DAY) == NoSuchMember(5, 3)
    assert change_verdict(cat, (A, B, C), (A, B, C), Change(2, D), DAY) == \
        Allowed((A, B, D))  # the last one is there


def test_the_same_person_is_nothing_to_change() -> None:
    cat = team()
    again = Member("ana garcia", date(1990, 5, 1))
    assert change_verdict(cat, (A, B, C), (A, B, C), Change(0, again), DAY) == SameMember(0)
    assert change_verdict(cat, (A, B, C), (A, B, C), Change(2, C), DAY) == SameMember(2)
    # the same person elsewhere in the team is not "the same member" at that position
    assert change_verdict(cat, (A, B, C, D), (A, B, C, D), Change(1, A), DAY) != SameMember(1)


def test_full_and_too_few() -> None:
    cat = team()
    assert change_verdict(cat, (A, B, C, D), (A, B, C, D), Change(None, E), DAY) == Full(4)
    assert change_verdict(cat, (A, B, C), (A, B, C), Change(None, E), DAY) == \
        Allowed((A, B, C, E))
    assert change_verdict(cat, (A, B, C), (A, B, C), Change(1, None), DAY) == TooFew(3)
    assert change_verdict(cat, (A, B, C, D), (A, B, C, D), Change(1, None), DAY) == \
        Allowed((A, C, D))
    # a replacement in a full team, or in one as small as it may be, is neither
    assert change_verdict(cat, (A, B, C, D), (A, B, C, D), Change(3, E), DAY) == \
        Allowed((A, B, C, E))


def test_too_few_originals() -> None:
    cat = team(2)
    # registered A, B, C; B replaced by E already: replacing A too leaves one original
    assert change_verdict(cat, (A, E, C), (A, B, C), Change(0, D), DAY) == TooFewOriginals(2)
    # replacing E (not an original) keeps two: allowed
    assert change_verdict(cat, (A, E, C), (A, B, C), Change(1, D), DAY) == Allowed((A, D, C))
    # B coming back counts again
    assert change_verdict(cat, (A, E, C), (A, B, C), Change(1, B), DAY) == Allowed((A, B, C))
    # removing an original from four, two of them originals, leaves one
    assert change_verdict(cat, (A, E, C, D), (A, B, C), Change(0, None), DAY) == \
        TooFewOriginals(2)
    # more originals asked than the team registered with: all of them
    strict = team(5)
    assert change_verdict(strict, (A, B, C), (A, B, C), Change(0, D), DAY) == TooFewOriginals(5)
    assert change_verdict(strict, (A, B, C), (A, B, C), Change(None, D), DAY) == \
        Allowed((A, B, C, D))
    # keep_originals = 0: any change
    assert change_verdict(team(0), (D, E, F), (A, B, C), Change(0, A), DAY) == \
        Allowed((A, E, F))


def test_the_team_as_changed_must_fit_the_categorys_places() -> None:
    adults = team(1, (Slot(min_age=18),) * 4)
    child = Member("Pablo Niño", date(2015, 3, 3))  # 12 on the contest day
    verdict = change_verdict(adults, (A, B, C), (A, B, C), Change(1, child), DAY)
    assert isinstance(verdict, NotEligible)
    assert (verdict.problem.member, verdict.problem.reason) == (1, "requirements")
    assert (verdict.problem.born_year, verdict.problem.age) == (2015, 12)
    assert change_verdict(adults, (A, B, C), (A, B, C), Change(1, E), DAY) == Allowed((A, E, C))
