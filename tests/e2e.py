"""The real ``python -m bot run`` process against our fake Bot API server over HTTP."""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.rehearsal.botprocess import BotProcess as _BotProcess
from bot.rehearsal.fakeapi import Call, FakeBotAPI
from bot.support.wallclock import ENV as CLOCK_ENV
from bot.support.wallclock import WallClock

ROOT = Path(__file__).resolve().parent.parent
# Telegram's flood limits this many times faster (the rehearsal clock's pace, on the real
# clock): a scripted phone types a dozen messages a second, and at a person's pace the bot
# would drop the answers it owes nothing for and the helpers below wait for them in vain.
# Tests of the pacing itself pass ``pace=None``.
PACE = 50.0
# ``make soak``: the long tests at their full size (the soak, the outages of a minute); ``make
# test`` runs them shorter, with the same phases and checks
FULL = os.environ.get("PUZZLEBOT_FULL_TESTS") == "1"


@dataclass
class Phone:
    id: int
    name: str
    lang: str = "en"

    def user(self) -> dict[str, Any]:
        return FakeBotAPI.user(self.id, self.name, self.lang)


@dataclass
class BotProcess(_BotProcess):
    """The bot process of the tests: run from the project's folder."""

    cwd: Path | None = ROOT
    pace: float | None = PACE

    async def launch(self, **env_now: str) -> None:
        if self.pace is not None and CLOCK_ENV not in {**self.extra_env, **env_now}:
            now = time.time()
            clock = WallClock(datetime.fromtimestamp(now, UTC), now, 1.0, self.pace)
            env_now = {CLOCK_ENV: clock.encode(), **env_now}
        await super().launch(**env_now)


async def say(api: FakeBotAPI, who: Phone, text: str, at: datetime) -> list[str]:
    """Send and wait for the bot's reply to that person; returns the texts sent to them."""
    calls = await api.reply_to(who.user(), text, at, timeout=15)
    return [c.text for c in calls if c.method == "sendMessage"]


async def tap(api: FakeBotAPI, who: Phone, data: str, at: datetime) -> list[str]:
    calls = await api.press_and_wait(who.user(), data, at, timeout=15, answer_timeout=3)
    return [c.text for c in calls if c.method == "sendMessage"]


async def register(api: FakeBotAPI, who: Phone, category: str,
                   members: list[tuple[str, str, list[bool]]], at: datetime,
                   meal: tuple[int, int] | None = None) -> tuple[int, str, str]:
    """The whole /inscribir conversation; returns (number, first line, partner join code).
    The meal is asked once per person: "No meal" for (0, 0); where it was asked with an
    earlier entry, ``meal`` is added from the summary."""
    await say(api, who, "/inscribir", at)
    await tap(api, who, f"reg:cat:{category}", at)
    last: list[str] = []
    for name, born, answers in members:
        await say(api, who, name, at)
        last = await say(api, who, born, at)
        for i, yes in enumerate(answers):
            last = await tap(api, who, f"reg:q:{i}:{'y' if yes else 'n'}", at)
    summary = any(t.startswith("Please check your registration") for t in last)
    if meal is not None and summary and meal != (0, 0):
        await tap(api, who, "reg:meal:add", at)
    if meal is not None and (not summary or meal != (0, 0)):
        if meal == (0, 0):
            await tap(api, who, "reg:meal:no", at)
        else:
            await tap(api, who, f"reg:ma:{meal[0]}", at)
            await tap(api, who, f"reg:mc:{meal[1]}", at)
    reply = "\n".join(await tap(api, who, "reg:ok", at))
    found = re.search(r"#(\d+)", reply)
    code = re.search(r"start=([A-Za-z0-9_-]+)", reply)
    return (int(found.group(1)) if found else 0, reply.splitlines()[0] if reply else "",
            code.group(1) if code else "")


async def register_pair(api: FakeBotAPI, phone: Phone, at: datetime) -> int:
    """A pair of two adults registered by ``phone`` (its name twice, "Uno" and "Dos"), no
    meal: its number."""
    number, _, _ = await register(api, phone, "parejas",
                                  [(f"{phone.name} Uno", "1980", [False, False]),
                                   (f"{phone.name} Dos", "1982", [False, False])], at, (0, 0))
    return number


def sent_to(api: FakeBotAPI, chat: int) -> list[Call]:
    return [c for c in api.calls if c.method == "sendMessage" and c.chat_id == chat]
