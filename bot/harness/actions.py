"""What a rehearsal plays: one message of someone, at a moment of the simulated day."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bot.harness.fakeapi import FakeBotAPI


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
    label: str = field(compare=False, default="")
