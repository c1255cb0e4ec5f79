"""The hall's tables of the categories played in one round (bot/features/tables/rules.py): with
``seating = "categories"`` (the default) numbered through the hall, category after category
in the contest file's order and by entry number within each, with no gaps; with
``"numbers"`` each entry at the table of its own number. Pure domain, run against every mutant
by ``make mutate``; each expected value is worked out by hand from the module's docstring."""

from __future__ import annotations

import pytest

from bot.features.tables.rules import SEATING_RULES, hall_tables


def test_categories_one_after_the_other_by_number_without_gaps() -> None:
    # the first category's 3 entries take tables 1-3 (by number: 5, 8, 20), the second's 4-5
    groups = [[20, 5, 8], [3, 11]]
    assert hall_tables(groups) == {5: 1, 8: 2, 20: 3, 3: 4, 11: 5}
    assert hall_tables(groups, "categories") == {5: 1, 8: 2, 20: 3, 3: 4, 11: 5}
    # the file's order of categories, not the numbers', decides which comes first
    assert hall_tables([[3, 11], [20, 5, 8]]) == {3: 1, 11: 2, 5: 3, 8: 4, 20: 5}


def test_one_category_and_empty_ones() -> None:
    assert hall_tables([[4]]) == {4: 1}
    assert hall_tables([[], [9, 2], []]) == {2: 1, 9: 2}
    assert hall_tables([]) == {}
    assert hall_tables([[]], "numbers") == {}


def test_each_entry_at_its_own_number_with_gaps() -> None:
    assert hall_tables([[20, 5, 8], [3, 11]], "numbers") == {20: 20, 5: 5, 8: 8, 3: 3, 11: 11}


def test_an_unknown_rule_is_refused() -> None:
    assert SEATING_RULES == ("categories", "numbers")
    for rule in ("random", "", "Numbers", "CATEGORIES"):
        with pytest.raises(ValueError, match="unknown seating rule"):
            hall_tables([[1, 2]], rule)


def test_a_category_played_once_may_draw_its_tables() -> None:
    """Issue 48: random tables for a category played once needed a one-round
    ``[[categories.rounds]]``. ``seating = "draw"`` on the category draws its tables within
    its block of the hall, the same draw for the same entries (a restart changes nothing);
    the other categories keep number order."""
    groups = [[12, 2, 5, 7], [9, 4]]
    plain = hall_tables(groups)
    drawn = hall_tables(groups, "categories", ["adultos", ""])
    assert drawn == hall_tables(groups, "categories", ["adultos", ""])
    assert sorted(drawn[n] for n in groups[0]) == [1, 2, 3, 4]  # its block of the hall
    assert [drawn[n] for n in (4, 9)] == [plain[4], plain[9]] == [5, 6]
    many = [list(range(1, 21))]
    assert hall_tables(many, "categories", ["adultos"]) != hall_tables(many)
