"""``FEATURE``: what registration adds to the bot (bot/support/registry.py): the /inscribir
conversation, asked before every command (it takes its own /cancelar), its stale buttons, and
the draft saved after every step."""

from __future__ import annotations

from typing import Any

from telegram.ext import CallbackQueryHandler

from bot.features.registration.draft import SaveNow
from bot.features.registration.handlers import conversation, nothing_to_cancel, stale_button
from bot.features.registration.names import CANCEL, REGISTER
from bot.support.registry import N_, Command, Feature


def ahead(app: Any) -> tuple[tuple[Any, int], ...]:
    """The conversation first, then a button of a conversation no longer going on; the draft
    saved after each step (group 1: after the update's own handler)."""
    return ((conversation(), 0),
            (CallbackQueryHandler(stale_button, pattern=r"^reg:"), 0),
            (SaveNow(app.bot_data.setdefault("flush_users", set())), 1))


FEATURE = Feature(
    name="registration",
    commands=(
        Command(REGISTER, "participant", N_("Register for the contest"),
                {"fr": "inscription", "en": "register"}, after="idioma"),
        Command(CANCEL, "participant", N_("Cancel the registration in progress"),
                {"fr": "abandon", "en": "cancel"}, after="baja"),
    ),
    # /cancelar outside a conversation; /inscribir is the conversation's own
    handlers={CANCEL: nothing_to_cancel},
    ahead=ahead,
)
