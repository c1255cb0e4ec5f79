"""``instructions.py``: the instructions one benchmark day's feed takes (``bench/day.py``'s, full
size, after a warm-up day), counted by valgrind's callgrind over every thread, for the code in
the current folder. One JSON line: ``{"instructions": N}``.

Unlike CPU seconds, the count hardly moves from run to run (two runs of the same code differ by
up to about 0.6 %), so two versions can be told apart by a few percent in two runs, where
``abba.sh`` needs dozens of days. What it does not see: cache misses, page faults, waiting.
Under valgrind the day runs about 50 times slower, so timing-dependent choices (which lines
join in one message) may differ from a real run; compare the same way in both versions.
A run takes about a minute here::

    (cd "$WT/old" && PYTHONPATH=. ../../main/.venv/bin/python ../../main/bench/ab/instructions.py)
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

INSIDE = "_BENCH_AB_UNDER_CALLGRIND"  # set for the run under valgrind
TOTAL = re.compile(r"Collected\s*:\s*(\d+)")


def outside() -> None:
    """This script again under callgrind, instrumentation off until the timed feed; the
    total it collected printed."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", "--instr-atstart=no",
             f"--callgrind-out-file={out}", sys.executable, __file__],
            env={**os.environ, INSIDE: "1"}, capture_output=True, text=True, check=False)
    found = TOTAL.findall(run.stderr)
    if run.returncode != 0 or not found:
        sys.stderr.write(run.stderr[-2000:])
        raise SystemExit(f"the run under callgrind failed (exit {run.returncode})")
    print(json.dumps({"instructions": int(found[-1])}), flush=True)


def toggle(state: str) -> None:
    """Callgrind's instrumentation of this process on or off."""
    subprocess.run(["callgrind_control", "-i", state, str(os.getpid())], check=True,
                   capture_output=True)


def inside() -> None:
    """Under callgrind: a warm-up day, then a day whose feed alone is instrumented."""
    sys.path.insert(0, str(Path.cwd() / "bench"))
    import day
    from common import setup_logging
    from workload import Sizes

    from bot.support.loop import use_uvloop

    setup_logging()
    use_uvloop()  # as make bench and the bot run
    timed = day.feed
    counted = {"on": False}

    async def feed(*args: Any, **kwargs: Any) -> Any:
        if counted["on"]:
            toggle("on")
        try:
            return await timed(*args, **kwargs)
        finally:
            if counted["on"]:
                toggle("off")

    day.feed = feed
    for on in (False, True):
        counted["on"] = on
        with tempfile.TemporaryDirectory() as tmp:
            asyncio.run(day.bot_day(Path(tmp), Sizes(150, 50, 20), 2023))


def main() -> None:
    if os.environ.get(INSIDE):
        inside()
    else:
        outside()


if __name__ == "__main__":
    main()
