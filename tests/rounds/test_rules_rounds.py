"""The rounds' rules (docs/rules.md, docs/guide/rounds.md and docs/guide/1-contest-file.md),
pure domain: heats and their names, seating (blocks, draw, seeded, a heat chosen at
registration), tables, who advances (per_heat, best, top_percent, better_than, max_per with
by, ties on the last place) and the classification over rounds. Run against every mutant by
``make mutate``; every expected value is worked out by hand from the rule."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from datetime import date

import pytest

from bot.domain.contest import Advancement, Category, ExtraPrize, Round, Slot
from bot.domain.ranking import Competitor, Row, rank
from bot.domain.rounds import (
    AllConfirmed,
    Confirmable,
    Heat,
    NobodyThrough,
    NotPlayed,
    PlayedHeat,
    StillPlayed,
    classification,
    confirm_verdict,
    draw,
    heat_id,
    heats_by_id,
    heats_of,
    in_line,
    merged,
    qualifiers,
    round_play,
    seat,
    split_in_order,
    split_seeded,
    table_number,
)

DAY = date(2027, 7, 2)


def make_round(rid: str, *, heats: int = 1, advance: Advancement | None = None,
               seating: str = "", pieces: int = 500, time_limit: int = 3600,
               per_table: int = 1, heats_by: str | None = None,
               heat_choices: tuple[str, ...] = ()) -> Round:
    return Round(rid, {"en": rid.title()}, DAY, None, pieces, time_limit, heats=heats,
                 advance=advance, seating=seating, per_table=per_table, heats_by=heats_by,
                 heat_choices=heat_choices)


HEATS = make_round("heats", heats=3, advance=Advancement(per_heat=2), pieces=500,
                   time_limit=3600)
SEMI = make_round("semi", advance=Advancement(best=4), pieces=800, time_limit=4500)
FINAL = make_round("final", pieces=1000, time_limit=5400)
PAIRS = Category("pairs", "Pairs", 2, 2000, 7200, 0, (Slot(), Slot()),
                 prizes=("Gold", "Silver", "Bronze"), rounds=(HEATS, SEMI, FINAL))


def replace_rounds(category: Category, cid: str, rounds: tuple[Round, ...]) -> Category:
    return Category(cid, cid, category.members, category.pieces, category.time_limit,
                    category.fee, category.slots, prizes=category.prizes, rounds=rounds)


def done(number: int, finish: int, **kw: object) -> Competitor:
    return Competitor(number, (f"P{number}",), finish=finish, **kw)  # type: ignore[arg-type]


def counted(number: int, pieces: int) -> Competitor:
    return Competitor(number, (f"P{number}",), pieces=pieces)


def nothing(number: int) -> Competitor:
    return Competitor(number, (f"P{number}",))


def placed(rows: Sequence[Row]) -> list[tuple[int, int | None]]:
    return [(r.number, r.position) for r in rows]


# -- heats and their names ------------------------------------------------------------------


def test_heat_names() -> None:
    assert heat_id(PAIRS, 0, 2) == "pairs-heats2"  # a round of several heats: numbered
    assert heat_id(PAIRS, 1, 1) == "pairs-semi"  # a round of one heat: the round's id
    assert heat_id(PAIRS, 2, 1) == "pairs-final"
    assert [h.id for h in heats_of(PAIRS)] == [
        "pairs-heats1", "pairs-heats2", "pairs-heats3", "pairs-semi", "pairs-final"]
    heats = heats_by_id([PAIRS, replace_rounds(PAIRS, "solo", (FINAL,))])
    assert sorted(heats) == ["pairs-final", "pairs-heats1", "pairs-heats2", "pairs-heats3",
                             "pairs-semi", "solo-final"]
    assert heats["pairs-heats2"] == Heat(PAIRS, 0, 2)
    assert heats_of(replace_rounds(PAIRS, "once", ())) == []
    two = replace_rounds(PAIRS, "solo", (make_round("heats", heats=2), FINAL))
    assert [h.id for h in heats_of(two)] == ["solo-heats1", "solo-heats2", "solo-final"]


def test_a_heat_plays_its_rounds_puzzle_and_limit() -> None:
    heat = Heat(PAIRS, 1, 1)
    assert heat.round == SEMI and not heat.last_round and Heat(PAIRS, 2, 1).last_round
    play = heat.play
    assert (play.id, play.pieces, play.time_limit, play.rounds, play.prizes) == (
        "pairs-semi", 800, 4500, (), ())
    whole = round_play(PAIRS, 0)  # the heats together: the round's ranking
    assert (whole.id, whole.pieces, whole.time_limit, whole.prizes) == (
        "pairs-heats", 500, 3600, ())
    final = round_play(PAIRS, 2)
    assert (final.id, final.pieces, final.time_limit) == ("pairs-final", 1000, 5400)


# -- splitting into heats and seating -------------------------------------------------------


def test_blocks_by_entry_number_the_first_heats_one_more() -> None:
    assert split_in_order([7, 3, 1, 10, 5, 2, 9, 4, 8, 6], 3) == [
        [1, 2, 3, 4], [5, 6, 7], [8, 9, 10]]
    assert split_in_order([6, 5, 4, 3, 2, 1], 3) == [[1, 2], [3, 4], [5, 6]]
    assert split_in_order([2, 1], 3) == [[1], [2], []]
    assert split_in_order([3, 1, 2], 1) == [[1, 2, 3]]
    assert split_in_order([30, 10, 20, 40, 50], 2, keep_order=True) == [[30, 10, 20], [40, 50]]


def test_seeded_serpentine_best_first() -> None:
    # 1 2 3 3 2 1 1 ...: the best seed of each lap alternates ends
    assert split_seeded([10, 20, 30, 40, 50, 60, 70], 3) == [[10, 60, 70], [20, 50], [30, 40]]
    assert split_seeded([1, 2, 3, 4, 5, 6, 7, 8], 2) == [[1, 4, 5, 8], [2, 3, 6, 7]]
    assert split_seeded([4, 2], 1) == [[4, 2]]  # one heat: as seeded, not by number
    assert split_seeded([], 2) == [[], []]


def test_seating_defaults_blocks_first_seeded_later() -> None:
    cat = replace_rounds(PAIRS, "solo", (
        make_round("heats", heats=2, advance=Advancement(best=6)),
        make_round("semi", heats=2, advance=Advancement(best=2)),
        make_round("final", seating="blocks")))
    assert seat(cat, 0, [6, 2, 5, 1, 4, 3]) == [[1, 2, 3], [4, 5, 6]]
    # the qualifiers best first: 6 was fastest, then 2, 5, 1
    assert seat(cat, 1, [6, 2, 5, 1]) == [[6, 1], [2, 5]]
    assert seat(cat, 2, [5, 2]) == [[2, 5]]  # blocks in a later round: by number


def test_draw_repeatable_by_anyone() -> None:
    entrants = [7, 1, 5, 3, 2, 6, 4]
    drawn = draw("pairs/heats", entrants)
    # the draw anyone can repeat: the entrants by number, shuffled by Python's random seeded
    # with "<category>/<round>:<numbers by number, comma-separated>"
    expected = [1, 2, 3, 4, 5, 6, 7]
    random.Random("pairs/heats:1,2,3,4,5,6,7").shuffle(expected)
    assert drawn == expected and drawn != sorted(entrants)
    assert draw("pairs/heats", sorted(entrants)) == drawn  # the order given changes nothing
    assert draw("pairs/semi", entrants) != drawn  # another round, another draw
    assert sorted(draw("pairs/heats", entrants[:-1])) == [1, 2, 3, 5, 6, 7]


def test_draw_seating_splits_the_draw_in_blocks() -> None:
    cat = replace_rounds(PAIRS, "solo", (make_round("heats", heats=2, seating="draw"),))
    entrants = [1, 2, 3, 4, 5, 6, 7]
    drawn = draw("solo/heats", entrants)
    assert drawn != entrants
    assert seat(cat, 0, list(reversed(entrants))) == [drawn[:4], drawn[4:]]
    seeded = replace_rounds(PAIRS, "solo", (
        make_round("heats", advance=Advancement(best=4)),
        make_round("final", heats=2, seating="seeded")))
    assert seat(seeded, 1, [9, 3, 5, 1]) == [[9, 1], [3, 5]]


def test_heat_chosen_at_registration() -> None:
    quals = make_round("quals", heats=2, heats_by="qualifier", heat_choices=("porto", "lyon"),
                       advance=Advancement(best=2))
    cat = replace_rounds(PAIRS, "teams", (quals, FINAL))
    answers = {1: "lyon", 2: "PORTO", 3: None, 4: "porto", 5: "madrid", 6: "Lyon", 7: "porto"}
    # each heat its choice's entries (in any case), by number; no answer or another: no heat
    assert seat(cat, 0, [7, 6, 5, 4, 3, 2, 1], answers.get) == [[2, 4, 7], [1, 6]]
    # without the answers (the rule's fallback): the round's own seating over its heats
    assert seat(cat, 0, [4, 3, 2, 1]) == [[1, 2], [3, 4]]
    drawn = replace_rounds(PAIRS, "teams", (
        make_round("quals", heats=2, heats_by="qualifier", heat_choices=("porto", "lyon"),
                   seating="draw", advance=Advancement(best=2)), FINAL))
    porto = draw("teams/quals", [2, 4, 7])
    lyon = draw("teams/quals", [1, 6])
    assert seat(drawn, 0, [1, 2, 3, 4, 5, 6, 7], answers.get) == [porto, lyon]
    # three choices offered, the round has two heats: the third choice plays in none
    two = replace_rounds(PAIRS, "teams", (
        make_round("quals", heats=2, heats_by="qualifier",
                   heat_choices=("porto", "lyon", "madrid")), FINAL))
    assert seat(two, 0, [1, 2, 3, 4, 5], answers.get) == [[2, 4], [1]]


def test_table_numbers() -> None:
    assert [table_number(i, 1) for i in range(4)] == [1, 2, 3, 4]
    assert [table_number(i, 2) for i in range(5)] == [1, 1, 2, 2, 3]
    assert [table_number(i, 4) for i in range(9)] == [1, 1, 1, 1, 2, 2, 2, 2, 3]


# -- the round's ranking over its heats -----------------------------------------------------


def heat_rankings(category: Category, round_index: int,
                  *heats: Sequence[Competitor]) -> list[list[Row]]:
    return [rank(Heat(category, round_index, h).play, list(c))
            for h, c in enumerate(heats, 1)]


def test_merged_ranks_every_heat_together() -> None:
    heats = heat_rankings(PAIRS, 0, [done(1, 100), done(2, 300), counted(3, 400)],
                          [done(4, 200), nothing(5)], [counted(6, 450)])
    rows = merged(PAIRS, 0, heats)
    assert placed(rows) == [(1, 1), (4, 2), (2, 3), (6, 4), (3, 5), (5, None)]
    assert [r.time for r in rows[:3]] == [100, 200, 300] and not rows[3].finished


def test_merged_round_limit_and_options() -> None:
    # the heats' limit is 3600: exactly at it counts by default, not with limit_inclusive False
    heats = heat_rankings(PAIRS, 0, [done(1, 3600), done(2, 3000, time_penalty=700)],
                          [done(3, 3000, earlier=50), done(4, 3000, earlier=10)])
    rows = merged(PAIRS, 0, heats)
    assert placed(rows) == [(3, 1), (4, 1), (1, 3), (2, 4)]
    assert (rows[-1].finished, rows[-1].time) == (True, 3700)  # a penalised finish counts
    assert merged(PAIRS, 0, heats, limit_inclusive=False)[-1].position is None
    # a penalised finish past the limit: ranks as not finished with every piece
    strict = merged(PAIRS, 0, heats, penalised_finish_counts=False)
    assert [(r.number, r.finished) for r in strict][-1] == (2, False)
    assert placed(merged(PAIRS, 0, heats, tie_break="earlier_round")) == [
        (4, 1), (3, 2), (1, 3), (2, 4)]
    # the final's limit (5400), not the heats'
    assert merged(PAIRS, 2, [rank(Heat(PAIRS, 2, 1).play, [done(1, 5000)])])[0].position == 1


# -- who advances ---------------------------------------------------------------------------


def advance(rule: Advancement, *heats: Sequence[Competitor],
            group_of: Callable[[int], str | None] = lambda n: None) -> list[int]:
    rows = heat_rankings(PAIRS, 0, *heats)
    return qualifiers(rule, rows, merged(PAIRS, 0, rows), group_of)


def test_per_heat_top_n_of_each_heat_best_first() -> None:
    h1 = [done(1, 100), done(2, 200), done(3, 300)]
    h2 = [done(4, 150), done(5, 250), done(6, 350)]
    h3 = [done(7, 120), done(8, 400)]
    # the top 2 of each heat, listed by the round's ranking (best first)
    assert advance(Advancement(per_heat=2), h1, h2, h3) == [1, 7, 4, 2, 5, 8]
    assert advance(Advancement(per_heat=1), h1, h2, h3) == [1, 7, 4]


def test_per_heat_tie_on_the_last_place_all_go_through() -> None:
    h1 = [done(1, 100), done(2, 200), done(3, 200), done(4, 300)]
    h2 = [done(5, 150), done(6, 160), done(7, 170)]
    assert advance(Advancement(per_heat=2), h1, h2) == [1, 5, 6, 2, 3]
    # a tie on the first place: both, and no third
    h3 = [done(8, 100), done(9, 100), done(10, 110)]
    assert advance(Advancement(per_heat=1), h3, h2) == [8, 9, 5]


def test_per_heat_a_heat_short_of_results() -> None:
    h1 = [done(1, 100), nothing(2), counted(3, 400)]
    h2 = [nothing(4)]
    h3 = [counted(5, 100), counted(6, 200)]
    # pieces rank after finishes; no result never goes through, and leaves its place empty
    assert advance(Advancement(per_heat=2), h1, h2, h3) == [1, 3, 6, 5]


def test_per_heat_reads_each_heat_by_its_places() -> None:
    rows = heat_rankings(PAIRS, 0, [done(1, 300), done(2, 100), done(3, 200)],
                         [done(4, 50), done(5, 60)])
    shuffled = [list(reversed(rows[0])), rows[1]]
    assert qualifiers(Advancement(per_heat=1), shuffled, merged(PAIRS, 0, rows),
                      lambda n: None) == [4, 2]


def test_best_after_per_heat_until_m_in_all() -> None:
    h1 = [done(1, 100), done(2, 200), done(3, 300)]
    h2 = [done(4, 150), done(5, 400), done(6, 250)]
    # per heat: 1 and 4; then the best of the rest: 2 (200), 6 (250): 4 in all
    assert advance(Advancement(per_heat=1, best=4), h1, h2) == [1, 4, 2, 6]
    # more per heat than best: per_heat still gives its qualifiers
    assert advance(Advancement(per_heat=2, best=3), h1, h2) == [1, 4, 2, 6]


def test_best_across_heats_with_a_tie_on_the_last_place() -> None:
    h1 = [done(1, 100), done(2, 200), counted(9, 999)]
    h2 = [done(3, 200), done(4, 300)]
    assert advance(Advancement(best=2), h1, h2) == [1, 2, 3]
    assert advance(Advancement(best=1), h1, h2) == [1]
    assert advance(Advancement(best=4), h1, h2) == [1, 2, 3, 4]
    # more places than ranked entries: every ranked one, nobody without a result
    assert advance(Advancement(best=9), h1, [done(3, 200), nothing(4)]) == [1, 2, 3, 9]


def test_top_percent_of_the_ranked_rounded_down() -> None:
    field = [done(n, 100 * n) for n in range(1, 8)]  # 7 ranked
    # 50 % of 7 = 3.5: 3; those without a result do not count in the 7
    assert advance(Advancement(top_percent=50), field, [nothing(8), nothing(9)]) == [1, 2, 3]
    assert advance(Advancement(top_percent=30), field) == [1, 2]  # 2.1: 2
    assert advance(Advancement(top_percent=100), field + [nothing(8)]) == list(range(1, 8))
    # a tie on the last place
    tied = [done(1, 100), done(2, 200), done(3, 200), done(4, 300)]
    assert advance(Advancement(top_percent=50), tied) == [1, 2, 3]


def test_better_than_every_finisher_below_the_time() -> None:
    h1 = [done(1, 100), done(2, 299), done(3, 300), done(4, 250, time_penalty=60)]
    h2 = [done(5, 200), counted(6, 500), nothing(7)]
    # below 300 by the ranking time (finish + penalties); pieces never; 300 is not below
    assert advance(Advancement(better_than=300), h1, h2) == [1, 5, 2]
    # with best: the best 2, and anyone under the time too
    assert advance(Advancement(best=2, better_than=300), h1, h2) == [1, 5, 2]
    assert advance(Advancement(best=4, better_than=150), h1, h2) == [1, 5, 2, 3]


def test_max_per_the_next_best_takes_the_place() -> None:
    country = {1: "ES", 2: "ES", 3: "FR", 4: "DE", 5: "ES", 6: None, 7: "FR"}.get
    field = [done(1, 100), done(2, 200), done(5, 250), done(3, 300), done(6, 350),
             done(4, 400), done(7, 450)]
    # at most one per country: 2 and 5 (ES) give their places to 3, 6 (no answer: no limit)
    assert advance(Advancement(best=3, max_per=1, by="country"), field,
                   group_of=country) == [1, 3, 6]
    assert advance(Advancement(best=5, max_per=2, by="country"), field,
                   group_of=country) == [1, 2, 3, 6, 4]
    # without max_per the answers change nothing
    assert advance(Advancement(best=3, by="country"), field, group_of=country) == [1, 2, 5]


def test_max_per_with_ties_on_the_last_place() -> None:
    country = {1: "ES", 2: "ES", 3: "FR", 4: "DE", 5: "FR"}.get
    # 2 (ES) and 3 (FR) tie for second; ES is full: 3 takes the place, nobody else
    field = [done(1, 100), done(2, 200), done(3, 200), done(4, 300)]
    assert advance(Advancement(best=2, max_per=1), field, group_of=country) == [1, 3]
    # 3 (FR) and 5 (FR) tie with the last taken: at most one FR all the same
    field = [done(1, 100), done(3, 200), done(5, 200), done(4, 300)]
    assert advance(Advancement(best=2, max_per=1), field, group_of=country) == [1, 3]


def test_max_per_applies_to_every_rule() -> None:
    country = {1: "ES", 2: "ES", 3: "ES", 4: "FR", 5: "FR"}.get
    h1 = [done(1, 100), done(2, 110), done(4, 300)]
    h2 = [done(3, 120), done(5, 130)]
    # per heat 2, at most 2 ES: heat 1 gives 1, 2; heat 2's best (3, ES) is over, 5 instead,
    # and the heat's third (none left)
    assert advance(Advancement(per_heat=2, max_per=2), h1, h2, group_of=country) == [1, 2, 5]
    assert advance(Advancement(better_than=200, max_per=2), h1, h2,
                   group_of=country) == [1, 2, 5]
    assert advance(Advancement(top_percent=80, max_per=1), h1, h2,
                   group_of=country) == [1, 5]


def test_max_per_counts_each_qualifier_once() -> None:
    country = {1: "ES", 2: "ES", 3: "FR"}.get
    # per heat: 1 (ES) and 3 (FR); best 3 then reads 1 again, already in: 2 is the second ES
    assert advance(Advancement(per_heat=1, best=3, max_per=2), [done(1, 100), done(2, 200)],
                   [done(3, 300)], group_of=country) == [1, 2, 3]


def test_the_rules_together_in_order() -> None:
    h1 = [done(1, 100), done(2, 200), done(3, 300), done(4, 400)]
    h2 = [done(5, 500), done(6, 600), done(7, 700), done(8, 800)]
    # per heat 1: 1, 5; best 3: then 2; top 50 % of 8 = 4 in all: then 3; better than 650:
    # 4 and 6 too
    assert advance(Advancement(per_heat=1, best=3, top_percent=50, better_than=650),
                   h1, h2) == [1, 2, 3, 4, 5, 6]


# -- the classification over rounds ---------------------------------------------------------


# -- confirming a round ----------------------------------------------------------------------


def verdict(*heats: tuple[Sequence[Competitor], bool, int | None], round_index: int = 0,
            confirmed: bool = False, category: Category = PAIRS) -> object:
    rows = heat_rankings(category, round_index, *(c for c, _, _ in heats))
    played = [PlayedHeat(r, started, elapsed)
              for r, (_, started, elapsed) in zip(rows, heats, strict=True)]
    return confirm_verdict(category, round_index, confirmed, played,
                           merged(category, round_index, rows), lambda n: None)


def test_confirming_a_round_already_confirmed() -> None:
    assert verdict(([done(1, 100)], True, 200), confirmed=True) == AllConfirmed()


def test_confirming_needs_every_heat_with_entrants_played() -> None:
    # heat 2 has entrants and no clock; an empty heat 3 never needs one
    assert verdict(([done(1, 100)], True, 200), ([nothing(2)], False, None),
                   ([], False, None)) == NotPlayed(2)


def test_confirming_waits_for_a_heat_still_played() -> None:
    # heats' limit 3600: #2 and #3 have no result and time is left; at the limit it is over
    still = ([done(1, 100), nothing(2), nothing(3)], True, 3599)
    assert verdict(still, ([done(4, 100)], True, 3599)) == StillPlayed(1, (2, 3))
    over = ([done(1, 100), nothing(2)], True, 3600)
    heats = verdict(over, ([done(4, 100)], True, 3600), ([done(5, 90)], True, 3600))
    assert heats == Confirmable((5, 1, 4), ([5, 1, 4],))  # per_heat 2: all who finished


def test_confirming_a_round_nobody_goes_through() -> None:
    assert verdict(([nothing(1)], True, 3600), ([], True, 3600),
                   ([], False, None)) == NobodyThrough()


def test_confirming_the_last_round_seats_nobody() -> None:
    assert verdict(([done(1, 100)], True, 200), round_index=2) == Confirmable((), ())


def three_rounds(final: Sequence[Competitor]) -> list[tuple[list[Competitor], set[int]]]:
    heats = [done(1, 1000), done(2, 1100), done(3, 1200), done(4, 1300), done(5, 1400),
             done(6, 1500), done(7, 1600), done(8, 1700)]
    semi = [done(1, 2100), done(2, 2000), done(3, 2300), done(4, 2200)]
    return [(heats, {1, 2, 3, 4}), (semi, {1, 2}), (list(final), set())]


def test_classification_last_round_first_then_those_out_before() -> None:
    rows = classification(PAIRS, three_rounds([done(1, 4000), done(2, 3000)]))
    assert placed(rows) == [(2, 1), (1, 2), (4, 3), (3, 4), (5, 5), (6, 6), (7, 7), (8, 8)]
    assert [r.round for r in rows] == ["final"] * 2 + ["semi"] * 2 + ["heats"] * 4
    assert [r.prize for r in rows[:4]] == ["Gold", "Silver", "Bronze", None]
    assert (rows[0].time, rows[0].finished, rows[2].time) == (3000, True, 2200)


def test_classification_a_finalist_without_a_result_takes_no_place() -> None:
    rows = classification(PAIRS, three_rounds([nothing(1), done(2, 3000)]))
    # the best semi-finalist out is second; 1 listed last, unplaced
    assert placed(rows) == [(2, 1), (4, 2), (3, 3), (5, 4), (6, 5), (7, 6), (8, 7), (1, None)]
    assert rows[-1].round == "final" and rows[-1].prize is None
    assert rows[2].prize == "Bronze"


def test_classification_while_the_last_round_is_played() -> None:
    rows = classification(PAIRS, three_rounds([nothing(1), done(2, 3000)]), final=False)
    # the finalists stay on top, their two places kept above the others
    assert placed(rows) == [(2, 1), (1, None), (4, 3), (3, 4), (5, 5), (6, 6), (7, 7), (8, 8)]
    # a round before the last: someone without a result there is still last
    rounds = three_rounds([done(1, 4000), nothing(2)])
    rounds[0] = (rounds[0][0][:-1] + [nothing(8)], rounds[0][1])
    rows = classification(PAIRS, rounds, final=False)
    assert placed(rows) == [(1, 1), (2, None), (4, 3), (3, 4), (5, 5), (6, 6), (7, 7),
                            (8, None)]
    # a semi being played (the final not reached): its entrants first, 4 still on top
    semi = [(three_rounds([])[0][0], {1, 2, 3, 4}),
            ([done(2, 2000), nothing(4), done(1, 2100), done(3, 2300)], set())]
    assert placed(classification(PAIRS, semi, final=False))[:5] == [
        (2, 1), (1, 2), (3, 3), (4, None), (5, 5)]
    # the semi confirmed as the last round played: 4 takes no place
    assert placed(classification(PAIRS, semi)) == [
        (2, 1), (1, 2), (3, 3), (5, 4), (6, 5), (7, 6), (8, 7), (4, None)]


def test_classification_unplaced_by_the_round_they_went_out_in() -> None:
    rounds = three_rounds([nothing(1), done(2, 3000)])
    rounds[0] = (rounds[0][0][:-1] + [nothing(8)], rounds[0][1])
    rows = classification(PAIRS, rounds)
    assert placed(rows)[-2:] == [(1, None), (8, None)]
    assert [r.round for r in rows[-2:]] == ["final", "heats"]


def test_classification_a_round_nobody_went_out_of() -> None:
    heats = [done(1, 1000), done(2, 1100), done(3, 1200), done(4, 1300)]
    semi = [done(1, 2000), done(2, 2100), done(3, 2200)]
    final = [done(1, 3200), done(2, 3100), done(3, 3000)]
    rows = classification(PAIRS, [(heats, {1, 2, 3}), (semi, {1, 2, 3}), (final, set())])
    assert placed(rows) == [(3, 1), (2, 2), (1, 3), (4, 4)]
    assert rows[-1].round == "heats"


def test_classification_ties_and_offsets() -> None:
    heats = [done(n, 1000 + n) for n in range(1, 7)]
    semi = [done(1, 2000), done(2, 2000), done(3, 2500), done(4, 2500)]
    final = [done(1, 3000), done(2, 3000)]
    rows = classification(PAIRS, [(heats, {1, 2, 3, 4}), (semi, {1, 2}), (final, set())])
    # the two finalists share first, the next is third; the semi's tie shares third
    assert placed(rows) == [(1, 1), (2, 1), (3, 3), (4, 3), (5, 5), (6, 6)]
    assert [r.prize for r in rows[:4]] == ["Gold", "Gold", "Bronze", "Bronze"]
    pooled = classification(PAIRS, [(heats, {1, 2, 3, 4}), (semi, {1, 2}), (final, set())],
                            shared_prizes="pooled")
    assert [r.prize for r in pooled[:4]] == ["Gold + Silver", "Gold + Silver", "Bronze",
                                             "Bronze"]
    # equal in the final, the better semi first
    final = [done(1, 3000, earlier=2100), done(2, 3000, earlier=2000)]
    rows = classification(PAIRS, [(heats, {1, 2, 3, 4}), (semi, {1, 2}), (final, set())],
                          tie_break="earlier_round")
    assert placed(rows)[:2] == [(2, 1), (1, 2)]


def test_classification_each_round_by_its_own_limit() -> None:
    heats = [done(1, 1000), done(2, 1100), done(3, 3600)]
    final = [done(1, 5400), done(2, 5000)]  # the final's limit: 5400; the heats': 3600
    cat = replace_rounds(PAIRS, "solo", (HEATS, FINAL))
    rows = classification(cat, [(heats, {1, 2}), (final, set())])
    assert placed(rows) == [(2, 1), (1, 2), (3, 3)]
    rows = classification(cat, [(heats, {1, 2}), (final, set())], limit_inclusive=False)
    assert placed(rows) == [(2, 1), (1, None), (3, None)]
    # 2's finish plus its penalties goes past the final's limit: still a finish by default
    late = [(heats, {1, 2}), ([done(1, 4000), done(2, 3000, time_penalty=2500)], set())]
    assert [(r.number, r.position, r.finished, r.time) for r in classification(cat, late)] == [
        (1, 1, True, 4000), (2, 2, True, 5500), (3, 3, True, 3600)]
    counted_out = classification(cat, late, penalised_finish_counts=False)
    assert [(r.number, r.position, r.finished) for r in counted_out] == [
        (1, 1, True), (2, 2, False), (3, 3, True)]


def test_classification_extra_prizes() -> None:
    cat = Category("solo", "Solo", 1, 1000, 7200, 0, (Slot(),), prizes=("Gold",),
                   extra_prizes=(ExtraPrize("local", "Best local", "Cup", "local"),),
                   rounds=(HEATS, FINAL))
    heats = [done(1, 1000), done(2, 1100), done(3, 1200, local=True)]
    rows = classification(cat, [(heats, {1, 2}), ([done(1, 3000), done(2, 3100)], set())])
    assert [(r.number, r.prize, r.extra_prizes) for r in rows] == [
        (1, "Gold", ()), (2, None, ()), (3, None, ("local",))]


@pytest.mark.parametrize("final", [True, False])
def test_classification_of_one_round(final: bool) -> None:
    cat = replace_rounds(PAIRS, "solo", (FINAL,))
    rows = classification(cat, [([done(2, 3000), done(1, 2000), nothing(3)], set())],
                          final=final)
    assert placed(rows) == [(1, 1), (2, 2), (3, None)]


# -- ties: the round before, and pooled prizes ------------------------------------------------


def test_earlier_round_breaks_equal_results() -> None:
    final = Heat(PAIRS, 2, 1).play
    field = [done(1, 3000), done(2, 3000, earlier=2500), done(3, 3000, earlier=2000),
             done(4, 3000, earlier=2000), done(5, 2900),
             Competitor(6, ("P6",), pieces=300, earlier=2200),
             Competitor(7, ("P7",), pieces=300, earlier=2100)]
    rows = rank(final, field, tie_break="earlier_round")
    # equal times: the better time in the round before first (none: after those with one);
    # still equal: shared; pieces likewise
    assert placed(rows) == [(5, 1), (3, 2), (4, 2), (2, 4), (1, 5), (7, 6), (6, 7)]
    assert [r.time for r in rows] == [2900, 3000, 3000, 3000, 3000, None, None]
    assert placed(rank(final, field)) == [(5, 1), (1, 2), (2, 2), (3, 2), (4, 2), (6, 6),
                                          (7, 6)]


def test_pooled_prizes_in_a_ranking() -> None:
    once = replace_rounds(PAIRS, "solo", ())
    field = [done(1, 100), done(2, 100), done(3, 200), done(4, 300)]
    assert [r.prize for r in rank(once, field, shared_prizes="pooled")] == [
        "Gold + Silver", "Gold + Silver", "Bronze", None]
    assert [r.prize for r in rank(once, field)] == ["Gold", "Gold", "Bronze", None]
    three = [done(1, 100), done(2, 100), done(3, 100), done(4, 300)]
    assert [r.prize for r in rank(once, three, shared_prizes="pooled")] == [
        "Gold + Silver + Bronze"] * 3 + [None]
    # a shared third place: only Bronze is left to share
    last = [done(1, 100), done(2, 200), done(3, 300), done(4, 300)]
    assert [r.prize for r in rank(once, last, shared_prizes="pooled")] == [
        "Gold", "Silver", "Bronze", "Bronze"]


# -- who is next in line (a round that invites) ------------------------------------------------


def line_of(rule: Advancement, *heats: Sequence[Competitor],
            group_of: Callable[[int], str | None] = lambda n: None) -> dict[int, int]:
    rows = heat_rankings(PAIRS, 0, *heats)
    ranking = merged(PAIRS, 0, rows)
    return in_line(rule, rows, ranking, group_of, qualifiers(rule, rows, ranking, group_of))


def test_in_line_follows_the_ranking_for_the_best_n() -> None:
    field = [done(1, 100), done(2, 200), done(3, 300), counted(4, 400), nothing(5)]
    # 1 and 2 invited; 3 is first in line, 4 (pieces) second; no result: in no line
    assert line_of(Advancement(best=2), field) == {3: 1, 4: 2}
    # entries tied for a place in line share its number
    tied = [done(1, 100), done(2, 200), done(3, 200), done(4, 300)]
    assert line_of(Advancement(best=1), tied) == {2: 1, 3: 1, 4: 3}


def test_in_line_with_places_per_heat_and_a_cap_per_group() -> None:
    h1 = [done(1, 100), done(2, 200), done(3, 300)]
    h2 = [done(4, 150), done(5, 250)]
    # places per heat: a line per heat, as a place given up goes to its heat's next
    assert line_of(Advancement(per_heat=1), h1, h2) == {2: 1, 3: 2, 5: 1}
    # with places across heats, one line: the lowest qualifier (4) frees its place first,
    # and its heat's 5 takes it (per heat first), then 2, then 3
    assert line_of(Advancement(per_heat=1, best=2), h1, h2) == {5: 1, 2: 2, 3: 3}
    country = {1: "ES", 2: "ES", 3: "FR", 4: "DE"}.get
    field = [done(1, 100), done(2, 200), done(3, 300), done(4, 400)]
    # at most one per country: 2 (ES) comes in only once 1 (ES) is out
    assert line_of(Advancement(best=2, max_per=1, by="country"), field,
                   group_of=country) == {4: 1, 2: 2}


def test_in_line_never_holds_who_the_rule_cannot_take() -> None:
    field = [done(1, 100), done(2, 400), counted(3, 300)]
    assert line_of(Advancement(better_than=300), field) == {}
