"""The shape of the code, held: no block worse than radon C.

There is no cap on a module's lines any more (issue 46: a 600-line cap had come to decide where
code goes, a comment shortened or a reader split by key group to get under it): a module's size
follows what it does, and a module that does two things is two modules."""

from __future__ import annotations

from pathlib import Path

from radon.complexity import cc_rank, cc_visit

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "bot"
WORST_RANK = "C"


def too_complex(root: Path = BOT) -> list[str]:
    found = []
    for path in sorted(root.rglob("*.py")):
        for b in cc_visit(path.read_text()):  # functions, and each class's methods apart
            if cc_rank(b.complexity) > WORST_RANK:
                found.append(f"{path.relative_to(root)}:{b.lineno} {b.name}: "
                             f"{cc_rank(b.complexity)} ({b.complexity})")
    return found


def test_no_block_is_worse_than_radon_c():
    assert too_complex() == []


def test_the_check_would_see_a_tangled_function(tmp_path):
    branches = "".join(f"    if a == {i}:\n        return {i}\n" for i in range(21))
    (tmp_path / "tangled.py").write_text(f"def f(a):\n{branches}    return -1\n")
    assert too_complex(tmp_path) == ["tangled.py:1 f: D (22)"]
