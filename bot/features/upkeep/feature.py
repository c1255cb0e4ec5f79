"""``FEATURE``: what keeping the bot up adds (bot/support/registry.py): the organisers'
doctor, and at every start the notice after a long time off, the heartbeat and the automatic
backups."""

from __future__ import annotations

from bot.features.backup.names import COPY
from bot.features.upkeep.handlers import diagnostico
from bot.features.upkeep.jobs import start, stopping
from bot.features.upkeep.names import DOCTOR
from bot.support.registry import N_, Command, Feature

FEATURE = Feature(
    name="upkeep",
    commands=(Command(DOCTOR, "organiser", N_("Is everything in order? (the bot's health)"),
                      {"fr": "diagnostic", "en": "doctor"}),),
    handlers={DOCTOR: diagnostico},
    menu_after=COPY,
    desk_after=COPY,
    on_start=start,
    on_stop=stopping,
)
