"""Windows has no signal handlers in its event loops and no SIGUSR1 (issue 49); tested here by
making this machine look like it (a loop whose ``add_signal_handler`` raises
NotImplementedError, no SIGUSR1, ``sys.platform``):

- Ctrl+C (and Ctrl+Break) stop the bot through ``signal.signal`` (bot/chat/polling.py);
- a rehearsal skips no idle time, it plays at its own pace (bot/chat/skips.py);
- the rehearsal's bot is started in a process group of its own, stopped with Ctrl+Break and
  killed with TerminateProcess (bot/rehearsal/botprocess.py).
"""

from __future__ import annotations

import asyncio
import signal
import sys
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import pytest

from bot.chat import skips
from bot.chat.polling import STOP_SIGNALS, on_signals
from bot.rehearsal import botprocess, demo
from bot.support.wallclock import CLOCK, SKIP_ENV
from tests.conftest import CASTRILLO


def no_signal_handlers(*args: object) -> None:
    raise NotImplementedError  # Windows' ProactorEventLoop and SelectorEventLoop


async def test_ctrl_c_stops_the_bot_where_the_loop_has_no_signal_handlers(monkeypatch):
    monkeypatch.setattr(asyncio.get_running_loop(), "add_signal_handler", no_signal_handlers)
    before = signal.getsignal(signal.SIGINT)
    stop = asyncio.Event()
    undo = on_signals(STOP_SIGNALS, stop.set)
    try:
        assert signal.getsignal(signal.SIGINT) is not before  # or the next line ends pytest
        signal.raise_signal(signal.SIGINT)
        await asyncio.wait_for(stop.wait(), 5)
    finally:
        undo()
    assert signal.getsignal(signal.SIGINT) is before
    assert signal.getsignal(signal.SIGTERM) is not None


async def test_the_loops_own_handlers_where_it_has_them():
    stop = asyncio.Event()
    undo = on_signals(STOP_SIGNALS, stop.set)
    try:
        signal.raise_signal(signal.SIGINT)
        await asyncio.wait_for(stop.wait(), 5)
    finally:
        undo()


def skipping_app(added: list[object]) -> Any:
    scheduler = SimpleNamespace(add_listener=lambda *a: added.append(a))
    return SimpleNamespace(job_queue=SimpleNamespace(scheduler=scheduler))


async def test_no_skips_without_sigusr1(monkeypatch, tmp_path):
    monkeypatch.setenv(SKIP_ENV, str(tmp_path / "skip"))
    monkeypatch.setattr(CLOCK, "simulated_start", datetime(2023, 4, 22, tzinfo=UTC))
    added: list[object] = []
    monkeypatch.delattr(signal, "SIGUSR1")
    assert not skips.supported()
    assert skips.listen_for_skips(skipping_app(added)) is False


async def test_no_skips_where_the_loop_has_no_signal_handlers(monkeypatch, tmp_path):
    monkeypatch.setenv(SKIP_ENV, str(tmp_path / "skip"))
    monkeypatch.setattr(CLOCK, "simulated_start", datetime(2023, 4, 22, tzinfo=UTC))
    monkeypatch.setattr(asyncio.get_running_loop(), "add_signal_handler", no_signal_handlers)
    added: list[object] = []
    assert skips.listen_for_skips(skipping_app(added)) is False
    assert added == []  # no timer watched for skips that never come


@pytest.mark.parametrize("has_sigusr1, web_port, skipping", [
    (True, 0, True), (True, 8080, False), (False, 0, False)])
def test_the_demo_asks_for_skips_only_where_they_can_be_heard(monkeypatch, tmp_path,
                                                               has_sigusr1, web_port, skipping):
    asked: dict[str, Any] = {}

    class Rehearsal:
        def __init__(self, *args: object, **kwargs: object) -> None:
            asked.update(kwargs)
            self.web_port = 0

        async def run(self) -> int:
            return 0

    monkeypatch.setattr(demo, "Rehearsal", Rehearsal)
    if not has_sigusr1:
        monkeypatch.delattr(signal, "SIGUSR1")
    assert demo.run_demo(str(CASTRILLO), 4, 1, str(tmp_path / "r.sqlite3"),
                         web_port=web_port) == 0
    assert asked["skips"] is skipping


class Child:
    """What ``asyncio.create_subprocess_exec`` gives, as far as BotProcess uses it."""

    def __init__(self) -> None:
        self.returncode: int | None = None
        self.stdout = SimpleNamespace(read=self._read)
        self.sent: list[object] = []

    async def _read(self, size: int) -> bytes:
        return b""

    def send_signal(self, sig: object) -> None:
        self.sent.append(sig)
        self.returncode = 0

    def kill(self) -> None:
        self.sent.append("kill")
        self.returncode = -9

    async def wait(self) -> int:
        assert self.returncode is not None
        return self.returncode


@pytest.mark.parametrize("platform", ["win32", "linux"])
async def test_the_rehearsals_bot_stopped_and_killed_as_the_system_allows(monkeypatch, platform):
    started: list[dict[str, Any]] = []
    children: list[Child] = []

    async def start(*args: object, **kwargs: Any) -> Child:
        started.append(kwargs)
        children.append(Child())
        return children[-1]

    monkeypatch.setattr(botprocess.asyncio, "create_subprocess_exec", start)
    monkeypatch.setattr(sys, "platform", platform)
    api: Any = SimpleNamespace(token="1:x", base_url="http://127.0.0.1:9/bot")
    bot = botprocess.BotProcess(api, "r.sqlite3", str(CASTRILLO))
    await bot.launch()
    assert await bot.stop() == 0
    await bot.launch()
    await bot.kill()
    windows = platform == "win32"
    assert [s["creationflags"] for s in started] == [0x200 if windows else 0] * 2
    assert children[0].sent == [1 if windows else signal.SIGINT]  # CTRL_BREAK_EVENT is 1
    assert children[1].sent == ["kill"]
