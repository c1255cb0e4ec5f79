"""What a volunteer's result may record (bot/features/results/rules.py), pure: a finish (the time
limit, a time ahead of the clock, the escape first, after the last split, the same time again,
when to ask before recording), a split time, a pieces count and a did-not-start or
disqualification. Run against every mutant by ``make mutate``; every expected value is worked
out by hand from docs/rules.md, each comparison tested on both sides of its boundary."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from bot.domain.contest import Category, EscapeRules, Slot
from bot.features.escape.rules import empty_ledger
from bot.features.results.rules import (
    OUTCOMES,
    Ahead,
    AllSplit,
    Ask,
    BeforeSolve,
    EscapeOpen,
    FinishCase,
    Finished,
    Limit,
    NeedsReason,
    NotAfterSplit,
    OnePuzzle,
    OutOfRange,
    Record,
    SameOutcome,
    SplitAt,
    SplitCase,
    TooLate,
    Unchanged,
    Which,
    ZeroTime,
    decide_finish,
    decide_outcome,
    decide_pieces,
    decide_split,
    finish_time,
    pieces_left,
    plausible_floor,
    question_outdated,
)

TZ = ZoneInfo("Europe/Madrid")
TEN = datetime(2027, 7, 2, 10, 0, tzinfo=TZ)
LIMIT = Limit(7200)  # 2:00:00, a time at the limit counts
ONE = Category("solo", "Solo", 1, 500, 7200, 0, (Slot(),))
THREE = replace(ONE, puzzles=(300, 500, 1000))  # three puzzles in sequence
ANY = replace(THREE, puzzle_order="any")
TWO_OF_THREE = replace(ANY, play=2)  # each entry plays two of the three, in any order
ESCAPE = EscapeRules(stages=3, initial_tickets=10, hint_cost=1, solution_cost=3,
                     cooldown=300, ticket_value=60, time_limit=1800, cap_solved=5,
                     caps_by_stage=(0, 2, 4), hint_ticket_penalty=60,
                     solution_ticket_penalty=120)


def case(**kw: object) -> FinishCase:
    values: dict[str, object] = {"typed": None, "now": 3600, "limit": LIMIT}
    values.update(kw)
    return FinishCase(**values)  # type: ignore[arg-type]


# -- the limit ---------------------------------------------------------------------------------


def test_a_limit_counts_its_last_second_unless_exclusive() -> None:
    assert LIMIT.inclusive is True
    assert LIMIT.refuses(7199) is None
    assert LIMIT.refuses(7200) is None
    assert LIMIT.refuses(7201) == TooLate(7201, 7200)
    exclusive = Limit(7200, inclusive=False)
    assert exclusive.refuses(7199) is None
    assert exclusive.refuses(7200) == TooLate(7200, 7200)


# -- a finish ----------------------------------------------------------------------------------


def test_the_time_of_a_finish_is_typed_else_the_ready_else_now() -> None:
    assert finish_time(case(typed=1000, ready=2000)) == 1000
    assert finish_time(case(ready=2000)) == 2000
    assert finish_time(case(ready=0)) == 0  # a /listo as the clock started is still the /listo
    assert finish_time(case()) == 3600


def test_a_finish_at_zero_is_a_typo() -> None:
    assert decide_finish(case(typed=0)) == ZeroTime()
    assert decide_finish(case(typed=1)) == Record(1)
    assert decide_finish(case(ready=0)) == Record(0)  # only a typed 0:00:00 is refused


def test_a_finish_past_the_limit_is_refused_whichever_way_it_came() -> None:
    assert decide_finish(case(typed=7200, now=8000)) == Record(7200)
    assert decide_finish(case(typed=7201, now=8000)) == TooLate(7201, 7200)
    assert decide_finish(case(now=7201)) == TooLate(7201, 7200)
    assert decide_finish(case(now=7200)) == Record(7200)
    assert decide_finish(case(ready=7201, now=9000)) == TooLate(7201, 7200)
    # past the limit is said before "later than the clock"
    assert decide_finish(case(typed=7300, now=7000)) == TooLate(7300, 7200)


def test_a_typed_finish_later_than_the_clock_offers_the_clocks_time() -> None:
    # asked, with the clock's time to record instead (four results were lost in one day to
    # a bare "later than the clock")
    assert decide_finish(case(typed=3601)) == Ask(3600, old=None, other=None, ahead=3601)
    assert decide_finish(case(typed=3600)) == Record(3600)
    assert decide_finish(case(typed=3599)) == Record(3599)
    # a choice made with a button is not asked again: refused, with what the clock shows
    assert decide_finish(case(typed=3601, confirmed=True)) == Ahead(3601, 3600)
    # the clock's time itself not recordable (the escape still open): refused as before
    assert decide_finish(case(typed=1900, now=1700, escape=empty_ledger(ESCAPE))) == Ahead(
        1900, 1700)


def test_a_finish_faster_than_plausible_is_asked_first() -> None:
    fast = {"floor": 1000}  # 500 pieces at 2 s a piece
    assert decide_finish(case(typed=999, **fast)) == Ask(999, old=None, other=None, floor=1000)
    assert decide_finish(case(typed=1000, **fast)) == Record(1000)
    assert decide_finish(case(typed=999, confirmed=True, **fast)) == Record(999)
    assert decide_finish(case(typed=999)) == Record(999)  # floor 0: never asked
    # untimed (now) and from the entry's /listo too
    assert decide_finish(case(now=58, **fast)) == Ask(58, old=None, other=None, floor=1000)
    assert decide_finish(case(ready=58, now=600, **fast)) == Ask(58, None, None, floor=1000)


def test_of_two_readings_one_faster_than_plausible_is_set_aside() -> None:
    fast = {"floor": 1000}
    # "1:47" at 1:50 on the clock: 0:01:47 would be too fast, only 1:47:00 is offered
    assert decide_finish(case(typed=107, other=6420, now=6600, **fast)) == Ask(
        6420, old=None, other=None, instead=107)
    # "1:47" when both are plausible: both offered, as before
    assert decide_finish(case(typed=1070, other=6420, now=6600, **fast)) == Ask(
        1070, old=None, other=6420)
    # both too fast: both offered, with the floor said
    assert decide_finish(case(typed=107, other=900, now=6600, **fast)) == Ask(
        107, old=None, other=900, floor=1000)
    # the other reading plausible but not possible yet: the one typed is asked as too fast
    assert decide_finish(case(typed=107, other=6420, now=6000, **fast)) == Ask(
        107, old=None, other=None, floor=1000)


def test_the_edges_of_the_plausible_floor_and_of_the_clocks_time() -> None:
    fast = {"floor": 1000, "now": 6600}
    # exactly the floor is plausible: both readings offered as before
    assert decide_finish(case(typed=1000, other=6420, **fast)) == Ask(1000, old=None, other=6420)
    # the other reading exactly at the floor is plausible: only it is offered
    assert decide_finish(case(typed=107, other=1000, **fast)) == Ask(1000, old=None, other=None,
                                                                    instead=107)
    # the typed reading at the floor, the other too fast: recorded as typed
    assert decide_finish(case(typed=1000, other=107, **fast)) == Record(1000)
    # the clock at 0:00:00 or 0:00:01: nothing to offer at 0, the clock's time from 1 s on
    assert decide_finish(case(typed=5, now=0)) == Ahead(5, 0)
    assert decide_finish(case(typed=5, now=1)) == Ask(1, old=None, other=None, ahead=5)


def test_the_plausible_floor_counts_the_puzzles_pieces() -> None:
    assert plausible_floor(ONE, 2.0) == 1000
    assert plausible_floor(ONE, 0) == 0
    assert plausible_floor(ONE, -1) == 0  # never below nothing
    assert plausible_floor(ONE, 0.5) == 250
    assert plausible_floor(THREE, 2.0) == 3600  # all three in sequence
    assert plausible_floor(TWO_OF_THREE, 2.0) == 1600  # the two smallest of three


def test_a_finish_comes_after_the_escape() -> None:
    open_ = empty_ledger(ESCAPE)
    assert decide_finish(case(typed=1799, escape=open_)) == EscapeOpen()
    assert decide_finish(case(typed=1800, escape=open_)) == Record(1800)  # its time is up
    solved = replace(open_, solved_at=1200)
    assert decide_finish(case(typed=1199, escape=solved)) == BeforeSolve(1200)
    assert decide_finish(case(typed=1200, escape=solved)) == Record(1200)
    assert decide_finish(case(typed=1201, escape=solved)) == Record(1201)


def test_a_finish_comes_after_the_last_split() -> None:
    assert decide_finish(case(typed=2000, last_split=2000)) == NotAfterSplit(2000)
    assert decide_finish(case(typed=1999, last_split=2000)) == NotAfterSplit(2000)
    assert decide_finish(case(typed=2001, last_split=2000)) == Record(2001)
    assert decide_finish(case(typed=1, last_split=0)) == Record(1)
    assert decide_finish(case(typed=3000, last_split=None)) == Record(3000)


def test_the_same_finish_again_changes_nothing() -> None:
    assert decide_finish(case(typed=3000, recorded=3000, has_recorded=True)) == Unchanged(3000)
    assert decide_finish(case(typed=3001, recorded=3000, has_recorded=True)) == Record(3001)
    assert decide_finish(case(typed=3002, recorded=3000, has_recorded=True)) == Record(3002)
    # no effective finish event: nothing recorded to be the same as
    assert decide_finish(case(typed=3000, recorded=3000)) == Record(3000)


def test_a_correction_moving_the_finish_too_far_is_asked_first() -> None:
    moved = {"recorded": 3000, "has_recorded": True, "confirm_correction": 60}
    assert decide_finish(case(typed=3060, **moved)) == Record(3060)
    assert decide_finish(case(typed=3061, **moved)) == Ask(3061, old=3000, other=None)
    assert decide_finish(case(typed=2940, **moved)) == Record(2940)
    assert decide_finish(case(typed=2939, **moved)) == Ask(2939, old=3000, other=None)
    assert decide_finish(case(typed=3061, confirmed=True, **moved)) == Record(3061)
    # 0: never asked; and nothing recorded, nothing to move
    assert decide_finish(case(typed=3061, recorded=3000, has_recorded=True,
                              confirm_correction=0)) == Record(3061)
    assert decide_finish(case(typed=3061, recorded=3000, confirm_correction=60)) == Record(3061)
    assert decide_finish(case(typed=3061, has_recorded=True, confirm_correction=60)) == Record(
        3061)


def test_a_correction_of_more_than_one_second_asked_with_confirm_correction_1() -> None:
    moved = {"recorded": 3000, "has_recorded": True, "confirm_correction": 1}
    assert decide_finish(case(typed=3001, **moved)) == Record(3001)
    assert decide_finish(case(typed=3002, **moved)) == Ask(3002, old=3000, other=None)


def test_an_ambiguous_time_is_asked_when_both_readings_are_possible() -> None:
    # "1:47" typed: 0:01:47, or 1:47:00 when that is a finish just as possible
    assert decide_finish(case(typed=107, other=6420, now=6420)) == Ask(107, old=None,
                                                                       other=6420)
    assert decide_finish(case(typed=107, other=6420, now=6419)) == Record(107)  # not yet
    assert decide_finish(case(typed=107, other=7200, now=7300)) == Ask(107, None, 7200)
    assert decide_finish(case(typed=107, other=7201, now=7300)) == Record(107)  # past limit
    assert decide_finish(case(typed=107, other=107)) == Record(107)  # the same reading
    assert decide_finish(case(typed=107, other=6420, now=6420, confirmed=True)) == Record(107)
    both = decide_finish(case(typed=107, other=3000, recorded=3000, has_recorded=True,
                              confirm_correction=60))
    assert both == Ask(107, old=3000, other=3000)


def test_a_confirmation_is_outdated_when_the_finish_or_the_heat_changed() -> None:
    assert question_outdated(5, 5, TEN, TEN) is False
    assert question_outdated(6, 5, None, None) is True
    assert question_outdated(0, 5, None, None) is True
    assert question_outdated(0, 0, None, None) is False
    later = TEN + timedelta(seconds=1)
    assert question_outdated(5, 5, later, TEN) is True  # the clock started after the question
    assert question_outdated(5, 5, TEN, later) is False
    assert question_outdated(5, 5, None, TEN) is False
    assert question_outdated(5, 5, later, None) is False


# -- pieces ------------------------------------------------------------------------------------


def test_pieces_left_are_the_puzzles_still_to_play() -> None:
    assert pieces_left(ONE, set()) == 500
    assert pieces_left(THREE, set()) == 1800
    assert pieces_left(THREE, {1}) == 1500
    assert pieces_left(THREE, {1, 2}) == 1000
    assert pieces_left(THREE, {1, 2, 3}) == 0
    # two of three played: the largest of those left, as many as are still to play
    assert pieces_left(TWO_OF_THREE, set()) == 1500
    assert pieces_left(TWO_OF_THREE, {3}) == 500
    assert pieces_left(TWO_OF_THREE, {1, 3}) == 0


def test_a_pieces_count_in_range_once() -> None:
    assert decide_pieces(-1, 500, False, None, False) == OutOfRange(-1, 500)
    assert decide_pieces(0, 500, False, None, False) == Record(0)
    assert decide_pieces(500, 500, False, None, False) == Record(500)
    assert decide_pieces(501, 500, False, None, False) == OutOfRange(501, 500)
    assert decide_pieces(10, 500, True, None, False) == Finished()
    assert decide_pieces(10, 500, False, 10, True) == Unchanged(10)
    assert decide_pieces(11, 500, False, 10, True) == Record(11)
    assert decide_pieces(10, 500, False, 10, False) == Record(10)


# -- a split time ------------------------------------------------------------------------------


def split(category: Category = THREE, **kw: object) -> SplitCase:
    values: dict[str, object] = {"category": category, "done": (), "finished": False,
                                 "typed": None, "now": 3000, "limit": LIMIT}
    values.update(kw)
    return SplitCase(**values)  # type: ignore[arg-type]


def test_splits_only_between_puzzles_before_the_finish() -> None:
    assert decide_split(split(ONE)) == OnePuzzle()
    assert decide_split(split(replace(ONE, puzzles=(500,)))) == OnePuzzle()
    assert decide_split(split(replace(ONE, puzzles=(300, 500)))) == SplitAt(1, 3000, 1)
    assert decide_split(split(finished=True)) == Finished()
    assert decide_split(split(done=(1,), last_split=1000)) == SplitAt(2, 3000, 2)
    assert decide_split(split(done=(1, 2), last_split=2000)) == AllSplit(3)
    assert decide_split(split(TWO_OF_THREE, done=(2,), puzzle=1)) == AllSplit(2)


def test_a_split_names_its_puzzle_in_any_order_only() -> None:
    assert decide_split(split(puzzle=1)) == SplitAt(1, 3000, 1)
    assert decide_split(split(puzzle=2)) == Which((1,))
    assert decide_split(split(done=(1,), puzzle=1, last_split=10)) == Which((2,))
    assert decide_split(split(ANY)) == Which((1, 2, 3))
    assert decide_split(split(ANY, puzzle=3)) == SplitAt(3, 3000, 1)
    assert decide_split(split(ANY, puzzle=4)) == Which((1, 2, 3))
    assert decide_split(split(ANY, done=(3,), puzzle=3, last_split=10)) == Which((1, 2))
    assert decide_split(split(ANY, done=(3,), puzzle=1, last_split=10)) == SplitAt(1, 3000, 2)


def test_a_split_time_within_the_clock_and_after_the_last() -> None:
    assert decide_split(split(typed=3000)) == SplitAt(1, 3000, 1)
    assert decide_split(split(typed=3001)) == Ahead(3001, 3000)
    assert decide_split(split(typed=2999)) == SplitAt(1, 2999, 1)
    assert decide_split(split(typed=0)) == SplitAt(1, 0, 1)
    assert decide_split(split(now=7200)) == SplitAt(1, 7200, 1)
    assert decide_split(split(now=7201)) == TooLate(7201, 7200)
    assert decide_split(split(now=7200, limit=Limit(7200, False))) == TooLate(7200, 7200)
    assert decide_split(split(done=(1,), last_split=3000)) == NotAfterSplit(3000)
    assert decide_split(split(done=(1,), last_split=2999)) == SplitAt(2, 3000, 2)
    assert decide_split(split(done=(1,), last_split=0, typed=0)) == NotAfterSplit(0)


# -- did not start, disqualified ---------------------------------------------------------------


def test_an_outcome_needs_its_reason_when_disqualified_and_is_recorded_once() -> None:
    assert OUTCOMES == ("dns", "dsq", "oc")
    assert decide_outcome("dsq", "", None) == NeedsReason()
    assert decide_outcome("dsq", "swapped pieces", None) is None
    assert decide_outcome("dns", "", None) is None
    assert decide_outcome("oc", "", "dns") is None
    assert decide_outcome("dns", "", "dns") == SameOutcome()
    assert decide_outcome("dsq", "again", "dsq") == SameOutcome()
