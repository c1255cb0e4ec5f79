"""A command's name is written in its own feature package only: another feature's text that
names it takes the name from that package's ``names.py`` and writes it as the reader types it
(``bot.support.commands.typed``). The house rule that a new command is one folder, held."""

from __future__ import annotations

import re
from pathlib import Path

from bot.features.installed import FEATURES

BOT = Path(__file__).resolve().parents[2] / "bot"
# the rehearsal's simulated people type commands as people do
ASIDE = (BOT / "rehearsal",)
# names that are also something else, written as a string: "escape" is the contest file's table
# and an event kind too (as typed, ``/escape``, it is still checked)
ALSO_WORDS = frozenset({"escape"})


def _written(name: str) -> re.Pattern[str]:
    """The command as typed (``/fin``) or as a string (``"fin"``)."""
    typed = rf"(?<![\w/.:-])/{name}(?![\w-])"
    return re.compile(typed if name in ALSO_WORDS else rf"{typed}|[\"']{name}[\"']")


def _outside(folder: Path) -> list[Path]:
    return [p for p in BOT.rglob("*.py")
            if not p.is_relative_to(folder) and not any(p.is_relative_to(a) for a in ASIDE)]


def test_every_feature_command_is_named_in_its_own_package_only():
    found = []
    for feature in FEATURES:
        folder = BOT / "features" / feature.name
        assert folder.is_dir(), f"feature {feature.name!r} has no package of its name"
        for command in feature.commands:
            pattern = _written(command.name)
            for path in _outside(folder):
                for n, line in enumerate(path.read_text().splitlines(), 1):
                    if pattern.search(line):
                        found.append(f"/{command.name}: {path.relative_to(BOT.parent)}:{n}")
    assert found == []


def test_the_check_would_see_a_command_named_elsewhere():
    pattern = _written("fin")
    assert pattern.search('tr(lang, "then /fin 12")')
    assert pattern.search('DAY_ORDER = ("inicio", "fin")')
    assert not pattern.search("the finish, /finish in English, ``final``, http://x/fin.html")
