"""What the clocks' outcomes read as: why a clock was not started, paused or resumed."""

from __future__ import annotations

from typing import assert_never

from bot.domain.contest import Contest
from bot.services.clocks import (
    AlreadyPaused,
    AlreadyStarted,
    ClocksRefusal,
    HeatRunning,
    NothingToStart,
    NotPaused,
    NotReached,
    NotYet,
)
from bot.support.i18n import tr
from bot.texts.names import clock_time, day_text, heat_by_id


def clocks_refusal(lang: str, refused: ClocksRefusal, contest: Contest) -> str:
    """One line saying why the organiser's /inicio, /pausa or /reanudar did nothing."""
    match refused:
        case AlreadyStarted():
            return tr(lang, "That clock is already running.")
        case AlreadyPaused():
            return tr(lang, "The clocks are already paused.")
        case NotPaused():
            return tr(lang, "The clocks are not paused.")
        case NotYet(heat=heat, day=day, start=None):
            return tr(lang, "Nothing to start today: {heat} is on {day}. To start it now "
                      "anyway: /inicio {id}", heat=heat_by_id(lang, contest, heat),
                      day=day_text(lang, day), id=heat)
        case NotYet(heat=heat, start=start):
            return tr(lang, "Nothing to start now: {heat} starts at {time}. To start it now "
                      "anyway: /inicio {id}", heat=heat_by_id(lang, contest, heat),
                      time=clock_time(contest, start)[:5] if start else "-", id=heat)
        case HeatRunning(heat=heat, running=running):
            return tr(lang, "Nothing started: {heat} comes after {running}, which is still "
                      "being played. To start it now anyway: /inicio {id}",
                      heat=heat_by_id(lang, contest, heat),
                      running=heat_by_id(lang, contest, running), id=heat)
        case NotReached(heat=heat):
            return tr(lang, "{heat} has nobody in it yet: its entrants are known once the round "
                      "before is confirmed (/confirmar_ronda).",
                      heat=heat_by_id(lang, contest, heat))
        case NothingToStart():
            return tr(lang, "Nothing to start: no category or heat is waiting for its clock.")
        case _:
            assert_never(refused)
