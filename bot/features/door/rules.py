"""The door: the rules, pure.

An entry has come once a volunteer marked it present (an ``arrived`` event in force: /deshacer
takes a wrong one back). Who is expected in a category (or a heat) are its entries holding a
place there; those without an arrival and without an outcome (did not start, disqualified) are
still to come. With ``absent_after_minutes`` (N), the organisers are told N minutes of contest
time after the clock started who is still to come, once per category or heat."""

from __future__ import annotations

from collections.abc import Iterable, Set
from dataclasses import dataclass

ARRIVED = "arrived"  # the event kind
DOOR = "door"  # the contest file's table, and the name its settings are kept under
ABSENT_MAX_MINUTES = 180
ABSENT_DEFAULT_MINUTES = 15
BUTTON = "door:"  # a tap on /puerta's list: "door:<entry>"


@dataclass(frozen=True)
class DoorRules:
    """``absent_after``: minutes after a clock started at which the organisers are told who
    has not come (0: never told; /puerta still shows them)."""

    absent_after: int = ABSENT_DEFAULT_MINUTES


def still_to_come(expected: Iterable[tuple[int, bool]], arrived: Set[int]) -> list[int]:
    """Of ``expected`` (entry, whether it has an outcome already), those not marked present
    and without an outcome, by number."""
    return sorted(n for n, settled in expected if n not in arrived and not settled)


def report_key(unit: str) -> str:
    """The ref of the absent report of a category or heat (sent once)."""
    return f"door:{unit}"
