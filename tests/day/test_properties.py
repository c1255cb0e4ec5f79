"""Hypothesis properties of the rules engine (issue 2)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.domain.ranking import Competitor, rank
from bot.features.escape.rules import (
    Accepted,
    Kind,
    Solved,
    StageConfirmed,
    apply_event,
    check_request,
    empty_ledger,
    result,
)
from bot.features.registration.rules import Member, fee
from bot.services.contest_file import load_contest
from tests.conftest import BILLOM, CASTRILLO

CASTRILLO_CONTEST = load_contest(CASTRILLO)
BILLOM_CONTEST = load_contest(BILLOM)
RULES = CASTRILLO_CONTEST.escape
assert RULES is not None
PAIRS = CASTRILLO_CONTEST.category("parejas")

attempts = st.lists(
    st.tuples(
        st.sampled_from([Kind.HINT, Kind.SOLUTION, "confirm"]),
        st.integers(min_value=0, max_value=6),  # stage, including invalid ones
        st.integers(min_value=0, max_value=900),  # seconds since the previous attempt
    ),
    max_size=40,
)


def play(script):
    ledger = empty_ledger(RULES)
    clock = 0
    accepted = []
    for kind, stage, gap in script:
        clock += gap
        if kind == "confirm":
            if 1 <= stage <= RULES.stages and stage >= ledger.confirmed_stage:
                ledger = apply_event(ledger, StageConfirmed(stage, clock))
            continue
        decision = check_request(ledger, kind, stage, clock)
        if isinstance(decision, Accepted):
            accepted.append(decision.charge)
            ledger = decision.ledger
    return ledger, accepted


@given(attempts)
def test_tickets_never_negative_and_balance(script):
    ledger, accepted = play(script)
    assert ledger.tickets_left >= 0
    assert ledger.tickets_used + ledger.tickets_left == RULES.initial_tickets
    cost = sum(RULES.hint_cost if c.kind is Kind.HINT else RULES.solution_cost for c in accepted)
    assert ledger.tickets_used + ledger.tickets_bought == cost


@given(attempts, st.booleans(), st.integers(min_value=0, max_value=5400))
def test_adjusted_escape_at_least_penalties_at_least_zero(script, solved, solve_at):
    ledger, _ = play(script)
    last = ledger.last_request_at or 0
    if solved and solve_at >= last:
        ledger = apply_event(ledger, Solved(solve_at))
    r = result(ledger)
    assert r.adjusted_escape >= r.penalty >= 0
    assert 0 <= r.compensation <= r.escape_time


@given(attempts)
def test_no_two_accepted_requests_closer_than_the_cooldown(script):
    _, accepted = play(script)
    for a, b in zip(accepted, accepted[1:], strict=False):
        assert b.at - a.at >= RULES.cooldown


@given(attempts)
def test_solution_never_accepted_before_its_stages_hint(script):
    _, accepted = play(script)
    hinted: set[int] = set()
    for c in accepted:
        if c.kind is Kind.HINT:
            hinted.add(c.stage)
        else:
            assert c.stage in hinted
    stages = [c.stage for c in accepted]
    assert stages == sorted(stages)  # never back to a passed stage
    assert all(c.at < RULES.time_limit for c in accepted)


competitors = st.lists(
    st.builds(
        Competitor,
        number=st.integers(min_value=1, max_value=10_000),
        names=st.just(("x",)),
        local=st.booleans(),
        finish=st.none() | st.integers(min_value=0, max_value=12_000),
        pieces=st.none() | st.integers(min_value=0, max_value=600),
    ),
    max_size=30,
    unique_by=lambda c: c.number,
)


@given(competitors)
def test_ranking_order_is_finishers_by_time_then_pieces(entries):
    rows = rank(PAIRS, entries)
    assert len(rows) == len(entries)
    seen_unfinished = False
    last_time = -1
    last_position = 0
    for r in rows:
        if r.finished:
            assert not seen_unfinished, "non-finisher ranked above a finisher"
            assert r.time is not None and r.time >= last_time
            last_time = r.time
        else:
            seen_unfinished = True
        if r.position is not None:
            assert r.position >= last_position
            last_position = r.position


@settings(max_examples=200)
@given(
    st.sampled_from([*CASTRILLO_CONTEST.categories]),
    st.lists(st.frozensets(st.sampled_from(["aepuzz_member", "resident", "other"])), max_size=3),
    st.integers(min_value=-5, max_value=20),
    st.integers(min_value=-5, max_value=20),
)
def test_fee_never_negative(category, answers, adults, children):
    members = [Member("m", born_year=1990, answers=a) for a in answers]
    f = fee(CASTRILLO_CONTEST, category, members, adults, children)
    assert f.total >= 0 and f.entry_due >= 0 and f.meal >= 0
    assert f.discount <= f.entry
