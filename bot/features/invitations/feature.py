"""``FEATURE``: what the invitations to a next round add to the bot (bot/support/registry.py)."""

from __future__ import annotations

from bot.features.invitations.handlers import acepto, invite_button, renuncio
from bot.features.results.names import SPLIT
from bot.support.commands import ROUNDS
from bot.support.registry import N_, Command, Feature

FEATURE = Feature(
    name="invitations",
    commands=(
        Command("acepto", "participant", N_("[N]: take the place I am invited to"),
                {"fr": "accepte", "en": "accept"}, ROUNDS),
        Command("renuncio", "participant", N_("[N]: give up the place I am invited to"),
                {"fr": "renonce", "en": "decline"}, ROUNDS),
    ),
    handlers={"acepto": acepto, "renuncio": renuncio},
    buttons={"invite:": invite_button},
    menu_after=SPLIT,
)
