"""``FEATURE``: what changing one's answers adds to the bot (bot/support/registry.py):
``/respuestas``, its buttons and its ``answer_fix`` event."""

from __future__ import annotations

from bot.features.answers.handlers import answer_button, respuestas
from bot.features.answers.names import ANSWERS
from bot.features.answers.rules import ANSWER_FIX, BUTTON
from bot.features.answers.texts import answer_detail, answer_name
from bot.support.registry import N_, Command, Feature, Kind

FEATURE = Feature(
    name="answers",
    commands=(Command(ANSWERS, "participant", N_("[N] [R ANSWER]: change your entry's answers"),
                      {"fr": "reponses", "en": "answers"}, for_entry=True,
                      after="mis_inscripciones"),),
    handlers={ANSWERS: respuestas},
    buttons={BUTTON + ":": answer_button},
    kinds=(Kind(ANSWER_FIX, answer_name, roles=frozenset({"participant", "organiser"}),
                fields="+-----", data={"member": "int?", "question": "!str", "old": "str?",
                                       "new": "!str"}, detail=answer_detail),),
)
