"""A volunteers' line claimed ("I'm going", bot/domain/claims.py): the claim names the entry
and the event the line reports, as ``take:<entry>:<event id>``, and anything else is no claim.
Pure domain, run against every mutant by ``make mutate``; the expected values are read off the
rule in the module's docstring, not off the code."""

from __future__ import annotations

import pytest

from bot.domain.claims import CLAIM_PREFIX, claim_ref, parse_claim


def test_a_claim_names_the_entry_and_the_event() -> None:
    assert CLAIM_PREFIX == "take:"
    assert claim_ref(12, 345) == "take:12:345"
    assert claim_ref(1, 1) == "take:1:1"


def test_a_claim_is_read_back_as_it_was_made() -> None:
    assert parse_claim("take:12:345") == (12, 345)
    assert parse_claim(claim_ref(7, 90)) == (7, 90)
    assert parse_claim("take:1:1") == (1, 1)


@pytest.mark.parametrize("data", [
    "", "take:", "take:12", "take:12:", "take::345", "take:12:345:6", "take:12;345",
    "took:12:345", "xtake:12:345", "TAKE:12:345", "12:345",
    "take:0:345",  # no entry 0
    "take:12:0",  # no event 0
    "take:-1:345", "take:12:-5", "take:a:345", "take:12:b", "take:1.5:3",
    "hint:12:345",
])
def test_anything_else_is_no_claim(data: str) -> None:
    assert parse_claim(data) is None
