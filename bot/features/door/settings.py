"""The contest file's ``[door]`` table (optional): checking people in at the door. With it,
volunteers have ``/presente`` and ``/puerta``; ``absent_after_minutes`` tells the organisers who
has not come that long after each start."""

from __future__ import annotations

from bot.domain.contest import Contest
from bot.features.door.rules import ABSENT_DEFAULT_MINUTES, ABSENT_MAX_MINUTES, DOOR, DoorRules
from bot.services.contest_toml import Table
from bot.support.contest_keys import Key, Section

TABLE = DOOR
FEATURE = DOOR
KEYS = Section(TABLE, "Checking people in at the door (/presente, /puerta). Optional: without "
               "it, nobody is marked present.", (
                   Key("absent_after_minutes", "int", "Minutes of contest time after a clock "
                       "starts at which the organisers are told which entries have not come, "
                       "with a did-not-start button for each (0: never told).",
                       default=ABSENT_DEFAULT_MINUTES, minimum=0, maximum=ABSENT_MAX_MINUTES,
                       example="15"),
               ))


def rules_of(contest: Contest) -> DoorRules | None:
    found = contest.settings(FEATURE)
    return found if isinstance(found, DoorRules) else None


def describe(contest: Contest) -> list[str]:
    rules = rules_of(contest)
    if rules is None:
        return []
    if not rules.absent_after:
        return ["The door: volunteers mark entries present (/presente, /puerta)"]
    return [f"The door: volunteers mark entries present; organisers told who has not come "
            f"{rules.absent_after} min after each start"]


def read(t: Table) -> DoorRules:
    minutes = t.int("absent_after_minutes", ABSENT_DEFAULT_MINUTES)
    t.done()
    return DoorRules(minutes)
