"""``FEATURE``: what correcting one's own entry adds to the bot (bot/support/registry.py):
``/corregir`` and its ``member_fix`` event."""

from __future__ import annotations

from bot.features.corrections.handlers import corregir
from bot.features.corrections.names import CORRECT
from bot.features.corrections.rules import MEMBER_FIX
from bot.features.corrections.texts import fix_detail, fix_name
from bot.support.registry import N_, Command, Feature, Kind

FEATURE = Feature(
    name="corrections",
    commands=(Command(CORRECT, "participant", N_("[N] M NAME BIRTH: correct a member of "
                                                   "your entry"),
                      {"fr": "corriger", "en": "correct"}, for_entry=True,
                      after="mis_inscripciones"),),
    handlers={CORRECT: corregir},
    kinds=(Kind(MEMBER_FIX, fix_name, roles=frozenset({"participant", "organiser"}),
                fields="+-----", data={"position": "!int", "old": "!member",
                                       "new": "!member"}, detail=fix_detail),),
)
