"""A volunteer's warning (``/aviso N reason``): the rule, pure.

An entry's warnings count within the heat it plays (a category played once: the category), the
ones taken back (/deshacer) left out. With a limit (``[warnings] disqualify_after``, 0: none,
the default), the warning that reaches it disqualifies the entry in the same step, unless it is
disqualified already; a warning past the limit after an organiser took the disqualification
back disqualifies it again (each warning at or past the limit is one too many)."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

WARNING = "warning"  # the event kind
REASON_MAX = 200  # characters: a reason is one line a volunteer types
LIMIT_MAX = 20  # the highest limit a contest file may set


@dataclass(frozen=True)
class WarningRules:
    """``disqualify_after``: the warnings that disqualify an entry (0: warnings never do)."""

    disqualify_after: int = 0


@dataclass(frozen=True)
class Decision:
    count: int  # this warning is the entry's count-th in its heat
    disqualifies: bool  # it disqualifies the entry


def decide(previous: int, rules: WarningRules, outcome: str | None) -> Decision:
    """A new warning for an entry with ``previous`` warnings in force in its heat and
    ``outcome`` ("dns", "dsq", "oc" or None)."""
    count = previous + 1
    limit = rules.disqualify_after
    return Decision(count, limit > 0 and count >= limit and outcome != "dsq")


def reason_problem(reason: str) -> str | None:
    """Why a reason, cleaned as a note is (``clean_note``), cannot be kept: "missing" (not a
    letter, digit, punctuation mark or symbol in it: spaces and invisible characters only) or
    "too_long"; None when it can."""
    if not any(unicodedata.category(c)[0] in "LNPS" for c in reason):
        return "missing"
    if len(reason) > REASON_MAX:
        return "too_long"
    return None
