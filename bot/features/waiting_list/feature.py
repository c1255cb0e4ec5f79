"""``FEATURE``: what a waiting list that moves itself adds to the bot
(bot/support/registry.py): ``/aceptar_plaza``, the offer's buttons, the ``offer`` and
``accept`` events, the ``[waiting_list]`` table, the offers' deadlines rebuilt at every start."""

from __future__ import annotations

from bot.features.waiting_list.handlers import aceptar_plaza, offer_button, start
from bot.features.waiting_list.names import ACCEPT_PLACE
from bot.features.waiting_list.rules import ACCEPT, BUTTON, OFFER, WAITING_LIST
from bot.features.waiting_list.settings import KEYS, TABLE, describe, read
from bot.features.waiting_list.texts import accept_name, offer_name
from bot.support.commands import OFFERS
from bot.support.registry import N_, Command, Feature, Kind

FEATURE = Feature(
    name=WAITING_LIST,
    commands=(Command(ACCEPT_PLACE, "participant", N_("[N]: accept the place offered to your "
                                                      "entry"),
                      {"fr": "accepter_place", "en": "accept_place"}, OFFERS, for_entry=True,
                      after="mis_inscripciones"),),
    handlers={ACCEPT_PLACE: aceptar_plaza},
    buttons={BUTTON + ":": offer_button},
    kinds=(Kind(OFFER, offer_name, roles=frozenset({"system"}), fields="+--+--"),
           Kind(ACCEPT, accept_name, roles=frozenset({"participant", "organiser"}),
                fields="+-----")),
    table=TABLE,
    settings=read,
    keys=KEYS,
    describe=describe,
    on_start=start,
)
