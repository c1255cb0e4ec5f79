"""The real ``python -m bot run`` process against our fake Bot API server over HTTP."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from bot.fakeapi import Call, FakeBotAPI

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Phone:
    id: int
    name: str
    lang: str = "en"

    def user(self) -> dict[str, Any]:
        return FakeBotAPI.user(self.id, self.name, self.lang)


@dataclass
class BotProcess:
    api: FakeBotAPI
    db: Path
    contest: Path
    organisers: str = "1"
    volunteer_chat: int | None = None
    extra_env: dict[str, str] = field(default_factory=dict)
    proc: asyncio.subprocess.Process | None = None
    log: bytes = b""

    async def start(self) -> None:
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("TELEGRAM_", "PUZZLEBOT_"))}
        env.update({
            "TELEGRAM_BOT_TOKEN": self.api.token, "TELEGRAM_BASE_URL": self.api.base_url,
            "PUZZLEBOT_CONTEST": str(self.contest), "PUZZLEBOT_DB": str(self.db),
            "PUZZLEBOT_ORGANISERS": self.organisers, **self.extra_env,
        })
        if self.volunteer_chat is not None:
            env["PUZZLEBOT_VOLUNTEER_CHAT"] = str(self.volunteer_chat)
        starts = sum(1 for c in self.api.calls if c.method == "deleteWebhook")
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "run", cwd=ROOT, env=env,
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
        ok = await self.api.wait_until(
            lambda: sum(1 for c in self.api.calls if c.method == "deleteWebhook") > starts, 30)
        assert ok, "the bot did not start"

    async def kill(self) -> None:
        """SIGKILL: no goodbye, no flush."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        _, err = await self.proc.communicate()
        self.log += err or b""
        self.proc = None

    async def stop(self) -> None:
        if self.proc is None:
            return
        self.proc.send_signal(signal.SIGINT)
        try:
            _, err = await asyncio.wait_for(self.proc.communicate(), 20)
        except TimeoutError:
            self.proc.kill()
            _, err = await self.proc.communicate()
        self.log += err or b""
        self.proc = None


async def say(api: FakeBotAPI, who: Phone, text: str, at: datetime) -> list[str]:
    """Send and wait for the bot's reply to that person; returns the texts sent to them."""
    calls = await api.reply_to(who.user(), text, at, timeout=15)
    return [c.text for c in calls if c.method == "sendMessage"]


async def tap(api: FakeBotAPI, who: Phone, data: str, at: datetime) -> list[str]:
    await api.settle()
    before = len(api.calls)
    update_id = api.press(who.user(), data, at)
    await api.wait_until(lambda: api.confirmed_update() >= update_id, 15)
    await api.wait_until(lambda: any(c.chat_id == who.id and c.method == "sendMessage"
                                     for c in api.calls[before:]), 3)
    return [c.text for c in api.calls[before:] if c.chat_id == who.id and
            c.method == "sendMessage"]


async def register(api: FakeBotAPI, who: Phone, category: str,
                   members: list[tuple[str, str, list[bool]]], at: datetime,
                   meal: tuple[int, int] | None = None) -> tuple[int, str, str]:
    """The whole /inscribir conversation; returns (number, first line, partner join code)."""
    await say(api, who, "/inscribir", at)
    await tap(api, who, f"reg:cat:{category}", at)
    for name, born, answers in members:
        await say(api, who, name, at)
        await say(api, who, born, at)
        for i, yes in enumerate(answers):
            await tap(api, who, f"reg:q:{i}:{'y' if yes else 'n'}", at)
    if meal is not None:
        await tap(api, who, f"reg:ma:{meal[0]}", at)
        await tap(api, who, f"reg:mc:{meal[1]}", at)
    reply = "\n".join(await tap(api, who, "reg:ok", at))
    found = re.search(r"#(\d+)", reply)
    code = re.search(r"start=([A-Za-z0-9_-]+)", reply)
    return (int(found.group(1)) if found else 0, reply.splitlines()[0] if reply else "",
            code.group(1) if code else "")


def sent_to(api: FakeBotAPI, chat: int) -> list[Call]:
    return [c for c in api.calls if c.method == "sendMessage" and c.chat_id == chat]
