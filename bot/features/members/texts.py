"""How the change of a team's members is typed, with an example."""

from __future__ import annotations

from bot.support.i18n import tr
from bot.texts.names import usage_text

USAGE = "/sustituir N M|+ NAME BIRTH"


def usage(lang: str) -> str:
    return usage_text(lang, USAGE) + "\n" + tr(
        lang, "For example /sustituir 12 2 Ana García 2010-05-04 (Ana García replaces member 2 "
        "of team 12), /sustituir 12 + Ana García 2010-05-04 (she joins it) or /sustituir 12 2 "
        "- (member 2 leaves it).")
