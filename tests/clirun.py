"""``python -m bot ARGS`` run in the test's own process: ``bot.cli.main`` with the environment,
working folder, standard streams, logging and event loop policy of a fresh process, all put
back afterwards. A child process pays a second of imports; this pays none. What only a real
process shows (its exit status, its pipes, nothing else printed) keeps a few tests of its own."""

from __future__ import annotations

import asyncio
import io
import logging
import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import bot.cli as cli
from tests.conftest import ROOT

# the loggers bot.support.logsetup configures, besides the root
_LOGGERS = ("", "httpx", "apscheduler")


def bot_main(args: list[str], env: Mapping[str, str], *, stdin: str = "",
             cwd: Path | str = ROOT, text: bool = True) -> subprocess.CompletedProcess:
    """What ``subprocess.run([sys.executable, "-m", "bot", *args], env=env, cwd=cwd,
    capture_output=True, text=text, input=stdin)`` gives (stdout and stderr in UTF-8, as with
    PYTHONIOENCODING=utf-8), from ``bot.cli.main``. Not in a running event loop: from an
    async test, ``await asyncio.to_thread(bot_main, ...)``."""
    env, saved_env = dict(env), dict(os.environ)  # env may be os.environ itself
    saved_cwd = os.getcwd()
    saved_streams = sys.stdin, sys.stdout, sys.stderr
    saved_logging = [(logging.getLogger(name), logging.getLogger(name).handlers[:],
                      logging.getLogger(name).level) for name in _LOGGERS]
    saved_policy = asyncio.get_event_loop_policy()
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", write_through=True)
    err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", write_through=True)
    try:
        os.environ.clear()
        os.environ.update(env)
        os.chdir(cwd)
        sys.stdin, sys.stdout, sys.stderr = io.StringIO(stdin), out, err
        try:
            code = cli.main(list(args))
        except SystemExit as exc:  # argparse's usage errors
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        out.flush()
        err.flush()
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved_streams
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
        for logger, handlers, level in saved_logging:
            logger.handlers[:] = handlers
            logger.setLevel(level)
        asyncio.set_event_loop_policy(saved_policy)
    raw_out, raw_err = out.buffer.getvalue(), err.buffer.getvalue()  # type: ignore[attr-defined]
    if not text:
        return subprocess.CompletedProcess(["bot", *args], code, raw_out, raw_err)
    return subprocess.CompletedProcess(["bot", *args], code, _decoded(raw_out),
                                       _decoded(raw_err))


def _decoded(raw: bytes) -> str:
    """As ``subprocess.run(text=True)`` reads a pipe: UTF-8, universal newlines."""
    return io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8").read()


def bot_process(args: list[str], env: Mapping[str, str], *, stdin: str | None = None,
                cwd: Path | str = ROOT, text: bool = True) -> subprocess.CompletedProcess:
    """``python -m bot ARGS`` as a real child process (``env`` is its whole environment)."""
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=cwd,
                          env={**env, "PYTHONIOENCODING": "utf-8"}, capture_output=True,
                          text=text, encoding="utf-8" if text else None, timeout=60,
                          input=stdin if text else None,
                          stdin=None if text else subprocess.DEVNULL)
