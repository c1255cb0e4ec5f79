"""The warnings' rule, pure (bot/features/warnings/rules.py; docs/rules.md, "Warnings"): each
expected value worked out from the rule. Fast: in the [mutmut] list."""

from __future__ import annotations

from bot.features.warnings.rules import Decision, WarningRules, decide, reason_problem

# -- the rule ------------------------------------------------------------------------------


def test_the_warning_that_reaches_the_limit_disqualifies() -> None:
    three = WarningRules(3)
    assert decide(0, three, None) == Decision(1, False)
    assert (decide(1, three, None).count, decide(1, three, None).disqualifies) == (2, False)
    assert (decide(2, three, None).count, decide(2, three, None).disqualifies) == (3, True)
    # past the limit, after an organiser took the disqualification back: again
    assert decide(3, three, None).disqualifies
    # disqualified already: no second disqualification
    assert not decide(2, three, "dsq").disqualifies
    # out of competition or not started: the limit still disqualifies
    assert decide(2, three, "oc").disqualifies and decide(2, three, "dns").disqualifies
    # a limit of one: the first warning
    assert decide(0, WarningRules(1), None).disqualifies
    # no limit (the default): never
    assert not any(decide(n, WarningRules(), None).disqualifies for n in range(50))


def test_a_reason_is_needed_and_short() -> None:
    assert reason_problem("") == "missing"
    assert reason_problem("   ") == "missing"
    assert reason_problem("\u200d") == "missing"  # a zero-width joiner alone: nothing to read
    assert reason_problem("x") is None
    assert reason_problem("7") is None and reason_problem("!") is None
    assert reason_problem("\U0001f4f1") is None  # a phone emoji says something
    assert reason_problem("x" * 200) is None
    assert reason_problem("x" * 201) == "too_long"
    assert reason_problem("\u200b" * 201) == "missing"
