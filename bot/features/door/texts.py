"""The door's other words: how ``/presente`` is typed, ``/puerta``'s list, the organisers'
report of who has not come, the event's name in a history."""

from __future__ import annotations

from bot.domain.contest import Contest
from bot.features.door.day import Door
from bot.features.door.outcomes import unit_title
from bot.features.door.rules import BUTTON
from bot.support.i18n import ntr, tr
from bot.texts.names import names

MOST_BUTTONS = 60  # entries with a button under /puerta's list (the rest listed by number)


def usage(lang: str) -> str:
    return tr(lang, "Usage: {usage}", usage=tr(lang, "/presente N")) + "\n" + tr(
        lang, "For example, /presente 12: entry 12 has come. /puerta lists who has not "
        "come yet, with a button for each.")


def event_name(lang: str) -> str:
    return tr(lang, "present at the door")


def door_text(lang: str, contest: Contest, door: Door) -> str:
    """One category's (or heat's) door: how many have come, who is still to come."""
    name = unit_title(lang, contest, door.unit.id)
    if not door.expected:
        return tr(lang, "{unit}: no entry holds a place.", unit=name)
    if not door.missing:
        return tr(lang, "{unit}: all {count} here.", unit=name, count=len(door.expected))
    lines = [ntr(lang, "{unit}: {here} of {expected} here; {n} still to come:",
                 "{unit}: {here} of {expected} here; {n} still to come:", len(door.missing),
                 unit=name, here=door.here, expected=len(door.expected))]
    lines += [f"  #{e.number} {names(e.names)}" for e in door.missing]
    return "\n".join(lines)


def door_buttons(door: Door) -> list[list[tuple[str, str]]]:
    """A button per entry still to come (the first ``MOST_BUTTONS``), two to a row: a tap marks
    it present."""
    shown = door.missing[:MOST_BUTTONS]
    return [[(f"✅ #{e.number} {names(e.names)}"[:60], f"{BUTTON}{e.number}")
             for e in shown[i:i + 2]] for i in range(0, len(shown), 2)]


def no_door(lang: str) -> str:
    return tr(lang, "Nobody is checked in at the door in this contest (its file has no "
              "[door] table).")


def nothing_to_show(lang: str) -> str:
    return tr(lang, "No category or heat by that name: /puerta alone lists them all.")


def absent_report(lang: str, contest: Contest, door: Door, minutes: int) -> str:
    """To the organisers, ``minutes`` after a clock started: who has not come."""
    return "\n".join([ntr(
        lang, "{unit}: {n} entry has not come {minutes} minutes after the start (no one marked "
        "it present). Did it not start?",
        "{unit}: {n} entries have not come {minutes} minutes after the start (no one marked "
        "them present). Did they not start?", len(door.missing),
        unit=unit_title(lang, contest, door.unit.id),
        minutes=minutes)] + [f"  #{e.number} {names(e.names)}" for e in door.missing])
