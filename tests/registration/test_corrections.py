"""A participant corrects their own entry (``/corregir [N] M NAME BIRTH``; ``/correct`` in
English): a member's name and birth, checked as registration checks them, while registration
is open and before the entry plays; an organiser, any entry until it plays. A correction is the
same person written right: a ``member_fix`` event, never a change of the team's
(``keep_originals``). Through the real Application over our fake Bot API; Castrillo's
contest. People write in English: the fragments are the msgids."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

from bot.features.corrections.rules import BadName, Typed, parse_fix
from tests.conftest import CASTRILLO
from tests.documents import entries_survive
from tests.fakebot import Harness
from tests.registration.test_registration_chat import (
    ANA,
    BEA,
    ORGANISER,
    STRANGER,
    Who,
    madrid,
    open_harness,
    register,
)


def members(h: Harness, number: int) -> list[tuple[str, int | None]]:
    with closing(sqlite3.connect(h.db_path)) as db:
        return [(r[0], r[1]) for r in db.execute(
            "SELECT name, born_year FROM members WHERE entry = ? ORDER BY position",
            (number,))]


def fixes(h: Harness) -> list[sqlite3.Row]:
    with closing(sqlite3.connect(h.db_path)) as db:
        db.row_factory = sqlite3.Row
        return db.execute("SELECT * FROM events WHERE kind = 'member_fix'").fetchall()


def last(calls: list, who: object) -> str:
    return [c.text for c in calls if c.method == "sendMessage"
            and c.chat_id == who.id][-1]  # type: ignore[attr-defined]


def test_how_it_is_typed() -> None:
    assert parse_fix(["2", "Bea", "Dos", "2018"]) == Typed(None, 1, "Bea Dos", "2018")
    assert parse_fix(["12", "2", "Bea", "Dos", "2018-05-04"]) == Typed(12, 1, "Bea Dos",
                                                                       "2018-05-04")
    assert parse_fix(["12", "2", "Bea", "Dos"]) is None  # no birth
    assert parse_fix(["Bea", "2018"]) is None  # no member
    assert parse_fix(["12", "0", "Bea", "2018"]) is None
    assert parse_fix(["1", "Bea;Dos", "2018"]) == BadName("separator")


async def test_a_kid_s_name_and_birth_corrected_before_the_closing(tmp_path: Path) -> None:
    h = await open_harness(tmp_path, CASTRILLO)
    try:
        await register(h, ANA, "infantil-a", [Who("Lucas Perz", "2018")], madrid(3, 1))
        shown = last(await h.send(ANA, "/correct", madrid(3, 2)), ANA)
        assert "/correct N M NAME BIRTH" in shown and "#1: 1. Lucas Perz (2018)" in shown
        said = last(await h.send(ANA, "/correct 1 Lucas Pérez 2019", madrid(3, 2)), ANA)
        assert said == ("Entry #1, member 1: Lucas Perz (2018) is now Lucas Pérez (2019). "
                        "The entry: Lucas Pérez.")
        assert members(h, 1) == [("Lucas Pérez", 2019)]
        [fix] = fixes(h)
        assert fix["role"] == "participant" and fix["entry"] == 1
        assert json.loads(fix["data"])["old"]["name"] == "Lucas Perz"
        # a birth the category does not take: registration's words, nothing changed
        refused = last(await h.send(ANA, "/correct 1 Lucas Pérez 2012", madrid(3, 3)), ANA)
        assert "born 2012, and this category needs born 2017-2019" in refused
        assert members(h, 1) == [("Lucas Pérez", 2019)]
        same = last(await h.send(ANA, "/correct 1 Lucas Pérez 2019", madrid(3, 3)), ANA)
        assert "Nothing to change" in same
        # another person is no correction, not even one letter at a time
        other = last(await h.send(ANA, "/correct 1 Hugo Gil 2019", madrid(3, 3)), ANA)
        assert "That is not Lucas Perz written right but someone else" in other
        assert "is now Lukas Pérez" in last(await h.send(ANA, "/correct 1 Lukas Pérez 2019",
                                                          madrid(3, 3)), ANA)
        drift = last(await h.send(ANA, "/correct 1 Lukas Parez 2019", madrid(3, 3)), ANA)
        assert "That is not Lucas Perz written right" in drift
        assert members(h, 1) == [("Lukas Pérez", 2019)]
        await h.send(ANA, "/correct 1 Lucas Pérez 2019", madrid(3, 3))
        # after the closing: the organisers' to correct
        closed = last(await h.send(ANA, "/correct 1 Lucas Perez 2019", madrid(4, 23)), ANA)
        assert "Registration is closed" in closed
        done = last(await h.send(ORGANISER, "/correct 1 1 Lucas Pereza 2019", madrid(4, 23)),
                    ORGANISER)
        assert "is now Lucas Pereza (2019)" in done
        assert [f["role"] for f in fixes(h)] == ["participant"] * 3 + ["organiser"]
        history = last(await h.send(ORGANISER, "/historial 1", madrid(4, 23)), ORGANISER)
        assert "(Lucas Perz 2018 → Lucas Pérez 2019)" in history, history
        # someone who follows no entry
        nobody = last(await h.send(STRANGER, "/correct 1 1 X Y 2019", madrid(3, 3)), STRANGER)
        assert "Lucas" not in nobody and len(fixes(h)) == 4
    finally:
        await h.stop()


async def test_the_partner_is_told_and_another_entry_is_not_theirs(tmp_path: Path) -> None:
    h = await open_harness(tmp_path, CASTRILLO)
    try:
        final = await register(h, ANA, "parejas", [Who("Ana Uno", "1980"),
                                                   Who("Bea Dos", "1982")], madrid(3, 1))
        code = final.split("start=")[1].split()[0].rstrip(".")
        await h.send(BEA, f"/start {code}", madrid(3, 1, 13))
        await register(h, ORGANISER, "infantil-a", [Who("Otro Niño", "2018")], madrid(3, 1, 14))
        calls = await h.send(ANA, "/correct 1 2 Bea Dós 1982", madrid(3, 2))
        assert "is now Bea Dós (1982)" in last(calls, ANA)
        assert "corrected member 2 of entry #1: Bea Dos (1982) is now Bea Dós (1982)" in \
            last(calls, BEA)
        other = last(await h.send(ANA, "/correct 2 1 Otra Niña 2018", madrid(3, 2)), ANA)
        assert "Otra" not in other and members(h, 2) == [("Otro Niño", 2018)]
    finally:
        await h.stop()
    kinds = entries_survive(h.contest_file, h.db_path, tmp_path)
    assert kinds.count("member_fix") == 1


async def test_a_correction_is_no_change_of_the_team_and_travels_with_the_changes(
        tmp_path: Path) -> None:
    """Castrillo's pairs keeping one of the members they registered with (keep_originals):
    a member corrected, then replaced by the organisers, then the newcomer corrected. The
    originals are the pair as registered, corrected: replacing the other one is refused. The
    document carries the three events in order and reads back."""
    text = CASTRILLO.read_text(encoding="utf-8").replace(
        "capacity = 50", "capacity = 50\nkeep_originals = 1", 1)
    path = tmp_path / "castrillo-keep.toml"
    path.write_text(text, encoding="utf-8")
    h = await open_harness(tmp_path, path)
    try:
        await register(h, ANA, "parejas", [Who("Ana Uno", "1980"), Who("Bea Dos", "1982")],
                       madrid(3, 1))
        await h.send(ANA, "/correct 1 2 Bea Dós 1982", madrid(3, 2))
        await h.send(ORGANISER, "/sustituir 1 2 Carla Tres 1985", madrid(3, 3))
        await h.send(ANA, "/correct 1 2 Carla Tres 1986", madrid(3, 4))
        assert members(h, 1) == [("Ana Uno", 1980), ("Carla Tres", 1986)]
        refused = last(await h.send(ORGANISER, "/sustituir 1 1 Dan Cuatro 1980", madrid(3, 5)),
                       ORGANISER)
        assert "must keep at least 1 of the members it registered with" in refused
    finally:
        await h.stop()
    kinds = [k for k in entries_survive(path, h.db_path, tmp_path)
             if k in ("member_fix", "member_change")]
    assert kinds == ["member_fix", "member_change", "member_fix"]
