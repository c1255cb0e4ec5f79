"""A "FINISHED?" line about a /listo (the results' rules, ``ready_line``): recorded when the
finish was taken from it, open while it is the /listo waiting, else outdated; and whether a
pieces count comes before time's up (``before_time_up``). Pure domain, run against every mutant
by ``make mutate``; every expected value is worked out by hand from the rule."""

from __future__ import annotations

from bot.features.results.rules import ReadyLine, before_time_up, ready_line


def test_a_finished_line() -> None:
    assert ready_line(40, 40, None) == ReadyLine.OPEN  # the /listo waiting
    assert ready_line(40, 40, 40) == ReadyLine.RECORDED
    assert ready_line(40, None, 40) == ReadyLine.RECORDED  # the finish was taken from it
    assert ready_line(40, 41, 40) == ReadyLine.RECORDED
    assert ready_line(40, 41, None) == ReadyLine.OUTDATED  # a later /listo waits
    assert ready_line(40, None, None) == ReadyLine.OUTDATED  # none waits, none recorded
    assert ready_line(40, None, 39) == ReadyLine.OUTDATED  # the finish of another /listo
    assert ready_line(40, 40, 39) == ReadyLine.OPEN


def test_before_time_up() -> None:
    assert before_time_up(3599, 3600)
    assert not before_time_up(3600, 3600)  # time's up from its very second
    assert not before_time_up(4000, 3600)
    assert before_time_up(0, 3600)
    assert not before_time_up(None, 3600)  # no clock
