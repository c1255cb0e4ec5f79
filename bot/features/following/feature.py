"""``FEATURE``: what following an entry by its table card adds to the bot
(bot/support/registry.py)."""

from __future__ import annotations

from bot.features.following.handlers import decision_button
from bot.features.following.outcomes import line_note
from bot.features.following.rules import ALLOWED, BUTTON, REFUSED, REQUEST
from bot.features.following.settings import FEATURE as NAME
from bot.features.following.settings import KEYS, TABLE, describe, read
from bot.features.following.texts import allowed_name, refused_name, request_name
from bot.support.registry import Feature, Kind

_DECIDERS = frozenset({"participant", "organiser"})

FEATURE = Feature(
    name=NAME,
    buttons={BUTTON: decision_button},
    kinds=(Kind(REQUEST, request_name, roles=frozenset({"participant"}), fields="+-----",
                data={"name": "!str"}),
           Kind(ALLOWED, allowed_name, roles=_DECIDERS, fields="+---+-",
                data={"by": "!str", "user": "!int"}, line_note=line_note),
           Kind(REFUSED, refused_name, roles=_DECIDERS, fields="+---+-",
                data={"by": "!str", "user": "!int"}, line_note=line_note)),
    table=TABLE,
    settings=read,
    keys=KEYS,
    describe=describe,
)
