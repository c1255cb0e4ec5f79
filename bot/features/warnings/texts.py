"""The feature's own words outside its outcomes (its menu line is in feature.py): how it is
typed, its events' name in a history, what the entry's phones read when a warning is taken back."""

from __future__ import annotations

from typing import Any

from bot.support.i18n import tr


def usage(lang: str) -> str:
    """How to type it, with an example."""
    return tr(lang, "Usage: {usage}", usage=tr(lang, "/aviso N REASON")) + "\n" + tr(
        lang, "For example, /aviso 12 touched another table's pieces: a warning for entry 12, "
        "with its reason.")


def event_name(lang: str) -> str:
    return tr(lang, "warning")


def reason_of(event: Any) -> str:
    """A warning's reason, as a history shows it (the volunteer's own words)."""
    return str(event.data.get("reason") or "")


def taken_back(lang: str) -> str:
    return tr(lang, "A warning given to your entry was taken back.")
