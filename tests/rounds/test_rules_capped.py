"""The entries ``max_per`` alone left out (bot/domain/rounds.py, ``capped``; docs/rules.md,
``max_per`` with ``by``): placed ahead of, or level with, the last qualifier, their answer
already having its ``max_per`` qualifiers. Pure domain, run against every mutant by ``make
mutate``; every expected value is worked out by hand from the rule."""

from __future__ import annotations

from bot.domain.contest import Advancement
from bot.domain.ranking import Competitor, Row
from bot.domain.rounds import capped


def row(position: int | None, number: int) -> Row:
    return Row(position, Competitor(number, (f"#{number}",)), position is not None,
               None, None)


# places 1 to 6, #7 without one
RANKING = [row(1, 1), row(2, 2), row(3, 3), row(4, 4), row(5, 5), row(6, 6), row(None, 7)]
COUNTRY = {1: "ES", 2: "ES", 3: "ES", 4: "FR", 5: "DE", 6: "ES", 7: "ES"}
RULE = Advancement(best=3, max_per=2, by="country")


def test_ahead_of_the_last_qualifier_and_capped() -> None:
    # 1, 2 (ES) and 4 (FR) through: #3 (ES, 3rd) was ahead of #4; #6 (ES) behind it, #5
    # (DE) had no qualifier of its country, #7 no place
    assert capped(RULE, RANKING, [1, 2, 4], COUNTRY.get) == {3: "ES"}
    # the qualifiers in any order
    assert capped(RULE, RANKING, (4, 2, 1), COUNTRY.get) == {3: "ES"}


def test_level_with_the_last_qualifier() -> None:
    level = [row(1, 1), row(2, 2), row(3, 4), row(3, 3), row(5, 5)]
    assert capped(RULE, level, [1, 2, 4], COUNTRY.get) == {3: "ES"}


def test_behind_the_last_qualifier_nobody_is_capped() -> None:
    assert capped(RULE, RANKING, [1, 2], COUNTRY.get) == {}
    # with #6 through, #3 is capped, not #7 (no place) nor #5 (DE)
    assert capped(Advancement(max_per=3, by="country"), RANKING, [1, 2, 4, 5, 6],
                  COUNTRY.get) == {3: "ES"}


def test_only_the_qualifiers_count_towards_the_cap() -> None:
    # two ES through, the cap 3: nobody was left out for it
    assert capped(Advancement(best=3, max_per=3, by="country"), RANKING, [1, 2, 4],
                  COUNTRY.get) == {}
    # qualifiers without an answer count for nobody
    answers = {1: None, 2: "ES", 3: "ES", 4: None}
    assert capped(Advancement(best=3, max_per=1, by="country"), RANKING, [1, 2, 4],
                  answers.get) == {3: "ES"}
    assert capped(Advancement(best=3, max_per=2, by="country"), RANKING, [1, 2, 4],
                  answers.get) == {}


def test_without_an_answer_never_capped() -> None:
    answers = {1: "ES", 2: "ES", 4: "FR"}  # #3 did not answer
    assert capped(RULE, RANKING, [1, 2, 4], answers.get) == {}


def test_several_answers_capped() -> None:
    country = {1: "ES", 2: "FR", 3: "ES", 4: "FR", 5: "DE", 6: "IT"}
    rule = Advancement(best=3, max_per=1, by="country")
    # 1 (ES), 2 (FR), 5 (DE) through: #3 (ES) and #4 (FR) were ahead of #5
    assert capped(rule, RANKING, [1, 2, 5], country.get) == {3: "ES", 4: "FR"}


def test_no_cap_or_no_qualifier_placed() -> None:
    assert capped(Advancement(best=3), RANKING, [1, 2, 4], COUNTRY.get) == {}
    assert capped(RULE, RANKING, [], COUNTRY.get) == {}
    assert capped(RULE, RANKING, [7], COUNTRY.get) == {}  # through without a place
    assert capped(RULE, [], [1, 2], COUNTRY.get) == {}
    # a qualifier without a place does not move the last place
    assert capped(RULE, RANKING, [1, 2, 7], COUNTRY.get) == {}


def test_an_answer_without_a_qualifier_is_not_capped() -> None:
    # 1, 2 (ES) and 5 (DE) through: #3 (ES) capped; #4 (FR), also ahead of #5, had no FR
    # qualifier (it declined its place, say): not left out by the cap
    assert capped(RULE, RANKING, [1, 2, 5], COUNTRY.get) == {3: "ES"}
    assert capped(Advancement(best=3, max_per=1, by="country"), RANKING, [1, 5, 6],
                  COUNTRY.get) == {2: "ES", 3: "ES"}
