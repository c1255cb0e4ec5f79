"""The tables of the categories played in one round (a village contest: every category on
one clock each, nobody moving between rounds).

A contest in rounds seats each heat by its round's rule (``bot.domain.rounds``). A category
played in one round has no heats; its entries sit at the hall's tables by the contest file's
``seating``:

- ``"categories"`` (the default): the tables are numbered through the hall, category after
  category in the contest file's order, and within a category by entry number. A category's
  entries sit side by side (the same puzzle, the same clock, one volunteer walking them), and
  the numbers have no gaps: the 30 tables of Billom are tables 1 to 30.
- ``"numbers"``: each entry at the table of its own number (the card with the number is the
  table's sign); gaps where a number was withdrawn.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.domain.rounds import draw

SEATING_RULES = ("categories", "numbers")


def hall_tables(groups: Sequence[Sequence[int]], rule: str = "categories",
                drawn: Sequence[str] = ()) -> dict[int, int]:
    """Each entry's table: ``groups`` are the entry numbers of each category played in one
    round, in the contest file's order of categories; ``drawn``: per group, the salt of its
    draw (a category's ``seating = "draw"``: its id), or "" for number order."""
    if rule not in SEATING_RULES:
        raise ValueError(f"unknown seating rule {rule!r}")
    if rule == "numbers":
        return {n: n for group in groups for n in group}
    tables: dict[int, int] = {}
    for i, group in enumerate(groups):
        salt = drawn[i] if i < len(drawn) else ""
        for number in draw(salt, group) if salt else sorted(group):
            tables[number] = len(tables) + 1
    return tables


# the event that records which entries were told their table, and which: data
# {"told": {"12": [table, heat id or ""]}}
TABLES_TOLD = "tables_told"


def told_tables(records: Iterable[Mapping[str, Any]]) -> dict[int, list[Any]]:
    """What each entry was last told of its table, from the records of every telling."""
    out: dict[int, list[Any]] = {}
    for data in records:
        out.update({int(n): list(v) for n, v in dict(data.get("told", {})).items()})
    return out

