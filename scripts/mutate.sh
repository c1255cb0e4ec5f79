#!/usr/bin/env bash
# Mutation testing of the rules engine (bot/domain) against the fast domain tests only.
# Dev only, not part of `make test`:  bash scripts/mutate.sh   (or `make mutate`)
#
# What is mutated, which tests run against each mutant and what else is copied is the [mutmut]
# section of setup.cfg. mutmut 3 works in a copy of the project under mutants/ (git-ignored),
# removed first so that every run starts from scratch. It prints the score per module and the
# survivors; the survivors known to be equivalent, with the reason, are in docs/mutants.md.
#
# Environment: VENV (default .venv); MUTMUT_MAX_CHILDREN (default: number of CPUs).
# Afterwards `.venv/bin/mutmut show NAME` shows a survivor's change (mutants/ is kept for that).
# Exit code: 0 when the score reaches MUTATION_MIN_SCORE (default 95), 1 below it, 2 on error.
set -euo pipefail

cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}
PY="$VENV/bin/python"
LOG=mutants/mutmut.log

if ! "$PY" -c 'import mutmut' 2>/dev/null; then
    "$PY" -m pip install --quiet 'mutmut==3.3.1'
fi

rm -rf mutants && mkdir mutants
args=(run)
if [ -n "${MUTMUT_MAX_CHILDREN:-}" ]; then
    args+=(--max-children "$MUTMUT_MAX_CHILDREN")
fi

echo "mutating bot/domain and each feature's rules.py, running the rules' tests against each mutant (log: $LOG)..."
# mutmut 3.3.1 reads item._nodeid, which pytest 9 no longer has: alias it to the public nodeid.
if ! "$PY" - "${args[@]}" > "$LOG" 2>&1 <<'PYEOF'
import sys

import _pytest.nodes

if not hasattr(_pytest.nodes.Node, "_nodeid"):
    _pytest.nodes.Node._nodeid = property(lambda self: self.nodeid)

import shutil
from pathlib import Path

import mutmut
import mutmut.__main__ as mutmut_main
from mutmut.__main__ import cli


def _keep_mutated(src, dst, *, follow_symlinks=True):
    """A file of also_copy that mutmut has already written (a mutated rules.py) is kept."""
    return dst if Path(dst).exists() else shutil.copy2(src, dst, follow_symlinks=follow_symlinks)


def _copy_also_copy_files():
    """mutmut's own, but never over a mutated file: also_copy names the whole of bot/ (a
    feature's rules.py is mutated; its package's other modules come with it)."""
    for path in map(Path, mutmut.config.also_copy):
        destination = Path("mutants") / path
        if path.is_file():
            if not destination.exists():
                destination.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(path, destination)
        elif path.exists():
            shutil.copytree(path, destination, dirs_exist_ok=True, copy_function=_keep_mutated)


mutmut_main.copy_also_copy_files = _copy_also_copy_files

sys.argv[0] = "mutmut"
cli()
PYEOF
then
    tail -n 40 "$LOG" >&2
    echo "mutmut failed (full output in $LOG)" >&2
    exit 2
fi

"$PY" - "${MUTATION_MIN_SCORE:-95}" <<'PYEOF'
"""Score per module from mutmut's results (mutants/**/*.meta), then the survivors."""

import json
import sys
from pathlib import Path

# mutmut's exit codes: 1 and 3 a test failed (killed); timeouts count as killed as mutmut does
KILLED = {1, 3, -24, 24, 36, 152, 255}
NAMES = {0: "survived", 5: "no tests", 33: "no tests", 34: "skipped", 35: "suspicious"}

minimum = float(sys.argv[1])
total_killed = total = 0
survivors: list[str] = []
print(f"{'module':<22}{'killed':>8}{'of':>6}{'score':>9}")
metas = sorted(Path("mutants/bot/domain").glob("*.py.meta")) + sorted(
    Path("mutants/bot/features").glob("*/rules.py.meta"))
for meta in metas:
    codes: dict[str, int | None] = json.loads(meta.read_text())["exit_code_by_key"]
    if not codes:
        continue
    killed = sum(1 for code in codes.values() if code in KILLED)
    total_killed += killed
    total += len(codes)
    name = meta.name.removesuffix(".py.meta")
    if meta.parent.parent.name == "features":  # a feature's rules: the feature's name
        name = f"features/{meta.parent.name}"
    print(f"{name:<22}{killed:>8}{len(codes):>6}{100 * killed / len(codes):>8.1f}%")
    survivors += [f"  {name}  ({NAMES.get(code, code)})"
                  for name, code in codes.items() if code not in KILLED]
score = 100 * total_killed / total if total else 0.0
print(f"{'rules, all':<22}{total_killed:>8}{total:>6}{score:>8.1f}%")
if survivors:
    print(f"\n{len(survivors)} not killed (see docs/mutants.md; mutmut show NAME):")
    print("\n".join(survivors))
sys.exit(0 if score >= minimum else 1)
PYEOF
