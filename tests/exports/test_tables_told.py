"""Each entry told its table (issue 47, item 5): under /mesas's table lists the organiser is
asked whether to tell each entry with a phone its table; the press tells each one in its
language, once; after a change of seats only those whose table moved are told again."""

from __future__ import annotations

import io
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from bot.services.csvio import import_entries, read_entries
from tests.fakebot import Harness, said, staff
from tests.standings.test_publish_titles import ANA, BOSS, CONTEST, ENTRIES, JONAS, LENA, VIC

# a day gone by: the seats are read at the wall clock's moment
BEFORE = datetime(2026, 5, 9, 8, 0, tzinfo=ZoneInfo("Europe/Berlin"))


async def open_day(tmp_path: Path) -> Harness:
    """The German open, starting at 10:00: Ana (es) at entry 1, Jonas (de) 2, Lena (es) 3,
    Marie (4) with no phone; seated through the hall by number."""
    path = tmp_path / "c.toml"
    path.write_text(CONTEST.replace("2027-05-08", "2026-05-09").replace(
        'language = "de"\n', 'language = "de"\nstart = "10:00"\n', 1), encoding="utf-8")
    h = await Harness(tmp_path, path, organisers=frozenset({BOSS.id})).start()
    svc = h.services
    await import_entries(svc.store, read_entries(svc.contest, io.StringIO(ENTRIES), "x.csv"))
    for who, number in ((ANA, 1), (JONAS, 2), (LENA, 3)):
        entry = await svc.store.entry(number)
        await h.send(who, f"/start {entry.join_code}", BEFORE - timedelta(days=1))
    await staff(h, BOSS, VIC, BEFORE - timedelta(days=1))
    return h


async def mesas(h: Harness, at: datetime) -> tuple[list[str], list[tuple[str, str]]]:
    calls = await h.send(BOSS, "/mesas", at)
    assert [c.params["document"]["file"] for c in calls if c.method == "sendDocument"] == [
        "tables-open.pdf"]  # the lists first, as before
    return said(calls, BOSS), h.buttons(calls)


async def test_each_entry_is_told_its_table_once_and_again_only_when_it_moved(
        tmp_path: Path) -> None:
    h = await open_day(tmp_path)
    try:
        question, keys = await mesas(h, BEFORE)
        assert question == [
            "3 Anmeldungen per Nachricht ihren Tisch mitteilen (noch nie mitgeteilt oder Tisch "
            "geändert)?\nDas erreicht 3 Personen."], question
        assert keys == [("Mitteilen", "tbl:open"), ("Abbrechen", "tbl:-")]
        assert said(await h.press(BOSS, "tbl:-", BEFORE), BOSS) == [
            "Niemandem wurde etwas mitgeteilt."]
        done = await h.press(BOSS, "tbl:open", BEFORE + timedelta(minutes=1))
        assert said(done, JONAS) == ["Dein Tisch: 2 (Open, Samstag, 9. Mai um 10:00)."]
        assert said(done, ANA) == ["Tu mesa: 1 (Open, sábado 9 de mayo a las 10:00)."]
        assert said(done, LENA) == ["Tu mesa: 3 (Open, sábado 9 de mayo a las 10:00)."]
        assert said(done, BOSS) == ["3 Anmeldungen kennen jetzt ihren Tisch."]
        # once: the lists again ask nothing, and the same button again tells nobody
        assert await mesas(h, BEFORE + timedelta(minutes=2)) == ([], [])
        again = await h.press(BOSS, "tbl:open", BEFORE + timedelta(minutes=3))
        assert said(again, JONAS) == said(again, ANA) == []
        assert said(again, BOSS) == [
            "Alle Anmeldungen mit verknüpftem Handy kennen ihren Tisch schon."]

        # Ana withdraws: everyone after her moves up a table; only Jonas and Lena are told
        asked = await h.send(ANA, "/baja 1", BEFORE + timedelta(minutes=10))
        (yes,) = [d for _, d in h.buttons(asked) if d.startswith("baja:y:")]
        await h.press(ANA, yes, BEFORE + timedelta(minutes=10))
        question, keys = await mesas(h, BEFORE + timedelta(minutes=11))
        assert question[0].startswith("2 Anmeldungen per Nachricht") and keys[0][1] == "tbl:open"
        moved = await h.press(BOSS, "tbl:open", BEFORE + timedelta(minutes=12))
        assert said(moved, JONAS) == [
            "Dein Tisch hat sich geändert: Es ist jetzt Tisch 1 (Open, Samstag, 9. Mai um 10:00)."]
        assert said(moved, LENA) == [
            "Tu mesa ha cambiado: ahora es la mesa 2 (Open, sábado 9 de mayo a las 10:00)."]
        assert said(moved, ANA) == []
    finally:
        await h.stop()



async def test_a_withdrawal_that_moves_told_tables_asks_the_organisers_to_tell_again(
        tmp_path: Path) -> None:
    """Told their tables, then Ana withdraws: the organiser is asked at once (in German) to
    tell Jonas and Lena again, and one press tells them, each in their language."""
    h = await open_day(tmp_path)
    try:
        await mesas(h, BEFORE)
        await h.press(BOSS, "tbl:open", BEFORE + timedelta(minutes=1))
        asked = await h.send(ANA, "/baja 1", BEFORE + timedelta(minutes=10))
        (yes,) = [d for _, d in h.buttons(asked) if d.startswith("baja:y:")]
        gone = await h.press(ANA, yes, BEFORE + timedelta(minutes=10))
        assert said(gone, BOSS) == [
            "Ein Platz hat sich geändert, und 2 Anmeldungen, denen ihr Tisch mitgeteilt wurde, "
            "sitzen jetzt woanders: #2 jetzt an Tisch 1 (mitgeteilt: 2), #3 jetzt an Tisch 2 "
            "(mitgeteilt: 3). Erneut mitteilen?"]
        assert [d for c in gone if c.chat_id == BOSS.id for _, d in h.buttons([c])] == [
            "tbl:*", "tbl:-"]
        told = await h.press(BOSS, "tbl:*", BEFORE + timedelta(minutes=11))
        assert said(told, JONAS) == [
            "Dein Tisch hat sich geändert: Es ist jetzt Tisch 1 (Open, Samstag, 9. Mai um 10:00)."]
        assert said(told, LENA) == [
            "Tu mesa ha cambiado: ahora es la mesa 2 (Open, sábado 9 de mayo a las 10:00)."]
        # told: another change of places asks nothing more about them
        assert [t for t in said(told, BOSS) if "Erneut" in t] == []
    finally:
        await h.stop()
