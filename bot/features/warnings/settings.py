"""The contest file's ``[warnings]`` table (optional): ``disqualify_after = 3`` disqualifies an
entry at its third warning in a heat; absent or 0, warnings never disqualify."""

from __future__ import annotations

from bot.domain.contest import Contest
from bot.features.warnings.rules import LIMIT_MAX, WarningRules
from bot.services.contest_toml import Table
from bot.support.contest_keys import Key, Section

TABLE = "warnings"
KEYS = Section(TABLE, "Warnings (/aviso). Optional: without it, warnings never disqualify.", (
    Key("disqualify_after", "int", "The warning that brings an entry's count in its heat to "
        "this number disqualifies it (0: never).", default=0, minimum=0, maximum=LIMIT_MAX,
        example="3"),
))
FEATURE = "warnings"  # the name its settings are kept under (``Contest.settings``)


def describe(contest: Contest) -> list[str]:
    """What ``check-contest``'s summary says of it (nothing without the table)."""
    rules = contest.settings(FEATURE)
    if not isinstance(rules, WarningRules):
        return []
    if not rules.disqualify_after:
        return ["Warnings (/aviso): noted, never disqualify"]
    return [f"Warnings (/aviso): {rules.disqualify_after} in a heat disqualify an entry"]


def read(t: Table) -> WarningRules:
    limit = t.int("disqualify_after", 0)
    t.done()
    return WarningRules(limit)
