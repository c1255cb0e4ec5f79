"""The penalties' own words outside their outcomes: how they are typed (with an example naming a
kind of the contest), the question of ``/penalizacion N`` and the volunteers' sheet's line for
its buttons."""

from __future__ import annotations

from bot.support.commands import in_language
from bot.support.i18n import tr
from bot.texts.names import usage_text

USAGE = "/penalizacion N {kinds} [1-99]"


def usage(lang: str, kinds: tuple[str, ...]) -> str:
    """How to type it, with an example of the contest's first kind."""
    kind = kinds[0] if kinds else "KIND"
    return usage_text(lang, USAGE.format(kinds="|".join(kinds) or "KIND")) + "\n" + tr(
        lang, "For example /penalizacion 12 {kind} 2 (two penalties of that kind for entry 12).",
        kind=kind)


def kinds_question(lang: str, entry: int) -> str:
    """``/penalizacion N`` without a kind: which one (a button each)."""
    return tr(lang, "Which penalty for entry {entry}? One tap records one (for more at once: "
              "/penalizacion {entry} KIND COUNT).", entry=entry)


def sheet_buttons(lang: str) -> str:
    """The volunteers' sheet: the buttons of ``/penalizacion N``."""
    return in_language(lang, tr(lang, "After /penalizacion N, a button per kind of penalty."))
