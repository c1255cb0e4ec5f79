"""The contest file's ``[warnings]`` table (optional): ``disqualify_after = 3`` disqualifies an
entry at its third warning in a heat; absent or 0, warnings never disqualify."""

from __future__ import annotations

from bot.features.warnings.rules import LIMIT_MAX, WarningRules
from bot.services.contest_toml import Table

TABLE = "warnings"


def read(t: Table) -> WarningRules:
    limit = t.int("disqualify_after", 0, minimum=0, maximum=LIMIT_MAX)
    t.done()
    return WarningRules(limit)
