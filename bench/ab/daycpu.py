"""``daycpu.py N``: N benchmark days (``bench/day.py``'s, full size) of the code in the current
folder, each on a fresh database; one JSON line per day with the wall and the CPU (process,
every thread) seconds of its timed part, the feed. ``abba.sh`` runs it in two worktrees."""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path.cwd() / "bench"))

import day  # noqa: E402
from common import setup_logging  # noqa: E402
from workload import Sizes  # noqa: E402

from bot.support.loop import use_uvloop  # noqa: E402

FULL = Sizes(150, 50, 20)  # as bench/run.py's FULL plan
SEED = 2023


def main() -> None:
    setup_logging()
    use_uvloop()  # as make bench and the bot run
    timed = day.feed
    got: dict[str, float] = {}

    async def feed(*args: Any, **kwargs: Any) -> Any:
        cpu, wall = time.process_time(), time.perf_counter()
        try:
            return await timed(*args, **kwargs)
        finally:
            got["cpu"] = time.process_time() - cpu
            got["wall"] = time.perf_counter() - wall

    day.feed = feed
    for _ in range(int(sys.argv[1])):
        with tempfile.TemporaryDirectory() as tmp:
            asyncio.run(day.bot_day(Path(tmp), FULL, SEED))
        print(json.dumps({k: round(v, 4) for k, v in got.items()}), flush=True)


if __name__ == "__main__":
    main()
