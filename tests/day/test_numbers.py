"""The one policy for the numbers and times people type (bot/domain/numbers.py), and the
places that read them: the chat, the registration conversation and the CSV import."""

from __future__ import annotations

import io

import pytest

from bot.domain.clock import DurationError, parse_duration
from bot.domain.numbers import ascii_digits, parse_whole, parse_year
from bot.features.registration.rules import parse_birth
from bot.handlers.common import parse_int
from bot.services.contest_file import load_contest
from bot.services.csvio import ImportError_, read_entries
from tests.conftest import CASTRILLO

CONTEST = load_contest(CASTRILLO)


@pytest.mark.parametrize("text,value", [
    ("457", 457), (" 457 ", 457), ("007", 7), ("٤٥٧", 457), ("۴۵۷", 457), ("४५७", 457),
    ("４５７", 457), ("𝟒𝟓𝟕", 457), ("4٥7", 457), ("0", 0), ("999999999", 999999999),
])
def test_whole_numbers_in_any_script(text: str, value: int) -> None:
    assert parse_whole(text) == value


@pytest.mark.parametrize("text", [
    "", " ", "+458", "-3", "4_5_7", "4 57", "4.57", "4,57", "²", "①", "½", "1e3", "0x1F",
    "1000000000", "٤٥٧x", "#457", "##4",
])
def test_what_is_not_a_whole_number(text: str) -> None:
    assert parse_whole(text) is None


def test_one_leading_hash_mark_for_entries_stages_and_counts() -> None:
    assert parse_int("#12") == 12 and parse_int("#١٢") == 12
    assert parse_int("##12") is None and parse_int("1#2") is None and parse_int("#") is None


def test_ascii_digits_changes_digits_only() -> None:
    assert ascii_digits("١:٤٧:٣٠ x²") == "1:47:30 x²"


@pytest.mark.parametrize("text,seconds", [
    ("1:47:30", 6450), ("١:٤٧:٣٠", 6450), ("１:４７:３０", 6450), ("47:30", 2850),
])
def test_times_in_any_script(text: str, seconds: int) -> None:
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["+1:47:30", "-1:47:30", "1:47:30.5", "¹:47:30", "1:4_7:30",
                                  "1: 47:30"])
def test_what_is_not_a_time(text: str) -> None:
    with pytest.raises(DurationError):
        parse_duration(text)


def test_birth_years_and_dates_in_any_script() -> None:
    assert parse_year("١٩٨٠") == 1980 and parse_year("198") is None and parse_year("+980") is None
    assert parse_birth("٢٠١٥", full_date=False) == (None, 2015)
    assert parse_birth("²⁰¹⁵", full_date=False) is None
    born = parse_birth("٢١/٠٦/٢٠٠٤", full_date=True)
    assert born is not None and born[0] is not None and born[0].isoformat() == "2004-06-21"


def test_the_import_reads_numbers_and_births_by_the_same_policy() -> None:
    [row] = read_entries(CONTEST, io.StringIO(
        "number,category,names,born\n#١٢,adultos,Ana,١٩٨٠\n"), "x.csv")
    assert row.number == 12 and row.members[0].born_year == 1980
    for bad in ("²", "+12", "1_2"):
        with pytest.raises(ImportError_, match="is not a positive number"):
            read_entries(CONTEST, io.StringIO(
                f"number,category,names,born\n{bad},adultos,Ana,1980\n"), "x.csv")
