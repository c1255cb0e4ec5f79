"""A contest played at home (issue 29, "contests played at home"): at the start signal each
entry gets a code; ``/listo`` claims the finish at that moment; a photo of the finished puzzle
goes to the reviewers with buttons (confirm, another photo, not finished, no code); only a
confirmed claim is ranked, and the results can't be final while a claim waits. Played through
the real Application against the fake Bot API (contests/home-cup-2026.toml)."""

from __future__ import annotations

import io
import json
import re
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from bot.features.selftimed.rules import (
    CODE_ALPHABET,
    CODE_LENGTH,
    PhotoRefused,
    PhotoUse,
    claim_code,
    photo_use,
)
from bot.services.contest_file import ContestFileError, load_contest
from bot.services.csvio import import_entries, read_entries
from tests.day.test_bot_commands import day, event_rows, events, replies_to
from tests.fakebot import Call, Harness, Person

ROOT = Path(__file__).resolve().parents[2]
HOME_CUP = ROOT / "contests" / "home-cup-2026.toml"
LONDON = ZoneInfo("Europe/London")
T0 = datetime(2026, 11, 14, 19, 0, tzinfo=LONDON)  # the start signal

ORGANISER = Person(1, "Olga", "en")
REVIEWER = Person(2, "Rita", "en")  # a volunteer, reviewing from her sofa
SOLO1 = Person(101, "Ann", "en")
SOLO2 = Person(102, "Ben", "en")
PAIR = Person(110, "Cleo", "en")
CSV = """number,category,names,born,country
1,solo,Ann Archer,1990-03-01,GB
2,solo,Ben Brook,1985-07-12,IE
10,pairs,Cleo Cole; Dan Cole,1980-01-20; 1982-11-02,GB
"""
__all__ = ["day"]  # the fixture, shared with tests/day/test_bot_commands.py
CODE = re.compile(rf"code is ([{CODE_ALPHABET}]{{{CODE_LENGTH}}})\.")


def at(clock: str) -> datetime:
    h, m, s = (int(x) for x in clock.lstrip("-").split(":"))
    sign = -1 if clock.startswith("-") else 1
    return T0 + sign * timedelta(hours=h, minutes=m, seconds=s)


def photos_to(calls: list[Call], who: Person) -> list[Call]:
    return [c for c in calls if c.method == "sendPhoto" and c.chat_id == who.id]


def keyboard(call: Call) -> list[tuple[str, str]]:
    markup = call.params.get("reply_markup")
    markup = json.loads(markup) if isinstance(markup, str) else markup or {}
    return [(b["text"], b["callback_data"]) for row in markup.get("inline_keyboard", [])
            for b in row]


class Home:
    def __init__(self, h: Harness, joins: dict[int, str]) -> None:
        self.h = h
        self.joins = joins

    async def send(self, who: Person, text: str, clock: str) -> list[Call]:
        return await self.h.send(who, text, at(clock))

    async def say(self, who: Person, text: str, clock: str) -> list[str]:
        return replies_to(await self.send(who, text, clock), who)

    async def photo(self, who: Person, clock: str, file_id: str | None = None,
                    caption: str | None = None) -> list[Call]:
        return await self.h.send_photo(who, at(clock), file_id, caption)


async def open_home(tmp_path: Any, start: bool = True) -> tuple[Home, dict[int, str]]:
    """The Home Puzzle Cup with solos 1 and 2 and pair 10, each linked to one phone; the
    organiser and a volunteer (the reviewer) in place; with ``start``, the start signal at T0.
    Returns the day and each entry's code from the start's notices."""
    h = await Harness(tmp_path, HOME_CUP, organisers=frozenset({ORGANISER.id})).start()
    svc = h.services
    await import_entries(svc.store, read_entries(svc.contest, io.StringIO(CSV), "e.csv"))
    joins = {e.number: e.join_code for e in await svc.store.entries()}
    home = Home(h, joins)
    for person, number in ((SOLO1, 1), (SOLO2, 2), (PAIR, 10)):
        await home.send(person, f"/start {joins[number]}", "-1:00:00")
    await home.send(ORGANISER, "/start", "-2:00:00")
    link = replies_to(await home.send(ORGANISER, "/voluntario", "-2:00:00"), ORGANISER)[0]
    await home.send(REVIEWER, f"/start {link.split('start=')[1].split()[0]}", "-2:00:00")
    codes: dict[int, str] = {}
    if start:
        calls = await home.send(ORGANISER, "/inicio", "0:00:00")
        for person, number in ((SOLO1, 1), (SOLO2, 2), (PAIR, 10)):
            (notice,) = [t for t in replies_to(calls, person) if t.startswith("Start!")]
            found = CODE.search(notice)
            assert found is not None, notice
            codes[number] = found.group(1)
    return home, codes


@pytest.fixture
async def home(tmp_path):
    day, codes = await open_home(tmp_path)
    day.codes = codes  # type: ignore[attr-defined]
    yield day
    await day.h.stop()


async def claim_with_photo(home: Home, who: Person, number: int, clock: str, photo_clock: str,
                           file_id: str | None = None) -> tuple[Call, int]:
    """``who`` says /listo at ``clock`` and sends the photo at ``photo_clock``: the reviewer's
    photo, and the /listo's event id."""
    await home.send(who, "/listo", clock)
    listo = [r["id"] for r in event_rows(home.h, "ready") if r["entry"] == number][-1]
    calls = await home.photo(who, photo_clock, file_id)
    (review,) = photos_to(calls, REVIEWER)
    return review, listo


# -- the codes ---------------------------------------------------------------------------------


def test_codes_are_the_starts_own_and_each_entrys_own() -> None:
    a, b = claim_code("seed-a", 1), claim_code("seed-a", 2)
    assert a != b and a == claim_code("seed-a", 1)  # worked out again: the same
    assert claim_code("seed-b", 1) != a  # another start, another code
    assert len(a) == CODE_LENGTH and set(a) <= set(CODE_ALPHABET)
    assert not set(CODE_ALPHABET) & set("0O1IL2Z5S8B6G")  # nothing misread off a photo


def test_what_a_photo_is_for() -> None:
    assert photo_use(False, False, False, False, False) == PhotoRefused("not_started")
    assert photo_use(True, False, False, False, False) is PhotoUse.START
    assert photo_use(True, True, False, False, False) is PhotoUse.CLAIM
    assert photo_use(True, True, False, True, False) is PhotoUse.CLAIM  # claimed in time
    assert photo_use(True, False, True, False, False) == PhotoRefused("finished")
    assert photo_use(True, False, False, True, False) is PhotoUse.TIME_UP
    assert photo_use(True, False, False, True, True) == PhotoRefused("counted")


async def test_the_start_signal_gives_every_entry_its_code_and_a_restart_keeps_it(tmp_path):
    home, codes = await open_home(tmp_path)
    assert len(set(codes.values())) == 3
    (start,) = event_rows(home.h, "clock_start")[:1]
    assert "seed" in json.loads(start["data"])
    await home.h.stop()
    # the bot restarted: the code it repeats at /listo is the one sent at the start
    h2 = await Harness(tmp_path, HOME_CUP, organisers=frozenset({ORGANISER.id})).start()
    h2._update_id = h2._message_id = 10_000  # Telegram's update ids go on
    try:
        (said,) = replies_to(await h2.send(SOLO1, "/listo", at("1:10:00")), SOLO1)
        assert f"your code {codes[1]} beside it" in said
    finally:
        await h2.stop()


# -- a claim, its photo, its review ----------------------------------------------------------


async def test_a_claim_counts_only_once_the_reviewer_confirms_it(home):
    said = await home.send(SOLO1, "/listo", "1:12:30")
    assert replies_to(said, SOLO1) == [
        "Noted: finished in 1:12:30 (at 20:12:30). Now send a photo of the whole finished puzzle "
        f"with the paper showing your code {home.codes[1]} beside it. Your time counts once a "
        "reviewer has checked the photo; I will tell you."]
    assert replies_to(said, REVIEWER) == [] and photos_to(said, REVIEWER) == []  # no table
    calls = await home.photo(SOLO1, "1:13:05", "finished-1")
    assert replies_to(calls, SOLO1) == [
        "Photo received for your time of 1:12:30. A reviewer checks it; I will tell you."]
    (review,) = photos_to(calls, REVIEWER)
    assert photos_to(calls, ORGANISER)  # every organiser and volunteer reviews
    assert review.params["photo"] == "finished-1"  # the largest size
    assert review.params["caption"] == (
        "REVIEW #1 Ann Archer: finished in 1:12:30 (at 20:12:30). Their code is "
        f"{home.codes[1]}: check that the puzzle is complete and the code is on the paper in "
        "the photo.")
    listo = event_rows(home.h, "ready")[-1]["id"]
    assert keyboard(review) == [
        ("#1 🙋 I'll check it", f"take:1:{listo}"),
        ("#1 ✅ Confirm 1:12:30", f"ready:ok:1:{listo}"),
        ("📷 Another photo", f"rev:again:1:{listo}"),
        ("❌ Not finished", f"ready:no:1:{listo}"),
        ("❌ No code in the photo", f"rev:nocode:1:{listo}")]
    (kept,) = event_rows(home.h, "photo")
    assert json.loads(kept["data"])["use"] == "claim"
    # not ranked yet: the ranking says it waits
    ranking = (await home.say(ORGANISER, "/clasificacion solo", "1:20:00"))[0]
    assert "1:12:30" not in ranking.split("Waiting")[0]
    assert "Waiting for review (not ranked yet): #1 (1:12:30, photo received)." in ranking
    pressed = await home.h.press(REVIEWER, f"ready:ok:1:{listo}", at("1:25:00"))
    assert replies_to(pressed, SOLO1) == ["Your finish is recorded: 1:12:30. Well done!"]
    ranking = (await home.say(ORGANISER, "/clasificacion solo", "1:26:00"))[0]
    assert "1. #1 Ann Archer (GB): 1:12:30" in ranking and "Waiting" not in ranking
    # a second press records nothing
    before = events(home.h)
    again = await home.h.press(ORGANISER, f"ready:ok:1:{listo}", at("1:27:00"))
    assert replies_to(again, ORGANISER) == [
        "Entry 1 already has 1:12:30 recorded: nothing changed."]
    assert events(home.h) == before


async def test_a_second_listo_while_a_claim_waits_is_refused(home):
    await home.send(SOLO1, "/listo", "1:12:30")
    before = events(home.h)
    assert await home.say(SOLO1, "/listo", "1:14:00") == [
        "Your time of 1:12:30 already waits for review: send the photo of the finished "
        "puzzle with your code, if you haven't yet."]
    assert events(home.h) == before


async def test_another_photo_keeps_the_claims_time(home):
    review, listo = await claim_with_photo(home, SOLO2, 2, "1:30:00", "1:30:40", "blurred")
    asked = await home.h.press(REVIEWER, f"rev:again:2:{listo}", at("1:33:00"))
    assert replies_to(asked, REVIEWER) == [
        "Entry 2 is asked for another photo; its time of 1:30:00 waits for it."]
    assert replies_to(asked, SOLO2) == [
        "A reviewer needs another photo of your finished puzzle: the whole puzzle and the "
        f"paper with your code {home.codes[2]}, sharp, in one picture. Your time stays 1:30:00."]
    # asked twice before a new photo: refused, nothing written
    before = events(home.h)
    twice = await home.h.press(ORGANISER, f"rev:again:2:{listo}", at("1:33:30"))
    assert replies_to(twice, ORGANISER) == [
        "Entry 2 was already asked for another photo, and none came since."]
    assert events(home.h) == before
    calls = await home.photo(SOLO2, "1:36:00", "sharp")
    (second,) = photos_to(calls, REVIEWER)
    assert second.params["photo"] == "sharp" and "finished in 1:30:00" in second.params["caption"]
    await home.h.press(REVIEWER, f"ready:ok:2:{listo}", at("1:37:00"))
    ranking = (await home.say(ORGANISER, "/clasificacion solo", "1:38:00"))[0]
    assert "#2 Ben Brook (IE): 1:30:00" in ranking


async def test_a_claim_turned_down_tells_why_and_the_entry_may_claim_again(home):
    _, listo = await claim_with_photo(home, SOLO1, 1, "0:50:00", "0:50:30")
    pressed = await home.h.press(REVIEWER, f"rev:nocode:1:{listo}", at("0:52:00"))
    assert replies_to(pressed, REVIEWER) == [
        "Entry 1: the time of 0:50:00 is not accepted (the paper with your code is not in "
        "the photo). They are told, and may claim again."]
    assert replies_to(pressed, SOLO1) == [
        "A reviewer did not accept your time of 0:50:00: the paper with your code is not in "
        "the photo. If your time is not up, play on and send /done again when the puzzle is "
        "done, then a photo of it with your code."]
    (row,) = event_rows(home.h, "not_finished")
    assert json.loads(row["data"])["reason"] == "no_code"
    # the old review's buttons are outdated now
    before = events(home.h)
    late = await home.h.press(ORGANISER, f"ready:ok:1:{listo}", at("0:53:00"))
    assert replies_to(late, ORGANISER) == [
        "Entry 1 has said /done again, or a result was recorded for it since this line: "
        "nothing recorded. Look at its newest line, or send /finish 1."]
    assert events(home.h) == before
    # a new claim, then a typed rejection with the reviewer's own words
    await claim_with_photo(home, SOLO1, 1, "0:58:00", "0:58:20")
    typed = await home.send(REVIEWER, "/rechazar 1 two pieces are missing, top left", "1:00:00")
    assert replies_to(typed, SOLO1) == [
        "A reviewer did not accept your time of 0:58:00: two pieces are missing, top left. "
        "If your time is not up, play on and send /done again when the puzzle is done, then a "
        "photo of it with your code."]
    assert await home.say(REVIEWER, "/rechazar 1", "1:01:00") == [
        "Nothing of entry 1 waits for review (no /done since the last decision)."]
    # the "not finished" button on a claim made at home gives the reviewer's reason
    _, third = await claim_with_photo(home, SOLO1, 1, "1:05:00", "1:05:10")
    done_not = await home.h.press(REVIEWER, f"ready:no:1:{third}", at("1:06:00"))
    assert replies_to(done_not, SOLO1)[0].startswith(
        "A reviewer did not accept your time of 1:05:00: the puzzle in the photo is not "
        "finished.")


async def test_results_wait_for_every_review(home):
    await home.send(SOLO1, "/listo", "1:40:00")
    _, listo = await claim_with_photo(home, SOLO2, 2, "1:59:00", "2:00:30")
    await home.h.press(REVIEWER, f"ready:ok:1:{event_rows(home.h, 'ready')[0]['id']}",
                       at("2:01:00"))  # confirmed without a photo: the reviewer's call
    said = await home.say(ORGANISER, "/publicar solo", "2:05:00")
    assert said == ["No results can be made final now:\n· Solo: finishes claimed at home "
                    "still wait for review (#2): confirm or turn each down first."]
    await home.h.press(REVIEWER, f"ready:ok:2:{listo}", at("2:06:00"))
    asked = await home.say(ORGANISER, "/publicar solo", "2:07:00")
    assert "Solo" in asked[0] and "Nothing to publish" not in asked[0]


async def test_a_photo_at_times_up_goes_to_the_reviewers_to_count(home):
    calls = await home.photo(PAIR, "3:00:20", "where-we-got")
    assert replies_to(calls, PAIR) == [
        "Photo kept: time is up, and a reviewer counts your pieces from it."]
    (review,) = photos_to(calls, REVIEWER)
    assert review.params["caption"] == (
        "PIECES? #10 Cleo Cole / Dan Cole: time is up. Count the pieces placed in the photo, "
        "then /pieces 10 P.")
    assert keyboard(review) == []
    await home.send(REVIEWER, "/piezas 10 870", "3:05:00")
    before = events(home.h)
    assert await home.say(PAIR, "/listo", "3:06:00") != []
    assert replies_to(await home.photo(PAIR, "3:07:00", "again"), PAIR) == [
        "Entry 10's time is up and its pieces are recorded: nothing changed."]
    assert events(home.h) == before


async def test_a_photo_before_the_start_is_kept_as_the_start_after_it(tmp_path):
    home, _ = await open_home(tmp_path, start=False)
    try:
        before = events(home.h)
        assert replies_to(await home.photo(SOLO1, "-0:05:00"), SOLO1) == [
            "The clock of entry 1's category has not started yet."]
        assert events(home.h) == before
        calls = await home.send(ORGANISER, "/inicio", "0:00:00")
        code = CODE.search(replies_to(calls, SOLO1)[0])
        assert code is not None
        calls = await home.photo(SOLO1, "0:00:40", "open-box")
        assert replies_to(calls, SOLO1) == [
            "Start photo kept (0:00:40 after your start). When the puzzle is done: /done, "
            f"then a photo of it with your code {code.group(1)}."]
        assert photos_to(calls, REVIEWER) == []
        assert json.loads(event_rows(home.h, "photo")[0]["data"])["use"] == "start"
        # a stranger's photo changes nothing
        stranger = Person(900, "Zed", "en")
        assert replies_to(await home.h.send_photo(stranger, at("0:01:00")), stranger) == [
            "This command is for participants: open your entry's link first (ask the "
            "organisers)."]
    finally:
        await home.h.stop()


async def test_photos_where_volunteers_time_the_day_are_refused(day):
    from tests.day.test_bot_commands import P50
    from tests.day.test_bot_commands import at as castrillo_at
    before = events(day.h)
    assert replies_to(await day.h.send_photo(P50, castrillo_at("0:30:00")), P50) == [
        "Entry 50 is not played at home: volunteers record its finish (no photo needed)."]
    assert events(day.h) == before


@pytest.mark.parametrize(("change", "message"), [
    ('timing = "self"', None),
    ('timing = "sometimes"', "must be \"volunteers\" or \"self\", not 'sometimes'"),
])
def test_the_contest_files_timing(tmp_path, change, message):
    text = HOME_CUP.read_text().replace('timing = "self"', change)
    path = tmp_path / "c.toml"
    path.write_text(text)
    if message is None:
        assert all(c.self_timed for c in load_contest(path).categories)
        return
    with pytest.raises(ContestFileError, match=message):
        load_contest(path)


def test_a_category_may_be_timed_by_volunteers_in_a_contest_at_home(tmp_path):
    text = HOME_CUP.read_text().replace('id = "pairs"', 'id = "pairs"\ntiming = "volunteers"')
    path = tmp_path / "c.toml"
    path.write_text(text)
    contest = load_contest(path)
    assert [c.self_timed for c in contest.categories] == [True, False]


def test_self_timed_refuses_what_volunteers_must_confirm(tmp_path):
    text = HOME_CUP.read_text().replace(
        'pieces = 1000', 'puzzles = [500, 500]').replace('pieces = 500\n', 'pieces = 500\n', 1)
    path = tmp_path / "c.toml"
    path.write_text(text)
    with pytest.raises(ContestFileError, match="split times of puzzles played one after"):
        load_contest(path)


# -- what a hostile probe found (session 41), each held --------------------------------------


async def test_a_finish_without_a_claim_is_refused_at_home(home):
    before = events(home.h)
    assert await home.say(REVIEWER, "/fin 2", "1:30:00") == [
        "Entry 2 plays at home and has no finish waiting for review (no /done since the last "
        "decision): nothing recorded. A time read elsewhere is typed: /finish 2 h:mm:ss."]
    assert events(home.h) == before
    # a time read elsewhere (a photo sent by mail) is typed, and recorded as typed
    assert (await home.say(REVIEWER, "/fin 2 1:29:10", "1:30:10"))[0].startswith(
        "Entry 2 finished at 1:29:10")


async def test_a_photo_delivered_twice_is_kept_once(home):
    await home.send(SOLO1, "/listo", "1:00:00")
    first = await home.h.send_photo(SOLO1, at("1:00:30"), "once", update_id=777)
    again = await home.h.send_photo(SOLO1, at("1:00:30"), "once", update_id=777)
    assert len(photos_to(first, REVIEWER)) == 1 and photos_to(again, REVIEWER) == []
    assert len(event_rows(home.h, "photo")) == 1


async def test_a_caption_of_words_is_not_an_entry_number(home):
    calls = await home.photo(SOLO1, "0:30:00", "mine", caption="500 pieces done!")
    assert replies_to(calls, SOLO1)[0].startswith("Start photo kept")


async def test_a_rejection_reason_is_cleaned(home):
    await home.send(SOLO1, "/listo", "1:00:00")
    told = await home.send(REVIEWER, "/rechazar 1 bad\u202e\u200b\x1b\x07 edge", "1:01:00")
    (notice,) = replies_to(told, SOLO1)
    assert "\u202e" not in notice and "\x1b" not in notice and "\x07" not in notice
    assert "bad" in notice and "edge" in notice


async def test_taking_back_a_decision_puts_the_claim_back_to_waiting(home):
    _, listo = await claim_with_photo(home, SOLO1, 1, "1:00:00", "1:00:30")
    await home.h.press(REVIEWER, f"ready:no:1:{listo}", at("1:02:00"))
    undone = await home.h.undo(REVIEWER, at("1:03:00"))
    assert replies_to(undone, SOLO1) == [
        "The reviewer's refusal of your finish was taken back: your claim stands and waits "
        "for a reviewer again."]
    await home.h.press(REVIEWER, f"ready:ok:1:{listo}", at("1:04:00"))
    undone = await home.h.undo(REVIEWER, at("1:05:00"))
    assert replies_to(undone, SOLO1) == [
        "The confirmation of your finish was taken back: your claim waits for a reviewer "
        "again."]
    # "another photo" is taken back too, by its own /deshacer, not another record's
    _, listo2 = await claim_with_photo(home, SOLO2, 2, "1:10:00", "1:10:30")
    await home.h.press(REVIEWER, f"rev:again:2:{listo2}", at("1:11:00"))
    asked = await home.send(REVIEWER, "/deshacer", "1:12:00")
    assert "another photo asked #2" in replies_to(asked, REVIEWER)[0]


async def test_time_up_at_home_asks_for_the_photo_to_count(home):
    assert await home.say(SOLO1, "/listo", "2:00:30") == [
        "Time is up (2:00:00): hands off the puzzle, and send me a photo of it as it is now: "
        "a reviewer counts your pieces."]
    # a claim waiting at time's up, turned down after it: the notice asks for that photo
    await home.send(SOLO2, "/listo", "1:50:00")
    told = await home.send(REVIEWER, "/rechazar 2", "2:05:00")
    assert replies_to(told, SOLO2) == [
        "A reviewer did not accept your time of 1:50:00: the puzzle in the photo is not "
        "finished. Your time is up: send me a photo of your puzzle as it is now, and a "
        "reviewer counts your pieces from it."]
    assert replies_to(await home.photo(SOLO2, "2:06:00"), SOLO2) == [
        "Photo kept: time is up, and a reviewer counts your pieces from it."]
