"""Issue 47, item 4: the escape's end list for 43 pairs came in an order nobody walks (the
order the states came in). The lines and their buttons now follow the hall: by table, then by
number, pairs without a table last, each line naming its table, in the reader's language."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot.texts.alerts import by_table, handover_buttons, handover_staff_text


def pair(number: int, said: int, confirmed: int) -> Any:
    return SimpleNamespace(entry=SimpleNamespace(number=number, names=[f"A{number}", f"B{number}"]),
                           ledger=SimpleNamespace(reported_stage=said, confirmed_stage=confirmed))


def test_pairs_follow_the_tables_then_their_numbers() -> None:
    pairs = [pair(4, 2, 1), pair(9, 3, 3), pair(2, 1, 0), pair(7, 4, 2), pair(30, 2, 2)]
    tables = {4: 3, 9: 1, 2: 3, 7: 2}  # 30 has no table
    assert [s.entry.number for s in by_table(pairs, tables)] == [9, 7, 2, 4, 30]
    assert [s.entry.number for s in by_table(pairs, {})] == [2, 4, 7, 9, 30]


def test_each_line_names_its_table_in_the_readers_language() -> None:
    pairs = by_table([pair(4, 2, 1), pair(9, 3, 3), pair(30, 2, 2)], {4: 3, 9: 1})
    category: Any = SimpleNamespace(name="Parejas")
    lines = handover_staff_text("en", 5400, category, pairs, {4: 3, 9: 1}).split("\n")[1:]
    assert lines == ["Table 1 · #9 A9 / B9: says stage 3, confirmed stage 3",
                     "Table 3 · #4 A4 / B4: says stage 2, confirmed stage 1",
                     "#30 A30 / B30: says stage 2, confirmed stage 2"]
    es = handover_staff_text("es", 5400, category, pairs, {4: 3, 9: 1}).split("\n")[1:]
    assert es[0].startswith("Mesa 1 · #9 A9 / B9") and not es[2].startswith("Mesa")
    # the buttons come in the same order as the lines
    assert [row[0][1].split(":")[1] for row in handover_buttons(5, pairs)] == ["9", "4", "30"]
