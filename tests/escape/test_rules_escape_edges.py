"""RULES.md section 3, at the edges: back-dated solves, the last stage, the end of the grace."""

from __future__ import annotations

import pytest

from bot.domain.contest import Contest, EscapeRules
from bot.features.escape.rules import (
    Accepted,
    AlreadySolved,
    BeforeRequest,
    ConfirmationClosed,
    Cooldown,
    CooldownPastEnd,
    Kind,
    Request,
    Solved,
    StageConfirmed,
    StageInvalid,
    StageSame,
    check_confirmation,
    check_request,
    check_solve,
    empty_ledger,
    fold,
    result,
)

H, S = Kind.HINT, Kind.SOLUTION
MIN = 60
LIMIT = 90 * MIN  # the escape lasts 1:30:00
GRACE_END = LIMIT + 15 * MIN  # stages may still be confirmed until 1:45:00


@pytest.fixture(scope="module")
def rules(castrillo: Contest) -> EscapeRules:
    assert castrillo.escape is not None
    assert (castrillo.escape.time_limit, castrillo.escape.confirmation_grace) == (LIMIT, 15 * MIN)
    return castrillo.escape


def test_solve_back_dated_before_a_confirmation_keeps_the_pair_solved(rules):
    # a volunteer confirms stage 5 at 0:50:00; another then records the solve at 0:45:00
    ledger = fold(rules, [StageConfirmed(5, 50 * MIN), Solved(45 * MIN)])
    r = result(ledger)
    assert r.solved and r.escape_time == 45 * MIN
    assert r.cap == 10  # solved: up to 10 tickets, not the unsolved stage-5 cap of 8
    assert r.compensation == 30 * MIN and r.adjusted_escape == 15 * MIN


def test_a_solved_pair_is_past_stage_5_and_keeps_what_it_bought(rules):
    ledger = fold(rules, [Request(H, 2, 10 * MIN), Request(S, 2, 15 * MIN), Solved(40 * MIN)])
    assert ledger.stage == ledger.confirmed_stage == 5
    assert ledger.reported_stage == 2
    assert ledger.hints == {2} and ledger.solutions == {2}
    assert [(c.kind, c.stage, c.at) for c in ledger.charges] == [(H, 2, 10 * MIN),
                                                                 (S, 2, 15 * MIN)]
    assert ledger.tickets_left == 8


def test_result_says_whether_the_escape_was_solved(rules):
    assert result(fold(rules, [Solved(LIMIT)])).solved is True
    assert result(empty_ledger(rules)).solved is False


def test_the_last_stage_can_be_confirmed_and_sets_the_cap_to_8(rules):
    ledger = fold(rules, [StageConfirmed(4, 60 * MIN)])
    assert check_confirmation(ledger, 5, 70 * MIN) is None
    ledger = fold(rules, [StageConfirmed(4, 60 * MIN), StageConfirmed(5, 70 * MIN)])
    assert ledger.stage == 5 and result(ledger).cap == 8
    assert check_confirmation(ledger, 5, 75 * MIN) == StageSame(5)


def test_stages_outside_1_to_5_cannot_be_confirmed(rules):
    ledger = empty_ledger(rules)
    assert check_confirmation(ledger, 0, 10 * MIN) == StageInvalid()
    assert check_confirmation(ledger, 6, 10 * MIN) == StageInvalid()


def test_stage_1_may_always_be_confirmed_a_later_stage_only_once(rules):
    ledger = empty_ledger(rules)
    assert check_confirmation(ledger, 1, 10 * MIN) is None
    assert check_confirmation(fold(rules, [StageConfirmed(1, 10 * MIN)]), 1, 20 * MIN) is None
    at_2 = fold(rules, [StageConfirmed(2, 10 * MIN)])
    assert check_confirmation(at_2, 2, 20 * MIN) == StageSame(2)


def test_no_confirmation_once_solved(rules):
    ledger = fold(rules, [Solved(40 * MIN)])
    assert check_confirmation(ledger, 5, 41 * MIN) == AlreadySolved()


def test_confirmation_accepted_until_the_end_of_the_grace_included(rules):
    ledger = empty_ledger(rules)
    assert check_confirmation(ledger, 4, 80 * MIN) is None  # before the limit, of course
    assert check_confirmation(ledger, 4, GRACE_END) is None
    assert check_confirmation(ledger, 4, GRACE_END + 1) == ConfirmationClosed()
    assert result(fold(rules, [StageConfirmed(4, GRACE_END)])).cap == 6
    assert result(fold(rules, [StageConfirmed(4, GRACE_END + 1)])).cap == 0


def test_next_request_allowed_only_at_the_escape_end_is_past_the_end(rules):
    # asked at 1:25:00: the next one would be allowed at 1:30:00, when the escape is over
    ledger = fold(rules, [Request(H, 1, 85 * MIN)])
    assert check_request(ledger, H, 2, 86 * MIN) == CooldownPastEnd(LIMIT)
    ledger = fold(rules, [Request(H, 1, 85 * MIN - 1)])
    assert check_request(ledger, H, 2, 86 * MIN) == Cooldown(LIMIT - 1)


def test_solve_at_the_moment_of_the_last_request_is_accepted(rules):
    ledger = fold(rules, [Request(H, 5, 30 * MIN)])
    assert check_solve(ledger, 30 * MIN) is None
    assert check_solve(ledger, 30 * MIN - 1) == BeforeRequest(30 * MIN)


def test_request_cost_is_recorded_with_its_stage_and_moment(rules):
    decision = check_request(empty_ledger(rules), H, 3, 12 * MIN)
    assert isinstance(decision, Accepted)
    assert decision.charge.kind is H
    assert (decision.charge.stage, decision.charge.at) == (3, 12 * MIN)
    assert (decision.charge.tickets_used, decision.charge.tickets_bought) == (1, 0)
