"""How this program was started, to name it as the person typed it.

An install (``pip install .``, ``pipx install .``) gives a ``puzzlebot`` command (pyproject.toml,
``[project.scripts]``); a checkout runs ``python -m bot``. The hints the program prints ("start
the bot with: ...") and its usage line name the one that was used: ``name()`` in prose,
``command_line()`` for a line to paste into this system's shell (the interpreter as found from
here: ``.venv/bin/python`` on Linux and macOS, ``.venv\\Scripts\\python.exe`` on Windows, plain
``python`` when that is the one on the PATH), and ``argv()`` for a service that starts it again
(every path absolute).
"""

from __future__ import annotations

import ntpath
import os
import shlex
import shutil
import sys
from collections.abc import Mapping, Sequence

SCRIPT = "puzzlebot"
MODULE = "python -m bot"
# what the installed command's file is named: pip's and uv's launchers on Windows, the
# script itself elsewhere
_SCRIPT_FILES = frozenset({SCRIPT, f"{SCRIPT}.exe", f"{SCRIPT}-script.py", f"{SCRIPT}.py"})


def by_script(argv0: str | None = None) -> bool:
    """Whether the program was started by its installed ``puzzlebot`` command (not ``python -m
    bot``, whose ``sys.argv[0]`` is bot/__main__.py)."""
    first = sys.argv[0] if argv0 is None and sys.argv else argv0 or ""
    return ntpath.basename(first).lower() in _SCRIPT_FILES  # either separator


def name() -> str:
    """``puzzlebot`` or ``python -m bot``: the program as prose names it."""
    return SCRIPT if by_script() else MODULE


def windows() -> bool:
    return sys.platform == "win32"


def _quote(word: str) -> str:
    if windows():  # PowerShell, Windows' terminal: a word with spaces in double quotes
        return f'"{word}"' if any(c in word for c in " \t'&;()") else word
    return shlex.quote(word)


def interpreter() -> str:
    """This Python as the person would type it: ``python`` (or ``python3``) when that is the
    one on the PATH, else its path, relative when it is under the current folder."""
    exe = os.path.abspath(sys.executable)
    for plain in ("python", "python3"):
        found = shutil.which(plain)
        if found and os.path.abspath(found) == exe:
            return plain
    try:
        relative = os.path.relpath(exe)
    except ValueError:  # Windows: another drive than the current folder's
        return exe
    return exe if relative.startswith("..") else relative


def command_line(*args: str, env: Mapping[str, str] | None = None) -> str:
    """The line that runs this program with ``args`` (and ``env`` set for it), to paste into
    this system's shell: ``NAME=value puzzlebot run``, or PowerShell's ``$env:NAME="value";
    puzzlebot run`` on Windows."""
    program = [SCRIPT] if by_script() else [interpreter(), "-m", "bot"]
    line = " ".join(_quote(w) for w in (*program, *args))
    if not env:
        return line
    if windows():
        sets = "; ".join(f'$env:{k}="{v}"' for k, v in env.items())
        return f"{sets}; {line}"
    return " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items()) + " " + line


def argv(args: Sequence[str] = ()) -> list[str]:
    """How a service starts this program again with ``args``, every path absolute: the
    ``puzzlebot`` command that was used (its path as typed, not a link's target: pipx's
    ~/.local/bin/puzzlebot stays right across upgrades), else this Python with ``-m bot``."""
    if by_script():
        return [os.path.abspath(sys.argv[0]), *args]
    return [os.path.abspath(sys.executable), "-m", "bot", *args]
