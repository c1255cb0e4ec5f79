"""``FEATURE``: what the hall's tables add to the bot (bot/support/registry.py)."""

from __future__ import annotations

from bot.features.tables.handlers import imprimir, mesas
from bot.support.registry import N_, Command, Feature

FEATURE = Feature(
    name="tables",
    commands=(
        Command("mesas", "organiser", N_("[category]: the table lists to print (PDF)"),
                {"fr": "tables", "en": "tables"}),
        Command("imprimir", "organiser", N_("The volunteers' sheet and the day plan (PDF)"),
                {"fr": "imprimer", "en": "print"}),
    ),
    handlers={"mesas": mesas, "imprimir": imprimir},
    menu_after="series",
)
