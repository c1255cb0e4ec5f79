"""Ratings across contests, after the USA Jigsaw Puzzle Association's JPAR: each person is rated
relative to the expected average of each event they played, over a window of months.

For each event (one puzzle played by a set of people: a category of a contest, or a round of
it), in date order:

- the expected event average is the mean of ``time / rating`` over the people who already have
  a rating (what the event's average would be were everyone as fast as their rating says);
  when nobody has one yet, the mean of everyone's time;
- each person's event score is ``time / expected average`` (below 1: faster than average);
- their rating becomes the mean of their rating before and the event score; a first-timer's
  rating is their event score.

A non-finisher's time is estimated from the pieces placed and the time limit (``limit ×
pieces of the puzzle / pieces placed``: the rate they were going at), or left out, as the
settings say. People are rated per kind of category (individual, pairs, teams): a pair's time
rates each of its members as a pair player. Pure: no clock, no storage.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date

KINDS = ("individual", "pairs", "teams")
UNFINISHED = ("estimate", "leave_out")
WHO = ("everyone", "with_birth")


def kind_of(members: int) -> str:
    return "individual" if members == 1 else "pairs" if members == 2 else "teams"


@dataclass(frozen=True)
class Settings:
    """``rating.toml``: the window in months, how non-finishers count, who is rated."""

    window_months: int = 12
    unfinished: str = "estimate"  # or "leave_out"
    who: str = "everyone"  # or "with_birth": only people whose birth is known


@dataclass(frozen=True)
class Performance:
    person: str  # the person's key (``bot.features.registration.rules.name_key`` and birth)
    time: float  # seconds: the ranking time, or the estimate for a non-finisher
    estimated: bool = False


@dataclass(frozen=True)
class Event:
    id: str  # "castrillo-2023/adultos" or "library-series-2024/teams/final"
    day: date
    kind: str
    performances: tuple[Performance, ...]


def estimate(time_limit: int, pieces: int | None, total: int) -> float | None:
    """A non-finisher's time at the rate it was placing pieces (None: no pieces placed)."""
    if not pieces or pieces <= 0 or total <= 0:
        return None
    return time_limit * total / pieces


@dataclass
class Rating:
    value: float
    events: int = 1
    history: list[tuple[str, float]] = field(default_factory=list)  # (event, event score)


def rate_event(performances: Sequence[Performance],
               prior: dict[str, Rating]) -> dict[str, float]:
    """Each person's event score (their time over the event's expected average)."""
    ranked = [p.time / prior[p.person].value for p in performances if p.person in prior]
    pool = ranked or [p.time for p in performances]
    if not pool:
        return {}
    expected = sum(pool) / len(pool)
    return {p.person: p.time / expected for p in performances}


def months_before(day: date, months: int) -> date:
    """The same day ``months`` earlier (the month's last day when it has fewer)."""
    year, month = divmod(day.year * 12 + day.month - 1 - months, 12)
    for d in (day.day, 30, 29, 28):
        try:
            return date(year, month + 1, d)
        except ValueError:
            continue
    raise ValueError(day)


def in_window(day: date, at: date, months: int) -> bool:
    """Whether an event on ``day`` counts in a rating at ``at``: after ``at`` less ``months``,
    up to ``at``. A window reaching back before the year 1 starts at the beginning."""
    try:
        start = months_before(at, months)
    except ValueError:  # before date.min: every day up to ``at``
        return day <= at
    return start < day <= at


def ratings(events: Iterable[Event], settings: Settings, at: date
            ) -> dict[str, dict[str, Rating]]:
    """Each kind's ratings by person at ``at``: the events of the window (after ``at`` less
    ``window_months``, up to ``at``), oldest first."""
    out: dict[str, dict[str, Rating]] = {k: {} for k in KINDS}
    for event in sorted(events, key=lambda e: (e.day, e.id)):
        if not in_window(event.day, at, settings.window_months):
            continue
        kept = [p for p in event.performances
                if not (p.estimated and settings.unfinished == "leave_out")]
        rated = out[event.kind]
        for person, score in rate_event(kept, rated).items():
            known = rated.get(person)
            if known is None:
                rated[person] = Rating(score, 1, [(event.id, score)])
            else:
                known.value = (known.value + score) / 2
                known.events += 1
                known.history.append((event.id, score))
    return out
