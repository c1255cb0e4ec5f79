"""A hostile probe of advancement as an invitation (issue 29, commit a73da5f), played over the
fake Bot API: what it found wrong (each fixed since) and what it checked and found right.

Two contests: the library series of tests/rounds/test_invitations.py (each library's top two
invited to their county's semi-final, a heat per county, seated by where they came from), and
SEEDED below: one heat of eight, the best four invited to a final split in two heats on two
days, seeded (1 4 | 2 3) as later rounds are by default."""

from __future__ import annotations

import io
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.services.csvio import import_entries, read_entries
from tests.fakebot import Harness, Person, staff
from tests.rounds.test_invitations import (
    BOSS,
    INVITING,
    VIC,
    _locals_played,
    at,
    phone,
    run_job,
    said,
)
from tests.rounds.test_invitations import series as series  # noqa: F401  (the fixture)

# -- helpers --------------------------------------------------------------------------------------


async def table_counts(h: Harness) -> dict[str, int]:
    """Every table of the database and its number of rows."""
    store = await h.app.bot_data["store_handle"].get()
    async with store.conn.execute("select name from sqlite_master where type='table'") as cur:
        names = [r[0] for r in await cur.fetchall()]
    out = {}
    for name in names:
        async with store.conn.execute(f'select count(*) from "{name}"') as cur:
            row = await cur.fetchone()
            out[name] = row[0]
    return out


SEEDED = """
[contest]
name = "Invite heats"
date = 2027-07-02
timezone = "Europe/Madrid"
language = "en"
start = "10:00"

[[categories]]
id = "solo"
name = "Individual"
members = 1
slots = [{}]
pieces = 500
time_limit = "1:00:00"
fee = 0

[[categories.rounds]]
id = "heats"
name = { en = "Heats" }
start = "10:00"
advance = { best = 4, invite = { within = "2:00:00" } }

[[categories.rounds]]
id = "final"
name = { en = "Final" }
heats = 2
pieces = 300
time_limit = "0:45:00"

[[categories.rounds.heat]]
date = 2027-07-03
start = "10:00"

[[categories.rounds.heat]]
date = 2027-07-04
start = "10:00"
"""

MAD = ZoneInfo("Europe/Madrid")
D1 = datetime(2027, 7, 2, 10, 0, tzinfo=MAD)
CONFIRMED = D1 + timedelta(hours=1, minutes=1)  # the heats confirmed: deadlines at 13:01
T0 = D1 + timedelta(hours=1, minutes=5)
SATURDAY = datetime(2027, 7, 3, 10, 0, tzinfo=MAD)  # Final 1 begins
SUNDAY = datetime(2027, 7, 4, 10, 0, tzinfo=MAD)  # Final 2 begins


def pl(n: int) -> Person:
    return Person(100 + n, f"P{n}", "en")


async def seeded(tmp_path: Path, times: dict[int, str] | None = None,
                 rule: str = "best = 4") -> Harness:
    """Eight players, each with a phone; the heats played (player N in 0:3N:00 unless
    ``times`` says otherwise) and confirmed at CONFIRMED."""
    path = tmp_path / "seeded.toml"
    path.write_text(SEEDED.replace("best = 4", rule), encoding="utf-8")
    h = await Harness(tmp_path, path, organisers=frozenset({BOSS.id})).start()
    svc = h.services
    rows = "".join(f"{n},solo,Player {n},1990\n" for n in range(1, 9))
    await import_entries(svc.store, read_entries(svc.contest, io.StringIO(
        "number,category,names,born\n" + rows), "x.csv"))
    for n in range(1, 9):
        entry = await svc.store.entry(n)
        assert entry is not None
        await h.send(pl(n), f"/start {entry.join_code}", D1 - timedelta(days=1))
    await staff(h, BOSS, VIC, D1 - timedelta(days=1))
    await h.send(BOSS, "/inicio", D1)
    for n in range(1, 9):
        t = (times or {}).get(n, f"0:{30 + n}:00")
        await h.send(VIC, f"/fin {n} {t}", D1 + timedelta(minutes=50))
    await h.send(BOSS, "/confirmar_ronda", CONFIRMED)
    return h


async def lineup(h: Harness, category: str = "teams") -> list[list[int]]:
    return (await h.services.day.lineups(h.services.contest.category(category)))[1]


# -- checked, and right ---------------------------------------------------------------------------


async def test_refusals_write_nothing_and_say_why(series: Harness) -> None:
    h = series
    await _locals_played(h)
    await h.send(phone(1), "/accept", at(2024, 9, 13, 9))
    await h.send(phone(2), "/decline", at(2024, 9, 13, 9))
    await h.press(phone(2), "invite:no!:2", at(2024, 9, 13, 9))
    before = await table_counts(h)
    when = at(2024, 9, 13, 10)
    typed = [
        (phone(1), "/accept", "Entry #1 has accepted already: nothing changed."),
        (phone(2), "/accept", "Entry #2 gave up its place already: it went to the next in "
                              "line and can't be taken back."),
        (phone(6), "/accept", "Entry #6 has no invitation to answer."),
        (phone(6), "/decline", "Entry #6 has no invitation to answer."),
        (phone(3), "/decline 1", "You don't follow entry 1. Your entries: #3."),
        (BOSS, "/accept 99", "Entry #99 has no invitation to answer."),
        (BOSS, "/accept", "Usage: /accept N"),
    ]
    for who, text, answer in typed:
        assert said(await h.send(who, text, when), who) == [answer], text
    pressed = [
        (phone(1), "invite:yes:1", ["Entry #1 has accepted already: nothing changed."]),
        (phone(2), "invite:no!:2", ["Entry #2 gave up its place already: it went to the next "
                                    "in line and can't be taken back."]),
        (phone(6), "invite:yes:6", ["Entry #6 has no invitation to answer."]),
        (phone(6), "invite:bogus:6", []),
        (phone(6), "invite:yes:x", []),
    ]
    for who, data, answers in pressed:
        assert said(await h.press(who, data, when), who) == answers, data
    # someone else's entry: refused, whatever the words
    assert len(said(await h.press(phone(3), "invite:no!:1", when), phone(3))) == 1
    assert await table_counts(h) == before
    assert await lineup(h) == [[1], []]


async def test_organiser_answers_for_an_entry_which_is_told(series: Harness) -> None:
    h = series
    await _locals_played(h)
    out = await h.send(BOSS, "/accept 5", at(2024, 9, 13))
    text = ("Entry #5 plays Semi-final – Dane County (Teams): Saturday 12 October at 10:00, "
            "Madison Central Library. See you there! /heats shows your table once everyone "
            "has answered.")
    assert said(out, BOSS) == [text] and said(out, phone(5)) == [text]
    await h.send(BOSS, "/decline 7", at(2024, 9, 13))
    out = await h.press(BOSS, "invite:no!:7", at(2024, 9, 13))
    assert said(out, phone(7)) == [
        "Entry #7 has given up its place in Semi-final – Sauk County (Teams). Thank you for "
        "telling us: it goes to the next in line."]
    # Baraboo's third team takes Baraboo's place, "within" of being told (7 days)
    assert said(out, phone(9))[0].startswith(
        "A place has come free and it is yours: entry #9 may play Semi-final – Sauk County")
    assert "Answer by Friday 20 September at 00:00" in said(out, phone(9))[0]
    assert said(out, VIC) == [
        "#7 Team 7 / Mate 7 gave up its place in Semi-final – Sauk County (Teams). Invited "
        "instead: #9 Team 9 / Mate 9 (answers by Friday 20 September at 00:00)."]
    assert said(await h.press(BOSS, "invite:no!:7", at(2024, 9, 13)), BOSS) == [
        "Entry #7 gave up its place already: it went to the next in line and can't be taken "
        "back."]


async def test_accepted_then_declined_passes_the_place_on_for_good(series: Harness) -> None:
    h = series
    await _locals_played(h)
    await h.press(phone(1), "invite:yes:1", at(2024, 9, 13))
    assert await lineup(h) == [[1], []]
    await h.send(phone(1), "/decline", at(2024, 9, 14))
    out = await h.press(phone(1), "invite:no!:1", at(2024, 9, 14))
    assert said(out, phone(3))[0].startswith("A place has come free and it is yours: entry #3")
    assert await lineup(h) == [[], []]
    assert said(await h.send(phone(1), "/accept", at(2024, 9, 14)), phone(1)) == [
        "Entry #1 gave up its place already: it went to the next in line and can't be taken "
        "back."]
    await h.press(phone(3), "invite:yes:3", at(2024, 9, 14))
    assert await lineup(h) == [[3], []]


async def test_lapses_happen_once_and_survive_a_restart(series: Harness, tmp_path: Path) -> None:
    h = series
    await _locals_played(h)
    for n in (1, 2, 4, 7, 10, 11):  # 5 (Oregon) and 8 (Baraboo) never answer
        await h.press(phone(n), f"invite:yes:{n}", at(2024, 9, 13))
    first = await run_job(h, at(2024, 9, 19, 19, 5))
    assert said(first, phone(5))[0].startswith("Entry #5 did not answer its invitation")
    assert said(first, phone(8))[0].startswith("Entry #8 did not answer its invitation")
    assert said(first, phone(6))[0].startswith("A place has come free and it is yours: entry #6")
    assert said(first, phone(9))[0].startswith("A place has come free and it is yours: entry #9")
    assert [c for c in await run_job(h, at(2024, 9, 19, 19, 5)) if c.method == "sendMessage"] \
        == []
    await h.stop()
    # the bot restarted on the same database: the deadlines' jobs are rebuilt from it
    again = Harness(tmp_path, h.contest_file, organisers=frozenset({BOSS.id}))
    again._update_id = again._message_id = 10_000
    await again.start()
    try:
        assert any(n.startswith("invite:") for n in again.app.bot_data["jobs_by_name"])
        calls = await run_job(again, at(2024, 9, 26, 19, 5))
        assert said(calls, phone(6))[0].startswith("Entry #6 did not answer its invitation")
        assert said(calls, phone(5)) == []  # not twice
        assert [c for c in await run_job(again, at(2024, 9, 26, 19, 5))
                if c.method == "sendMessage"] == []
        assert await lineup(again) == [[1, 2, 4], [7, 10, 11]]
        seen = said(await again.send(BOSS, "/series", at(2024, 9, 27)), BOSS)[0].splitlines()
        assert "  #5 Team 5 / Mate 5: no answer in time" in seen
        assert "  #6 Team 6 / Mate 6: no answer in time" in seen
    finally:
        await again.stop()


async def test_a_tie_on_the_next_place_invites_both(tmp_path: Path) -> None:
    """best = 4, and 5 and 6 tied fifth: #2 gives its place up, both are invited (the
    contest's rule: entries tied on the last place all go through)."""
    h = await seeded(tmp_path, times={5: "0:36:00", 6: "0:36:00"})
    try:
        await h.send(pl(2), "/decline", T0)
        out = await h.press(pl(2), "invite:no!:2", T0)
        assert said(out, pl(5))[0].startswith("A place has come free and it is yours: entry #5")
        assert said(out, pl(6))[0].startswith("A place has come free and it is yours: entry #6")
        assert "Invited instead: #5 Player 5 (answers by Friday 2 July at 13:05), #6 Player 6 " \
            "(answers by Friday 2 July at 13:05)." in said(out, VIC)[0]
        for n in (1, 3, 4, 5, 6):
            await h.send(pl(n), "/accept", T0)
        assert sorted(sum(await lineup(h, "solo"), [])) == [1, 3, 4, 5, 6]
    finally:
        await h.stop()


async def test_only_the_entries_that_accepted_play_the_next_round(tmp_path: Path) -> None:
    h = await seeded(tmp_path)
    try:
        await h.send(pl(1), "/accept", T0)
        for k in range(3):  # nobody else ever answers: 2-4 lapse, then 5-7, then 8
            await run_job(h, datetime(2027, 7, 2, 13, 1, tzinfo=MAD) + timedelta(hours=2 * k))
        assert await lineup(h, "solo") == [[1], []]
        assert said(await h.send(BOSS, "/inicio", SATURDAY), BOSS) == [
            "Clock started for: Final 1 (Individual)."]
        await h.send(VIC, "/fin 1 0:20:00", SATURDAY + timedelta(minutes=30))
        text = said(await h.send(BOSS, "/confirmar_ronda", SATURDAY + timedelta(minutes=50)),
                    BOSS)[0]
        assert text.splitlines()[:3] == ["Individual: Final confirmed. Final classification:",
                                         "1. #1 Player 1: 0:20:00",
                                         "2. #2 Player 2: 0:32:00 (Heats)"]
    finally:
        await h.stop()


# -- bugs -----------------------------------------------------------------------------------------


async def test_an_invited_participant_is_told_it_is_invited(series: Harness) -> None:
    h = series
    await _locals_played(h)
    seen = said(await h.send(phone(1), "/heats", at(2024, 9, 13)), phone(1))
    assert seen == [
        "Entry #1 is invited to Semi-final – Dane County (Teams): Saturday 12 October at 10:00, "
        "Madison Central Library. It plays once it accepts: /accept 1 by Thursday 19 "
        "September at 19:05."]


async def test_lapses_in_two_heats_are_reported_with_each_heat(series: Harness) -> None:
    h = series
    await _locals_played(h)
    for n in (1, 2, 4, 7, 10, 11):
        await h.press(phone(n), f"invite:yes:{n}", at(2024, 9, 13))
    line = said(await run_job(h, at(2024, 9, 19, 19, 5)), VIC)
    assert len(line) == 1
    assert "Sauk County" in line[0], line[0]


async def test_the_heat_named_is_the_heat_invited_to(tmp_path: Path) -> None:
    h = await seeded(tmp_path)
    try:
        assert await lineup(h, "solo") == [[], []]
        asked = said(await h.send(pl(2), "/decline", T0), pl(2))
        assert asked == ["Give up entry #2's place in Final 2 (Individual)? It goes to the next "
                         "in line and can't be taken back."]
        gone = said(await h.press(pl(2), "invite:no!:2", T0), pl(2))
        assert gone == ["Entry #2 has given up its place in Final 2 (Individual). Thank you "
                        "for telling us: it goes to the next in line."]
    finally:
        await h.stop()


async def test_a_heat_two_entry_may_decline_while_heat_one_plays(tmp_path: Path) -> None:
    h = await seeded(tmp_path)
    try:
        for n in (1, 2, 3, 4):
            await h.send(pl(n), "/accept", T0)
        assert await lineup(h, "solo") == [[1, 4], [2, 3]]
        noon = SATURDAY + timedelta(hours=2)  # Final 1 over; Final 2 is tomorrow
        await h.send(pl(3), "/decline", noon)
        out = said(await h.press(pl(3), "invite:no!:3", noon), pl(3))
        assert out != ["Entry #3's heat has begun: answers are no longer taken."]
        assert 3 not in (await lineup(h, "solo"))[1]
    finally:
        await h.stop()


async def test_an_entry_that_accepted_keeps_its_heat_and_day(tmp_path: Path) -> None:
    h = await seeded(tmp_path)
    try:
        calls = []
        for n in (1, 3, 4):
            calls += await h.send(pl(n), "/accept", T0)
        assert said(calls, pl(4))[0].startswith("Entry #4 plays Final 1 (Individual): Saturday")
        await h.send(pl(2), "/decline", T0)
        calls += await h.press(pl(2), "invite:no!:2", T0)
        calls += await h.send(pl(5), "/accept", T0)
        now = await lineup(h, "solo")
        told_of_move = any("Final 2" in t for t in said(calls, pl(4)))
        assert 4 in now[0] or told_of_move, (now, said(calls, pl(4)))
        seen = said(await h.send(pl(4), "/heats", T0), pl(4))
        assert seen[0].startswith("Entry #4 plays Final 1") or told_of_move, seen
    finally:
        await h.stop()


async def test_a_stale_give_up_button_after_the_heat_began_changes_nothing(
        tmp_path: Path) -> None:
    h = await seeded(tmp_path)
    try:
        for n in (1, 2, 3, 4):
            await h.send(pl(n), "/accept", T0)
        await h.send(pl(1), "/decline", T0)  # asked on Friday, not pressed
        await h.send(BOSS, "/inicio", SATURDAY)
        assert await lineup(h, "solo") == [[1, 4], [2, 3]]
        # the question shown at T0, its button pressed during Final 1 (Telegram dates a press
        # by the message it is under)
        out = await h.press(pl(1), "invite:no!:1", T0)
        assert said(out, pl(1)) == ["Entry #1's heat has begun: answers are no longer taken."]
        assert said(out, pl(5)) == []
        assert await lineup(h, "solo") == [[1, 4], [2, 3]]
    finally:
        await h.stop()


@pytest.mark.parametrize("lang, words", [("es", "responde antes del"),
                                         ("fr", "répond avant le")])
async def test_who_is_invited_instead_reads_in_the_staffs_language(
        series: Harness, lang: str, words: str) -> None:
    h = series
    await _locals_played(h)
    reader = Person(VIC.id, VIC.name, lang)
    await h.send(reader, "/idioma " + lang, at(2024, 9, 13))
    await h.send(phone(2), "/decline", at(2024, 9, 13, 9))
    line = said(await h.press(phone(2), "invite:no!:2", at(2024, 9, 13, 9)), VIC)
    assert len(line) == 1
    assert "answers by" not in line[0] and words in line[0], line[0]


async def test_a_lapse_after_by_says_the_place_stays_empty(tmp_path: Path) -> None:
    path = tmp_path / "series.toml"
    path.write_text(INVITING.replace('invite = { within = "7 days" }',
                                     "invite = { by = 2024-09-19T19:00:00 }"), encoding="utf-8")
    h = await Harness(tmp_path, path, organisers=frozenset({BOSS.id})).start()
    try:
        await _locals_played(h)
        for n in (1, 2, 4, 7, 8, 10, 11):
            await h.press(phone(n), f"invite:yes:{n}", at(2024, 9, 13))
        calls = await run_job(h, at(2024, 9, 19, 19, 0))
        assert said(calls, phone(6)) == []  # nobody takes it: no time left
        assert "Nobody else goes through by the contest file's rule." not in said(calls, VIC)[0]
        assert "the place went to the next in line" not in said(calls, phone(5))[0]
    finally:
        await h.stop()


async def test_every_phone_of_the_entry_hears_the_answer(series: Harness) -> None:
    h = series
    await _locals_played(h)
    entry = await h.services.store.entry(2)
    assert entry is not None
    mate = Person(300, "Mate2", "en")
    await h.send(mate, f"/start {entry.join_code}", at(2024, 9, 13))
    await h.send(phone(2), "/decline", at(2024, 9, 13, 9))
    out = await h.press(phone(2), "invite:no!:2", at(2024, 9, 13, 9))
    assert said(out, mate) != []


async def test_keep_after_giving_up_does_not_say_it_is_kept(series: Harness) -> None:
    h = series
    await _locals_played(h)
    await h.send(phone(2), "/decline", at(2024, 9, 13, 9))
    await h.press(phone(2), "invite:no!:2", at(2024, 9, 13, 9))
    kept = said(await h.press(phone(2), "invite:keep:2", at(2024, 9, 13, 9)), phone(2))
    assert kept != ["Nothing changed: entry #2 keeps its invitation."]


async def test_a_button_of_another_entry_is_refused_as_typed(series: Harness) -> None:
    h = series
    await _locals_played(h)
    out = said(await h.press(phone(3), "invite:yes:1", at(2024, 9, 13)), phone(3))
    assert out == ["You don't follow entry 1. Your entries: #3."]
