"""``FEATURE``: what finding a partner adds to the bot (bot/support/registry.py):
``/emparejar``, the request's buttons, the ``seek``, ``match`` and ``proposal`` events, the
``[partners]`` table (the registration conversation offers to register alone with it)."""

from __future__ import annotations

from bot.features.partners.handlers import emparejar, partner_button
from bot.features.partners.names import PAIR
from bot.features.partners.rules import BUTTON, MATCH, PARTNERS, PROPOSAL, SEEK
from bot.features.partners.settings import KEYS, TABLE, describe, read
from bot.features.partners.texts import (
    match_detail,
    match_name,
    proposal_detail,
    proposal_name,
    seek_name,
)
from bot.support.commands import PARTNERS as NEEDS_PARTNERS
from bot.support.registry import N_, Command, Feature, Kind

FEATURE = Feature(
    name=PARTNERS,
    commands=(Command(PAIR, "participant", N_("[N] [M]: find a partner for your entry"),
                      {"fr": "apparier", "en": "pair"}, NEEDS_PARTNERS, for_entry=True,
                      after="mis_inscripciones"),),
    handlers={PAIR: emparejar},
    buttons={BUTTON + ":": partner_button},
    kinds=(Kind(SEEK, seek_name, roles=frozenset({"participant"}), fields="+-----"),
           Kind(MATCH, match_name, roles=frozenset({"participant", "organiser"}),
                fields="+-----", data={"other": "!int", "complete": "!bool"},
                detail=match_detail),
           Kind(PROPOSAL, proposal_name, roles=frozenset({"participant"}), fields="+--+--",
                data={"declined_by": "int"}, detail=proposal_detail)),
    table=TABLE,
    settings=read,
    keys=KEYS,
    describe=describe,
    menu_after="inscritos",
    desk_after="inscritos",
)
