"""The names of its events in a history."""

from __future__ import annotations

from bot.support.i18n import tr


def request_name(lang: str) -> str:
    return tr(lang, "asked to follow by the table card")


def allowed_name(lang: str) -> str:
    return tr(lang, "allowed a phone to follow")


def refused_name(lang: str) -> str:
    return tr(lang, "refused a phone")
