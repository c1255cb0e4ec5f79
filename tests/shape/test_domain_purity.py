"""bot/domain and each feature's rules stay pure: no Telegram, no SQL, no reading the clock."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

BOT = Path(__file__).resolve().parents[2] / "bot"
DOMAIN = BOT / "domain"
# the domain's modules, and each feature's rules and the names other features refer to
PURE = sorted([*DOMAIN.glob("*.py"), *BOT.glob("features/*/rules.py"),
               *BOT.glob("features/*/names.py")])
FORBIDDEN_MODULES = {"telegram", "aiosqlite", "sqlite3", "time", "asyncio"}
FORBIDDEN_CALLS = {"now", "today", "utcnow", "time", "monotonic"}


@pytest.mark.parametrize("path", PURE, ids=lambda p: str(p.relative_to(BOT)))
def test_domain_module_imports_no_io(path: Path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        else:
            continue
        for name in names:
            assert name.split(".")[0] not in FORBIDDEN_MODULES, f"{path.name} imports {name}"


@pytest.mark.parametrize("path", PURE, ids=lambda p: str(p.relative_to(BOT)))
def test_domain_module_never_reads_the_clock(path: Path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            assert node.func.attr not in FORBIDDEN_CALLS, f"{path.name} calls .{node.func.attr}()"
