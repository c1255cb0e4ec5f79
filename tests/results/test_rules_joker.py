"""Issue 48: a marathon's joker, its rules alone (pure: mutation-tested): when a puzzle may be
given up, and how an entry that gave one up, or kept its joker, is ranked. Worked out by hand
from docs/rules.md, "A marathon's joker"; the file and the chat are tests/results/test_joker.py."""

from __future__ import annotations

from dataclasses import replace

from bot.domain.contest import Category, Slot
from bot.domain.ranking import Competitor, rank
from bot.features.results.rules import (
    Counted,
    Finished,
    JokersUsed,
    Limit,
    NoJokers,
    NotAfterSplit,
    OnLast,
    SplitAt,
    SplitCase,
    TooLate,
    Which,
    decide_joker,
    decide_split,
    plausible_floor,
)

H = 3600
MARATHON = Category("m", "Marathon", 4, 1500, 4 * H, 0, (Slot(),) * 4,
                    puzzles=(500, 500, 500), jokers=1, joker_bonus=250)


def joker(category: Category = MARATHON, **kw: object) -> SplitCase:
    values: dict[str, object] = {"category": category, "done": (), "finished": False,
                                 "typed": None, "now": 1800, "limit": Limit(4 * H)}
    values.update(kw)
    return SplitCase(**values)  # type: ignore[arg-type]


# -- the rule, pure ------------------------------------------------------------------------


def test_a_joker_gives_up_the_puzzle_the_entry_is_on_now() -> None:
    assert decide_joker(joker()) == SplitAt(1, 1800, 1)
    assert decide_joker(joker(done=(1,), last_split=900)) == SplitAt(2, 1800, 2)
    assert decide_joker(joker(puzzle=1)) == SplitAt(1, 1800, 1)
    assert decide_joker(joker(puzzle=3)) == Which((1,))  # a fixed order: the one it is on
    any_order = replace(MARATHON, puzzle_order="any")
    assert decide_joker(joker(any_order)) == Which((1, 2, 3))
    assert decide_joker(joker(any_order, done=(2,), puzzle=3)) == SplitAt(3, 1800, 2)
    assert decide_joker(joker(any_order, done=(2,), puzzle=2)) == Which((1, 3))


def test_a_joker_only_where_the_category_gives_one_and_never_twice_or_on_the_last() -> None:
    assert decide_joker(joker(replace(MARATHON, jokers=0))) == NoJokers()
    assert decide_joker(joker(jokers_used=1)) == JokersUsed(1)
    assert decide_joker(joker(replace(MARATHON, jokers=2), jokers_used=1)) == SplitAt(1, 1800, 1)
    assert decide_joker(joker(finished=True)) == Finished()
    assert decide_joker(joker(done=(1, 2))) == OnLast(3)
    assert decide_joker(joker(now=4 * H)) == SplitAt(1, 4 * H, 1)
    assert decide_joker(joker(now=4 * H + 1)) == TooLate(4 * H + 1, 4 * H)
    assert decide_joker(joker(now=4 * H, limit=Limit(4 * H, False))) == TooLate(4 * H, 4 * H)


def test_a_joker_after_a_count_or_at_the_second_of_a_split_is_refused() -> None:
    # the count took in the puzzle the entry is on: giving it up would keep its pieces
    assert decide_joker(joker(counted=True)) == Counted()
    assert decide_joker(joker(done=(1,), last_split=1800)) == NotAfterSplit(1800)
    assert decide_joker(joker(done=(1,), last_split=1799)) == SplitAt(2, 1800, 2)


def test_after_an_earlier_split_is_taken_back_the_next_puzzle_is_the_first_not_done() -> None:
    four = replace(MARATHON, puzzles=(500,) * 4, pieces=2000, jokers=2)
    # puzzle 1's split taken back after puzzle 2 was given up: puzzle 1 is next, not 2 again
    assert decide_joker(joker(four, done=(2,), last_split=900)) == SplitAt(1, 1800, 2)
    assert decide_split(joker(four, done=(2,), last_split=900)) == SplitAt(1, 1800, 2)
    assert decide_split(joker(four, done=(2,), puzzle=3, last_split=900)) == Which((1,))


def test_the_plausible_floor_leaves_the_puzzles_given_up_out() -> None:
    three = replace(MARATHON, puzzles=(1000, 500, 200), pieces=1700)
    assert plausible_floor(three, 1.0) == 1700
    assert plausible_floor(three, 1.0, (1,)) == 700
    assert plausible_floor(three, 1.0, (3,)) == 1500


def test_a_joker_used_ranks_by_pieces_and_one_kept_adds_its_bonus() -> None:
    field = [
        Competitor(1, ("A",), finish=7200, splits=(2400, 4800)),  # all three: a finisher
        # puzzle 1 given up, the other two done by 1:50:00: 1,000 pieces, no bonus
        Competitor(2, ("B",), pieces=1000, splits=(4200, 6600), jokers=1),
        Competitor(3, ("C",), pieces=800, splits=(3600,), bonus=250),  # 800 + 250 = 1,050
        Competitor(4, ("D",), pieces=200, bonus=250),  # 450
        Competitor(5, ("E",), pieces=400, jokers=1),  # 400
        Competitor(6, ("F",), bonus=250),  # no count: the bonus alone places nobody
    ]
    assert [(r.position, r.number) for r in rank(MARATHON, field)] == [
        (1, 1), (2, 3), (3, 2), (4, 4), (5, 5), (None, 6)]
    assert field[2].counted == 1050 and field[5].counted is None
