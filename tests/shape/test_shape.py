"""The shape of the code, held: no module in bot/ over 600 lines, no block worse than radon C."""

from __future__ import annotations

from pathlib import Path

from radon.complexity import cc_rank, cc_visit

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "bot"
MOST_LINES = 600
WORST_RANK = "C"


def too_long(root: Path = BOT) -> list[str]:
    return [f"{p.relative_to(root)}: {n} lines" for p in sorted(root.rglob("*.py"))
            if (n := len(p.read_text().splitlines())) > MOST_LINES]


def too_complex(root: Path = BOT) -> list[str]:
    found = []
    for path in sorted(root.rglob("*.py")):
        for b in cc_visit(path.read_text()):  # functions, and each class's methods apart
            if cc_rank(b.complexity) > WORST_RANK:
                found.append(f"{path.relative_to(root)}:{b.lineno} {b.name}: "
                             f"{cc_rank(b.complexity)} ({b.complexity})")
    return found


def test_no_module_is_over_600_lines():
    assert too_long() == []


def test_no_block_is_worse_than_radon_c():
    assert too_complex() == []


def test_the_checks_would_see_a_long_module_and_a_tangled_function(tmp_path):
    (tmp_path / "long.py").write_text("x = 1\n" * (MOST_LINES + 1))
    branches = "".join(f"    if a == {i}:\n        return {i}\n" for i in range(21))
    (tmp_path / "tangled.py").write_text(f"def f(a):\n{branches}    return -1\n")
    assert too_long(tmp_path) == [f"long.py: {MOST_LINES + 1} lines"]
    assert too_complex(tmp_path) == ["tangled.py:1 f: D (22)"]
