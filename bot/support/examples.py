"""The example contest files shipped with the bot (``contests/*.toml`` in a checkout, inside
the package once installed: ``bot.support.shipped``), found by name when a path given to
``demo --contest`` or ``check-contest`` is not there from the current folder, listed and copied
(``puzzlebot examples [NAME [DEST]]``).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from bot.support.shipped import folder

SCHEMA = "contest.schema.json"  # an editor's check of a contest file, named by its first line
SCHEMA_LINE = f"#:schema ./{SCHEMA}"


class ExampleError(Exception):
    """No such example, or a copy that would replace a file: one line saying why."""


def examples_folder() -> Path:
    return folder("contests")


def names() -> list[str]:
    return sorted(p.name for p in examples_folder().glob("*.toml"))


def shipped(name: str) -> Path | None:
    """The example ``name`` (``castrillo-2023.toml``, ``castrillo-2023``, or as the checkout
    names it, ``contests/castrillo-2023.toml``), or None when no example is called so."""
    path = Path(name)
    if path.parent not in (Path("."), Path("contests")):
        return None
    file = path.name if path.suffix == ".toml" else f"{path.name}.toml"
    found = examples_folder() / file
    return found if found.is_file() else None


def contest_path(given: str) -> str:
    """``given`` when it names a file from here (or names no example); else the shipped example
    of that name: ``demo`` (its default, ``contests/castrillo-2023.toml``) and ``--contest
    NAME.toml`` work from any folder once installed."""
    if Path(given).exists():
        return given
    found = shipped(given)
    return str(found) if found is not None else given


def missing_hint(given: str) -> str | None:
    """For a contest file not found that names an example: how to make a copy of one's own."""
    if Path(given).exists() or shipped(given) is None:
        return None
    return (f"{Path(given).name} is one of the shipped examples: copy it to edit it "
            f"(examples {Path(given).name} DEST), then give the copy")


def first_comment(path: Path) -> str:
    """The first comment line of a contest file (its description), without ``#``; an
    editor's ``#:`` directive is not one."""
    for line in path.read_text(encoding="utf-8").splitlines():
        text = line.strip()
        if text.startswith("#") and not text.startswith("#:"):
            return text.lstrip("#").strip()
        if text and not text.startswith("#"):
            break
    return ""


def listing() -> list[tuple[str, str]]:
    """Every example with its first comment line, by name."""
    return [(name, first_comment(examples_folder() / name)) for name in names()]


def copy(name: str, dest: str | Path) -> list[Path]:
    """The example ``name`` copied to ``dest`` (a file, or a folder to put it in under its own
    name), with the schema its first line names beside it when there is none there; the files
    written. ``ExampleError`` when there is no such example or ``dest`` exists."""
    source = shipped(name)
    if source is None:
        raise ExampleError(f"no example called {name!r} (examples: {', '.join(names())})")
    target = Path(dest)
    if target.is_dir():
        target = target / source.name
    if target.exists():
        raise ExampleError(f"{target}: already exists; choose a new file name")
    shutil.copyfile(source, target)
    written = [target]
    schema = target.parent / SCHEMA
    if SCHEMA_LINE in source.read_text(encoding="utf-8").splitlines()[:1] \
            and not schema.exists() and (examples_folder() / SCHEMA).is_file():
        shutil.copyfile(examples_folder() / SCHEMA, schema)
        written.append(schema)
    return written
