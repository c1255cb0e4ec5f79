"""``FEATURE``: what the backup from the chat adds to the bot (bot/support/registry.py)."""

from __future__ import annotations

from bot.features.backup.handlers import copia
from bot.features.backup.names import COPY
from bot.support.registry import N_, Command, Feature

FEATURE = Feature(
    name="backup",
    commands=(Command(COPY, "organiser", N_("Backup of the database"),
                      {"fr": "sauvegarde", "en": "backup"}),),
    handlers={COPY: copia},
    menu_after="exportar",
    desk_after="organizador",
)
