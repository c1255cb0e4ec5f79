"""Contest files (TOML): the shipped examples load as RULES.md says, bad files are one clear error.

``python -m bot check-contest FILE`` prints a summary and exits 0, or prints one line
``error: <path>: <key>: <problem>`` on stderr and exits 2, never a traceback.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.domain.contest import (
    Break,
    Contest,
    Discount,
    EscapeRules,
    ExtraPrize,
    Meal,
    ReservedQuota,
    Slot,
)
from bot.services.contest_file import ContestFileError, load_contest
from tests.clirun import bot_main, bot_process

ROOT = Path(__file__).resolve().parents[2]
CASTRILLO = ROOT / "contests" / "castrillo-2023.toml"
BILLOM = ROOT / "contests" / "billom-2012.toml"
MADRID = ZoneInfo("Europe/Madrid")
PARIS = ZoneInfo("Europe/Paris")

# The smallest useful contest file: a third contest needs nothing more than this.
MINIMAL = """\
[contest]
name = "Minimal"
date = 2024-05-01
timezone = "Europe/Paris"

[[categories]]
id = "solo"
name = "Solo"
members = 1
pieces = 500
time_limit = "2:00:00"
fee = 10
"""


def run_cli(path: Path | str, process: bool = False) -> subprocess.CompletedProcess[str]:
    """``python -m bot check-contest PATH``, in this process (tests/clirun.py), or with
    ``process`` as a real child process."""
    if process:
        return bot_process(["check-contest", str(path)], os.environ)
    return bot_main(["check-contest", str(path)], os.environ)


def edit(text: str, old: str, new: str) -> str:
    """Replace ``old`` (which must occur exactly once) by ``new``."""
    assert text.count(old) == 1, f"{old!r} should occur once in the base file"
    return text.replace(old, new)


# --- 1. The shipped files load with RULES.md's numbers ------------------------------------------


def test_castrillo_contest_level(castrillo: Contest):
    assert castrillo.name == "II Concurso + Que Puzzles de Castrillo de la Vega"
    assert castrillo.date == date(2023, 4, 22)
    assert castrillo.timezone == "Europe/Madrid"
    assert castrillo.language == "es"
    assert castrillo.currency == "EUR"
    assert castrillo.limit_inclusive is True
    assert castrillo.breaks == ()
    assert castrillo.results_at is None
    assert [c.id for c in castrillo.categories] == [
        "infantil-a",
        "infantil-b",
        "infantil-c",
        "adultos",
        "parejas",
    ]
    reg = castrillo.registration
    assert reg.opens is None
    assert reg.closes == datetime(2023, 4, 22, tzinfo=MADRID)
    assert reg.priority == "registration"
    assert reg.payment_required is False
    assert reg.shared_capacity is None


@dataclass(frozen=True)
class Expected:
    members: int
    slots: tuple[Slot, ...]
    pieces: int
    time_limit: int  # seconds
    capacity: int | None
    fee: int  # cents
    escape: bool = False


CASTRILLO_CATEGORIES = {
    "infantil-a": Expected(1, (Slot(born_from=2017, born_to=2019),), 100, 7200, 10, 1000),
    "infantil-b": Expected(1, (Slot(born_from=2014, born_to=2016),), 200, 7200, 10, 1000),
    "infantil-c": Expected(1, (Slot(born_from=2011, born_to=2013),), 300, 7200, 10, 1000),
    "adultos": Expected(1, (Slot(born_to=2010),), 500, 9000, 60, 1500),
    "parejas": Expected(2, (Slot(born_to=2010), Slot()), 500, 10800, 50, 2000, escape=True),
}

BILLOM_CATEGORIES = {
    "junior": Expected(2, (Slot(max_age=11), Slot(max_age=11)), 250, 9000, None, 1000),
    "mixte": Expected(2, (Slot(max_age=11), Slot(min_age=18)), 350, 9000, None, 1200),
    "adulte": Expected(2, (Slot(min_age=12), Slot(min_age=12)), 500, 9000, None, 1400),
    "expert": Expected(2, (Slot(min_age=12), Slot(min_age=12)), 1000, 9000, None, 1600),
}


def _check_category(contest: Contest, cid: str, want: Expected) -> None:
    cat = contest.category(cid)
    assert cat is not None
    got = Expected(
        members=cat.members,
        slots=cat.slots,
        pieces=cat.pieces,
        time_limit=cat.time_limit,
        capacity=cat.capacity,
        fee=cat.fee,
        escape=cat.escape,
    )
    assert got == want


@pytest.mark.parametrize("cid", list(CASTRILLO_CATEGORIES))
def test_castrillo_category(castrillo: Contest, cid: str):
    _check_category(castrillo, cid, CASTRILLO_CATEGORIES[cid])


@pytest.mark.parametrize("cid", list(BILLOM_CATEGORIES))
def test_billom_category(billom: Contest, cid: str):
    _check_category(billom, cid, BILLOM_CATEGORIES[cid])


def test_castrillo_only_pairs_have_reserved_places_and_extra_prize(castrillo: Contest):
    for cat in castrillo.categories:
        if cat.id != "parejas":
            assert cat.reserved == () and cat.extra_prizes == ()
            assert len(cat.prizes) == 3


def test_castrillo_pairs_reserve_10_local_places_until_15_april_madrid(castrillo: Contest):
    pairs = castrillo.category("parejas")
    assert pairs is not None
    assert pairs.reserved == (
        ReservedQuota(places=10, for_kind="local", until=datetime(2023, 4, 15, tzinfo=MADRID)),
    )
    until = pairs.reserved[0].until
    assert until.tzinfo == MADRID
    # CEST (UTC+2) in April: midnight in Madrid is 22:00 UTC the day before.
    assert until == datetime(2023, 4, 14, 22, 0, tzinfo=UTC)


def test_castrillo_pairs_best_local_extra_prize(castrillo: Contest):
    pairs = castrillo.category("parejas")
    assert pairs is not None
    assert pairs.extra_prizes == (
        ExtraPrize(
            id="best_local",
            name="Mejor pareja local",
            prize="Dos trofeos y dos puzzles de 1.000 piezas",
            among="local",
            cumulative=True,
        ),
    )
    assert castrillo.local_if_any == ("resident",)


def test_castrillo_discount_and_meal(castrillo: Contest):
    assert [q.id for q in castrillo.questions] == ["aepuzz_member", "resident"]
    assert all(set(q.text) == {"es", "fr", "en"} for q in castrillo.questions)
    assert castrillo.discount == Discount(amount=500, any_of=("aepuzz_member", "resident"))
    assert castrillo.meal == Meal(adult=1200, child=1000)


def test_castrillo_escape_rules(castrillo: Contest):
    assert castrillo.escape == EscapeRules(
        stages=5,
        initial_tickets=11,
        hint_cost=1,
        solution_cost=2,
        cooldown=300,
        ticket_value=180,
        time_limit=5400,
        cap_solved=10,
        caps_by_stage=(0, 2, 4, 6, 8),
        hint_ticket_penalty=600,
        solution_ticket_penalty=1200,
        confirmation_grace=900,
    )


def test_billom_contest_level(billom: Contest):
    assert billom.date == date(2012, 3, 10)
    assert billom.timezone == "Europe/Paris"
    assert billom.language == "fr"
    assert [c.id for c in billom.categories] == ["junior", "mixte", "adulte", "expert"]
    assert billom.escape is None
    assert billom.discount is None
    assert billom.meal is None
    assert billom.local_if_any == ()
    assert billom.results_at == datetime(2012, 3, 10, 17, 15, tzinfo=PARIS)
    for cat in billom.categories:
        assert cat.checks_age
        assert cat.reserved == () and cat.extra_prizes == () and cat.prizes == ()


def test_billom_registration(billom: Contest):
    reg = billom.registration
    assert reg.shared_capacity == 30
    assert reg.priority == "payment"
    assert reg.payment_required is True
    assert reg.opens == datetime(2012, 1, 23, 0, 0, tzinfo=PARIS)
    assert reg.closes == datetime(2012, 3, 2, 0, 0, tzinfo=PARIS)
    # CET (UTC+1) in winter.
    assert reg.closes == datetime(2012, 3, 1, 23, 0, tzinfo=UTC)
    assert reg.withdrawal_refund_until == reg.closes


def test_billom_one_break_15_15_to_15_30_paris(billom: Contest):
    assert billom.breaks == (
        Break(
            start=datetime(2012, 3, 10, 15, 15, tzinfo=PARIS),
            end=datetime(2012, 3, 10, 15, 30, tzinfo=PARIS),
        ),
    )
    assert billom.breaks[0].start == datetime(2012, 3, 10, 14, 15, tzinfo=UTC)


def test_minimal_file_loads_with_defaults(tmp_path: Path):
    path = tmp_path / "minimal.toml"
    path.write_text(MINIMAL, encoding="utf-8")
    contest = load_contest(path)
    assert contest.language == "es"
    assert contest.escape is None and contest.discount is None and contest.meal is None
    (cat,) = contest.categories
    assert (cat.id, cat.members, cat.slots, cat.capacity, cat.fee) == (
        "solo",
        1,
        (Slot(),),
        None,
        1000,
    )
    assert load_contest(str(path)) == contest


# --- 2. The command line on the shipped files ------------------------------------------------


SUMMARY_FRAGMENTS = {
    "castrillo": (
        CASTRILLO,
        [
            "II Concurso + Que Puzzles de Castrillo de la Vega",
            "time zone Europe/Madrid",
            "born 2017-2019",
            "born 2010 or earlier; anyone",
            "100 pieces",
            "limit 2:00:00, 10 places, fee 10 €",
            "limit 2:30:00, 60 places, fee 15 €",
            "limit 3:00:00, 50 places, fee 20 €, escape stage",
            "10 places kept for local entries until 2023-04-15 00:00",
            "Mejor pareja local (local)",
            "Discount: 5 € per member who answers yes to aepuzz_member or resident",
            "Meal: 12 € per adult, 10 € per child",
            "Escape: 5 stages, 11 tickets, hint 1 / solution 2 ticket(s)",
            "0:05:00 between requests, ends at 1:30:00",
            "unused ticket worth 0:03:00, cap 10 if solved",
            "[0, 2, 4, 6, 8]",
            "+0:10:00 (hint) / +0:20:00 (solution)",
        ],
    ),
    "billom": (
        BILLOM,
        [
            "time zone Europe/Paris",
            "opens 2012-01-23 00:00, closes 2012-03-02 00:00",
            "by payment date then registration date; 30 places in all",
            "Break: 15:15-15:30",
            "under 12 on the day; aged 18+ on the day",
            "250 pieces",
            "1000 pieces, limit 2:30:00, no own limit, fee 16 €",
            "Results announced at 17:15",
        ],
    ),
}


@pytest.mark.parametrize("name", list(SUMMARY_FRAGMENTS))
def test_cli_check_contest_prints_summary(name: str):
    path, fragments = SUMMARY_FRAGMENTS[name]
    # the first as a real process: nothing else on its stderr, its exit status
    result = run_cli(path, process=name == next(iter(SUMMARY_FRAGMENTS)))
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    missing = [f for f in fragments if f not in result.stdout]
    assert not missing, result.stdout


# --- 3. Bad files ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Bad:
    key: str  # ContestFileError.key ("" for a file that can't be read or parsed)
    text: Callable[[], str] | None  # makes the file content; None: the file does not exist
    problem: str  # a fragment of the problem text


def castrillo_with(old: str, new: str) -> Callable[[], str]:
    return lambda: edit(CASTRILLO.read_text(encoding="utf-8"), old, new)


def minimal_with(old: str, new: str) -> Callable[[], str]:
    return lambda: edit(MINIMAL, old, new)


BAD = {
    "unknown-top-level-key": Bad(
        "organiser",
        lambda: 'organiser = "Aepuzz"\n' + CASTRILLO.read_text(encoding="utf-8"),
        "unknown key",
    ),
    "unknown-seating": Bad(
        "contest.seating",
        castrillo_with('start = "10:00"\n', 'start = "10:00"\nseating = "random"\n'),
        'must be "categories" or "numbers", not \'random\'',
    ),
    "unknown-key-in-category": Bad(
        "categories[4].colour",
        castrillo_with('id = "adultos"\n', 'id = "adultos"\ncolour = "red"\n'),
        "unknown key",
    ),
    "unknown-key-in-reserved-quota": Bad(
        "categories[5].reserved[1].kind",
        castrillo_with("places = 10\n", "places = 10\nkind = 1\n"),
        "unknown key",
    ),
    "pieces-is-text": Bad(
        "categories[4].pieces",
        castrillo_with(
            'pieces = 500\ntime_limit = "2:30:00"', 'pieces = "lots"\ntime_limit = "2:30:00"'
        ),
        "must be a whole number, not the text 'lots'",
    ),
    "pieces-is-bool": Bad(
        "categories[1].pieces", minimal_with("pieces = 500", "pieces = true"), "whole number"
    ),
    "until-not-a-date": Bad(
        "categories[5].reserved[1].until",
        castrillo_with("\nuntil = 2023-04-15T00:00:00", '\nuntil = "next tuesday"'),
        "'next tuesday'",
    ),
    "caps-by-stage-too-short": Bad(
        "escape.caps_by_stage",
        castrillo_with("caps_by_stage = [0, 2, 4, 6, 8]", "caps_by_stage = [0, 2, 4, 6]"),
        "has 4 values but there are 5 stages",
    ),
    "unknown-time-zone": Bad(
        "contest.timezone",
        castrillo_with('timezone = "Europe/Madrid"', 'timezone = "Europe/Castrillo"'),
        "unknown time zone 'Europe/Castrillo'",
    ),
    "time-zone-is-a-folder": Bad(
        "contest.timezone",
        minimal_with('timezone = "Europe/Paris"', 'timezone = "Europe"'),
        "unknown time zone 'Europe'",
    ),
    "duration-90-minutes": Bad(
        "escape.time_limit",
        castrillo_with('time_limit = "1:30:00"', 'time_limit = "90 minutes"'),
        "'90 minutes'",
    ),
    "slots-count-not-members": Bad(
        "categories[5].slots",
        castrillo_with("slots = [{ born_to = 2010 }, {}]", "slots = [{ born_to = 2010 }]"),
        "has 1 entries but the category has 2 members",
    ),
    "invalid-toml": Bad("", castrillo_with("[meal]", "[meal"), "is not valid TOML"),
    "missing-file": Bad("", None, "cannot be read"),
    "discount-unknown-question": Bad(
        "discount.any_of[2]",
        castrillo_with(
            'any_of = ["aepuzz_member", "resident"]', 'any_of = ["aepuzz_member", "jubilado"]'
        ),
        "names no question: 'jubilado'",
    ),
    "fee-not-a-number": Bad(
        "categories[1].fee", minimal_with("fee = 10", "fee = nan"), "amount of money"
    ),
    "fee-infinite": Bad(
        "categories[1].fee", minimal_with("fee = 10", "fee = inf"), "amount of money"
    ),
    "members-absurd": Bad(
        "categories[1].members",
        minimal_with("members = 1", "members = 9223372036854775807"),
        "must be at most",
    ),
    "unknown-key-with-newline": Bad(
        "contest.'bad\\nkey'",
        minimal_with('name = "Minimal"\n', 'name = "Minimal"\n"bad\\nkey" = 1\n'),
        "unknown key",
    ),
}


def write_bad(tmp_path: Path, case: Bad) -> Path:
    path = tmp_path / "contest.toml"
    if case.text is not None:
        path.write_text(case.text(), encoding="utf-8")
    return path


@pytest.mark.parametrize("name", list(BAD))
def test_load_contest_raises_contest_file_error_with_key(tmp_path: Path, name: str):
    case = BAD[name]
    path = write_bad(tmp_path, case)
    with pytest.raises(ContestFileError) as info:
        load_contest(path)
    err = info.value
    assert err.key == case.key
    assert err.path == str(path)
    assert case.problem in err.problem
    where = f"{path}: {case.key}: " if case.key else f"{path}: "
    assert str(err) == where + err.problem


@pytest.mark.parametrize("name", list(BAD))
def test_cli_reports_bad_file_on_one_line_exit_2(tmp_path: Path, name: str):
    case = BAD[name]
    path = write_bad(tmp_path, case)
    result = run_cli(path, process=name == next(iter(BAD)))  # the first as a real process
    assert "Traceback" not in result.stdout + result.stderr
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert result.stderr == lines[0] + "\n"
    line = lines[0]
    assert line.startswith("error: ")
    assert str(path) in line
    where = f"error: {path}: {case.key}: " if case.key else f"error: {path}: "
    assert line.startswith(where), line
    assert case.problem in line


def test_error_without_key_has_no_empty_key_part():
    err = ContestFileError("x.toml", "", "cannot be read (No such file or directory)")
    assert str(err) == "x.toml: cannot be read (No such file or directory)"
    assert (err.path, err.key) == ("x.toml", "")


def test_a_round_plays_the_categorys_puzzles_in_the_order_the_category_says(tmp_path: Path):
    """Issue 48: once a category had rounds, its ``puzzle_order = "any"`` (and ``play``) was
    dropped silently: the rounds played the fixed order while check-contest said "any". A
    round playing the category's puzzles now plays them as the category says, unless it says
    otherwise itself."""
    order = 'pieces = 1500\npuzzles = [1000, 500]\npuzzle_order = "any"\n'
    rounds = ('\n[[categories.rounds]]\nid = "heats"\nname = "Heats"\nheats = 2\n'
              'advance = { best = 2 }\n\n[[categories.rounds]]\nid = "final"\nname = "Final"\n')
    path = tmp_path / "contest.toml"
    path.write_text(edit(MINIMAL, "pieces = 500\n", order) + rounds, encoding="utf-8")
    solo = load_contest(path).categories[0]
    assert solo.puzzle_order == "any"
    assert [(r.puzzles, r.puzzle_order) for r in solo.rounds] == [
        ((1000, 500), "any"), ((1000, 500), "any")]
    # a round that says otherwise keeps its own
    path.write_text(edit(MINIMAL, "pieces = 500\n", order) + rounds + 'puzzle_order = "fixed"\n',
                    encoding="utf-8")
    assert [r.puzzle_order for r in load_contest(path).categories[0].rounds] == ["any", "fixed"]
