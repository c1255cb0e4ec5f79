"""The layers of docs/dev/layout.md's table, held: imports go down (or stay within a layer), no
module imports itself through others, and every import is at the top of its module."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "bot"


def layers() -> dict[str, int]:
    """docs/dev/layout.md's table: module prefix (``bot.domain``, ``bot.cli``) -> layer
    number."""
    layout = (ROOT / "docs" / "dev" / "layout.md").read_text().split("## Layers", 1)[1]
    found: dict[str, int] = {}
    for line in layout.splitlines():
        row = re.match(r"^\|\s*(\d+)\s*\|([^|]+)\|", line)
        if row is None:
            continue
        for path in re.findall(r"`(bot/[\w/*]+?)(?:\.py)?`", row.group(2)):
            found[path.replace("/", ".")] = int(row.group(1))
    return found


def modules() -> dict[str, Path]:
    out = {}
    for path in BOT.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def _covers(pattern: str, module: str) -> bool:
    """``bot.domain`` covers itself and what is in it; ``bot.features.*.rules`` each feature's
    rules (``*`` one package's name)."""
    if "*" in pattern:
        return re.fullmatch(re.escape(pattern).replace(r"\*", r"\w+") + r"(\..+)?",
                            module) is not None
    return module == pattern or module.startswith(pattern + ".")


def layer_of(module: str, table: dict[str, int]) -> int | None:
    best = max((p for p in table if _covers(p, module)), key=len, default=None)
    return table[best] if best is not None else None


def _type_checking(node: ast.AST) -> bool:
    return (isinstance(node, ast.If) and isinstance(node.test, ast.Name)
            and node.test.id == "TYPE_CHECKING")


def imports(path: Path, known: set[str]) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """(runtime imports of bot modules, imports not at the top), each with its line."""
    tree = ast.parse(path.read_text())
    top = set()
    for node in tree.body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            top.add(id(node))
        elif _type_checking(node):
            top.update(id(n) for n in ast.walk(node))
    typing_only = {id(n) for node in tree.body if _type_checking(node) for n in ast.walk(node)}
    runtime, misplaced = [], []
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            targets = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        targets = [t for t in targets if t.split(".")[0] == "bot"]
        if not targets:
            continue
        if id(node) not in top:
            misplaced.append((targets[0], node.lineno))
        if id(node) in typing_only:
            continue
        for t in targets:
            if t in known:
                runtime.append((t, node.lineno))
    return runtime, misplaced


def graph() -> dict[str, set[str]]:
    mods = modules()
    return {name: {t for t, _ in imports(path, set(mods))[0]} - {name}
            for name, path in mods.items()}


def test_the_layout_names_every_package():
    table = layers()
    assert table["bot.domain"] == 0 and table["bot.cli"] == max(table.values())
    missing = [m for m in modules() if m != "bot" and layer_of(m, table) is None]
    assert missing == [], f"modules in no layer of docs/dev/layout.md: {missing}"


def test_imports_go_down_the_layers():
    table = layers()
    wrong = []
    for name, path in modules().items():
        mine = layer_of(name, table)
        if mine is None:
            continue
        for target, line in imports(path, set(modules()))[0]:
            theirs = layer_of(target, table)
            if theirs is not None and theirs > mine:
                wrong.append(f"{path.relative_to(ROOT)}:{line} imports {target} "
                             f"(layer {theirs} above {mine})")
    assert wrong == []


def test_no_import_cycles():
    edges = graph()
    cycles = []
    state: dict[str, int] = {}  # 1: on the path, 2: done

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append(" -> ".join(path[path.index(nxt):] + [nxt]))
            elif nxt not in state:
                visit(nxt, [*path, nxt])
        state[node] = 2

    for start in sorted(edges):
        if start not in state:
            visit(start, [start])
    assert cycles == []


def test_imports_are_at_the_top_of_modules():
    misplaced = [f"{path.relative_to(ROOT)}:{line} imports {target}"
                 for path in modules().values()
                 for target, line in imports(path, set(modules()))[1]]
    assert misplaced == []


def test_the_checks_would_see_a_wrong_import(tmp_path):
    """The test's own parser: an import inside a function, and one going up, are found."""
    probe = tmp_path / "probe.py"
    probe.write_text("import os\nfrom bot.domain import clock\n\n\ndef f():\n"
                     "    from bot.chat import app\n    return app\n")
    runtime, misplaced = imports(probe, {"bot.domain.clock", "bot.chat.app"})
    assert ("bot.chat.app", 6) in runtime and ("bot.domain.clock", 2) in runtime
    assert misplaced == [("bot.chat", 6)]
    assert layer_of("bot.chat.app", layers()) > layer_of("bot.domain.clock", layers())


def test_the_features_package_imports_nothing():
    # a layer below imports a feature's rules (bot.features.members.rules); were the list of
    # features in bot/features/__init__.py, that import would install every feature from
    # inside the layer below, and the program would not start (an import cycle)
    runtime, _ = imports(BOT / "features" / "__init__.py", set(modules()))
    assert runtime == []
    for package in (BOT / "features").glob("*/__init__.py"):
        assert imports(package, set(modules()))[0] == [], package
