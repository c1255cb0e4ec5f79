"""``FEATURE``: what ``/mis_datos`` adds to the bot (bot/support/registry.py)."""

from __future__ import annotations

from bot.features.privacy.handlers import mis_datos
from bot.support.registry import N_, Command, Feature

FEATURE = Feature(
    name="privacy",
    commands=(Command("mis_datos", "participant", N_("What the bot keeps about me"),
                      {"fr": "mes_donnees", "en": "my_data"}, for_entry=True,
                      after="baja"),),
    handlers={"mis_datos": mis_datos},
)
