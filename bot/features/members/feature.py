"""``FEATURE``: what a team's members changed adds to the bot (bot/support/registry.py)."""

from __future__ import annotations

from bot.features.members.handlers import sustituir
from bot.features.tables.names import PRINT
from bot.support.commands import CHANGES
from bot.support.registry import N_, Command, Feature

FEATURE = Feature(
    name="members",
    commands=(Command("sustituir", "organiser",
                      N_("N M|+ NAME BIRTH: change a member of team N"),
                      {"fr": "remplacer", "en": "substitute"}, CHANGES),),
    handlers={"sustituir": sustituir},
    menu_after=PRINT,
)
