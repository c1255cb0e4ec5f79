"""What an entry's confirmation card says about when and where it plays first
(bot/features/registration/rules.py: ``outing``; docs/rules.md "What an entry is told with its
place (the confirmation card)"): the contest's day, start and venue for a category without
rounds; the window to play for a category played at home (self-timed), breaks added; in a
contest in rounds, the first round's heat the entry chose at registration (``heats_by``) with
its own day, start and venue, else the round's first heat and heat 0 (still to be drawn).

Pure, run against every mutant by ``make mutate``; every expected value is worked out by hand
from the contest files."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

from bot.domain.contest import Break, Category, Contest, HeatSchedule, Round
from bot.features.registration.rules import Outing, outing
from bot.services.contest_file import load_contest
from tests.conftest import ROOT

CONTESTS = ROOT / "contests"
CASTRILLO = load_contest(CONTESTS / "castrillo-2023.toml")
BILLOM = load_contest(CONTESTS / "billom-2012.toml")
HOME = load_contest(CONTESTS / "home-cup-2026.toml")  # self-timed, 19:00 London
LEAGUE = load_contest(CONTESTS / "online-league-2026.toml")  # self-timed, 4 weeks
LIBRARY = load_contest(CONTESTS / "library-series-2024.toml")  # heats_by = "library"
CHAMPIONSHIP = load_contest(CONTESTS / "championship-2027.toml")

MADRID = ZoneInfo("Europe/Madrid")
PARIS = ZoneInfo("Europe/Paris")
LONDON = ZoneInfo("Europe/London")
BERLIN = ZoneInfo("Europe/Berlin")
CHICAGO = ZoneInfo("America/Chicago")


# --- a category without rounds: the contest day ----------------------------------------------


def test_a_category_at_the_hall_plays_on_the_contest_day_at_its_start_and_venue() -> None:
    adults = CASTRILLO.category("adultos")
    assert not adults.self_timed and not adults.rounds
    assert outing(CASTRILLO, adults, None) == Outing(
        date(2023, 4, 22), datetime(2023, 4, 22, 10, tzinfo=MADRID),
        "Frontón cubierto, C/ La Tejera s/n, Castrillo de la Vega (Burgos)", None, None)
    # a choice means nothing without rounds: no heat (None, not 0)
    out = outing(CASTRILLO, adults, "ES")
    assert out.heat is None and out.ends is None
    # Billom has a break, but its categories are played at the hall: no window to play
    junior = BILLOM.categories[0]
    assert BILLOM.breaks and not junior.self_timed
    assert outing(BILLOM, junior, None) == Outing(
        date(2012, 3, 10), datetime(2012, 3, 10, 14, tzinfo=PARIS),
        "Salle de Tinlhat, Billom (Puy-de-Dôme)", None, None)


def test_a_category_without_an_hour_or_a_venue_says_only_the_day() -> None:
    adults = CASTRILLO.category("adultos")
    bare = replace(CASTRILLO, start=None, venue="")
    assert outing(bare, adults, None) == Outing(date(2023, 4, 22), None, "", None, None)


# --- a category played at home: the window to play -------------------------------------------


def test_a_home_category_is_told_the_window_to_play_its_time_limit_long() -> None:
    solo, pairs = HOME.category("solo"), HOME.category("pairs")
    assert solo.self_timed and pairs.self_timed
    start = datetime(2026, 11, 14, 19, tzinfo=LONDON)
    # solo: 2 hours from 19:00; pairs: 3 hours
    assert outing(HOME, solo, None) == Outing(
        date(2026, 11, 14), start, "At home, on the video call",
        datetime(2026, 11, 14, 21, tzinfo=LONDON), None)
    assert outing(HOME, pairs, None) == Outing(
        date(2026, 11, 14), start, "At home, on the video call",
        datetime(2026, 11, 14, 22, tzinfo=LONDON), None)


def test_a_window_of_weeks_ends_at_the_hour_it_began_across_the_change_of_time() -> None:
    solo = LEAGUE.category("solo")
    assert solo.self_timed and solo.time_limit == 28 * 86400
    # from Saturday 3 October 10:00 (summer time) to Saturday 31 October 10:00 (winter time)
    assert outing(LEAGUE, solo, None) == Outing(
        date(2026, 10, 3), datetime(2026, 10, 3, 10, tzinfo=BERLIN), "At home",
        datetime(2026, 10, 31, 10, tzinfo=BERLIN), None)


def test_the_breaks_within_the_window_are_added_to_it() -> None:
    solo = HOME.category("solo")
    breaks = (
        Break(datetime(2026, 11, 14, 18, tzinfo=LONDON),  # before the start: not added
              datetime(2026, 11, 14, 18, 30, tzinfo=LONDON)),
        Break(datetime(2026, 11, 14, 20, tzinfo=LONDON),  # within: 15 minutes more
              datetime(2026, 11, 14, 20, 15, tzinfo=LONDON)),
        Break(datetime(2026, 11, 14, 22, tzinfo=LONDON),  # after the end: not added
              datetime(2026, 11, 14, 23, tzinfo=LONDON)),
    )
    out = outing(replace(HOME, breaks=breaks), solo, None)
    assert out.ends == datetime(2026, 11, 14, 21, 15, tzinfo=LONDON)
    assert out.start == datetime(2026, 11, 14, 19, tzinfo=LONDON)
    # a break from the window's first minute is within it; one from its last is not
    at_start = Break(datetime(2026, 11, 14, 19, tzinfo=LONDON),
                     datetime(2026, 11, 14, 19, 10, tzinfo=LONDON))
    at_end = Break(datetime(2026, 11, 14, 21, tzinfo=LONDON),
                   datetime(2026, 11, 14, 21, 30, tzinfo=LONDON))
    assert outing(replace(HOME, breaks=(at_start,)), solo, None).ends == \
        datetime(2026, 11, 14, 21, 10, tzinfo=LONDON)
    assert outing(replace(HOME, breaks=(at_end,)), solo, None).ends == \
        datetime(2026, 11, 14, 21, tzinfo=LONDON)


def test_no_window_without_a_start_nor_for_a_category_at_the_hall() -> None:
    solo = HOME.category("solo")
    # no hour in the file: the day only, and no window (it would have no beginning)
    assert outing(replace(HOME, start=None), solo, None) == Outing(
        date(2026, 11, 14), None, "At home, on the video call", None, None)
    # the same category played at the hall, with a start: no window
    hall = replace(solo, self_timed=False)
    assert outing(HOME, hall, None) == Outing(
        date(2026, 11, 14), datetime(2026, 11, 14, 19, tzinfo=LONDON),
        "At home, on the video call", None, None)


# --- a category in rounds: the first round's heat --------------------------------------------


@pytest.mark.parametrize("choice,day,hour,venue,heat", [
    ("fitchburg", date(2024, 8, 15), 18, "Fitchburg Library", 1),
    ("oregon", date(2024, 8, 22), 18, "Oregon Library", 2),
    ("baraboo", date(2024, 9, 5), 18, "Baraboo Library", 3),
    ("reedsburg", date(2024, 10, 5), 10, "Reedsburg Library", 4),
    ("Oregon", date(2024, 8, 22), 18, "Oregon Library", 2),  # an answer in any case
    ("REEDSBURG", date(2024, 10, 5), 10, "Reedsburg Library", 4),
])
def test_the_heat_chosen_at_registration_has_its_own_day_start_and_venue(
        choice: str, day: date, hour: int, venue: str, heat: int) -> None:
    teams = LIBRARY.category("teams")
    assert outing(LIBRARY, teams, choice) == Outing(
        day, datetime(day.year, day.month, day.day, hour, tzinfo=CHICAGO), venue, None, heat)


def test_a_qualifier_chosen_at_registration_in_a_contest_with_a_start_of_its_own() -> None:
    teams = CHAMPIONSHIP.category("teams")
    # the heat's day, start and venue, not the contest's (1 July, 10:00, Valladolid's hall)
    assert outing(CHAMPIONSHIP, teams, "porto") == Outing(
        date(2027, 7, 1), datetime(2027, 7, 1, 11, tzinfo=MADRID), "Porto", None, 1)
    assert outing(CHAMPIONSHIP, teams, "valladolid") == Outing(
        date(2027, 7, 2), datetime(2027, 7, 2, 9, tzinfo=MADRID), "Valladolid", None, 2)


@pytest.mark.parametrize("choice", [None, "madison", "", "fitch"])
def test_a_heat_not_known_yet_is_heat_0_from_the_first_heat(choice: str | None) -> None:
    teams = LIBRARY.category("teams")
    # no answer, or one that names no heat: the first heat's day, start and venue, heat 0
    assert outing(LIBRARY, teams, choice) == Outing(
        date(2024, 8, 15), datetime(2024, 8, 15, 18, tzinfo=CHICAGO), "Fitchburg Library",
        None, 0)


def test_a_first_round_drawn_in_heats_is_heat_0_at_the_rounds_day_and_the_contests_venue() -> None:
    solo, pairs = CHAMPIONSHIP.category("solo"), CHAMPIONSHIP.category("pairs")
    hall = "Palacio de Congresos, Valladolid"
    # 3 heats drawn: the round's start (its first heat's), heat still to be drawn
    assert outing(CHAMPIONSHIP, solo, None) == Outing(
        date(2027, 7, 1), datetime(2027, 7, 1, 10, tzinfo=MADRID), hall, None, 0)
    # an answer to another question (the country) does not choose a heat
    assert outing(CHAMPIONSHIP, solo, "ES") == Outing(
        date(2027, 7, 1), datetime(2027, 7, 1, 10, tzinfo=MADRID), hall, None, 0)
    # the first round (heats at 15:00 on 1 July), not the final (3 July)
    assert outing(CHAMPIONSHIP, pairs, None) == Outing(
        date(2027, 7, 1), datetime(2027, 7, 1, 15, tzinfo=MADRID), hall, None, 0)


def test_a_category_in_rounds_takes_neither_the_contests_day_nor_its_start() -> None:
    teams = LIBRARY.category("teams")
    # the contest's first day (1 August) and a start of the contest are not the heat's
    moved = replace(LIBRARY, start=datetime(2024, 8, 1, 9, tzinfo=CHICAGO))
    assert outing(moved, teams, "baraboo") == Outing(
        date(2024, 9, 5), datetime(2024, 9, 5, 18, tzinfo=CHICAGO), "Baraboo Library", None, 3)


# --- hand-built rounds: the edges ------------------------------------------------------------


PLAIN = Category(id="c", name="C", members=1, pieces=500, time_limit=3600, fee=0, slots=())
CONTEST = Contest(name="X", date=date(2030, 5, 1), timezone="Europe/Madrid",
                  categories=(PLAIN,), venue="Town hall",
                  start=datetime(2030, 5, 1, 9, tzinfo=MADRID))


def one_round(**kw: object) -> Category:
    rnd = Round(id="r1", name={"en": "Round 1"}, date=date(2030, 5, 2), start=None,
                pieces=500, time_limit=3600)
    final = Round(id="final", name={"en": "Final"}, date=date(2030, 5, 9),
                  start=datetime(2030, 5, 9, 17, tzinfo=MADRID), pieces=500, time_limit=3600,
                  schedule=(HeatSchedule(date(2030, 5, 9), datetime(2030, 5, 9, 17, tzinfo=MADRID),
                                         "Stadium"),))
    return replace(PLAIN, rounds=(replace(rnd, **kw), final))


def test_a_first_round_without_an_hour_gives_its_day_only() -> None:
    # the round's day, no hour (not the contest's 9:00), the contest's venue; heat 0
    assert outing(CONTEST, one_round(), None) == Outing(date(2030, 5, 2), None, "Town hall",
                                                         None, 0)


def test_a_heat_without_a_venue_is_played_at_the_contests() -> None:
    heats = (HeatSchedule(date(2030, 5, 2), datetime(2030, 5, 2, 10, tzinfo=MADRID), ""),
             HeatSchedule(date(2030, 5, 3), datetime(2030, 5, 3, 11, tzinfo=MADRID), "Library"))
    cat = one_round(heats=2, heats_by="where", heat_choices=("a", "b"), schedule=heats)
    assert outing(CONTEST, cat, "a") == Outing(
        date(2030, 5, 2), datetime(2030, 5, 2, 10, tzinfo=MADRID), "Town hall", None, 1)
    assert outing(CONTEST, cat, "b") == Outing(
        date(2030, 5, 3), datetime(2030, 5, 3, 11, tzinfo=MADRID), "Library", None, 2)
    # a contest without a venue either: none
    assert outing(replace(CONTEST, venue=""), cat, "a").venue == ""


def test_only_the_rounds_heats_are_chosen() -> None:
    # a third choice for a round of two heats names no heat of it: still to be known
    heats = (HeatSchedule(date(2030, 5, 2), None, "North"),
             HeatSchedule(date(2030, 5, 3), None, "South"))
    cat = one_round(heats=2, heats_by="where", heat_choices=("n", "s", "e"), schedule=heats)
    assert outing(CONTEST, cat, "e") == Outing(date(2030, 5, 2), None, "North", None, 0)
    assert outing(CONTEST, cat, "s") == Outing(date(2030, 5, 3), None, "South", None, 2)


def test_a_round_not_split_by_a_question_chooses_no_heat_by_an_answer() -> None:
    # choices listed, but no heats_by question: an answer names no heat, which is drawn
    heats = (HeatSchedule(date(2030, 5, 2), None, "North"),
             HeatSchedule(date(2030, 5, 3), None, "South"))
    cat = one_round(heats=2, heat_choices=("n", "s"), schedule=heats)
    assert outing(CONTEST, cat, "s") == Outing(date(2030, 5, 2), None, "North", None, 0)


def test_a_round_played_at_home_is_told_the_window_to_play_its_heat() -> None:
    """Found by the pure tests (issue 47): a self-timed category in rounds got no window on
    its card, where docs/rules.md says a home category is told "the window to play". The first
    round's heat at 18:00 with an hour to play, so the window closes at 19:00; at the hall,
    none."""
    rnd = Round(id="r1", name={"en": "Round 1"}, date=date(2030, 5, 2),
                start=datetime(2030, 5, 2, 18, tzinfo=MADRID), pieces=500, time_limit=3600)
    home = replace(PLAIN, self_timed=True, rounds=(rnd,))
    assert outing(CONTEST, home, None) == Outing(
        date(2030, 5, 2), datetime(2030, 5, 2, 18, tzinfo=MADRID), "Town hall",
        datetime(2030, 5, 2, 19, tzinfo=MADRID), 0)
    assert outing(CONTEST, replace(home, self_timed=False), None).ends is None
    no_hour = replace(home, rounds=(replace(rnd, start=None),))
    assert outing(CONTEST, no_hour, None).ends is None
