"""``FEATURE``: what the door adds to the bot (bot/support/registry.py)."""

from __future__ import annotations

from bot.features.door.handlers import door_button, presente, puerta, schedule_reports
from bot.features.door.rules import ARRIVED, BUTTON
from bot.features.door.settings import KEYS, TABLE, describe, read
from bot.features.door.texts import event_name
from bot.support.commands import DOOR
from bot.support.registry import N_, Command, Feature, Kind

FEATURE = Feature(
    name="door",
    commands=(
        Command("presente", "volunteer", N_("N: entry N has come (the door)"),
                {"fr": "present", "en": "here"}, DOOR, examples=("presente 12",)),
        Command("puerta", "volunteer", N_("[category]: who has not come yet"),
                {"fr": "porte", "en": "door"}, DOOR),
    ),
    handlers={"presente": presente, "puerta": puerta},
    buttons={BUTTON: door_button},
    kinds=(Kind(ARRIVED, event_name, roles=frozenset({"volunteer", "organiser"}),
                fields="+?----", undoable=True),),
    table=TABLE,
    settings=read,
    keys=KEYS,
    menu_after="inicio",
    describe=describe,
    timers=schedule_reports,
)
