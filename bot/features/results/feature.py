"""``FEATURE``: what the results add to the bot (bot/support/registry.py): the volunteers'
commands that record a result, their buttons and their lines in the volunteers' sheet."""

from __future__ import annotations

from bot.features.registration.names import CANCEL
from bot.features.results.handlers import (
    comodin,
    estado,
    estado_button,
    fin,
    fin_button,
    parcial,
    piezas,
    ready_button,
)
from bot.features.results.names import (
    FINISH,
    FINISH_BUTTON,
    JOKER,
    OUTCOME,
    OUTCOME_BUTTON,
    PIECES,
    READY_BUTTON,
    SPLIT,
)
from bot.features.results.texts import sheet
from bot.features.standings.names import PUBLISH
from bot.support.commands import JOKERS, SPLITS
from bot.support.registry import N_, Command, Feature

FEATURE = Feature(
    name="results",
    commands=(
        Command(FINISH, "volunteer", N_("N [h:mm:ss]: N finished the puzzle"),
                {"fr": "termine", "en": "finish"}, examples=("fin 12", "fin 12 1:47:30"),
                after=CANCEL),
        Command(PIECES, "volunteer", N_("N P: pieces placed by N"),
                {"fr": "pieces", "en": "pieces"}, examples=("piezas 12 850",), after=FINISH),
        Command(OUTCOME, "volunteer",
                N_("N dns|dsq|oc [reason]: did not start (dns), disqualified (dsq), out of "
                   "competition (oc)"),
                {"fr": "statut", "en": "status"}, examples=("estado 12 dns",), after=PIECES),
        Command(SPLIT, "volunteer", N_("N [h:mm:ss]: N finished one of its puzzles"),
                {"fr": "intermediaire", "en": "split"}, SPLITS,
                examples=("parcial 12 0:51:20",), after=OUTCOME),
        Command(JOKER, "volunteer", N_("N [PUZZLE]: N gives up a puzzle (its joker)"),
                {"fr": "joker", "en": "joker"}, JOKERS, examples=("comodin 12",),
                after=SPLIT),
    ),
    handlers={FINISH: fin, PIECES: piezas, OUTCOME: estado, SPLIT: parcial, JOKER: comodin},
    buttons={FINISH_BUTTON: fin_button, READY_BUTTON: ready_button, OUTCOME_BUTTON: estado_button},
    menu_after=PUBLISH,
    sheet=sheet,
)
