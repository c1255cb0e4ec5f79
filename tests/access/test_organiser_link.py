"""The one-time organiser link: printed at start while the bot has no organiser (and again at
every start until someone opens it), stored in the database, good for one person; /organizador
makes another from the chat. ``PUZZLEBOT_ORGANISERS`` keeps working beside it."""

from __future__ import annotations

import logging
import re
import sqlite3
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.conftest import CASTRILLO
from tests.e2e import BotProcess, Phone, say
from tests.fakebot import Harness, Person, texts

NOW = datetime(2023, 4, 22, 9, 0, tzinfo=UTC)
LINK = re.compile(r"https://t\.me/(\w+)\?start=(o[A-Za-z0-9_-]+)")


def invites(db: Path) -> list[tuple[str, str]]:
    """(role, code) of every organiser invitation in the database."""
    with closing(sqlite3.connect(db)) as conn:
        return conn.execute("SELECT role, ref FROM events WHERE kind = 'organiser_invite' "
                            "ORDER BY id").fetchall()


def events(db: Path) -> list[tuple[object, ...]]:
    with closing(sqlite3.connect(db)) as conn:
        return conn.execute("SELECT * FROM events ORDER BY id").fetchall()


def printed_links(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [m.group(2) for r in caplog.records if r.name == "bot.chat.app"
            for m in [LINK.search(r.getMessage())] if m]


async def test_without_organisers_the_link_is_printed_and_works_once(tmp_path, caplog):
    caplog.set_level(logging.INFO)
    h = await Harness(tmp_path, CASTRILLO, organisers=frozenset()).start()
    try:
        [code] = printed_links(caplog)
        assert invites(h.db_path) == [("system", code)]
        first = Person(10, "Olga", "en")
        # before: a stranger, refused an organiser's command
        assert "for organisers" in texts(await h.send(first, "/voluntario", NOW))[0]
        welcome = texts(await h.send(first, f"/start {code}", NOW))[0]
        assert "Welcome, organiser" in welcome
        assert (await h.services.day.roles(first.id)).organiser
        assert "?start=v" in texts(await h.send(first, "/voluntario", NOW))[0]
        # the link is spent: a second person is refused in their own language, nothing written
        before = events(h.db_path)
        second = Person(11, "Rosa", "es")
        refused = texts(await h.send(second, f"/start {code}", NOW))
        assert refused == ["Esa invitación de organizador ya se ha usado. Pide otra a la "
                           "organización."]
        assert events(h.db_path) == before
        assert not (await h.services.day.roles(second.id)).organiser
        assert "para la organización" in texts(await h.send(second, "/inicio", NOW))[0]
        french = Person(12, "Luc", "fr")
        assert "déjà été utilisée" in texts(await h.send(french, f"/start {code}", NOW))[0]
    finally:
        await h.stop()
    # a restart: the joined organiser stays one, and no new link is made or printed
    caplog.clear()
    h = await Harness(tmp_path, CASTRILLO, organisers=frozenset()).start()
    try:
        assert printed_links(caplog) == []
        assert len(invites(h.db_path)) == 1
        assert (await h.services.day.roles(10)).organiser
        assert not (await h.services.day.roles(11)).organiser
    finally:
        await h.stop()


async def test_an_unused_link_survives_restarts_unchanged(tmp_path, caplog):
    caplog.set_level(logging.INFO)
    codes = []
    for _ in range(3):
        caplog.clear()
        h = await Harness(tmp_path, CASTRILLO, organisers=frozenset()).start()
        await h.stop()
        codes += printed_links(caplog)
    assert len(codes) == 3 and len(set(codes)) == 1
    assert len(invites(tmp_path / "bot.sqlite3")) == 1
    # with organisers in the settings, the link still unused is printed again, never a new one
    caplog.clear()
    h = await Harness(tmp_path, CASTRILLO, organisers=frozenset({1})).start()
    try:
        assert printed_links(caplog) == codes[:1]
        # an organiser of the settings opening it stays one and leaves it for someone else
        already = texts(await h.send(Person(1, "Olga", "en"), f"/start {codes[0]}", NOW))
        assert already == ["You are already an organiser."]
        joined = texts(await h.send(Person(20, "Ines", "en"), f"/start {codes[0]}", NOW))
        assert "Welcome, organiser" in joined[0]
    finally:
        await h.stop()


async def test_organisers_of_the_settings_get_no_link(tmp_path, caplog):
    caplog.set_level(logging.INFO)
    h = await Harness(tmp_path, CASTRILLO, organisers=frozenset({1})).start()
    try:
        assert printed_links(caplog) == [] and invites(h.db_path) == []
    finally:
        await h.stop()


async def test_organizador_makes_one_more_link_for_one_person(tmp_path):
    h = await Harness(tmp_path, CASTRILLO, organisers=frozenset({1})).start()
    try:
        boss = Person(1, "Olga", "fr")
        answer = texts(await h.send(boss, "/organisateur", NOW))[0]  # the French alias
        assert "une seule fois" in answer
        code = LINK.search(answer).group(2)
        assert invites(h.db_path) == [("organiser", code)]
        newcomer, late = Person(30, "Ana", "en"), Person(31, "Bea", "en")
        assert "Welcome, organiser" in texts(await h.send(newcomer, f"/start {code}", NOW))[0]
        # the newcomer gets the volunteers' lines and can do what organisers do
        assert newcomer.id in await h.services.day.all_organisers()
        assert "?start=o" in texts(await h.send(newcomer, "/organiser", NOW))[0]
        assert "already used" in texts(await h.send(late, f"/start {code}", NOW))[0]
        # a volunteer or a participant may not make one
        stranger = Person(40, "Sam", "en")
        assert "for organisers" in texts(await h.send(stranger, "/organizador", NOW))[0]
        assert len(invites(h.db_path)) == 2
        # a code that was never made is a bad link, not an invitation
        assert "not valid" in texts(await h.send(late, "/start onever-made-1234567", NOW))[0]
        assert not (await h.services.day.roles(late.id)).organiser
    finally:
        await h.stop()


async def test_the_real_bot_without_organisers_prints_the_same_link_across_restarts(api, tmp_path):
    """``python -m bot run`` without ``PUZZLEBOT_ORGANISERS`` (a contract: it still works when
    set): the link on the console, the same after a restart, the token never printed."""
    bot = BotProcess(api, tmp_path / "c.sqlite3", CASTRILLO, organisers="")
    try:
        await bot.start()
        assert await bot.wait_logged("?start=o")
        await bot.stop()
        await bot.start()
        assert await bot.wait_logged("?start=o", times=2)
        log = bot.log.decode()
        found = LINK.findall(log)
        assert len(found) == 2 and found[0] == found[1]
        assert found[0][0] == "puzzle_rehearsal_bot"
        assert "no organiser yet" in log and api.token not in log
        olga = Phone(77, "Olga")
        assert "Welcome, organiser" in (await say(api, olga, f"/start {found[0][1]}", NOW))[0]
        assert "?start=v" in (await say(api, olga, "/voluntario", NOW))[0]
        assert "already used" in (await say(api, Phone(78, "Eve"), f"/start {found[0][1]}",
                                            NOW))[0]
    finally:
        await bot.stop()
