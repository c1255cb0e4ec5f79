"""RULES.md section 3: the escape stage (Castrillo pairs)."""

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
    EscapeOver,
    HintTaken,
    Kind,
    PastEscapeLimit,
    Request,
    SolutionNeedsHint,
    SolutionTaken,
    Solved,
    StageBack,
    StageConfirmed,
    StageInvalid,
    StagePassed,
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


@pytest.fixture(scope="module")
def rules(castrillo: Contest) -> EscapeRules:
    assert castrillo.escape is not None
    return castrillo.escape


def ask(ledger, kind, stage, at):
    decision = check_request(ledger, kind, stage, at)
    assert isinstance(decision, Accepted), decision
    return decision.ledger


def test_rule_each_pair_starts_with_11_tickets(rules):
    assert empty_ledger(rules).tickets_left == 11


def test_rule_hint_costs_1_ticket_solution_costs_2(rules):
    led = ask(empty_ledger(rules), H, 1, 0)
    assert led.tickets_left == 10
    led = ask(led, S, 1, 5 * MIN)
    assert led.tickets_left == 8
    assert led.penalty == 0


def test_rule_solution_only_after_that_stages_hint(rules):
    d = check_request(empty_ledger(rules), S, 1, 0)
    assert d == SolutionNeedsHint(1)
    led = ask(empty_ledger(rules), H, 1, 0)
    d = check_request(led, S, 2, 10 * MIN)
    assert d == SolutionNeedsHint(2)


def test_rule_one_hint_and_one_solution_per_stage(rules):
    led = ask(empty_ledger(rules), H, 1, 0)
    assert check_request(led, H, 1, 10 * MIN) == HintTaken(1)
    led = ask(led, S, 1, 10 * MIN)
    assert check_request(led, S, 1, 20 * MIN) == SolutionTaken(1)


def test_rule_buying_everything_would_take_15_tickets(rules):
    cost = rules.stages * (rules.hint_cost + rules.solution_cost)
    assert cost == 15


def test_rule_stages_in_order_a_passed_stage_cannot_be_chosen(rules):
    led = ask(empty_ledger(rules), H, 3, 0)  # asking for a later stage moves the pair forward
    assert led.stage == 3
    assert check_request(led, H, 2, 10 * MIN) == StagePassed(3)
    assert check_request(led, H, 6, 10 * MIN) == StageInvalid()
    assert check_request(led, H, 0, 10 * MIN) == StageInvalid()


def test_rule_volunteer_confirmation_moves_the_stage_and_cannot_go_back(rules):
    led = fold(rules, [StageConfirmed(3, 20 * MIN)])
    assert led.confirmed_stage == 3 and led.stage == 3
    assert check_confirmation(led, 2, 30 * MIN) == StageBack(3)
    assert check_confirmation(led, 3, 30 * MIN) == StageSame(3)
    assert check_confirmation(led, 4, 30 * MIN) is None
    assert check_request(led, H, 2, 30 * MIN) == StagePassed(3)


def test_rule_5_minutes_between_two_requests_of_the_same_pair(rules):
    led = ask(empty_ledger(rules), H, 1, 10 * MIN)
    d = check_request(led, H, 2, 14 * MIN + 59)  # any stage, any kind
    assert d == Cooldown(15 * MIN)
    d = check_request(led, S, 1, 12 * MIN)
    assert d == Cooldown(15 * MIN)
    assert isinstance(check_request(led, S, 1, 15 * MIN), Accepted)  # exactly 5 minutes: allowed


def test_rule_refusal_says_when_next_request_is_allowed(rules):
    led = ask(empty_ledger(rules), H, 1, 61 * MIN)
    d = check_request(led, H, 2, 62 * MIN)
    assert d == Cooldown(66 * MIN)


def test_rule_cooldown_running_past_the_escape_end(rules):
    led = ask(empty_ledger(rules), H, 1, 87 * MIN)
    d = check_request(led, H, 2, 88 * MIN)
    assert d == CooldownPastEnd(92 * MIN)


def test_rule_hint_paid_with_bought_ticket_adds_10_minutes(rules):
    led = empty_ledger(rules)
    t = 0
    for stage in (1, 2, 3):
        led = ask(led, H, stage, t)
        led = ask(led, S, stage, t + 5 * MIN)
        t += 10 * MIN
    led = ask(led, H, 4, t)
    led = ask(led, S, 4, t + 5 * MIN)  # 0 left now, the last solution used 1 and bought 1
    assert led.tickets_left == 0
    assert led.penalty == 20 * MIN
    led = ask(led, H, 5, t + 10 * MIN)
    assert led.penalty == 30 * MIN
    assert led.charges[-1].tickets_bought == 1 and led.charges[-1].penalty == 10 * MIN


def test_rule_solution_paid_entirely_with_bought_tickets_adds_40_minutes(rules):
    led = empty_ledger(rules)
    t = 0
    for stage in (1, 2, 3):
        led = ask(led, H, stage, t)
        led = ask(led, S, stage, t + 5 * MIN)
        t += 10 * MIN
    led = ask(led, H, 4, t)  # 1 left
    led = ask(led, H, 5, t + 5 * MIN)  # 0 left
    assert led.tickets_left == 0 and led.penalty == 0
    led = ask(led, S, 5, t + 10 * MIN)
    assert led.charges[-1].tickets_used == 0 and led.charges[-1].tickets_bought == 2
    assert led.penalty == 40 * MIN


def test_rule_solution_with_one_ticket_left_uses_it_and_buys_one(rules):
    led = empty_ledger(rules)
    t = 0
    for stage in (1, 2, 3):
        led = ask(led, H, stage, t)
        led = ask(led, S, stage, t + 5 * MIN)
        t += 10 * MIN
    led = ask(led, H, 4, t)
    assert led.tickets_left == 1
    led = ask(led, S, 4, t + 5 * MIN)
    charge = led.charges[-1]
    assert (charge.tickets_used, charge.tickets_bought, charge.penalty) == (1, 1, 20 * MIN)


def test_rule_escape_ends_when_stage_5_solved(rules):
    led = fold(rules, [Solved(40 * MIN)])
    assert check_request(led, H, 5, 41 * MIN) == EscapeOver()
    assert check_solve(led, 45 * MIN) == AlreadySolved()


def test_rule_escape_ends_at_90_minutes(rules):
    led = empty_ledger(rules)
    assert isinstance(check_request(led, H, 1, 90 * MIN - 1), Accepted)
    assert check_request(led, H, 1, 90 * MIN) == EscapeOver()
    assert check_solve(led, 90 * MIN + 1) == PastEscapeLimit()
    assert check_solve(led, 90 * MIN) is None


def test_rule_unused_tickets_worth_3_minutes_cap_10_when_solved(rules):
    r = result(fold(rules, [Solved(60 * MIN)]))
    assert r.tickets_left == 11 and r.cap == 10
    assert r.compensation == 30 * MIN
    assert r.adjusted_escape == 30 * MIN


@pytest.mark.parametrize("stage,cap", [(1, 0), (2, 2), (3, 4), (4, 6), (5, 8)])
def test_rule_cap_by_confirmed_stage_when_unsolved(rules, stage, cap):
    events = [StageConfirmed(s, s * MIN) for s in range(2, stage + 1)]
    r = result(fold(rules, events))
    assert r.cap == cap
    assert r.escape_time == 90 * MIN
    assert r.adjusted_escape == 90 * MIN - 3 * MIN * cap


def test_rule_cap_uses_the_confirmed_stage_not_the_reported_one(rules):
    led = fold(rules, [Request(H, 4, 10 * MIN), StageConfirmed(2, 5 * MIN)])
    assert led.reported_stage == 4 and led.confirmed_stage == 2
    assert result(led).cap == 2


def test_rule_confirmations_after_the_grace_do_not_set_the_cap(rules):
    late = rules.time_limit + rules.confirmation_grace + 1
    led = fold(rules, [StageConfirmed(4, late)])
    assert result(led).cap == 0
    assert check_confirmation(empty_ledger(rules), 4, late) == ConfirmationClosed()
    handover = fold(rules, [StageConfirmed(4, rules.time_limit + 60)])
    assert result(handover).cap == 6


def test_rule_escape_time_never_below_zero(rules):
    r = result(fold(rules, [Solved(25 * MIN)]))
    assert r.adjusted_escape == 0
    assert r.compensation == 25 * MIN


def test_rule_adjusted_total_is_adjusted_escape_plus_puzzle_time(rules):
    r = result(fold(rules, [Request(H, 1, 0), Solved(42 * MIN)]))
    assert r.adjusted_escape == 12 * MIN
    assert r.adjusted_total(107 * MIN + 30) == 77 * MIN + 30


def test_rule_penalties_added_even_when_unsolved(rules):
    led = empty_ledger(rules)
    t = 0
    for stage in (1, 2, 3, 4, 5):
        led = ask(led, H, stage, t)
        t += 5 * MIN
        led = ask(led, S, stage, t)
        t += 5 * MIN
        if stage == 5:
            break
    r = result(led)
    # 15 tickets' worth: 11 used, 4 bought: hint 5 (1 at 10 min) ... check the sum explicitly
    assert led.tickets_left == 0
    assert led.tickets_used == 11 and led.tickets_bought == 4
    assert r.penalty == sum(c.penalty for c in led.charges)
    assert r.adjusted_escape == r.escape_time + r.penalty


def test_solve_before_an_accepted_request_is_refused(rules):
    led = ask(empty_ledger(rules), H, 1, 30 * MIN)
    assert check_solve(led, 20 * MIN) == BeforeRequest(30 * MIN)
