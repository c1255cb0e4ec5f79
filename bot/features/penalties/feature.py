"""``FEATURE``: what penalties add to the bot (bot/support/registry.py)."""

from __future__ import annotations

from bot.domain.contest import Contest
from bot.features.penalties.handlers import PENALTY_BUTTON, penalizacion, penalty_button
from bot.features.penalties.texts import sheet_buttons
from bot.features.results.names import OUTCOME
from bot.support.commands import PENALTIES
from bot.support.registry import N_, Command, Feature


def _sheet(contest: Contest, lang: str) -> list[str]:
    return [sheet_buttons(lang)] if contest.penalties else []


FEATURE = Feature(
    name="penalties",
    commands=(Command("penalizacion", "volunteer", N_("N KIND [how many]: penalty for N"),
                      {"fr": "penalite", "en": "penalty"}, PENALTIES,
                      examples=("penalizacion 12",)),),
    handlers={"penalizacion": penalizacion},
    buttons={PENALTY_BUTTON: penalty_button},
    menu_after=OUTCOME,
    sheet=_sheet,
)
