"""``FEATURE``: what recording refunds made adds to the bot (bot/support/registry.py):
``/reembolsado`` and its ``refund`` event."""

from __future__ import annotations

from bot.features.refunds.handlers import reembolsado
from bot.features.refunds.names import REFUNDED
from bot.features.refunds.rules import REFUND
from bot.features.refunds.texts import refund_name, taken_back
from bot.support.registry import N_, Command, Feature, Kind

FEATURE = Feature(
    name="refunds",
    commands=(Command(REFUNDED, "organiser", N_("N [AMOUNT]: money given back to entry N"),
                      {"fr": "rembourse", "en": "refunded"}),),
    handlers={REFUNDED: reembolsado},
    kinds=(Kind(REFUND, refund_name, roles=frozenset({"organiser"}), fields="+--+--",
                undoable=True, taken_back=taken_back),),
    menu_after="inscritos",
    desk_after="inscritos",
)
