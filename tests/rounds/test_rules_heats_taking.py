"""A later round's heats seated from the round before (bot/domain/rounds.py; docs/rules.md,
rounds): heats that take the qualifiers of given heats of the round before (``takes``, "the
top of each library of the county"), heats chosen by a question (``heats_by``), a round
confirmed with ``max_per``, and ``/inicio`` with a venue whose heats have all started. Pure
domain, run against every mutant by ``make mutate``; every expected value is worked out by hand
from the rule."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from zoneinfo import ZoneInfo

from bot.domain.contest import Advancement, Category, HeatSchedule, Round, Slot
from bot.domain.ranking import Competitor, rank
from bot.domain.rounds import (
    AllStarted,
    Confirmable,
    Heat,
    HeatClock,
    PlayedHeat,
    StartNow,
    confirm_verdict,
    merged,
    next_heats,
    seat,
)

TZ = ZoneInfo("Europe/Madrid")
DAY = date(2027, 7, 2)
TEN = datetime(2027, 7, 2, 10, 0, tzinfo=TZ)


def rnd(rid: str, heats: int = 1, advance: Advancement | None = None,
        schedule: tuple[HeatSchedule, ...] = (), heats_by: str | None = None,
        choices: tuple[str, ...] = ()) -> Round:
    return Round(rid, {"en": rid}, DAY, TEN, 500, 3600, heats=heats, advance=advance,
                 schedule=schedule, heats_by=heats_by, heat_choices=choices)


# the second round's heat 1 takes the qualifiers of heats 1 and 2, its heat 2 those of heat 3
TAKING = rnd("county", 2, Advancement(best=2),
             schedule=(HeatSchedule(DAY, TEN, takes=(1, 2)), HeatSchedule(DAY, TEN, takes=(3,))))
BY_VENUE = rnd("county", 2, Advancement(best=2), heats_by="venue", choices=("north", "south"))
FINAL = rnd("final")


def category(first: Round, second: Round) -> Category:
    return Category("teams", "Teams", 1, 500, 3600, 0, (Slot(),), rounds=(first, second, FINAL))


LIBRARIES = category(rnd("libraries", 3, Advancement(best=4)), TAKING)


def test_each_heat_takes_the_qualifiers_of_its_heats_before() -> None:
    came = {4: 2, 1: 1, 7: 3, 2: 1, 9: 4}.get  # 9 came from a heat nobody takes
    # each heat seated as a later round's, best first
    assert seat(LIBRARIES, 1, [4, 1, 7, 2, 9], came_from=came) == [[4, 1, 2], [7]]
    # without where they came from, the round's own rule over its two heats
    assert seat(LIBRARIES, 1, [4, 1, 7, 2]) == [[4, 2], [1, 7]]


def test_one_heat_taking_from_several() -> None:
    one = category(rnd("libraries", 3, Advancement(best=4)),
                   rnd("county", 1, Advancement(best=2),
                       schedule=(HeatSchedule(DAY, TEN, takes=(1, 3)),)))
    assert seat(one, 1, [4, 1, 7, 2], came_from={4: 2, 1: 1, 7: 3, 2: 1}.get) == [[1, 7, 2]]


def played(category: Category, *heats: Sequence[Competitor]) -> tuple[list[PlayedHeat], list]:
    rows = [rank(Heat(category, 0, h).play, list(c)) for h, c in enumerate(heats, 1)]
    return [PlayedHeat(r, True, 3600) for r in rows], merged(category, 0, rows)


def done(number: int, finish: int) -> Competitor:
    return Competitor(number, (f"P{number}",), finish=finish)


# heat 1: #1 1000, #2 1100, #3 1500; heat 2: #4 900, #5 1200; heat 3: #6 1300, #7 1050.
# The round's ranking: 4, 1, 7, 2, 5, 6, 3; the best 4 are 4, 1, 7, 2.
HEATS = ([done(1, 1000), done(2, 1100), done(3, 1500)], [done(4, 900), done(5, 1200)],
         [done(6, 1300), done(7, 1050)])


def test_a_round_confirmed_seats_the_next_one_by_the_heats_taken() -> None:
    heats, ranking = played(LIBRARIES, *HEATS)
    assert confirm_verdict(LIBRARIES, 0, False, heats, ranking, lambda n: None) == Confirmable(
        (4, 1, 7, 2), ([4, 1, 2], [7]))


def test_a_round_confirmed_seats_the_next_one_by_the_answers() -> None:
    venues = category(rnd("libraries", 3, Advancement(best=4)), BY_VENUE)
    heats, ranking = played(venues, *HEATS)
    answer = {4: "south", 1: "North", 7: "north", 2: "south"}.get
    assert confirm_verdict(venues, 0, False, heats, ranking, lambda n: None,
                           answer) == Confirmable((4, 1, 7, 2), ([1, 7], [4, 2]))


def test_a_round_confirmed_with_at_most_one_per_club() -> None:
    capped = category(rnd("libraries", 3, Advancement(best=2, max_per=1, by="club")), TAKING)
    heats, ranking = played(capped, *HEATS)
    club = {1: "A", 4: "A", 7: "B", 2: "B", 3: "C", 5: "C", 6: "C"}.get
    # 4 (A) first; 1 (A) over the cap; 7 (B)
    assert confirm_verdict(capped, 0, False, heats, ranking, club) == Confirmable(
        (4, 7), ([4], [7]))


def test_a_venue_all_started_and_the_next_one_to_start() -> None:
    two = rnd("heats", 3, schedule=(HeatSchedule(DAY, TEN, "Hall A"),
                                    HeatSchedule(DAY, TEN, "Hall B"),
                                    HeatSchedule(DAY, TEN, "Hall C")))
    clocks = [HeatClock(1, started=True), HeatClock(2), HeatClock(3, started=True, running=True)]
    assert next_heats(two, clocks, TEN, DAY) == [AllStarted(1), StartNow(2), AllStarted(3)]
