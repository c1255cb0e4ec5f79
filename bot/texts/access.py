"""What the access outcomes read as: why a link someone opened did nothing."""

from __future__ import annotations

from typing import assert_never

from bot.services.access import AccessRefusal, BadCode, InviteUsed, OrganiserInviteUsed
from bot.support.i18n import tr


def access_refusal(lang: str, refused: AccessRefusal) -> str:
    """One line saying why an entry's link or an invitation was refused."""
    match refused:
        case BadCode():
            return tr(lang, "That link is not valid. Ask the organisers for your entry's "
                      "link.")
        case InviteUsed():
            return tr(lang, "That volunteer invitation was already used. Ask an organiser "
                      "for a new one.")
        case OrganiserInviteUsed():
            return tr(lang, "That organiser invitation was already used. Ask an organiser "
                      "for a new one.")
        case _:
            assert_never(refused)
