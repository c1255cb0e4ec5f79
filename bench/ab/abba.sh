#!/bin/bash
# Two versions of the code, A and B (git worktrees under $WT, default /work/wt), each a
# process of N bench days (the first one of each process left out: warm-up), run in the order
# A B B A, ROUNDS times; one JSON line per day: its feed's wall and CPU (process) seconds.
# The CPU figure moves less than make bench's ratio on a shared machine.
#   git worktree add --detach /work/wt/old REV; git worktree add --detach /work/wt/new HEAD
#   bench/ab/abba.sh old new 3 3 > ab.log; python3 bench/ab/summ.py ab.log
WT=${WT:-/work/wt}
HERE=$(cd "$(dirname "$0")" && pwd)
PY=${PY:-$HERE/../../.venv/bin/python}
for r in $(seq 1 "$3"); do
 for t in "$1" "$2" "$2" "$1"; do
  (cd "$WT/$t" && PYTHONPATH="$WT/$t" "$PY" "$HERE/daycpu.py" "$4" 2>/dev/null | tail -n +2 | sed "s/^/$t /")
 done
done
