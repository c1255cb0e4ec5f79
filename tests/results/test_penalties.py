"""Penalties as data (issue 15, item 2): kinds in the contest file, recorded by volunteers with
/penalizacion, added to the ranking time, shown in the ranking, the history and the exports,
taken back with /deshacer; a finish just under the limit plus its penalties still ranks among
the finishers unless the contest file says otherwise."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from bot.domain.contest import PenaltyKind
from bot.domain.ranking import Competitor, rank, ranking_time
from bot.services.contest_file import ContestFileError, load_contest, parse_contest
from bot.services.exports import result_rows
from bot.services.summary import summary
from bot.support.i18n import LANGUAGES
from tests.conftest import CASTRILLO
from tests.fakebot import Harness, Person, count_events, said, two_adults_playing

MADRID = ZoneInfo("Europe/Madrid")
T0 = datetime(2023, 4, 22, 11, 0, tzinfo=MADRID)
BOSS, VIC = Person(1, "Olga", "en"), Person(20, "Vic", "en")
ANA, SOL = Person(10, "Ana", "en"), Person(11, "Sol", "en")

PENALTIES = """
[[penalties]]
id = "lost_piece"          # a piece lost or damaged
name = { es = "pieza perdida", fr = "pièce perdue", en = "lost piece" }
seconds = 10

[[penalties]]
id = "late"
name = "late start"
seconds = 60
"""


def contest_text(*, counts: bool = True) -> str:
    text = CASTRILLO.read_text(encoding="utf-8") + PENALTIES
    if not counts:
        text = text.replace("[contest]\n", "[contest]\npenalised_finish_counts = false\n", 1)
    return text


def contest_file(tmp_path: Path, **kw: Any) -> Path:
    path = tmp_path / "penalties.toml"
    path.write_text(contest_text(**kw), encoding="utf-8")
    return path


# -- the contest file -----------------------------------------------------------------------


def test_the_contest_file_lists_penalty_kinds(tmp_path: Path) -> None:
    contest = load_contest(contest_file(tmp_path))
    assert contest.penalties == (
        PenaltyKind("lost_piece", {"es": "pieza perdida", "fr": "pièce perdue",
                                   "en": "lost piece"}, 10),
        PenaltyKind("late", {lang: "late start" for lang in LANGUAGES}, 60))
    assert contest.penalised_finish_counts
    text = summary(contest)
    assert "Penalty lost_piece: pieza perdida, +0:00:10 each" in text
    assert "stays a finish whatever its penalties" in text
    assert not load_contest(CASTRILLO).penalties  # the seed contests have none


@pytest.mark.parametrize("change,key", [
    (('id = "late"', 'id = "Late start"'), "penalties[2].id"),
    (('id = "late"', 'id = "lost_piece"'), "penalties[2].id"),
    (("seconds = 60", "seconds = 0"), "penalties[2].seconds"),
    (('name = "late start"\n', ""), "penalties[2].name"),
    (("seconds = 60", "seconds = 60\ncolour = 1"), "penalties[2]"),
    (("seconds = 60", "seconds = 86401"), "penalties[2].seconds"),
    (('name = "late start"', 'name = ""'), "penalties[2].name"),
    (('name = "late start"', 'name = "late\\nstart"'), "penalties[2].name"),
])
def test_a_bad_penalty_kind_is_refused_with_its_key(change: tuple[str, str], key: str) -> None:
    import tomllib
    data = tomllib.loads(contest_text().replace(*change))
    with pytest.raises(ContestFileError) as err:
        parse_contest(data, "x.toml")
    assert f"x.toml: {key}" in str(err.value), str(err.value)


# -- the rule ------------------------------------------------------------------------------


def test_penalties_add_to_the_ranking_time_and_can_change_places() -> None:
    cat = load_contest(CASTRILLO).category("adultos")
    assert cat is not None
    a = Competitor(1, ("A",), finish=3600, time_penalty=20, penalties=(("lost_piece", 2),))
    b = Competitor(2, ("B",), finish=3610)
    assert ranking_time(a) == 3620
    rows = rank(cat, [a, b])
    assert [(r.number, r.position, r.time) for r in rows] == [(2, 1, 3610), (1, 2, 3620)]


def test_a_finish_under_the_limit_plus_penalties_ranks_as_the_file_says() -> None:
    cat = load_contest(CASTRILLO).category("adultos")
    assert cat is not None
    limit = cat.time_limit
    late = Competitor(1, ("Late",), finish=limit - 5, time_penalty=10)
    other = Competitor(2, ("Other",), finish=limit - 60)
    partial = Competitor(3, ("Partial",), pieces=cat.pieces - 1)
    counts = rank(cat, [late, other, partial])
    assert [(r.number, r.finished, r.time) for r in counts] == [
        (2, True, limit - 60), (1, True, limit + 5), (3, False, None)]
    strict = rank(cat, [late, other, partial], penalised_finish_counts=False)
    # past the limit with its penalties: not finished, every piece placed, before the rest
    assert [(r.number, r.position, r.finished) for r in strict] == [
        (2, 1, True), (1, 2, False), (3, 3, False)]


# -- in the chat ---------------------------------------------------------------------------


async def open_day(tmp_path: Path, **kw: Any) -> Harness:
    return await two_adults_playing(tmp_path, contest_file(tmp_path, **kw), BOSS, VIC,
                                    (ANA, SOL), T0)


async def test_a_volunteer_records_penalties_the_ranking_and_exports_show_them(
        tmp_path: Path) -> None:
    h = await open_day(tmp_path)
    try:
        at = T0 + timedelta(hours=1, minutes=1)
        await h.send(VIC, "/fin 5 1:00:00", at)
        await h.send(VIC, "/fin 6 1:00:15", at)
        calls = await h.send(VIC, "/penalizacion 5 lost_piece 2", at)
        assert said(calls, VIC) == ["Entry 5: penalty recorded, lost piece ×2 (+0:00:20). Its "
                                    "penalties now total 0:00:20."]
        assert said(calls, ANA) == ["A penalty was recorded for your entry: lost piece ×2 "
                                    "(+0:00:20)."]
        await h.send(VIC, "/penalty 5 LATE", at)  # the English alias, the id in any case
        ranking = "\n".join(said(await h.send(BOSS, "/clasificacion adultos", at), BOSS))
        assert "1. #6 Sol Dos: 1:00:15" in ranking
        assert ("2. #5 Ana Uno: 1:01:20 (penalties +0:01:20: lost piece ×2, late start ×1)"
                in ranking), ranking
        history = "\n".join(said(await h.send(VIC, "/historial 5", at), VIC))
        assert "penalty lost piece ×2" in history and "penalty late start ×1" in history
        svc = h.services
        rows = await result_rows(svc.contest, svc.day, "adultos")
        table = [dict(zip(rows[0], r, strict=True)) for r in rows[1:]]
        assert [(r["number"], r["adjusted_time"], r["time_penalties"], r["penalty_detail"])
                for r in table] == [(6, "1:00:15", "", ""),
                                    (5, "1:01:20", "0:01:20", "lost_piece 2; late 1")]
        # taken back: the last one goes, and the entry's people are told
        undone = await h.undo(VIC, at)
        assert said(undone, VIC)[1:] == ["Taken back: penalty #5."]
        assert said(undone, ANA) == [
            "A penalty recorded for your entry was taken back: late start ×1."]
        ranking = "\n".join(said(await h.send(BOSS, "/clasificacion adultos", at), BOSS))
        assert "2. #5 Ana Uno: 1:00:20 (penalties +0:00:20: lost piece ×2)" in ranking
    finally:
        await h.stop()


async def test_penalties_past_the_limit_rank_as_not_finished_when_the_file_says_so(
        tmp_path: Path) -> None:
    h = await open_day(tmp_path, counts=False)
    try:
        at = T0 + timedelta(hours=2, minutes=30)  # adults have 2:30:00
        await h.send(VIC, "/fin 5 2:29:55", at)
        await h.send(VIC, "/penalizacion 5 lost_piece", at)
        ranking = "\n".join(said(await h.send(BOSS, "/clasificacion adultos", at), BOSS))
        rows = await result_rows(h.services.contest, h.services.day, "adultos")
        line = dict(zip(rows[0], rows[1], strict=True))
        assert (line["number"], line["finished"], line["pieces"]) == (5, "no", 500)
        assert ("1. #5 Ana Uno: finished at 2:29:55, but its penalties take it past the time "
                "limit "
                "(penalties +0:00:10: lost piece ×1)") in ranking, ranking
    finally:
        await h.stop()


@pytest.mark.parametrize("text,answer", [
    ("/penalizacion 5 lost", 'No penalty called "lost". This contest has: lost_piece, late.'),
    ("/penalizacion", "Usage: /penalty N lost_piece|late [1-99]"),  # then an example
    ("/penalizacion 99", "There is no entry number 99."),
    ("/penalizacion 5 late 0", "Usage: /penalty N lost_piece|late [1-99]"),
    ("/penalizacion 5 late 100", "Usage: /penalty N lost_piece|late [1-99]"),
    ("/penalizacion 5 late +2", "Usage: /penalty N lost_piece|late [1-99]"),
    ("/penalizacion 99 late", "There is no entry number 99."),
])
async def test_a_wrong_penalty_gets_one_clear_answer_and_records_nothing(
        tmp_path: Path, text: str, answer: str) -> None:
    h = await open_day(tmp_path)
    try:
        before = count_events(h)
        (got,) = said(await h.send(VIC, text, T0 + timedelta(hours=1)), VIC)
        assert got.split("\n")[0] == answer
        assert count_events(h) == before
    finally:
        await h.stop()


async def test_a_contest_without_penalties_says_so(tmp_path: Path) -> None:
    h = await Harness(tmp_path, CASTRILLO, organisers=frozenset({BOSS.id})).start()
    try:
        await h.send(BOSS, "/start", T0)
        calls = await h.send(BOSS, "/penalizacion 5 late", T0)
        assert said(calls, BOSS) == [
            "This contest has no penalties."]
        # a participant cannot record one
        assert "for volunteers" in said(await h.send(ANA, "/penalizacion 5 late", T0), ANA)[0]
    finally:
        await h.stop()





async def test_the_usage_line_gives_an_example_with_a_kind_of_the_contest(tmp_path: Path) -> None:
    h = await open_day(tmp_path)
    try:
        (got,) = said(await h.send(VIC, "/penalizacion", T0 + timedelta(hours=1)), VIC)
        assert got == ("Usage: /penalty N lost_piece|late [1-99]\nFor example /penalty 12 "
                       "lost_piece 2 (two penalties of that kind for entry 12).")
    finally:
        await h.stop()


async def test_the_kinds_as_buttons_one_tap_records_one(tmp_path: Path) -> None:
    """``/penalizacion 5`` asks which kind, a button each; one tap records one penalty of it,
    stamped with the press; the question records one penalty however often it is pressed;
    a participant's tap is refused."""
    h = await open_day(tmp_path)
    try:
        at = T0 + timedelta(hours=1)
        asked = await h.send(VIC, "/penalizacion 5", at)
        assert said(asked, VIC) == [
            "Which penalty for entry 5? One tap records one (for more at once: /penalty 5 KIND "
            "COUNT)."]
        (lost, late) = h.buttons(asked)
        assert lost[0] == "lost piece" and lost[1].startswith("pen:") and \
            lost[1].endswith(":5:lost_piece")
        assert late[0] == "late start" and late[1].endswith(":5:late")
        before = count_events(h)
        refused = await h.press(ANA, lost[1], at)
        assert "for volunteers" in said(refused, ANA)[0]
        assert count_events(h) == before
        pressed = await h.press(VIC, lost[1], at + timedelta(seconds=5))
        assert said(pressed, VIC) == ["Entry 5: penalty recorded, lost piece ×1 (+0:00:10). "
                                      "Its penalties now total 0:00:10."]
        assert said(pressed, ANA) == ["A penalty was recorded for your entry: lost piece ×1 "
                                      "(+0:00:10)."]
        for data in (lost[1], late[1]):  # the same question again: nothing more
            again = await h.press(VIC, data, at + timedelta(seconds=9))
            assert said(again, VIC) == ["Already recorded."] and said(again, ANA) == []
        assert count_events(h) == before + 1
        # a new question is a new penalty
        (_, late2) = h.buttons(await h.send(VIC, "/penalizacion 5", at + timedelta(minutes=1)))
        await h.press(VIC, late2[1], at + timedelta(minutes=1))
        assert count_events(h) == before + 2
    finally:
        await h.stop()
