"""How recording a refund is typed, and its name in a history."""

from __future__ import annotations

from bot.features.refunds.names import REFUNDED
from bot.support.commands import typed
from bot.support.i18n import tr
from bot.texts.names import usage_text


def usage(lang: str) -> str:
    command = typed(lang, REFUNDED)
    return usage_text(lang, f"{command} N [AMOUNT]") + "\n" + tr(
        lang, "For example {example} (all that entry 12 is owed back given) or {partial} (part "
        "of it).", example=f"{command} 12", partial=f"{command} 12 7.50")


def refund_name(lang: str) -> str:
    return tr(lang, "refund given")


def taken_back(lang: str) -> str:
    """The entry's phones, once the organiser takes a refund recorded back (``/deshacer``)."""
    return tr(lang, "A refund recorded for your entry was taken back: it was recorded by "
              "mistake.")
