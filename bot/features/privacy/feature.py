"""``FEATURE``: what the privacy feature adds to the bot (bot/support/registry.py):
``/mis_datos``, ``/conservar_datos``, ``/borrar_datos`` and its question's buttons, the
``purge``, ``erase`` and ``consent`` events, the ``[privacy]`` table and its timer."""

from __future__ import annotations

from bot.features.privacy.handlers import (
    borrar_datos,
    conservar_datos,
    erase_button,
    mis_datos,
    schedule_purge,
)
from bot.features.privacy.names import ERASE_DATA, KEEP_DATA
from bot.features.privacy.rules import BUTTON, CONSENT, ERASE, PRIVACY, PURGE
from bot.features.privacy.settings import KEYS, TABLE, describe, read
from bot.features.privacy.texts import consent_name, erase_name, purge_name
from bot.support.commands import RETENTION
from bot.support.registry import N_, Command, Feature, Kind

FEATURE = Feature(
    name=PRIVACY,
    commands=(Command("mis_datos", "participant", N_("What the bot keeps about me"),
                      {"fr": "mes_donnees", "en": "my_data"}, for_entry=True,
                      after="baja"),
              Command(KEEP_DATA, "participant", N_("[N] [no]: keep my entry's births for the "
                                                   "ratings"),
                      {"fr": "garder_donnees", "en": "keep_data"}, RETENTION, for_entry=True,
                      after="mis_datos"),
              Command(ERASE_DATA, "organiser", N_("N: erase an entry's data on request"),
                      {"fr": "effacer_donnees", "en": "erase_data"})),
    handlers={"mis_datos": mis_datos, KEEP_DATA: conservar_datos, ERASE_DATA: borrar_datos},
    buttons={BUTTON + ":": erase_button},
    kinds=(Kind(PURGE, purge_name, roles=frozenset({"system"}), fields="---++-",
                data={"births": "!int", "kept": "!int",
                                              "phones": "!int"}),
           Kind(ERASE, erase_name, roles=frozenset({"organiser"}), fields="+-----",
                data={"named": "!bool"}),
           Kind(CONSENT, consent_name, roles=frozenset({"participant"}), fields="+--+--")),
    table=TABLE,
    settings=read,
    keys=KEYS,
    describe=describe,
    timers=schedule_purge,
    menu_after="inscritos",
    desk_after="inscritos",
)
