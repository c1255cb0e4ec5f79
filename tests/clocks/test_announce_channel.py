"""The announcements channel (issue 49, ``PUZZLEBOT_ANNOUNCE_CHAT``): /anuncio's Send posts
once there, recorded with the same event, through the outbox; nobody gets a private copy, and
nothing else goes to the channel. A post the channel refuses goes to each participant
instead, the organisers told why."""

from __future__ import annotations

import json
import logging
import os
import sqlite3
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.support.config import ConfigError, load_settings, parse_settings
from bot.texts.clocks import announcement_posted, channel_preview, channel_refused
from tests.clocks.test_organiser_extras import BOSS, linked
from tests.conftest import CASTRILLO
from tests.documents import round_trip
from tests.fakebot import Harness

CHANNEL = -1001234500049
TEXT = "La comida se sirve a las 14:30 en la sala"


def outbox(h: Harness) -> list[tuple[int, str | None, dict[str, Any]]]:
    with sqlite3.connect(h.db_path) as db:
        return [(chat, outcome, json.loads(params)) for chat, outcome, params in db.execute(
            "SELECT chat_id, outcome, params FROM outbox ORDER BY id")]


def announcements(h: Harness) -> list[dict[str, Any]]:
    with sqlite3.connect(h.db_path) as db:
        return [json.loads(data) for (data,) in db.execute(
            "SELECT data FROM events WHERE kind = 'announcement'")]


async def announce(h: Harness, text: str, at: datetime) -> tuple[list[str], list[str]]:
    """/anuncio ``text`` and its Send: what the organiser read at each step."""
    preview = await h.send(BOSS, f"/anuncio {text}", at)
    (send, _cancel) = h.buttons(preview)
    sent = await h.press(BOSS, send[1], at)
    return ([c.text for c in preview if c.chat_id == BOSS.id],
            [c.text for c in sent if c.chat_id == BOSS.id])


async def test_anuncio_posts_once_in_the_channel_and_nobody_gets_a_private_copy(tmp_path):
    h = await Harness(tmp_path, CASTRILLO, organisers=frozenset({BOSS.id}),
                      announce_chat=CHANNEL).start()
    try:
        now = datetime.now(UTC)
        people = await linked(h, "".join(f"{n},adultos,P{n},1980\n" for n in range(1, 13)),
                              now)
        preview, answer = await announce(h, TEXT, now)
        assert preview == [
            "Preview: this announcement is posted once in the announcements channel, within a "
            f"few seconds; nobody gets it privately.\n\n📣 {TEXT}\n\n"
            "The bot cannot tell which of the 12 linked participants joined the channel: give "
            "its link at registration and on the table cards.\n\n"
            "Send it? Nothing goes until you choose."]
        assert answer == [
            "Posted in the announcements channel, once: nobody gets it privately. The bot "
            "cannot tell which of the 12 linked participants joined the channel: give its link "
            "at registration and on the table cards."]
        assert h.sent(CHANNEL) == [f"📣 {TEXT}"]
        assert not any(TEXT in t for p in people for t in h.sent(p.id))
        assert announcements(h) == [{"text": TEXT, "recipients": 12, "channel": CHANNEL}]
        # through the outbox: one row for the channel, sent
        rows = [(chat, outcome) for chat, outcome, params in outbox(h)
                if TEXT in str(params.get("text"))]
        assert rows == [(CHANNEL, "sent")]
        # personal news stays personal: the day's own messages never go to the channel
        await h.send(BOSS, "/inicio adultos", now)
        await h.send(BOSS, "/fin 1 1:47:30", now + timedelta(hours=2))
        await h.send(people[0], "/mis_inscripciones", now + timedelta(hours=2))
        assert any("1:47:30" in t for t in h.sent(people[0].id))
        assert h.sent(CHANNEL) == [f"📣 {TEXT}"]
    finally:
        await h.stop()
    # the contest as one document, and back: the announcement and its channel travel too
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "PUZZLEBOT_"))}
    doc = round_trip(CASTRILLO, h.db_path, env, tmp_path)
    assert [e["data"] for e in doc["history"] if e["kind"] == "announcement"] == [
        {"text": TEXT, "recipients": 12, "channel": CHANNEL}]


async def test_a_post_the_channel_refuses_goes_to_each_participant(tmp_path, caplog):
    """The bot is not in the channel: Telegram answers 403. The announcement is not lost: it
    goes to each linked participant, once; the organiser is told why; the log says so."""
    h = await Harness(tmp_path, CASTRILLO, organisers=frozenset({BOSS.id}),
                      announce_chat=CHANNEL).start()
    try:
        now = datetime.now(UTC)
        people = await linked(h, "".join(f"{n},adultos,P{n},1980\n" for n in range(1, 6)), now)
        real = h.request.do_request
        refusals = []

        async def refusing(url: str, method: str, request_data: Any = None,
                           **kwargs: Any) -> tuple[int, bytes]:
            params = dict(request_data.parameters) if request_data is not None else {}
            if str(params.get("chat_id")) == str(CHANNEL):
                refusals.append(params)
                return 403, json.dumps({"ok": False, "error_code": 403, "description":
                                        "Forbidden: bot is not a member of the channel chat"
                                        }).encode()
            return await real(url, method, request_data, **kwargs)

        h.request.do_request = refusing  # type: ignore[method-assign]
        with caplog.at_level(logging.WARNING):
            _, answer = await announce(h, TEXT, now)
            await h.app.bot_data["sender"].settled()
        assert len(refusals) == 1
        for p in people:
            assert [t for t in h.sent(p.id) if TEXT in t] == [f"📣 {TEXT}"]
        told = [t for t in h.sent(BOSS.id) if "refused" in t]
        assert told == [
            "The announcements channel refused the announcement (Telegram says: Forbidden: bot "
            "is not a member of the channel chat): it goes to each of the 5 linked participants "
            "privately instead. Make the bot an administrator of the channel (or a member of "
            "the group), or correct PUZZLEBOT_ANNOUNCE_CHAT."]
        assert answer[0].startswith("Posted in the announcements channel")
        assert announcements(h) == [{"text": TEXT, "recipients": 5, "channel": CHANNEL}]
        rows = outbox(h)
        assert [o for chat, o, _ in rows if chat == CHANNEL] == [
            "refused: Forbidden: bot is not a member of the channel chat"]
        assert sorted(chat for chat, o, p in rows if p.get("text") == f"📣 {TEXT}"
                      and chat != CHANNEL and o == "sent") == sorted(p.id for p in people)
        errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
        assert any("announcements channel" in e and str(CHANNEL) in e
                   and "PUZZLEBOT_ANNOUNCE_CHAT" in e for e in errors), errors
        # the generic "could not be delivered" line is not said as well
        assert not any("could not be delivered" in t for t in h.sent(BOSS.id))
    finally:
        await h.stop()


async def test_a_restart_before_delivery_posts_it_once(tmp_path):
    """Send recorded and committed, the bot gone before the post went out (the sender never
    handed it): at the next start the outbox posts it, once."""
    h = await Harness(tmp_path, CASTRILLO, organisers=frozenset({BOSS.id}),
                      announce_chat=CHANNEL).start()
    now = datetime.now(UTC)
    try:
        await linked(h, "1,adultos,Ana,1980\n2,adultos,Bea,1981\n", now)
        preview = await h.send(BOSS, f"/anuncio {TEXT}", now)
        h.services.store.on_posted = None  # what commits from here on is not handed over
        await h.press(BOSS, h.buttons(preview)[0][1], now)
        assert h.sent(CHANNEL) == []
    finally:
        await h.stop()
    assert [(chat, o) for chat, o, p in outbox(h) if TEXT in str(p.get("text"))] == [
        (CHANNEL, None)]
    again = await Harness(tmp_path, CASTRILLO, organisers=frozenset({BOSS.id}),
                          announce_chat=CHANNEL).start()
    try:
        await again.app.bot_data["sender"].settled()
        assert again.sent(CHANNEL) == [f"📣 {TEXT}"]
        assert [(chat, o) for chat, o, p in outbox(again) if TEXT in str(p.get("text"))] == [
            (CHANNEL, "sent")]
        assert len(announcements(again)) == 1
    finally:
        await again.stop()


async def test_without_a_channel_each_participant_gets_it_as_before(tmp_path):
    h = await Harness(tmp_path, CASTRILLO, organisers=frozenset({BOSS.id})).start()
    try:
        now = datetime.now(UTC)
        people = await linked(h, "1,adultos,Ana,1980\n2,adultos,Bea,1981\n", now)
        _, answer = await announce(h, TEXT, now)
        assert "it goes to 2 people" in answer[0]
        assert all(h.sent(p.id).count(f"📣 {TEXT}") == 1 for p in people)
        assert announcements(h) == [{"text": TEXT, "recipients": 2}]
    finally:
        await h.stop()


def test_the_settings_file_may_set_it(tmp_path) -> None:
    (tmp_path / "puzzlebot.toml").write_text(
        f'TELEGRAM_BOT_TOKEN = "1:x"\nPUZZLEBOT_CONTEST = "{CASTRILLO}"\n'
        f"PUZZLEBOT_ANNOUNCE_CHAT = {CHANNEL}\n")
    db = str(tmp_path / "puzzlebot.sqlite3")
    assert load_settings({"PUZZLEBOT_DB": db}).announce_chat == CHANNEL
    # the environment wins
    assert load_settings({"PUZZLEBOT_DB": db, "PUZZLEBOT_ANNOUNCE_CHAT": "-7"}
                         ).announce_chat == -7


def test_the_setting_takes_a_channels_or_groups_id() -> None:
    base = {"TELEGRAM_BOT_TOKEN": "1:x", "PUZZLEBOT_CONTEST": str(CASTRILLO)}
    assert parse_settings(base).announce_chat is None
    assert parse_settings({**base, "PUZZLEBOT_ANNOUNCE_CHAT": " -1001 "}).announce_chat == -1001
    with pytest.raises(ConfigError, match="channel's or group's chat id"):
        parse_settings({**base, "PUZZLEBOT_ANNOUNCE_CHAT": "12345"})  # a person
    with pytest.raises(ConfigError, match="a Telegram id"):
        parse_settings({**base, "PUZZLEBOT_ANNOUNCE_CHAT": "@hall"})
    with pytest.raises(ConfigError, match="another chat than PUZZLEBOT_VOLUNTEER_CHAT"):
        parse_settings({**base, "PUZZLEBOT_ANNOUNCE_CHAT": "-5",
                        "PUZZLEBOT_VOLUNTEER_CHAT": "-5"})


@pytest.mark.parametrize("lang", ["es", "fr", "en", "de", "it", "pt", "nl"])
def test_the_organisers_words_in_every_language(lang: str) -> None:
    for n in (1, 7):
        assert str(n) in announcement_posted(lang, n)
        assert str(n) in channel_preview(lang, "x", n) and "📣 x" in channel_preview(lang, "x", n)
        assert "PUZZLEBOT_ANNOUNCE_CHAT" in channel_refused(lang, "chat not found", n)
    assert "0" not in announcement_posted(lang, 0)  # nobody linked: nothing said of them
