"""The real ``python -m bot run`` as a child process, pointed at our fake Bot API server: what
the rehearsal and the end-to-end tests run, start, SIGKILL and stop."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from dataclasses import dataclass, field
from pathlib import Path

from bot.harness.fakeapi import FakeBotAPI


@dataclass
class BotProcess:
    api: FakeBotAPI
    db: Path | str
    contest: Path | str
    organisers: str = "1"
    volunteer_chat: int | None = None
    extra_env: dict[str, str] = field(default_factory=dict)
    cwd: Path | None = None
    proc: asyncio.subprocess.Process | None = None
    log: bytes = b""  # everything the bot wrote to stderr, over all its lives

    async def start(self, **env_now: str) -> None:
        """Start it (with ``env_now`` added for this start only) and wait until it polls."""
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("TELEGRAM_", "PUZZLEBOT_"))}
        env.update({
            "TELEGRAM_BOT_TOKEN": self.api.token, "TELEGRAM_BASE_URL": self.api.base_url,
            "PUZZLEBOT_CONTEST": str(self.contest), "PUZZLEBOT_DB": str(self.db),
            "PUZZLEBOT_ORGANISERS": self.organisers, **self.extra_env, **env_now,
        })
        if self.volunteer_chat is not None:
            env["PUZZLEBOT_VOLUNTEER_CHAT"] = str(self.volunteer_chat)
        starts = sum(1 for c in self.api.calls if c.method == "deleteWebhook")
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "run", cwd=self.cwd, env=env,
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
        ok = await self.api.wait_until(
            lambda: sum(1 for c in self.api.calls if c.method == "deleteWebhook") > starts, 30)
        if not ok:
            raise RuntimeError("the bot did not start")

    async def kill(self) -> None:
        """SIGKILL: the laptop loses power; no goodbye, no flush."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        _, err = await self.proc.communicate()
        self.log += err or b""
        self.proc = None

    async def stop(self) -> None:
        """SIGINT, as Ctrl+C; killed if it has not stopped within 20 s."""
        if self.proc is None:
            return
        if self.proc.returncode is None:
            self.proc.send_signal(signal.SIGINT)
        try:
            _, err = await asyncio.wait_for(self.proc.communicate(), 20)
        except TimeoutError:
            self.proc.kill()
            _, err = await self.proc.communicate()
        self.log += err or b""
        self.proc = None
