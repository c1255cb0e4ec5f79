"""A command's line in a menu: its description, or for the hint and the solution what they cost
in the contest."""

from __future__ import annotations

from bot.domain.contest import EscapeRules
from bot.support.commands import Command
from bot.support.i18n import ntr, tr


def command_description(lang: str, c: Command, escape: EscapeRules | None) -> str:
    """``c``'s line in ``lang``; ``escape``: the rules of the contest's escape, if the menu
    has one."""
    if c.cost == "hint" and escape is not None:
        return ntr(lang, "Ask for a hint ({n} ticket)", "Ask for a hint ({n} tickets)",
                   escape.hint_cost)
    if c.cost == "solution" and escape is not None:
        return ntr(lang, "Ask for the solution ({n} ticket)",
                   "Ask for the solution ({n} tickets)", escape.solution_cost)
    return tr(lang, c.line)
