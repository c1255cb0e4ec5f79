"""Ratings across contests (bot/domain/ratings.py; docs/rules.md, "Ratings across contests",
after JPAR) on events built by hand: the kinds, a non-finisher's estimated time, an event's
expected average and scores, a rating averaged with each event in date order, the window of
months. Pure domain, run against every mutant by ``make mutate``; every expected value is worked
out by hand from the rule (tests/exports/test_ratings.py has the association's example)."""

from __future__ import annotations

from datetime import date

import pytest

from bot.domain.ratings import (
    KINDS,
    Event,
    Performance,
    Rating,
    Settings,
    estimate,
    in_window,
    kind_of,
    months_before,
    rate_event,
    ratings,
)


def ev(ident: str, day: date, *times: tuple[str, float], kind: str = "individual",
       guessed: tuple[str, ...] = ()) -> Event:
    return Event(ident, day, kind, tuple(Performance(p, t, p in guessed) for p, t in times))


def test_the_kinds_and_the_settings() -> None:
    assert KINDS == ("individual", "pairs", "teams")
    assert [kind_of(n) for n in (1, 2, 3, 4, 8)] == ["individual", "pairs", "teams", "teams",
                                                     "teams"]
    assert Settings() == Settings(12, "estimate", "everyone")
    assert Performance("a", 10.0).estimated is False
    assert Rating(1.0) == Rating(1.0, 1, [])


def test_a_non_finishers_time_at_its_rate() -> None:
    assert estimate(3600, 400, 500) == 4500  # 400 of 500 in an hour: 1:15:00
    assert estimate(1800, 250, 1000) == 7200
    assert estimate(3600, 500, 500) == 3600
    assert estimate(60, 1, 500) == 30000  # one piece in a minute: 500 minutes
    assert estimate(60, 1, 1) == 60  # a puzzle of one piece
    for pieces, total in ((0, 500), (None, 500), (-5, 500), (400, 0), (400, -500)):
        assert estimate(3600, pieces, total) is None


def test_an_events_scores() -> None:
    # nobody rated: the mean of everyone's time (4000)
    assert rate_event([Performance("a", 3000), Performance("b", 5000)], {}) == {
        "a": 0.75, "b": 1.25}
    # a rated 0.8 in 4000 s: expected 5000, whatever the unrated's times
    scores = rate_event([Performance("a", 4000), Performance("b", 6000)], {"a": Rating(0.8)})
    assert scores == pytest.approx({"a": 0.8, "b": 1.2})
    # two rated: the mean of time / rating (5000 and 3000: 4000)
    scores = rate_event([Performance("a", 4000), Performance("b", 3000), Performance("c", 2000)],
                        {"a": Rating(0.8), "b": Rating(1.0), "x": Rating(9.0)})
    assert scores == pytest.approx({"a": 1.0, "b": 0.75, "c": 0.5})
    assert rate_event([], {}) == {}
    assert rate_event([], {"a": Rating(1.0)}) == {}


def test_the_same_day_months_before() -> None:
    assert months_before(date(2024, 1, 15), 1) == date(2023, 12, 15)
    assert months_before(date(2024, 1, 15), 12) == date(2023, 1, 15)
    assert months_before(date(2024, 1, 15), 0) == date(2024, 1, 15)
    assert months_before(date(2024, 12, 31), 11) == date(2024, 1, 31)
    assert months_before(date(2024, 12, 10), 12) == date(2023, 12, 10)
    assert months_before(date(2024, 1, 10), 13) == date(2022, 12, 10)
    # the month's last day when it has fewer
    assert months_before(date(2024, 5, 31), 1) == date(2024, 4, 30)
    assert months_before(date(2024, 3, 31), 1) == date(2024, 2, 29)
    assert months_before(date(2024, 3, 30), 1) == date(2024, 2, 29)
    assert months_before(date(2024, 3, 29), 1) == date(2024, 2, 29)
    assert months_before(date(2023, 3, 29), 1) == date(2023, 2, 28)
    assert months_before(date(2023, 3, 31), 1) == date(2023, 2, 28)
    assert months_before(date(2024, 2, 29), 24) == date(2022, 2, 28)
    with pytest.raises(ValueError, match="0001-01-01"):  # the day it can't go back from
        months_before(date(1, 1, 1), 1)


def test_the_window() -> None:
    at = date(2024, 1, 31)
    assert not in_window(date(2023, 1, 31), at, 12)  # after at less 12 months
    assert in_window(date(2023, 2, 1), at, 12)
    assert in_window(at, at, 12)
    assert not in_window(date(2024, 2, 1), at, 12)
    assert in_window(date(2024, 1, 1), at, 1) and not in_window(date(2023, 12, 31), at, 1)
    # reaching back before the year 1: every day up to at
    assert in_window(date(1, 1, 1), date(1, 6, 1), 12)
    assert in_window(date(1, 6, 1), date(1, 6, 1), 12)
    assert not in_window(date(1, 6, 2), date(1, 6, 1), 12)


def test_a_rating_is_averaged_with_each_event_in_date_order() -> None:
    first = ev("e1", date(2024, 1, 10), ("a", 3000), ("b", 5000))  # average 4000
    # a 0.75 and b 1.25 rated: expected (4000 / 0.75 + 4000 / 1.25) / 2 = 12800 / 3
    second = ev("e2", date(2024, 2, 10), ("a", 4000), ("b", 4000), ("c", 6000))
    out = ratings([second, first], Settings(), date(2024, 3, 1))
    assert set(out) == set(KINDS) and out["pairs"] == {} and out["teams"] == {}
    rated = out["individual"]
    assert rated["a"].value == pytest.approx((0.75 + 0.9375) / 2)
    assert rated["b"].value == pytest.approx((1.25 + 0.9375) / 2)
    assert rated["c"].value == pytest.approx(1.40625)  # first-timer: its score
    assert (rated["a"].events, rated["b"].events, rated["c"].events) == (2, 2, 1)
    assert [e for e, _ in rated["a"].history] == ["e1", "e2"]
    assert [s for _, s in rated["a"].history] == pytest.approx([0.75, 0.9375])
    assert [s for _, s in rated["c"].history] == pytest.approx([1.40625])


def test_events_of_one_day_by_their_id() -> None:
    day = date(2024, 5, 5)
    b = ev("b", day, ("x", 200), ("y", 200))
    a = ev("a", day, ("x", 100), ("y", 300))  # first: x 0.5, y 1.5; then b: both 0.75
    rated = ratings([b, a], Settings(), day)["individual"]
    assert rated["x"].value == pytest.approx(0.625)
    assert rated["y"].value == pytest.approx(1.125)


def test_kinds_never_mixed() -> None:
    day = date(2024, 5, 5)
    solo = ev("solo", day, ("x", 100), ("y", 300))
    pair = ev("pair", day, ("x", 300), ("y", 100), kind="pairs")
    out = ratings([solo, pair], Settings(), day)
    assert out["individual"]["x"].value == 0.5 and out["individual"]["y"].value == 1.5
    assert out["pairs"]["x"].value == 1.5 and out["pairs"]["y"].value == 0.5
    assert out["individual"]["x"].events == 1 and out["teams"] == {}


def test_only_the_events_of_the_window_count() -> None:
    old = ev("old", date(2023, 1, 31), ("x", 100), ("y", 300))
    edge = ev("edge", date(2023, 2, 1), ("x", 300), ("y", 100))
    late = ev("late", date(2024, 2, 1), ("x", 100), ("y", 300))
    rated = ratings([old, edge, late], Settings(window_months=12), date(2024, 1, 31))
    assert rated["individual"]["x"].value == 1.5 and rated["individual"]["x"].events == 1
    wide = ratings([old, edge], Settings(window_months=13), date(2024, 1, 31))["individual"]
    assert wide["x"].events == 2
    assert ratings([late], Settings(), date(2024, 1, 31))["individual"] == {}


def test_non_finishers_estimated_or_left_out() -> None:
    day = date(2024, 5, 5)
    e = ev("e", day, ("x", 3000), ("y", 5000), ("z", 4000), guessed=("y",))
    kept = ratings([e], Settings(), day)["individual"]
    assert kept["x"].value == 0.75 and kept["y"].value == 1.25 and kept["z"].value == 1.0
    left = ratings([e], Settings(unfinished="leave_out"), day)["individual"]
    assert "y" not in left  # average (3000 + 4000) / 2
    assert left["x"].value == pytest.approx(3000 / 3500)
    assert left["z"].value == pytest.approx(4000 / 3500)
