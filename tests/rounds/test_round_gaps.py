"""Before a round is made final, /confirmar_ronda lists the entries of it with no result
(issue 47: in the series it dropped four teams, who learnt it seven weeks later): each with a
"did not start" button, then "Confirm anyway" and "Not yet". Nothing is confirmed with a silent
gap; a round with a result for everyone is confirmed at once, as before. In English and
German."""

from __future__ import annotations

import io
from datetime import timedelta
from pathlib import Path

from bot.services.csvio import import_entries, read_entries
from tests.fakebot import Harness, Person
from tests.rounds.test_invitations import BOSS as SBOSS
from tests.rounds.test_invitations import INVITING, phone
from tests.rounds.test_invitations import VIC as SVIC
from tests.rounds.test_invitations import at as inv_at
from tests.rounds.test_rounds import BOSS, DAY1, VIC, contest_file, said, staff
from tests.rounds.test_series import LIBRARIES

GRETA = Person(9, "Greta", "de")  # a second organiser, reading German
OVER = DAY1 + timedelta(hours=3, minutes=1)  # both heats' time is up


async def open_day(tmp_path: Path) -> Harness:
    """The rounds test's eight entries; heat 1 (#1-4) from DAY1, heat 2 (#5-8) two hours later,
    every entry finished but #4, of whom nothing was recorded."""
    h = await Harness(tmp_path, contest_file(tmp_path),
                      organisers=frozenset({BOSS.id, GRETA.id})).start()
    svc = h.services
    rows = "".join(f"{n},solo,Player {n},1990\n" for n in range(1, 9))
    await import_entries(svc.store, read_entries(svc.contest, io.StringIO(
        "number,category,names,born\n" + rows), "x.csv"))
    for n in range(1, 9):
        entry = await svc.store.entry(n)
        await h.send(Person(100 + n, f"P{n}", "en"), f"/start {entry.join_code}",
                     DAY1 - timedelta(days=1))
    await staff(h, BOSS, VIC, DAY1 - timedelta(days=1))
    await h.send(GRETA, "/start", DAY1 - timedelta(days=1))
    await h.send(BOSS, "/inicio", DAY1)
    for n in (1, 2, 3):
        await h.send(VIC, f"/fin {n}", DAY1 + timedelta(minutes=40 + n))
    await h.send(BOSS, "/inicio", DAY1 + timedelta(hours=2))
    for n in (5, 6, 7, 8):
        await h.send(VIC, f"/fin {n}", DAY1 + timedelta(hours=2, minutes=30 + n))
    return h


async def confirmed_rounds(h: Harness) -> int:
    return await h.services.day.confirmed_rounds(h.services.contest.categories[0])


async def test_a_round_with_an_entry_without_result_asks_first(tmp_path: Path) -> None:
    h = await open_day(tmp_path)
    try:
        calls = await h.send(BOSS, "/confirmar_ronda", OVER)
        assert said(calls, BOSS) == [
            "Individual, Heats: 1 entry has no result and would be left out of the round's "
            "ranking: #4 Player 4. Record its pieces (/pieces N P) or that it did not start, "
            "or confirm the round anyway."]
        assert h.buttons(calls) == [("#4 Did not start", "st:4:dns"),
                                    ("Confirm anyway", "cr:0:solo"), ("Not yet", "cr:-")]
        assert await confirmed_rounds(h) == 0  # nothing confirmed, nobody told
        assert said(calls, Person(101, "P1", "en")) == []
        # "Not yet": nothing changes
        assert said(await h.press(BOSS, "cr:-", OVER + timedelta(seconds=5)), BOSS) == [
            "Nothing confirmed: the round is still open."]
        assert await confirmed_rounds(h) == 0
        # one tap settles #4 (did not start); asked again, the round is confirmed at once
        await h.press(BOSS, "st:4:dns", OVER + timedelta(seconds=10))
        calls = await h.send(BOSS, "/confirmar_ronda", OVER + timedelta(seconds=20))
        assert said(calls, BOSS)[0].startswith("Individual: Heats confirmed. 5 go through")
        assert await confirmed_rounds(h) == 1
    finally:
        await h.stop()


async def test_confirm_anyway_confirms_the_round_asked_about_and_only_once(
        tmp_path: Path) -> None:
    h = await open_day(tmp_path)
    try:
        await h.send(BOSS, "/confirmar_ronda", OVER)
        calls = await h.press(BOSS, "cr:0:solo", OVER + timedelta(seconds=30))
        assert said(calls, BOSS)[0].startswith("Individual: Heats confirmed. 5 go through")
        assert await confirmed_rounds(h) == 1
        # the same button again: the round it asked about is confirmed, the next is not
        # confirmed without asking
        assert said(await h.press(BOSS, "cr:0:solo", OVER + timedelta(seconds=40)), BOSS) == [
            "Individual: that question was about a round confirmed since. Nothing changed."]
        assert await confirmed_rounds(h) == 1
        # a volunteer can't press it
        assert await h.press(VIC, "cr:0:solo", OVER + timedelta(seconds=50))
        assert await confirmed_rounds(h) == 1
    finally:
        await h.stop()


async def test_the_question_in_german(tmp_path: Path) -> None:
    h = await open_day(tmp_path)
    try:
        calls = await h.send(GRETA, "/confirmar_ronda", OVER)
        text = said(calls, GRETA)[0]
        assert "1 Anmeldung hat kein Ergebnis und fiele aus der Wertung der Runde: " \
               "#4 Player 4. Trage ihre Teile ein (/pieces N P)" in text, text
        assert [label for label, _ in h.buttons(calls)][1:] == ["Trotzdem bestätigen",
                                                                "Noch nicht"]
        assert said(await h.press(GRETA, "cr:-", OVER + timedelta(seconds=5)), GRETA) == [
            "Nichts bestätigt: Die Runde bleibt offen."]
    finally:
        await h.stop()


async def test_qualifiers_invited_with_no_phone_linked_are_named_before_the_round_is_final(
        tmp_path: Path) -> None:
    """Issue 47: imported teams that never linked a phone were "invited", lapsed a week later,
    and so did their replacements. Teams 2 and 5 qualify with no phone: the organiser is told
    before confirming, confirms anyway, and answers for team 2."""
    path = tmp_path / "series.toml"
    path.write_text(INVITING, encoding="utf-8")
    h = await Harness(tmp_path, path, organisers=frozenset({SBOSS.id})).start()
    try:
        svc = h.services
        lines = "".join(f"{n},teams,Team {n};Mate {n},1990;1991,{LIBRARIES[(n - 1) // 3]}\n"
                        for n in range(1, 13))
        await import_entries(svc.store, read_entries(svc.contest, io.StringIO(
            "number,category,names,born,library\n" + lines), "x.csv"))
        for n in range(1, 13):
            entry = await svc.store.entry(n)
            if n not in (2, 5):
                await h.send(phone(n), f"/start {entry.join_code}", inv_at(2024, 8, 1))
        await staff(h, SBOSS, SVIC, inv_at(2024, 8, 1))
        for k, day in enumerate((inv_at(2024, 8, 15, 18), inv_at(2024, 8, 22, 18),
                                 inv_at(2024, 9, 5, 18), inv_at(2024, 9, 12, 18))):
            await h.send(SBOSS, "/inicio", day)
            for n in range(3 * k + 1, 3 * k + 4):
                await h.send(SVIC, f"/fin {n} 0:{40 + n}:00", day + timedelta(minutes=58))
        calls = await h.send(SBOSS, "/confirmar_ronda", inv_at(2024, 9, 12, 19, 5))
        assert said(calls, SBOSS) == [
            "Teams, Local contest: 2 qualifiers have no phone linked, so their invitations to "
            "the next round would reach nobody and lapse: #2 Team 2 / Mate 2, #5 Team 5 / "
            "Mate 5. Give them their link, or once the round is confirmed answer for them "
            "(/accept N)."]
        assert h.buttons(calls) == [("Confirm anyway", "cr:0:teams"), ("Not yet", "cr:-")]
        teams = svc.contest.category("teams")
        assert await svc.day.confirmed_rounds(teams) == 0
        calls = await h.press(SBOSS, "cr:0:teams", inv_at(2024, 9, 12, 19, 6))
        assert said(calls, SBOSS)[0].startswith("Teams: Local contest confirmed. 8 are invited")
        assert said(await h.send(SBOSS, "/acepto 2", inv_at(2024, 9, 13, 9)), SBOSS)
        assert (await svc.day.lineups(teams))[1] == [[2], []]
    finally:
        await h.stop()
