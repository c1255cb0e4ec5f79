"""What each entry was told of its table (bot/features/tables/rules.py: told_tables), from the
records of every telling: the latest telling of an entry counts. Pure, run against every
mutant by ``make mutate``; every expected value is worked out by hand."""

from __future__ import annotations

from bot.features.tables.rules import TABLES_TOLD, told_tables


def test_the_latest_telling_of_each_entry_counts() -> None:
    assert TABLES_TOLD == "tables_told"
    assert told_tables([]) == {}
    first = {"told": {"1": [1, ""], "2": [2, ""], "12": [3, "open-heats1"]}}
    again = {"told": {"2": [1, ""]}}
    assert told_tables([first]) == {1: [1, ""], 2: [2, ""], 12: [3, "open-heats1"]}
    assert told_tables([first, again]) == {1: [1, ""], 2: [1, ""], 12: [3, "open-heats1"]}
    assert told_tables([again, first])[2] == [2, ""]  # in the order they were told
    assert told_tables([{}, {"other": 1}]) == {}  # a record telling nobody
