"""What a rehearsal plays: one message of someone, at a moment of the simulated day; the
teams it registers; what a rehearsal offers the player of a contest in rounds
(``bot.rehearsal.championship``), which it runs; and the lines of its transcript."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Protocol
from zoneinfo import ZoneInfo

from bot.domain.contest import Category, Contest
from bot.rehearsal.fakeapi import Call, FakeBotAPI

PHOTO = "[photo]"  # an action that sends a photo (a contest played at home), not a text


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
    # the refusals the rehearsal means (its reasons' codes): wrong input sent on purpose, to
    # show the bot's answer (``bot.rehearsal.refusals``)
    expect: tuple[str, ...] = field(compare=False, default=())


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

    async def press(self, who: Person, data: str, at: datetime) -> list[Call]: ...

    async def play(self, actions: list[Action]) -> list[Call]: ...

    async def start_bot(self, simulated_start: datetime, speed: float,
                        real_start: float | None = None, pace: float | None = None) -> None: ...

    async def stop_bot(self) -> str: ...


@dataclass
class Window:
    """A message being played, from ``actor``, dated ``at``; ``mark`` is the fake server's
    last message before it (until it is sent, what the bot says is about the one before)."""

    actor: Person
    at: datetime
    mark: int


@dataclass
class Line:
    """A line of the transcript (and the lines under it), printed at ``at``; ``seq`` orders the
    lines of one moment. A message the bot sent by itself has ``said`` (its text) and ``to``
    (who got it); its ``at`` is None until worked out (``Rehearsal.flush``) from when it
    ``arrived`` (simulated time) after the message played ``after``."""

    at: datetime | None
    seq: int
    text: list[str]
    said: str = ""
    to: list[str] = field(default_factory=list)
    arrived: datetime | None = None
    after: datetime | None = None
    phones: int | None = None  # to an entry's phone: the entry (its first phone)

    def order(self) -> tuple[datetime, int]:
        assert self.at is not None, "a line printed before its moment was worked out"
        return self.at, self.seq


def recipients(to: list[str]) -> str:
    """``#3, #12 and volunteers``: the entries in order, then the staff (the organisers get the
    volunteers' lines too: "organiser" alone only when no volunteer got it)."""
    entries = sorted((t for t in to if t.startswith("#")),
                     key=lambda t: int(t[1:]) if t[1:].isdigit() else 0)
    staff = ["volunteers"] if "volunteers" in to else [t for t in to if t == "organiser"]
    names = entries + staff
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
