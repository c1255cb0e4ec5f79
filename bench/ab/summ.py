"""``summ.py LOG``: for each version in an ``abba.sh`` log, how many days, and the median wall
and CPU seconds of a day's feed (with the mean CPU)."""

from __future__ import annotations

import json
import statistics
import sys


def main() -> None:
    days: dict[str, list[dict[str, float]]] = {}
    with open(sys.argv[1], encoding="utf-8") as log:
        for line in log:
            version, figures = line.split(" ", 1)
            days.setdefault(version, []).append(json.loads(figures))
    for version, runs in days.items():
        wall = statistics.median(r["wall"] for r in runs)
        cpu = [r["cpu"] for r in runs]
        print(f"{version}: {len(runs)} days, wall median {wall:.4f} s, CPU median "
              f"{statistics.median(cpu):.4f} s (mean {statistics.mean(cpu):.4f} s)")


if __name__ == "__main__":
    main()
