"""Issue 52: the escape played in the chat, its pure parts. Answers compared as people type
them (case, accents, spaces, a number in digits or in words in every language the bot
speaks), the wait after wrong answers in a row, the stage a clue may be asked for, and the
contest file's checks of the enigmas (a file the docs allow is read; one that could never be
played is refused with the key that is wrong)."""

from __future__ import annotations

import tomllib
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image

from bot.domain.contest import Enigma, EscapeRules
from bot.features.escape.answers import is_right, normalize
from bot.features.escape.rules import (
    EscapeOver,
    Kind,
    NotInChat,
    NotNextStage,
    Paused,
    Solved,
    StageAhead,
    StageConfirmed,
    StagesInChat,
    check_attempt,
    check_confirmation,
    check_passed,
    check_request,
    fold,
    pause_until,
    result,
)
from bot.services.contest_file import ContestFileError, load_contest, parse_contest
from tests.conftest import ROOT

EXAMPLE = ROOT / "contests" / "escape-chat-2027.toml"


def enigma(*answers: str, numbers: bool = False) -> Enigma:
    return Enigma(stage=1, text={"es": "?"}, answers=answers, numbers=numbers)


def test_answers_are_compared_as_people_type_them() -> None:
    clock = enigma("El reloj", "clock")
    for typed in ("el reloj", "EL RELOJ", "  el   reloj ", "¡El reloj!", "elreloj", "Clock.",
                  "el-reloj"):
        assert is_right(clock, typed), typed
    for typed in ("reloj de arena", "relojes", "", "   ", "?!", "el"):
        assert not is_right(clock, typed), typed
    assert is_right(enigma("Cáceres"), "caceres") and is_right(enigma("caceres"), "CÁCERES")
    assert is_right(enigma("Straße"), "strasse") and normalize("São Paulo") == "saopaulo"


def test_a_number_is_right_in_digits_or_words_in_every_language_where_the_file_says_so() -> None:
    n = enigma("24", numbers=True)
    for typed in ("24", "024", " 24 ", "veinticuatro", "Veinticuatro", "twenty-four",
                  "twenty four", "vingt-quatre", "vierundzwanzig", "ventiquattro",
                  "vinte e quatro", "vierentwintig"):
        assert is_right(n, typed), typed
    for typed in ("25", "veinticinco", "two four", "2 4 0", ""):
        assert not is_right(n, typed), typed
    # without numbers = true only the answer as written counts
    assert is_right(enigma("24"), "24") and not is_right(enigma("24"), "veinticuatro")
    big = enigma("1984", numbers=True)
    assert is_right(big, "mil novecientos ochenta y cuatro") and is_right(big, "1984")
    assert is_right(big, "nineteen eighty-four")  # a year, as English says it


def rules(**kw: object) -> EscapeRules:
    base = EscapeRules(stages=3, initial_tickets=2, hint_cost=1, solution_cost=2, cooldown=300,
                       ticket_value=180, time_limit=3600, cap_solved=5,
                       caps_by_stage=(0, 1, 2), hint_ticket_penalty=600,
                       solution_ticket_penalty=1200, play="chat",
                       enigmas=tuple(replace(enigma(str(k)), stage=k) for k in (1, 2, 3)),
                       pause_after=3, pause=60)
    return replace(base, **kw)  # type: ignore[arg-type]


def test_every_third_wrong_answer_in_a_row_makes_the_pair_wait() -> None:
    r = rules()
    assert pause_until(r, []) is None and pause_until(r, [10, 20]) is None
    assert pause_until(r, [10, 20, 30]) == 90
    assert pause_until(r, [10, 20, 30, 95]) is None  # the wait over, the count goes on
    assert pause_until(r, [10, 20, 30, 95, 96, 97]) == 157
    led = fold(r, [])
    assert check_attempt(led, [10, 20, 30], 89) == Paused(90)
    assert check_attempt(led, [10, 20, 30], 90) is None  # exactly at the end: taken
    assert check_attempt(led, [], 3600) is None  # at the time limit itself: still taken
    assert check_attempt(led, [], 3601) == EscapeOver()
    assert check_attempt(fold(rules(play="volunteers", enigmas=()), []), [], 10) == NotInChat()


def test_in_the_chat_a_clue_is_only_for_the_stage_the_pair_is_in() -> None:
    r = rules()
    led = fold(r, [StageConfirmed(2, 100)])
    assert led.stage == 2
    assert check_request(led, Kind.HINT, 3, 200) == StageAhead(2)
    assert not isinstance(check_request(led, Kind.HINT, 2, 200), StageAhead)
    # run by volunteers, asking for a later stage still moves the pair on (Castrillo's rule)
    vol = fold(rules(play="volunteers", enigmas=()), [])
    assert not isinstance(check_request(vol, Kind.HINT, 3, 200), StageAhead)
    # nobody confirms a stage in the chat
    assert check_confirmation(led, 3, 200) == StagesInChat()


def test_a_right_answer_passes_only_the_stage_after_and_the_bonus_counts_the_stage_reached(
) -> None:
    r = rules()
    led = fold(r, [StageConfirmed(2, 100)])
    assert check_passed(led, 3, 200) is None
    assert check_passed(led, 2, 200) == NotNextStage(2)
    assert check_passed(led, 4, 200) == NotNextStage(2)
    # unsolved at the limit in stage 3: the cap is stage 3's (2 tickets), with nobody confirming
    assert result(fold(r, [StageConfirmed(2, 100), StageConfirmed(3, 900)])).cap == 2
    assert result(fold(r, [StageConfirmed(2, 100), StageConfirmed(3, 900),
                           Solved(1500)])).cap == 5


def test_the_shipped_example_is_read_with_its_five_stages_and_its_picture() -> None:
    contest = load_contest(EXAMPLE)
    e = contest.escape
    assert e is not None and e.in_chat and len(e.enigmas) == 5
    assert [g.stage for g in e.enigmas] == [1, 2, 3, 4, 5]
    assert set(e.enigmas[0].text) == {"es", "en"}
    picture = e.enigmas[1].picture
    assert picture is not None and Path(picture).is_file()
    assert e.enigmas[2].choices and is_right(e.enigmas[2], "Este")
    assert all(g.hint and g.solution for g in e.enigmas)


def with_escape(escape: str) -> str:
    text = EXAMPLE.read_text(encoding="utf-8")
    head, _, rest = text.partition("[escape]")
    return head + escape + "\n[[categories]]" + rest.split("[[categories]]", 1)[1]


BASE = '''[escape]
stages = 2
initial_tickets = 3
hint_cost = 1
solution_cost = 2
cooldown = "5:00"
ticket_value = "3:00"
time_limit = "1:00:00"
cap_solved = 3
caps_by_stage = [0, 1]
hint_ticket_penalty = "10:00"
solution_ticket_penalty = "20:00"
'''
ONE = '''
[[escape.enigmas]]
stage = 1
text = "Uno"
answers = ["a"]
hint = "h"
solution = "s"
'''
TWO = ONE.replace("stage = 1", "stage = 2").replace('"Uno"', '"Dos"')


def read(escape: str) -> None:
    parse_contest(tomllib.loads(with_escape(escape)), str(EXAMPLE))


@pytest.mark.parametrize(("escape", "key", "problem"), [
    (BASE + 'play = "chat"\n' + ONE, "escape.enigmas", "none for stage 2"),
    (BASE + ONE + TWO, "escape.enigmas", 'add play = "chat"'),
    (BASE + 'play = "chat"\n' + ONE + ONE, "stage", "has two enigmas"),
    (BASE + 'play = "chat"\n' + ONE + TWO.replace('answers = ["a"]', 'answers = ["?!"]'),
     "enigmas[2].answers[1]", "no letter or digit"),  # counted from 1, as organisers do
    (BASE + 'play = "chat"\n' + ONE + TWO.replace('answers = ["a"]', 'answers = []'),
     "answers", "at least one"),
    (BASE + 'play = "chat"\n' + ONE + TWO.replace('answers = ["a"]',
                                                  'answers = ["a"]\nchoices = ["b", "c"]'),
     "choices", "no right answer among them"),
    (BASE + 'play = "chat"\n' + ONE + TWO.replace('hint = "h"\n', ""), "hint", "is required"),
    (BASE + 'play = "chat"\n' + ONE + TWO.replace('answers = ["a"]',
                                                  'answers = ["a"]\npicture = "nope.png"'),
     "picture", "is not a file beside the contest file"),
    (BASE + 'play = "chat"\n' + ONE + TWO.replace("stage = 2", "stage = 3"), "stage",
     "past the last stage"),
    (BASE + 'play = "party"\n', "play", "must be"),
    (BASE + 'play = "chat"\npause_after = 0\n' + ONE + TWO, "pause_after", "at least 1"),
    (BASE + 'pause_after = 2\n', "pause_after", "is for the escape played in the chat"),
    (BASE + 'tell_volunteers = true\n', "tell_volunteers", "is for the escape played in"),
])
def test_an_enigma_that_could_not_be_played_is_refused_naming_its_key(
        escape: str, key: str, problem: str) -> None:
    with pytest.raises(ContestFileError) as caught:
        read(escape)
    assert key in str(caught.value) and problem in str(caught.value), str(caught.value)


def test_a_clue_may_come_from_the_hints_tables_and_every_language_reads_it() -> None:
    read(BASE + 'play = "chat"\n' + ONE + TWO.replace('hint = "h"\n', "") +
         '\n[[escape.hints]]\nstage = 2\ntext = "Mira"\n')
    contest = parse_contest(tomllib.loads(with_escape(
        BASE + 'play = "chat"\n' + ONE + TWO.replace('hint = "h"\n', "") +
        '\n[[escape.hints]]\nstage = 2\ntext = "Mira"\n')), str(EXAMPLE))
    assert contest.escape is not None
    second = contest.escape.enigma(2)
    assert second is not None and second.hint["de"] == "Mira"
    # volunteers running the game: no enigma is ever looked up
    assert parse_contest(tomllib.loads(with_escape(BASE)), str(EXAMPLE)).escape.enigma(1) is None  # type: ignore[union-attr]


def test_a_picture_telegram_would_refuse_as_a_photo_is_refused_in_the_file(tmp_path: Path
                                                                          ) -> None:
    """Telegram refuses a photo whose sides add up to more than 10000 or whose longer side
    is more than 20 times the shorter: said when the file is read, not on the day."""
    Image.new("RGB", (2100, 100), "white").save(tmp_path / "wide.png")
    Image.new("RGB", (300, 200), "white").save(tmp_path / "fine.png")
    (tmp_path / "broken.jpg").write_bytes(b"not a picture")
    (tmp_path / "stage.pdf").write_bytes(b"%PDF-1.4 a document, sent as it is")
    escape = BASE + 'play = "chat"\n' + ONE + TWO.replace('answers = ["a"]',
                                                         'answers = ["a"]\npicture = "{}"')
    for name, problem in (("wide.png", "is 2100 x 100"),
                          ("broken.jpg", "not a picture that can be read"),
                          ("fine.png", None), ("stage.pdf", None)):
        text = with_escape(escape.replace("{}", name))
        if problem is None:
            contest = parse_contest(tomllib.loads(text), str(tmp_path / "x.toml"))
            second = contest.escape.enigma(2) if contest.escape else None
            assert second is not None and second.photo == name.endswith(".png")
            continue
        with pytest.raises(ContestFileError, match=problem):
            parse_contest(tomllib.loads(text), str(tmp_path / "x.toml"))
