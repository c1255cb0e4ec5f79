"""daycpu.py N : N bench days of the tree in the current folder (bench/ab/abba.sh runs it); prints each day feed's wall and CPU (process) seconds."""
import asyncio, json, sys, tempfile, time
from pathlib import Path
sys.path.insert(0, str(Path.cwd() / "bench"))
from common import setup_logging
import day as D
from workload import Sizes
from bot.support.loop import use_uvloop
setup_logging(); use_uvloop()
orig = D.feed
got = {}
async def feed(*a, **k):
    c0, w0 = time.process_time(), time.perf_counter()
    r = await orig(*a, **k)
    got["cpu"], got["wall"] = time.process_time() - c0, time.perf_counter() - w0
    return r
D.feed = feed
for i in range(int(sys.argv[1])):
    with tempfile.TemporaryDirectory() as d:
        asyncio.run(D.bot_day(Path(d), Sizes(150, 50, 20), 2023))
    print(json.dumps({k: round(v, 4) for k, v in got.items()}), flush=True)
