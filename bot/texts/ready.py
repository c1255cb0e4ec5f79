"""What a pair's /listo reads as: noted (a volunteer is coming), the volunteers' line, and the
participants' own words for a /listo refused."""

from __future__ import annotations

from datetime import datetime
from typing import assert_never

from bot.domain.clock import format_duration
from bot.domain.contest import Contest
from bot.services.outcomes import EscapeNotOver, PastLimit
from bot.services.ready import ReadyNoted
from bot.storage.store import Entry
from bot.support.i18n import tr
from bot.texts.names import clock_time, names


def ready_refusal(lang: str, refused: PastLimit | EscapeNotOver) -> str:
    """The participants' answer to a /listo refused for these (not the volunteers')."""
    match refused:
        case PastLimit(limit=limit):
            return tr(lang, "Time is up ({limit}): hands off the puzzle. A volunteer will "
                      "count your pieces.", limit=format_duration(limit))
        case EscapeNotOver():
            return tr(lang, "Your escape is not over yet: when you solve it, call a "
                      "volunteer, who records it. Then the puzzle!")
        case _:
            assert_never(refused)


def ready(lang: str, contest: Contest, out: ReadyNoted, at: datetime) -> str:
    """A pair's /listo, noted at ``at``."""
    return tr(lang, "Noted: finished at {time} ({clock}). A volunteer is coming to check.",
              time=format_duration(out.time), clock=clock_time(contest, at))


def ready_staff_line(lang: str, contest: Contest, entry: Entry, out: ReadyNoted,
                     at: datetime) -> str:
    """The volunteers' line of a pair's /listo: go and check."""
    return tr(lang, "FINISHED? #{entry} {names} says done at {time} ({clock}): go and check, "
              "then /fin {entry}.", entry=entry.number, names=names(entry.names),
              time=format_duration(out.time), clock=clock_time(contest, at))
