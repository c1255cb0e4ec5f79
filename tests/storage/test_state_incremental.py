"""An entry's state folded from its previous state (events appended since) is the state folded
from all its events: the ledger (tickets, penalties, stages, escape time) and everything else."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from bot.services.contest_file import load_contest
from bot.services.state import clock_for, entry_state
from bot.storage.store import Entry, Event
from tests.conftest import CASTRILLO

START = datetime(2023, 4, 22, 8, 0, tzinfo=UTC)


def event(i: int, kind: str, minute: float, stage: int | None = None,
          value: int | None = None, data: dict | None = None) -> Event:
    at = START + timedelta(minutes=minute)
    return Event(id=i, at=at, actor=10, role="participant", kind=kind, entry=1,
                 category=None, stage=stage, value=value, ref=None, data=data or {},
                 supersedes=None, recorded_at=at)


def test_folding_what_was_added_gives_the_state_folded_from_everything():
    contest = load_contest(CASTRILLO)
    entry = Entry(number=1, category="parejas", join_code="x", local=False,
                  registered_at=START, members=())
    start = Event(id=0, at=START, actor=1, role="organiser", kind="clock_start", entry=None,
                  category="parejas", stage=None, value=None, ref=None, data={},
                  supersedes=None, recorded_at=START)
    clock = clock_for(contest, [start], "parejas")
    rng = random.Random(7)
    incremental_used = 0
    for _ in range(300):
        events: list[Event] = []
        previous = None
        minute = 0.0
        for i in range(1, rng.randint(2, 14)):
            # mostly forward in time; sometimes back-dated (a volunteer's late /etapa or /escape)
            minute = max(0.0, minute + rng.choice([3, 7, 12, 20, -15]))
            kind = rng.choice(["hint", "solution", "stage", "stage", "escape", "ready",
                               "finish", "pieces"])
            stage = rng.randint(1, 4)
            value = rng.randint(60 * 60, 2 * 60 * 60) if kind in ("finish",) else (
                rng.randint(10, 500) if kind == "pieces" else None)
            events.append(event(i, kind, minute, stage, value))
            if rng.random() < 0.15 and len(events) > 2:
                events.pop(rng.randrange(len(events) - 1))  # a correction took one away
            full = entry_state(contest, entry, events, clock)
            step = entry_state(contest, entry, events, clock, previous)
            assert step == full, (events, step, full)
            assert step.escape_result == full.escape_result
            if previous is not None and len(previous.basis) < len(events):
                incremental_used += 1
            previous = step
    assert incremental_used > 500  # the shortcut was taken, not only the full fold
