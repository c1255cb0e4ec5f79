"""``FEATURE``: what the escape adds to the bot (bot/support/registry.py)."""

from __future__ import annotations

from telegram.ext import MessageHandler, filters

from bot.features.escape.handlers import (
    billetes,
    confirm_button,
    escape,
    etapa,
    pista,
    solucion,
    stage_button,
)
from bot.features.escape.play import on_follow, on_undo, respuesta, typed_answer
from bot.features.escape.rules import ATTEMPT
from bot.features.escape.texts import attempt_detail, attempt_name, linked_line
from bot.features.registration.names import CANCEL
from bot.features.results.names import PIECES
from bot.support.commands import ESCAPE, ESCAPE_IN_CHAT, ESCAPE_STAGES
from bot.support.registry import N_, Command, Feature, Kind

FEATURE = Feature(
    name="escape",
    commands=(
        Command("pista", "participant", N_("Ask for a hint"),
                {"fr": "indice", "en": "hint"}, ESCAPE, "hint", for_entry=True, after="ayuda"),
        Command("solucion", "participant", N_("Ask for the solution"),
                {"fr": "solution", "en": "solution"}, ESCAPE, "solution", for_entry=True,
                after="pista"),
        Command("billetes", "participant", N_("Tickets, stage and penalties"),
                {"fr": "billets", "en": "tickets"}, ESCAPE, for_entry=True, after="solucion"),
        Command("respuesta", "participant", N_("[ANSWER]: answer the enigma (none: see it "
                                                 "again)"),
                {"fr": "reponse", "en": "answer"}, ESCAPE_IN_CHAT, for_entry=True,
                after="billetes"),
        Command("etapa", "volunteer", N_("N S: entry N is in stage S"),
                {"fr": "etape", "en": "stage"}, ESCAPE_STAGES, examples=("etapa 12 3",),
                after=CANCEL),
        Command("escape", "volunteer", N_("N [h:mm:ss]: N solved the escape"),
                {"fr": "evasion", "en": "escaped"}, ESCAPE,
                examples=("escape 12", "escape 12 0:42:10"), after="etapa"),
    ),
    handlers={"pista": pista, "solucion": solucion, "billetes": billetes, "etapa": etapa,
              "escape": escape, "respuesta": respuesta},
    buttons={"ask:": stage_button, "stg:": confirm_button},
    closing=("stg:",),  # the handover line's stage buttons: a pair's go once confirmed
    # played in the chat: whatever a pair's phone types while its escape runs is an answer
    # (anything else goes on to the help's pointer, as it did before)
    other_handlers=(MessageHandler(filters.TEXT & ~filters.COMMAND & filters.ChatType.PRIVATE,
                                   typed_answer),),
    kinds=(Kind(ATTEMPT, attempt_name, roles=frozenset({"participant"}), fields="+?+---",
                data={"answer": "!str"}, detail=attempt_detail),),
    menu_after=PIECES,
    follow_line=linked_line,
    on_follow=on_follow,
    on_undo=on_undo,
)
