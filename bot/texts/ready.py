"""What a pair's /listo reads as: noted (a volunteer is coming), and the participants' own
words for a /listo refused (the volunteers' "FINISHED?" line is the results' texts)."""

from __future__ import annotations

from datetime import datetime
from typing import assert_never

from bot.domain.clock import format_duration
from bot.domain.contest import Contest
from bot.services.outcomes import EscapeNotOver, PastLimit
from bot.services.ready import ReadyNoted
from bot.support.i18n import tr
from bot.texts.names import clock_time, span_text


def ready_refusal(lang: str, refused: PastLimit | EscapeNotOver, in_chat: bool = False) -> str:
    """The participants' answer to a /listo refused for these (not the volunteers'); where
    the escape is played in the chat (``in_chat``), it is solved by its last answer."""
    match refused:
        case EscapeNotOver() if in_chat:
            return tr(lang, "Your escape is not over yet: answer its enigmas here first (the "
                      "last right answer ends it). Then the puzzle!")
        case PastLimit(limit=limit):
            return tr(lang, "Time is up ({limit}): hands off the puzzle. A volunteer will "
                      "count your pieces.", limit=span_text(lang, limit))
        case EscapeNotOver():
            return tr(lang, "Your escape is not over yet: when you solve it, call a "
                      "volunteer, who records it. Then the puzzle!")
        case _:
            assert_never(refused)


def ready(lang: str, contest: Contest, out: ReadyNoted, at: datetime) -> str:
    """A pair's /listo, noted at ``at``."""
    return tr(lang, "Noted: finished at {time} ({clock}). A volunteer is coming to check.",
              time=format_duration(out.time), clock=clock_time(contest, at))


def which_finished(lang: str) -> str:
    """A phone following several entries sent /listo without a number: which one, a button
    each."""
    return tr(lang, "Which of your entries has finished? Tap it: it counts from now.")
