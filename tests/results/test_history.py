"""RULES.md section 4: every volunteer entry can be corrected, keeping the old value."""

from bot.domain.history import effective_ids


def test_rule_correction_supersedes_the_old_value():
    # 1: /fin 12 1:50:00, 2: correction /fin 12 1:47:30
    assert effective_ids([(1, None), (2, 1)]) == {2}


def test_undoing_a_correction_brings_the_old_value_back():
    # 3 undoes 2, so 1 is in force again
    assert effective_ids([(1, None), (2, 1), (3, 2)]) == {1, 3}


def test_undo_of_a_plain_entry_removes_it():
    assert effective_ids([(1, None), (2, None), (3, 2)]) == {1, 3}
