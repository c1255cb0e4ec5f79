"""Contest files: every rule of ``parse_contest`` and its exact message.

``tests/config/test_contest_file.py`` checks that a bad file is one clear error (and what the
command line prints); these pin, rule by rule, the key each error names and its whole text, and
which error is reported when a file breaks several rules.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bot.services.contest_file import ContestFileError, load_contest
from tests.config.test_contest_file import BILLOM, CASTRILLO, MINIMAL, edit


def castrillo_with(old: str, new: str) -> Callable[[], str]:
    return lambda: edit(CASTRILLO.read_text(encoding="utf-8"), old, new)


def billom_with(old: str, new: str) -> Callable[[], str]:
    return lambda: edit(BILLOM.read_text(encoding="utf-8"), old, new)


def minimal_with(old: str, new: str) -> Callable[[], str]:
    return lambda: edit(MINIMAL, old, new)


def minimal_without_categories(top: str) -> Callable[[], str]:
    """``top`` goes before ``[contest]``, where a key is a top-level one."""
    return lambda: top + MINIMAL.split("[[categories]]")[0]


NO_LOCAL = '[local]\n# A local entry (reserved pair places, best local pair) has at least one ' \
           'registered resident.\nany_member = ["resident"]\n'
RESERVED = "[[categories.reserved]]\n# 10 of the 50 places kept for local pairs until 7 days " \
           'before the contest.\nplaces = 10\nfor = "local"\nuntil = 2023-04-15T00:00:00\n'
HINTS = 'confirmation_grace = "15:00"\n'

# name: (key, file content, whole problem text)
ERRORS: dict[str, tuple[str, Callable[[], str], str]] = {
    # [contest]
    "no-contest-table": ("contest", minimal_with("[contest]\n", "[event]\n"), "is required"),
    "contest-not-a-table": (
        "contest",
        lambda: "contest = 1\n" + edit(MINIMAL, "[contest]\n", "[event]\n"),
        "must be a table, not the number 1",
    ),
    "language-unknown": (
        "contest.language",
        castrillo_with('language = "es"', 'language = "ja"'),
        'must be "es", "fr", "en", "de", "it", "pt" or "nl", not \'ja\'',
    ),
    "date-with-time": (
        "contest.date",
        minimal_with("date = 2024-05-01", "date = 2024-05-01T10:00:00"),
        "must be a date (2023-04-22), not the date-time 2024-05-01T10:00:00",
    ),
    "start-not-a-time": (
        "contest.start",
        castrillo_with('start = "10:00"', 'start = "25:00"'),
        "is not a time like \"15:15\": '25:00'",
    ),
    # [registration]
    "priority-unknown": (
        "registration.priority",
        castrillo_with('priority = "registration"', 'priority = "lottery"'),
        'must be "registration" or "payment", not \'lottery\'',
    ),
    "priority-payment-unpaid": (
        "registration.priority",
        castrillo_with('priority = "registration"', 'priority = "payment"'),
        '"payment" needs payment_required = true',
    ),
    "closes-before-opens": (
        "registration.closes",
        billom_with("opens = 2012-01-23T00:00:00", "opens = 2012-03-03T00:00:00"),
        "is not after opens",
    ),
    "closes-with-offset": (
        "registration.closes",
        billom_with("closes = 2012-03-02T00:00:00", "closes = 2012-03-02T00:00:00+01:00"),
        "give local time without an offset (the contest's timezone)",
    ),
    "shared-capacity-zero": (
        "registration.shared_capacity",
        billom_with("shared_capacity = 30", "shared_capacity = 0"),
        "must be at least 1, not 0",
    ),
    # [[questions]], [local], [discount], [meal], [[breaks]]
    "question-text-empty": (
        "questions[3].text",
        castrillo_with("[local]\n", '[[questions]]\nid = "q"\ntext = {}\n\n[local]\n'),
        "needs at least one of es, fr, en, de, it, pt, nl",
    ),
    "question-text-other-language": (
        "questions[3].text.ja",
        castrillo_with("[local]\n", '[[questions]]\nid = "q"\ntext = { ja = "Hai?" }\n\n[local]\n'),
        "unknown key (the keys here: de, en, es, fr, it, nl, pt)",
    ),
    "local-unknown-question": (
        "local.any_member[1]",
        castrillo_with('any_member = ["resident"]', 'any_member = ["nobody"]'),
        "names no question: 'nobody'",
    ),
    "local-not-text": (
        "local.any_member[1]",
        castrillo_with('any_member = ["resident"]', "any_member = [1]"),
        "must be text, not the number 1",
    ),
    "discount-three-decimals": (
        "discount.amount",
        castrillo_with("amount = 5\n", "amount = 5.555\n"),
        "has more than two decimals: 5.555",
    ),
    "meal-negative": ("meal.adult", castrillo_with("adult = 12", "adult = -1"),
                      "must not be negative, not -1"),
    "break-ends-before-start": (
        "breaks[1].end", billom_with('end = "15:30"', 'end = "15:00"'), "is not after start"
    ),
    # [escape]
    "cap-negative": (
        "escape.caps_by_stage[3]",
        castrillo_with("caps_by_stage = [0, 2, 4, 6, 8]", "caps_by_stage = [0, 2, -4, 6, 8]"),
        "must be a whole number >= 0",
    ),
    "hint-past-last-stage": (
        "escape.hints[1].stage",
        castrillo_with(HINTS, HINTS + 'hints = [{ stage = 6, text = "Look up" }]\n'),
        "is past the last stage (5)",
    ),
    "solution-unknown-key": (
        "escape.solutions[1].cost",
        castrillo_with(HINTS, HINTS + 'solutions = [{ stage = 1, text = "Up", cost = 1 }]\n'),
        "unknown key (the keys here: stage, text)",
    ),
    # issue 48: a misspelt key is named where the key it stands for is required, and an
    # unknown key says what it may have meant and which keys the table takes
    "misspelt-required-key": (
        "categories[1].time_limit",
        castrillo_with('pieces = 100\ntime_limit = "2:00:00"',
                       'pieces = 100\ntime_limt = "2:00:00"'),
        "is required (the file has time_limt: a misspelling of time_limit?)",
    ),

    # [[categories]]
    "categories-missing": (
        "categories", minimal_with("[[categories]]", "[[kinds]]"), "is required"
    ),
    "categories-empty": (
        "categories", minimal_without_categories("categories = []\n"),
        "needs at least one category",
    ),
    "categories-text": (
        "categories", minimal_without_categories('categories = "solo"\n'),
        "must be a list of tables, not the text 'solo'",
    ),
    "category-id-uppercase": (
        "categories[1].id",
        minimal_with('id = "solo"', 'id = "Solo"'),
        "must be lowercase letters, digits, - or _: 'Solo'",
    ),
    "category-id-twice": (
        "categories[2].id",
        castrillo_with('id = "infantil-b"', 'id = "infantil-a"'),
        "'infantil-a' is used by another category",
    ),
    "members-zero": (
        "categories[1].members", minimal_with("members = 1", "members = 0"),
        "must be at least 1, not 0",
    ),
    "prize-not-text": (
        "categories[1].prizes[2]",
        minimal_with("fee = 10\n", 'fee = 10\nprizes = ["Cup", 1]\n'),
        "must be text, not the number 1",
    ),
    "escape-category-without-escape-table": (
        "categories[1].escape",
        minimal_with("fee = 10\n", "fee = 10\nescape = true\n"),
        "is true but the contest has no [escape] table",
    ),
    "escape-longer-than-category": (
        "categories[5].time_limit",
        castrillo_with('time_limit = "3:00:00"', 'time_limit = "1:00:00"'),
        "is shorter than the escape time limit",
    ),
    # slots
    "slot-years-and-ages": (
        "categories[1].slots[1]",
        castrillo_with("slots = [{ born_from = 2017, born_to = 2019 }]",
                       "slots = [{ born_from = 2017, max_age = 5 }]"),
        "use birth years or ages, not both",
    ),
    "slot-years-reversed": (
        "categories[1].slots[1].born_from",
        castrillo_with("slots = [{ born_from = 2017, born_to = 2019 }]",
                       "slots = [{ born_from = 2019, born_to = 2017 }]"),
        "is after born_to",
    ),
    "slot-ages-reversed": (
        "categories[2].slots[1].min_age",
        billom_with("slots = [{ max_age = 11 }, { min_age = 18 }]",
                    "slots = [{ min_age = 11, max_age = 5 }, { min_age = 18 }]"),
        "is above max_age",
    ),
    "slots-mix-years-and-ages": (
        "categories[2].slots",
        billom_with("slots = [{ max_age = 11 }, { min_age = 18 }]",
                    "slots = [{ born_to = 2000 }, { min_age = 18 }]"),
        "mixes birth years and ages",
    ),
    # reserved places and extra prizes
    "reserved-not-local": (
        "categories[5].reserved[1].for",
        castrillo_with('for = "local"', 'for = "members"'),
        "must be \"local\", not 'members'",
    ),
    "reserved-above-capacity": (
        "categories[5].reserved[1].places",
        castrillo_with("places = 10\n", "places = 51\n"),
        "needs a category capacity at least this large",
    ),
    "extra-prize-among-unknown": (
        "categories[5].extra_prizes[1].among",
        castrillo_with('among = "local"', 'among = "women"'),
        "must be \"all\" or \"local\", not 'women'",
    ),
    "reserved-without-local-table": (
        "categories[5].reserved",
        castrillo_with(NO_LOCAL, ""),
        "needs [local] any_member questions",
    ),
    "extra-prize-without-local-table": (
        "categories[5].extra_prizes",
        lambda: edit(castrillo_with(NO_LOCAL, "")(), RESERVED, ""),
        "needs [local] any_member questions",
    ),
    # several problems: the tables are read in order, unknown top-level keys last
    "contest-before-categories": (
        "contest.language",
        lambda: edit(castrillo_with('language = "es"', 'language = "ja"')(),
                     'id = "adultos"', 'id = "Adultos"'),
        'must be "es", "fr", "en", "de", "it", "pt" or "nl", not \'ja\'',
    ),
    "registration-before-escape": (
        "registration.priority",
        lambda: edit(castrillo_with('priority = "registration"', 'priority = "lottery"')(),
                     "stages = 5", "stages = 0"),
        'must be "registration" or "payment", not \'lottery\'',
    ),
    "escape-before-categories": (
        "escape.stages",
        lambda: edit(castrillo_with("stages = 5", "stages = 0")(), 'id = "adultos"',
                     'id = "Adultos"'),
        "must be at least 1, not 0",
    ),
    "unknown-top-level-key-last": (
        "categories[4].id",
        lambda: 'organiser = "Aepuzz"\n' + edit(CASTRILLO.read_text(encoding="utf-8"),
                                                'id = "adultos"', 'id = "Adultos"'),
        "must be lowercase letters, digits, - or _: 'Adultos'",
    ),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_a_bad_contest_file_names_this_key_with_this_problem(tmp_path: Path, name: str):
    key, content, problem = ERRORS[name]
    path = tmp_path / "contest.toml"
    path.write_text(content(), encoding="utf-8")
    with pytest.raises(ContestFileError) as info:
        load_contest(path)
    assert (info.value.key, info.value.problem) == (key, problem)
    assert str(info.value) == f"{path}: {key}: {problem}"


def test_an_unknown_key_says_what_it_may_mean_and_the_keys_of_its_table(tmp_path: Path):
    """Issue 48: "languag" (an optional key misspelt) was "unknown key", with nothing to go
    on."""
    path = tmp_path / "contest.toml"
    path.write_text(castrillo_with('language = "es"', 'languag = "es"')(), encoding="utf-8")
    with pytest.raises(ContestFileError) as info:
        load_contest(path)
    assert info.value.key == "contest.languag"
    assert info.value.problem.startswith("unknown key (did you mean language? the keys here: ")
    assert "timezone" in info.value.problem and "venue" in info.value.problem


@pytest.mark.parametrize(("line", "hint"), [
    ("opens = 2024-10-15T00:00", "(TOML needs the seconds: 2024-10-15T00:00:00)"),
    ("name = Castrillo", '(a text needs quotes: "Castrillo")'),
])
def test_a_toml_error_shows_its_line_and_what_to_do(tmp_path: Path, line: str, hint: str):
    """Issue 48: ``opens = 2024-10-15T00:00`` gave a bare TOML parse error."""
    path = tmp_path / "contest.toml"
    path.write_text("[contest]\n" + line + "\n", encoding="utf-8")
    with pytest.raises(ContestFileError) as info:
        load_contest(path)
    assert info.value.problem.startswith("is not valid TOML: ")
    assert info.value.problem.endswith(f"; the line reads: {line} {hint}")
