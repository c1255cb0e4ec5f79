"""How long ``python -m bot rating`` takes on a league's documents (issue 45: 1,000 documents,
about 22,000 people, in under a minute).

    .venv/bin/python bench/ratings.py                      # 1,000 documents, 3,000 players
    .venv/bin/python bench/ratings.py --documents 100      # fewer
    .venv/bin/python bench/ratings.py --root /tmp/old      # another version's tree (its bot/)
    .venv/bin/python bench/ratings.py --timeout 180        # give up after that many seconds
    .venv/bin/python bench/ratings.py --players 22000      # everyone a different person
    .venv/bin/python bench/ratings.py --births none        # no births (as public documents)
    .venv/bin/python bench/ratings.py --documents 100 --namesakes  # everyone "Ana García"

The documents are tests/ratingdocs.py's (written to a temporary directory); the command is run
as the organiser runs it, in its own process, and timed from start to exit. It prints the
seconds, the events and people rated and the near matches listed. A figure, not a test: it
exits 1 only when the command fails (or times out).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.ratingdocs import league, namesakes  # noqa: E402


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--documents", type=int, default=1000)
    p.add_argument("--players", type=int, default=3000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--root", default=str(ROOT), help="the tree whose bot/ is run")
    p.add_argument("--timeout", type=float, default=600)
    p.add_argument("--births", choices=("mixed", "full", "year", "none"), default="mixed")
    p.add_argument("--namesakes", action="store_true",
                   help="everyone one name, one birth per document (tests/ratingdocs.py)")
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        paths, people = [], 0
        docs = (namesakes(args.documents) if args.namesakes
                else league(args.documents, args.players, args.seed, args.births))
        for i, doc in enumerate(docs):
            path = Path(tmp) / f"league-{i + 1:04d}.json"
            path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
            paths.append(str(path))
            people += sum(len(e["members"]) for e in doc["entries"])
        env = {**os.environ, "PYTHONPATH": args.root}
        began = time.perf_counter()
        try:
            out = subprocess.run([sys.executable, "-m", "bot", "rating", *paths], cwd=args.root,
                                 env=env, capture_output=True, text=True, timeout=args.timeout)
        except subprocess.TimeoutExpired:
            print(f"{args.documents} documents ({people} people): no answer in "
                  f"{args.timeout:.0f} s")
            return 1
        took = time.perf_counter() - began
    if out.returncode != 0:
        print(f"{args.documents} documents ({people} people): {took:.1f} s; exit "
              f"{out.returncode}: {out.stderr.strip()[:300]}")
        return 1
    lines = out.stdout.splitlines()
    rated = sum(1 for line in lines if line.startswith("  ") and ". " in line.split(":")[0])
    near = next((len(lines) - i - 1 for i, line in enumerate(lines)
                 if line.startswith("Near matches")), 0)
    print(f"{args.documents} documents ({people} people): {took:.1f} s; {lines[0]} "
          f"{rated} ratings, {near} near matches")
    return 0


if __name__ == "__main__":
    sys.exit(main())
