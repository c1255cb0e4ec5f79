#!/bin/bash
# abba.sh A B ROUNDS N: two versions of the code, A and B (git worktrees in the folder $WT), each a
# process of N bench days (the first one of each process left out: warm-up), run in the order
# A B B A, ROUNDS times; one JSON line per day: its feed's wall and CPU (process) seconds.
# The CPU figure moves less than make bench's ratio on a shared machine.
#   export WT=$(mktemp -d); git worktree add --detach $WT/old REV; git worktree add --detach $WT/new HEAD
#   bench/ab/abba.sh old new 3 3 > ab.log; python3 bench/ab/summ.py ab.log
WT=${WT:?set WT to the folder holding the two worktrees}
HERE=$(cd "$(dirname "$0")" && pwd)
PY=${PY:-$HERE/../../.venv/bin/python}
for r in $(seq 1 "$3"); do
 for t in "$1" "$2" "$2" "$1"; do
  (cd "$WT/$t" && PYTHONPATH="$WT/$t" "$PY" "$HERE/daycpu.py" "$4" 2>/dev/null | tail -n +2 | sed "s/^/$t /")
 done
done
