"""Where an entry that did not finish goes among the others (bot/domain/ranking.py,
``unfinished_key``; docs/rules.md, ``unfinished_order``): by pieces placed (the plain order, and
always with one puzzle), or by puzzles done, then the time of the last one, then pieces, in the
order the category gives; ``whole``: every puzzle and piece done at its ranking time. Lower
keys go first. Pure domain, run against every mutant by ``make mutate``; every expected value is
worked out by hand from the rule."""

from __future__ import annotations

from bot.domain.contest import Category, Slot
from bot.domain.ranking import Competitor, _placed_by_puzzles, rank, unfinished_key


def category(order: tuple[str, ...] = ("pieces",), puzzles: tuple[int, ...] = (),
             play: int = 0) -> Category:
    return Category("league", "League", 1, 2000, 7200, 0, (Slot(),), puzzles=puzzles,
                    unfinished_order=order, play=play)


def entry(pieces: int | None = None, splits: tuple[int, ...] = (), finish: int | None = None,
          penalty: int = 0) -> Competitor:
    return Competitor(1, ("A",), pieces=pieces, splits=splits, finish=finish,
                      time_penalty=penalty)


PUZZLES = (500, 500, 1000)


def test_by_pieces_placed() -> None:
    plain = category()
    assert unfinished_key(plain, entry(300)) == -300
    assert unfinished_key(plain, entry(2000)) == -2000
    assert unfinished_key(plain, entry(2500)) == -2000  # never more than the puzzle has
    assert unfinished_key(plain, entry(-5)) == 0  # never fewer than none
    assert unfinished_key(plain, entry(None)) == 0
    assert unfinished_key(plain, entry(1), whole=True) == -2000  # every piece
    # one puzzle: pieces, whatever the order says
    assert unfinished_key(category(("puzzles", "time")), entry(300, (100,))) == -300
    assert unfinished_key(category(("time", "pieces")), entry(300)) == -300
    # puzzles in sequence, the plain order: pieces too
    assert unfinished_key(category(("pieces",), PUZZLES), entry(300, (100, 200))) == -300


def test_by_puzzles_done_then_the_last_ones_time() -> None:
    league = category(("puzzles", "time"), PUZZLES)
    assert unfinished_key(league, entry(300, (1000, 2000))) == (-2, 0, 2000)
    assert unfinished_key(league, entry(300, (1000,))) == (-1, 0, 1000)
    assert unfinished_key(league, entry(300)) == (0, 1, 0)  # no puzzle: no time, after
    # two puzzles done go before one; of two done, the earlier last one first
    assert unfinished_key(league, entry(0, (900, 1900))) < unfinished_key(
        league, entry(0, (800, 2000))) < unfinished_key(league, entry(0, (100,)))
    # whole: every puzzle, at its ranking time (penalties added)
    assert unfinished_key(league, entry(5, (1,), finish=7000, penalty=600), whole=True) == (
        -3, 0, 7600)
    assert unfinished_key(category(("puzzles", "time"), PUZZLES, play=2),
                          entry(finish=7000), whole=True) == (-2, 0, 7000)


def test_every_key_in_the_order_given() -> None:
    assert unfinished_key(category(("pieces", "puzzles", "time"), PUZZLES),
                          entry(700, (1000, 2000))) == (-700, -2, 0, 2000)
    assert unfinished_key(category(("time", "puzzles", "pieces"), PUZZLES),
                          entry(700, (1000,))) == (0, 1000, -1, -700)
    assert unfinished_key(category(("puzzles", "pieces"), PUZZLES), entry(2500, ())) == (
        0, -2000)
    assert unfinished_key(category(("puzzles", "pieces"), PUZZLES), entry(None, (5,)),
                          whole=True) == (-3, -2000)


def test_placed_by_its_puzzles_without_a_piece_count() -> None:
    league = category(("puzzles", "time"), PUZZLES)
    assert _placed_by_puzzles(league, entry(None, (1000,))) is True
    assert _placed_by_puzzles(league, entry(None)) is False  # no puzzle done
    assert _placed_by_puzzles(category(("puzzles", "time")), entry(None, (1000,))) is False
    assert _placed_by_puzzles(category(("puzzles", "pieces"), PUZZLES),
                              entry(None, (1000,))) is False
    assert _placed_by_puzzles(category(("pieces",), PUZZLES), entry(None, (1000,))) is False


def test_ranked_by_puzzles_without_a_piece_count() -> None:
    league = category(("puzzles", "time"), PUZZLES)
    rows = rank(league, [Competitor(1, ("A",), splits=(1000,)),
                         Competitor(2, ("B",), splits=(900, 1800)), Competitor(3, ("C",))])
    # two puzzles before one; nothing done and no count: no place
    assert [(r.number, r.position, r.finished) for r in rows] == [
        (2, 1, False), (1, 2, False), (3, None, False)]


def test_a_finish_past_the_limit_by_its_penalties_every_piece_placed() -> None:
    plain = category()  # 2000 pieces, 7200 s
    rows = rank(plain, [Competitor(1, ("A",), finish=7000, time_penalty=300),
                        Competitor(2, ("B",), pieces=1999)], penalised_finish_counts=False)
    # 7300 s is past the limit: not finished, first among those counted by pieces
    assert [(r.number, r.position, r.finished) for r in rows] == [(1, 1, False),
                                                                  (2, 2, False)]
    # by puzzles: every puzzle done, at its ranking time, before two puzzles done
    league = category(("puzzles", "time"), PUZZLES)
    rows = rank(league, [Competitor(1, ("A",), finish=7000, time_penalty=300),
                         Competitor(2, ("B",), splits=(1000, 2000))],
                penalised_finish_counts=False)
    assert [(r.number, r.position, r.finished) for r in rows] == [(1, 1, False),
                                                                  (2, 2, False)]
