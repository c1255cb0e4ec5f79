"""Following an entry by its table card, pure (bot/features/following/rules.py; docs/rules.md,
"Who may follow an entry"): the card's code, who is asked, the request's buttons. Run against
every mutant by ``make mutate``; every expected value is worked out by hand from the rule."""

from __future__ import annotations

import base64
import hashlib

from bot.features.following.rules import (
    ANYONE,
    ORGANISERS,
    FollowRules,
    asks,
    button,
    card_code,
    line,
    may_be_card,
    parse_button,
)


def test_the_card_code_is_derived_one_way_from_the_join_code() -> None:
    digest = hashlib.sha256(b"table card:abc123").digest()
    expected = "t" + base64.urlsafe_b64encode(digest).decode()[:22]
    assert card_code("abc123") == expected
    assert len(card_code("abc123")) == 23 and card_code("abc123") != card_code("abc124")
    assert "abc123" not in card_code("abc123")
    assert may_be_card(card_code("x"))
    assert not may_be_card("t" + "a" * 21) and not may_be_card("t" + "a" * 23)
    assert not may_be_card("x" + "a" * 22)


def test_who_is_asked_before_a_phone_follows() -> None:
    # an entry already followed: its phones are asked, whatever the setting
    assert asks(1, FollowRules(ANYONE)) and asks(2, FollowRules(ORGANISERS))
    # nobody follows it yet: the organisers decide, unless the contest lets anyone in
    assert asks(0, FollowRules(ORGANISERS)) and asks(0, FollowRules())
    assert not asks(0, FollowRules(ANYONE))


def test_a_request_s_buttons_and_their_data() -> None:
    assert line(42) == "dec:fol:42"
    assert button(42, True) == "dec:fol:42:y" and button(42, False) == "dec:fol:42:n"
    assert parse_button("dec:fol:42:y") == (42, True)
    assert parse_button("dec:fol:42:n") == (42, False)
    for data in ("dec:fol:42:x", "dec:fol:0:y", "dec:fol:-1:y", "dec:fol:42", "dec:fol:a:y",
                 "dec:foo:42:y", "fol:42:y", "dec:fol:42:y:z"):
        assert parse_button(data) is None, data
