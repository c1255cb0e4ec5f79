"""The durability check's subprocess: sets up the contest day (untimed), writes a "ready" mark,
then plays the day through the real bot, writing every message the bot sends as one JSON line
(update id, command, chat, text), flushed at once. bench/run.py SIGKILLs it at a random moment.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import (  # noqa: E402
    CASTRILLO,
    command_of,
    feed,
    setup_logging,
    start_bot,
    stop_bot,
    to_updates,
)
from workload import (  # noqa: E402
    Sizes,
    day_messages,
    make_teams,
    payloads,
    setup_day,
    volunteer_people,
)

from bot.support.loop import use_uvloop  # noqa: E402


async def main(args: argparse.Namespace) -> None:
    setup_logging()
    sizes = Sizes(args.entries, args.pairs, args.volunteers)
    app, fake = await start_bot(Path(args.db), CASTRILLO)
    contest = app.bot_data["contest"]
    teams = make_teams(sizes, args.seed)
    volunteers = volunteer_people(sizes.volunteers)
    await setup_day(app, fake, contest, teams, volunteers, args.seed)
    pls = payloads(day_messages(contest, teams, volunteers, args.seed))
    updates = to_updates(app, pls)
    fake.calls.clear()
    fake.keep = False
    with open(args.log, "w", encoding="utf-8") as log:
        log.write(json.dumps({"mark": "ready"}) + "\n")
        log.flush()
        fake.log = log
        await feed(app, updates, [command_of(p) for p in pls])
        fake.log = None
        log.write(json.dumps({"mark": "done"}) + "\n")
        log.flush()
    await stop_bot(app)


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--db", required=True)
    p.add_argument("--log", required=True)
    p.add_argument("--entries", type=int, default=150)
    p.add_argument("--pairs", type=int, default=50)
    p.add_argument("--volunteers", type=int, default=20)
    p.add_argument("--seed", type=int, default=1)
    use_uvloop()  # as `python -m bot run` does
    asyncio.run(main(p.parse_args()))
