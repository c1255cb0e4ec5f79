"""What a rehearsal plays: one message of someone, at a moment of the simulated day; the
teams it registers; and what a rehearsal offers the player of a contest in rounds
(``bot.rehearsal.championship``), which it runs."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Protocol
from zoneinfo import ZoneInfo

from bot.domain.contest import Category, Contest
from bot.rehearsal.fakeapi import Call, FakeBotAPI


@dataclass
class Person:
    id: int
    name: str
    lang: str

    def user(self) -> dict[str, Any]:
        return FakeBotAPI.user(self.id, self.name, self.lang)


@dataclass(order=True)
class Action:
    at: datetime
    order: int  # ties at the same moment keep the order they were planned in
    actor: Person = field(compare=False)
    text: str = field(compare=False)
    label: str = field(compare=False, default="")  # how the transcript shows it, if not
    # as its text (a button pressed instead: "[#12 Record 1:47:30]")


@dataclass
class Team:
    category: Category
    members: list[tuple[str, date]]
    answers: list[set[str]]
    phones: list[Person]
    number: int = 0
    join_code: str = ""
    meal: tuple[int, int] = (0, 0)
    registered_at: datetime | None = None
    paid_at: datetime | None = None


class Stage(Protocol):
    """What the rehearsal (``bot.rehearsal.demo.Rehearsal``) offers the championship's
    days: its people, its randomness, the bot it restarts, and the messages it plays."""

    contest: Contest
    rng: random.Random
    db_path: str
    day_seconds: float
    tz: ZoneInfo
    teams: list[Team]
    organiser: Person
    volunteers: list[Person]

    def next_order(self) -> int: ...

    def say(self, text: str = "") -> None: ...

    async def flush(self) -> None: ...

    async def send(self, who: Person, text: str, at: datetime) -> list[Call]: ...

    async def play(self, actions: list[Action]) -> list[Call]: ...

    async def start_bot(self, simulated_start: datetime, speed: float,
                        real_start: float | None = None, pace: float | None = None) -> None: ...

    async def stop_bot(self) -> str: ...
