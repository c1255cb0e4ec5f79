"""Final results (issue 26): the organiser makes a category's results final with /publicar
(it asks first), once nobody plays in it; each entry is then told its place, of how many, its
time and prize, escape pairs how their time is made up; a correction published again tells
only the entries whose result moved; the entries' people read their category's ranking once
it is final."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.services.contest_file import ContestFileError, load_contest
from tests.conftest import CASTRILLO
from tests.day.test_bot_commands import (
    ORGANISER,
    P3,
    P20,
    P50,
    STRANGER,
    VOLUNTEER,
    at,
    day,
    event_rows,
    events,
    replies_to,
)

__all__ = ["day"]  # the fixture, shared with tests/day/test_bot_commands.py

ADULT_PRIZE = "Trofeo y puzzle de 2000 piezas"


async def ask(day, text: str, clock: str) -> tuple[str, list[tuple[str, str]]]:
    calls = await day.send(ORGANISER, text, clock)
    (question,) = replies_to(calls, ORGANISER)
    return question, day.h.buttons(calls)


async def test_publicar_asks_then_tells_the_entry_its_place_once(day):
    await day.send(VOLUNTEER, "/fin 50 1:47:30", "1:48:00")
    before = events(day.h)
    question, keys = await ask(day, "/publicar adultos individual", "1:50:00")
    assert question == ("Make these results final and tell each entry its place?\n"
                        "· Adultos individual: 1 entry\n"
                        "It reaches 1 person.")
    assert keys == [("Publish", "pub:adultos"), ("Cancel", "pub:-")]
    assert events(day.h) == before  # asking records nothing
    cancelled = await day.h.press(ORGANISER, "pub:-", at("1:50:10"))
    assert replies_to(cancelled, ORGANISER) == ["Nothing published."]
    assert replies_to(cancelled, P50) == []
    assert events(day.h) == before
    done = await day.h.press(ORGANISER, "pub:adultos", at("1:50:20"))
    assert replies_to(done, P50) == [
        "Final results of Adultos individual: place 1 of 1, with 1:47:30.\n"
        f"Prize: {ADULT_PRIZE}.\n"
        "Thank you for taking part, and well done!\n"
        "The whole ranking: /ranking"]
    assert replies_to(done, ORGANISER) == [
        "Results final. Each entry is told its place:\n· Adultos individual: 1 entry told"]
    (published,) = event_rows(day.h, "results_final")
    assert published["ref"] == "adultos"
    # the same button again: nothing new, nobody told, nothing recorded
    again = await day.h.press(ORGANISER, "pub:adultos", at("1:51:00"))
    assert replies_to(again, P50) == []
    assert replies_to(again, ORGANISER) == [
        "Nothing published.\nNot yet:\n"
        "· Adultos individual: made final at 12:50, and nothing has changed since."]
    assert len(event_rows(day.h, "results_final")) == 1


async def test_a_correction_published_again_tells_only_whose_result_moved(day):
    await day.send(VOLUNTEER, "/fin 50 1:47:30", "1:48:00")
    await day.send(ORGANISER, "/publicar adultos", "1:50:00")
    await day.h.press(ORGANISER, "pub:adultos", at("1:50:20"))
    corrected = await day.say(VOLUNTEER, "/fin 50 1:46:00", "1:55:00")  # 1:30 moved: no question
    assert corrected[0].endswith(
        "\nThe results of Adultos individual were already final: /publish again tells the "
        "entries whose result changed.")
    # an entry of a category not yet final: its answer says nothing of it
    assert "already final" not in (await day.say(VOLUNTEER, "/piezas 3 100", "1:55:30"))[0]
    question, keys = await ask(day, "/publicar adultos", "1:56:00")
    assert "· Adultos individual: again, to the 1 entry whose result changed" in question
    done = await day.h.press(ORGANISER, keys[0][1], at("1:56:10"))
    assert replies_to(done, P50) == [
        "The final results of Adultos individual were corrected: place 1 of 1, with 1:46:00.\n"
        f"Prize: {ADULT_PRIZE}.\n"
        "The whole ranking: /ranking"]
    assert len(event_rows(day.h, "results_final")) == 2


async def test_not_while_entries_still_play_and_only_for_organisers(day):
    text = (await day.say(ORGANISER, "/publicar adultos", "1:00:00"))[0]
    assert text == ("No results can be made final now:\n"
                    "· Adultos individual: 1 entry still playing, 1:30:00 of its time left.")
    # without a category: every one nobody plays in any more; the rest said "not yet"
    await day.send(VOLUNTEER, "/fin 50 0:58:00", "0:59:00")
    question, keys = await ask(day, "/publicar", "1:00:00")
    assert question.startswith("Make these results final and tell each entry its place?\n"
                               "· Adultos individual: 1 entry\n")
    assert "Not yet:\n· Infantil A: 1 entry still playing, 1:00:00 of its time left." in question
    assert keys[0] == ("Publish", "pub:*")
    for who in (VOLUNTEER, P50, STRANGER):
        refused = await day.say(who, "/publicar", "1:01:00")
        assert refused and "organisers" in refused[0]
        pressed = await day.h.press(who, "pub:*", at("1:01:00"))
        assert "organisers" in replies_to(pressed, who)[0]
    assert event_rows(day.h, "results_final") == []
    unknown = await day.say(ORGANISER, "/publicar seniors", "1:02:00")
    assert unknown[0].startswith("Unknown category. Categories: Infantil A, Infantil B")


async def test_escape_pairs_read_how_their_time_is_made_up_and_no_place_is_said(day):
    await day.send(VOLUNTEER, "/escape 3 0:25:00", "0:25:00")
    await day.send(VOLUNTEER, "/fin 3 1:45:00", "1:45:10")
    await day.send(VOLUNTEER, "/estado 20 dns", "1:46:00")
    _, keys = await ask(day, "/publicar parejas", "1:47:00")
    done = await day.h.press(ORGANISER, keys[0][1], at("1:47:10"))
    (told_3,) = replies_to(done, P3)
    assert told_3.startswith("Final results of Adultos parejas: place 1 of 1, with ")
    assert "How it is made up: escape 0:25:00, bonus -" in told_3
    assert ", puzzle 1:20:00." in told_3
    assert replies_to(done, P20) == [
        "Final results of Adultos parejas: recorded as did not start, so no place.\n"
        "The whole ranking: /ranking"]


async def test_participants_read_their_ranking_once_it_is_final(day):
    await day.send(VOLUNTEER, "/fin 50 1:47:30", "1:48:00")
    assert await day.say(P50, "/clasificacion", "1:49:00") == [
        "The ranking of Adultos individual is shown here once its results are final."]
    assert await day.say(STRANGER, "/clasificacion", "1:49:00") == [
        "This command is for organisers."]
    assert await day.say(VOLUNTEER, "/clasificacion", "1:49:00") == [
        "This command is for organisers."]
    await day.send(ORGANISER, "/publicar adultos", "1:50:00")
    await day.h.press(ORGANISER, "pub:adultos", at("1:50:20"))
    (ranking,) = await day.say(P50, "/clasificacion", "1:51:00")
    assert ranking.startswith("Adultos individual - ranking\n")
    assert "1:47:30" in ranking


def _contest_with(tmp_path: Path, line: str) -> Path:
    text = CASTRILLO.read_text(encoding="utf-8").replace("[contest]\n", f"[contest]\n{line}\n", 1)
    path = tmp_path / "contest.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_contest_file_says_who_may_read_rankings(tmp_path):
    assert load_contest(CASTRILLO).participants_see_ranking == "final"
    for value in ("always", "never", "final"):
        contest = load_contest(_contest_with(tmp_path, f'participants_see_ranking = "{value}"'))
        assert contest.participants_see_ranking == value
    with pytest.raises(ContestFileError, match="participants_see_ranking"):
        load_contest(_contest_with(tmp_path, 'participants_see_ranking = "sometimes"'))


def test_the_entries_menu_shows_the_ranking_unless_the_contest_keeps_it_to_organisers():
    from dataclasses import replace as with_

    from bot.handlers.commands import menu, view_for

    contest = load_contest(CASTRILLO)
    moment = at("1:00:00")

    def names(c, role, categories):
        return [n for n, _ in menu(role, "en", view_for(c, moment, role, categories))]

    assert "ranking" in names(contest, "participant", ["adultos"])
    assert "ranking" not in names(contest, "participant", [])  # follows no entry
    assert "ranking" not in names(contest, "volunteer", [])
    assert "ranking" in names(contest, "organiser", [])
    never = with_(contest, participants_see_ranking="never")
    assert "ranking" not in names(never, "participant", ["adultos"])


async def test_after_the_time_is_up_nothing_starts_or_pauses_and_the_answer_says_so(day):
    # before the end a pause is a pause
    assert (await day.say(ORGANISER, "/inicio adultos", "2:31:00")) == [
        "That time is already up: nothing to start. To make the results final: /publish"]
    before = events(day.h)
    assert (await day.say(ORGANISER, "/pausa", "3:01:00")) == [
        "Every clock's time is up: there is nothing to pause. To make the results final: "
        "/publish"]
    assert (await day.say(ORGANISER, "/inicio", "3:02:00")) == [
        "That time is already up: nothing to start. To make the results final: /publish"]
    assert events(day.h) == before
    # while one category still plays, the others' clocks are not "up" for /inicio
    assert (await day.say(ORGANISER, "/inicio parejas", "2:31:00")) == [
        "That clock is already running."]


async def test_an_escape_pair_told_its_finish_also_reads_the_time_it_is_ranked_on(day):
    await day.send(VOLUNTEER, "/escape 3 0:25:00", "0:25:00")
    finished = await day.send(VOLUNTEER, "/fin 3 1:45:00", "1:45:10")
    (told,) = replies_to(finished, P3)
    first, second = told.split("\n")
    assert first == "Your finish is recorded: 1:45:00. Well done!"
    # 11 tickets left, capped: the bonus takes the whole escape time off (docs/rules.md)
    assert second.startswith("Your ranking time, with the escape's bonus and penalty: ")
    assert "(escape 0:25:00, bonus -" in second and ", puzzle 1:20:00)." in second
    # an individual is told just the finish
    (solo,) = replies_to(await day.send(VOLUNTEER, "/fin 50 1:40:00", "1:40:10"), P50)
    assert solo == "Your finish is recorded: 1:40:00. Well done!"
