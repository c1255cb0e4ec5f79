"""``FEATURE``: what the warnings add to the bot (bot/support/registry.py)."""

from __future__ import annotations

from bot.features.results.names import OUTCOME
from bot.features.warnings.handlers import aviso
from bot.features.warnings.rules import WARNING
from bot.features.warnings.settings import FEATURE as NAME
from bot.features.warnings.settings import KEYS, TABLE, describe, read
from bot.features.warnings.texts import event_name, reason_of, taken_back
from bot.support.registry import N_, Command, Feature, Kind

FEATURE = Feature(
    name=NAME,
    commands=(Command("aviso", "volunteer", N_("N REASON: a warning for entry N"),
                      {"fr": "avertissement", "en": "warning"}),),
    handlers={"aviso": aviso},
    kinds=(Kind(WARNING, event_name, roles=frozenset({"volunteer", "organiser"}),
                fields="+?----", data={"reason": "!str"}, undoable=True,
                taken_back=taken_back, detail=reason_of),),
    table=TABLE,
    settings=read,
    keys=KEYS,
    menu_after=OUTCOME,
    describe=describe,
)
