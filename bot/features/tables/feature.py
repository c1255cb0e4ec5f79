"""``FEATURE``: what the hall's tables add to the bot (bot/support/registry.py)."""

from __future__ import annotations

from bot.features.tables.handlers import TELL_BUTTON, imprimir, mesas, tell_pressed
from bot.features.tables.rules import TABLES_TOLD
from bot.features.tables.texts import event_name
from bot.support.registry import N_, Command, Feature, Kind

FEATURE = Feature(
    name="tables",
    commands=(
        Command("mesas", "organiser", N_("[category]: the table lists to print (PDF)"),
                {"fr": "tables", "en": "tables"}),
        Command("imprimir", "organiser", N_("The volunteers' sheet and the day plan (PDF)"),
                {"fr": "imprimer", "en": "print"}),
    ),
    handlers={"mesas": mesas, "imprimir": imprimir},
    buttons={TELL_BUTTON: tell_pressed},
    # each entry told its table (data: what each was told), once, again if it changed
    kinds=(Kind(TABLES_TOLD, event_name, roles=frozenset({"organiser"}), fields="-?----",
                data={"told": "!told"}),),
    menu_after="series",
)
