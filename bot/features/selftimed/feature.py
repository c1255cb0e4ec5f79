"""``FEATURE``: what contests played at home add to the bot (bot/support/registry.py)."""

from __future__ import annotations

from telegram.ext import MessageHandler, filters

from bot.features.results.names import REVIEW_BUTTON
from bot.features.selftimed.handlers import empiezo, on_photo, rechazar, review_button
from bot.support.commands import OWN_START, SELF_TIMED
from bot.support.registry import N_, Command, Feature

FEATURE = Feature(
    name="selftimed",
    commands=(
        Command("empiezo", "participant", N_("[puzzle]: I start a puzzle (at home)"),
                {"fr": "commence", "en": "begin"}, OWN_START),
        Command("rechazar", "volunteer",
                N_("N [reason]: turn down the finish N claimed at home"),
                {"fr": "rejeter", "en": "reject"}, SELF_TIMED),
    ),
    handlers={"empiezo": empiezo, "rechazar": rechazar},
    buttons={REVIEW_BUTTON: review_button},
    other_handlers=(MessageHandler(filters.PHOTO & filters.ChatType.PRIVATE, on_photo),),
    menu_after="listo",
)
