"""``FEATURE``: what payments in the chat add to the bot (bot/support/registry.py): ``/pagar``,
the pre-checkout query's and the successful payment's handlers, the ``[payments]`` table, the
places held while paying rebuilt at every start."""

from __future__ import annotations

import logging
from typing import Any

from telegram.ext import MessageHandler, PreCheckoutQueryHandler, filters

from bot.features.payments.handlers import pagar, paid, pre_checkout, schedule_holds
from bot.features.payments.rules import HOLD
from bot.features.payments.settings import KEYS, TABLE, describe, read, unused
from bot.features.payments.texts import hold_name
from bot.support.commands import PAYMENTS
from bot.support.registry import N_, Command, Feature, Kind

PAY = "pagar"
log = logging.getLogger(__name__)


async def start(app: Any) -> None:
    svc = app.bot_data["services"]
    for line in unused(svc.contest, bool(svc.config.payment_token)):
        log.warning("payments: %s", line)
    await schedule_holds(app)


FEATURE = Feature(
    name="payments",
    commands=(Command(PAY, "participant", N_("[N]: pay your entry in the chat"),
                      {"fr": "payer", "en": "pay"}, PAYMENTS, for_entry=True,
                      after="mis_inscripciones"),),
    handlers={PAY: pagar},
    kinds=(Kind(HOLD, hold_name, roles=frozenset({"system"}), fields="+--+--"),),
    other_handlers=(PreCheckoutQueryHandler(pre_checkout),
                    MessageHandler(filters.SUCCESSFUL_PAYMENT, paid)),
    table=TABLE,
    settings=read,
    keys=KEYS,
    describe=describe,
    on_start=start,
)
