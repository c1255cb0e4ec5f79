"""The real ``python -m bot run`` as a child process, pointed at our fake Bot API server: what
the rehearsal and the end-to-end tests run, start, SIGKILL and stop.

On Windows a child cannot be sent SIGINT: it is started in a process group of its own and
stopped with Ctrl+Break (``CTRL_BREAK_EVENT``), which it hears as SIGBREAK, one of the bot's stop
signals (bot/chat/polling.py); a kill is ``TerminateProcess``."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from bot.chat.skips import CLOCK_LINE, HOLD
from bot.rehearsal.fakeapi import FakeBotAPI
from bot.support.wallclock import SKIP_ENV, WallClock

# Windows' names (its signal and subprocess modules have them; these are their values there)
CTRL_BREAK_EVENT: int = getattr(signal, "CTRL_BREAK_EVENT", 1)
CREATE_NEW_PROCESS_GROUP: int = getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0x200)


def windows() -> bool:
    return sys.platform == "win32"


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
    # everything the bot wrote to stdout and stderr, over all its lives (read as written)
    log: bytes = b""
    _reader: asyncio.Task[None] | None = None

    async def start(self, **env_now: str) -> None:
        """Start it (with ``env_now`` added for this start only) and wait until it polls."""
        starts = sum(1 for c in self.api.calls if c.method == "deleteWebhook")
        await self.launch(**env_now)
        ok = await self.api.wait_until(
            lambda: sum(1 for c in self.api.calls if c.method == "deleteWebhook") > starts, 30)
        if not ok:
            tail = self.log.decode("utf-8", "replace").strip().splitlines()[-12:]
            raise RuntimeError("the bot did not start; the end of its log:\n"
                               + "\n".join(tail or ["(nothing)"]))

    async def launch(self, **env_now: str) -> None:
        """Start it (with ``env_now`` added for this start only), without waiting for it."""
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("TELEGRAM_", "PUZZLEBOT_"))}
        env.update({
            "TELEGRAM_BOT_TOKEN": self.api.token, "TELEGRAM_BASE_URL": self.api.base_url,
            "PUZZLEBOT_CONTEST": str(self.contest), "PUZZLEBOT_DB": str(self.db),
            "PUZZLEBOT_ORGANISERS": self.organisers,
            # no automatic backups in a rehearsal (its clock runs a day in seconds) unless
            # asked for
            "PUZZLEBOT_BACKUPS": "off", **self.extra_env, **env_now,
        })
        if self.volunteer_chat is not None:
            env["PUZZLEBOT_VOLUNTEER_CHAT"] = str(self.volunteer_chat)
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "run", cwd=self.cwd, env=env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
            creationflags=CREATE_NEW_PROCESS_GROUP if windows() else 0)
        self._reader = asyncio.create_task(self._read(self.proc))

    async def _read(self, proc: asyncio.subprocess.Process) -> None:
        assert proc.stdout is not None
        while chunk := await proc.stdout.read(65536):
            self.log += chunk

    async def wait_logged(self, text: str, times: int = 1, timeout: float = 30) -> bool:
        """Wait until ``text`` has appeared ``times`` times in the log (False: it did not)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.log.count(text.encode()) < times:
            if loop.time() >= deadline:
                return False
            await asyncio.sleep(0.05)
        return True

    async def skip_to(self, moment: datetime, timeout: float = 15,
                      hold: bool = False) -> WallClock | None:
        """Ask the bot to skip idle time up to ``moment`` (``bot.chat.skips``; it was started
        with ``PUZZLEBOT_REHEARSAL_SKIP`` in ``extra_env``): its clock after the jump, or None
        if it did not answer within ``timeout``. With ``hold``, the clock stops there if the
        jump reached ``moment`` (no timer first)."""
        return await self._ask(moment.isoformat() + (f" {HOLD}" if hold else ""), timeout)

    async def hold(self, timeout: float = 15) -> WallClock | None:
        """Stop the bot's clock and its timers until the next ``skip_to`` (``bot.chat.skips``):
        the clock it holds, or None if it did not answer within ``timeout``."""
        return await self._ask(HOLD, timeout)

    async def _ask(self, text: str, timeout: float) -> WallClock | None:
        assert self.proc is not None, "the bot is not running"
        mark = CLOCK_LINE.encode()
        since = len(self.log)
        Path(self.extra_env[SKIP_ENV]).write_text(text)
        self.proc.send_signal(signal.SIGUSR1)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            at = self.log.find(mark, since)
            end = self.log.find(b"\n", at) if at >= 0 else -1
            if end >= 0:
                return WallClock.parse(self.log[at + len(mark):end].decode().strip())
            await asyncio.sleep(0.002)
        return None

    async def clock_since(self, since: int, timeout: float = 15) -> WallClock | None:
        """The last clock the bot logged (``CLOCK_LINE``) after byte ``since`` of its log, once
        one is there (None if none came within ``timeout``)."""
        mark = CLOCK_LINE.encode()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            at = self.log.rfind(mark, since)
            end = self.log.find(b"\n", at) if at >= 0 else -1
            if end >= 0:
                return WallClock.parse(self.log[at + len(mark):end].decode().strip())
            if loop.time() >= deadline:
                return None
            await asyncio.sleep(0.002)

    async def _ended(self) -> int:
        assert self.proc is not None
        code = await self.proc.wait()
        if self._reader is not None:
            await self._reader
            self._reader = None
        self.proc = None
        return code

    async def kill(self) -> None:
        """SIGKILL (Windows: TerminateProcess): the laptop loses power; no goodbye, no flush."""
        assert self.proc is not None
        self.proc.kill()
        await self._ended()

    async def stop(self, sig: int = signal.SIGINT) -> int | None:
        """``sig`` (SIGINT, as Ctrl+C; on Windows Ctrl+Break); killed if it has not stopped
        within 20 s. Returns its exit code (None if it had to be killed or was not running)."""
        if self.proc is None:
            return None
        if self.proc.returncode is None:
            self.proc.send_signal(CTRL_BREAK_EVENT if windows() and sig == signal.SIGINT
                                  else sig)
        try:
            await asyncio.wait_for(self.proc.wait(), 20)
        except TimeoutError:
            self.proc.kill()
            await self._ended()
            return None
        return await self._ended()

    async def wait_exit(self, timeout: float = 30) -> int | None:
        """Wait for it to end by itself; its exit code (None: still running after timeout)."""
        if self.proc is None:
            return None
        try:
            await asyncio.wait_for(self.proc.wait(), timeout)
        except TimeoutError:
            return None
        return await self._ended()


async def import_entries(db: Path | str, contest: Path | str, csv: Path, cwd: Path | None = None,
                         force: bool = False) -> None:
    """``python -m bot import entries CSV`` into ``db``, as an organiser runs it (none of the
    environment's TELEGRAM_ or PUZZLEBOT_ settings but the database and the contest);
    ``RuntimeError`` with what it printed when it fails."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "PUZZLEBOT_"))}
    env.update(PUZZLEBOT_DB=str(db), PUZZLEBOT_CONTEST=str(contest))
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "import", "entries", str(csv), *(["--force"] if force else []),
        cwd=cwd, env=env, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
    _, err = await proc.communicate()
    if proc.returncode != 0:
        raise RuntimeError(f"import entries exited {proc.returncode}: {err.decode()}")
