"""What the printed handouts say (``bot.services.handouts``): the volunteers' sheet and the
organiser's day plan, in the reader's language."""

from __future__ import annotations

from bot.features.escape.texts import stage_button
from bot.features.results.texts import not_finished_button, record_button
from bot.features.standings.names import PUBLISH
from bot.support.commands import typed
from bot.support.i18n import tr
from bot.texts.claims import going_button

CLAIM_EXAMPLE = 12  # the entry a button's example names

# an example of each volunteer command, as typed (numbers only: the same in every language)
EXAMPLES = {
    "deshacer": ("deshacer",),
    "historial": ("historial 12",),
}


def volunteers_title(lang: str) -> str:
    return tr(lang, "Volunteers' sheet")


def commands_heading(lang: str) -> str:
    return tr(lang, "What you type (N is the entry's number, on its table card)")


def buttons_heading(lang: str) -> str:
    return tr(lang, "Buttons under the bot's messages")


def good_to_know_heading(lang: str) -> str:
    return tr(lang, "Good to know")


def claim_button(lang: str) -> str:
    return tr(lang, "Under a line that needs someone at a table (a pair has finished, a hint "
              "to take): tap it before you walk, and the others see who went.")


def ready_button(lang: str) -> str:
    return tr(lang, "Under a line of a pair that said /listo: check the puzzle, then record "
              "the finish at the moment they said it, or send them back to play "
              "({not_finished}).", not_finished=not_finished_button(lang))


def stage_buttons(lang: str) -> str:
    return tr(lang, "At the escape's end, a line per pair still in it, a button per stage: "
              "tap the stage the pair has reached.")


def official_time(lang: str) -> str:
    return tr(lang, "Times are the official clock's, as the projector shows them. Without a "
              "time, the bot takes the moment you send the message.")


def undo_tip(lang: str) -> str:
    return tr(lang, "A mistake? /deshacer takes back your last record; /historial N shows "
              "everything recorded for an entry.")


def plan_title(lang: str) -> str:
    return tr(lang, "Day plan")


def plan_start(lang: str, unit: str) -> str:
    return tr(lang, "{category}: the clock starts", category=unit)


def plan_escape_end(lang: str, unit: str) -> str:
    return tr(lang, "{category}: the escape ends (volunteers confirm each pair's stage)",
              category=unit)


def plan_alert(lang: str, unit: str, minutes: int) -> str:
    return tr(lang, "{category}: {minutes} minutes left (the bot warns everyone)",
              category=unit, minutes=minutes)


def plan_time_up(lang: str, unit: str) -> str:
    return tr(lang, "{category}: time's up", category=unit)


def plan_break(lang: str, start: bool) -> str:
    return tr(lang, "Break: every clock stops") if start else \
        tr(lang, "End of the break: the clocks run again")


def plan_results(lang: str) -> str:
    return tr(lang, "Results and prize-giving ({publish} makes each category final)",
              publish=typed(lang, PUBLISH))


def plan_unscheduled(lang: str) -> str:
    return tr(lang, "No start time in the contest file: the times below count from /inicio.")


def plan_note(lang: str) -> str:
    return tr(lang, "As the contest file plans it; the clocks start with /inicio, and a "
              "/pausa moves everything after it.")


def claim_label(lang: str) -> str:
    """The button as a volunteer sees it: "#12 I'm going"."""
    return going_button(lang, CLAIM_EXAMPLE)


def ready_label(lang: str) -> str:
    return record_button(lang, 6450)  # "Record 1:47:30"


def stage_label(lang: str) -> str:
    return stage_button(lang, 3)
