"""``setup --try``: the setup walked through against a pretend Telegram (our fake Bot API, on
this machine), before the organiser has a token: the same questions, checks and organiser
link, into a trial database and settings file that are shown, then thrown away."""

from __future__ import annotations

import asyncio
import os
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from bot.rehearsal.fakeapi import FakeBotAPI

ENDING = ("This was a trial against a pretend Telegram on this computer: no token, nothing "
          "sent anywhere, and nothing kept (the settings above were written to a trial folder, "
          "now deleted). When you have your bot's token from @BotFather (/newbot), run setup "
          "again without --try.")


@contextmanager
def pretend_telegram() -> Iterator[FakeBotAPI]:
    """Our fake Bot API served on loopback from a thread of its own for the block."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="pretend-telegram", daemon=True)
    thread.start()
    api = FakeBotAPI()
    try:
        asyncio.run_coroutine_threadsafe(api.start(), loop).result(30)
        yield api
    finally:
        asyncio.run_coroutine_threadsafe(api.stop(), loop).result(30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()


def trial_setup(setup: Callable[[str], int], settings_of: Callable[[str], Path]) -> int:
    """``setup(db)`` with a pretend Telegram's token and address in the environment, into a
    trial folder; the settings it wrote shown (the token hidden), then the way on."""
    saved = {k: os.environ.get(k) for k in ("TELEGRAM_BOT_TOKEN", "TELEGRAM_BASE_URL")}
    with pretend_telegram() as api, tempfile.TemporaryDirectory() as tmp:
        os.environ["TELEGRAM_BOT_TOKEN"] = api.token
        os.environ["TELEGRAM_BASE_URL"] = api.base_url
        try:
            db = str(Path(tmp) / "trial.sqlite3")
            code = setup(db)
            written = settings_of(db)
            if code == 0 and written.exists():
                print("the settings file setup wrote:")
                for line in written.read_text(encoding="utf-8").splitlines():
                    print("  " + line.replace(api.token, "[your token]"))
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value
    if code == 0:
        print(ENDING)
    return code
