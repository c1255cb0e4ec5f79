"""Following an entry by its table card (issue 47, item 8): the card's QR code carries a code of
its own, never the join code; scanning it only asks. The entry's phones (and the organisers)
get Allow / Refuse; the first answer counts, every copy of the line closes saying who decided,
and the person who asked is told in their language. With no phone following the entry yet, an
organiser decides (``[following] first_phone``, "organisers" by default; "anyone" lets that
first scan follow at once)."""

from __future__ import annotations

import io
import json
import sqlite3
import tomllib
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.features.following.rules import FollowRules, card_code, parse_button
from bot.services.contest_file import ContestFileError, load_contest, parse_contest
from bot.services.csvio import import_entries, read_entries
from bot.services.document import export_document, import_document
from bot.services.summary import summary
from bot.storage.store import Store
from bot.tools.cards import card_link
from tests.conftest import CASTRILLO
from tests.fakebot import Call, Harness, Person, said

MADRID = ZoneInfo("Europe/Madrid")
T0 = datetime(2023, 4, 22, 10, 0, tzinfo=MADRID)
BOSS = Person(1, "Olga", "es")
ANA = Person(10, "Ana", "es")  # follows entry 5 (its join code)
MARTA = Person(30, "Marta", "de")  # scans entry 5's card
JONAS = Person(31, "Jonas", "de")
STRANGER = Person(40, "Pepe", "es")


async def open_day(tmp_path: Path, extra: str = "") -> Harness:
    path = tmp_path / "cards.toml"
    path.write_text(CASTRILLO.read_text(encoding="utf-8") + extra, encoding="utf-8")
    h = await Harness(tmp_path, path, organisers=frozenset({BOSS.id})).start()
    svc = h.services
    await import_entries(svc.store, read_entries(svc.contest, io.StringIO(
        "number,category,names,born\n5,adultos,Ana Uno,1980\n"
        "6,adultos,Sol Dos,1981\n"), "x.csv"))
    await h.send(BOSS, "/start", T0 - timedelta(hours=2))
    entry = await svc.store.entry(5)
    await h.send(ANA, f"/start {entry.join_code}", T0 - timedelta(hours=2))
    return h


async def card(h: Harness, number: int) -> str:
    entry = await h.services.store.entry(number)
    return card_code(entry.join_code)


def keyboard(c: Call) -> list[tuple[str, str]]:
    markup = c.params.get("reply_markup")
    if markup is None:
        return []
    rows = json.loads(markup)["inline_keyboard"] if isinstance(markup, str) else \
        markup["inline_keyboard"]
    return [(b["text"], b["callback_data"]) for row in rows for b in row]


def sent_to(calls: list[Call], who: Person) -> list[Call]:
    return [c for c in calls if c.method == "sendMessage" and c.chat_id == who.id]


def edits(calls: list[Call]) -> list[Call]:
    return [c for c in calls if c.method == "editMessageText"]


def rows(h: Harness, kind: str) -> list[tuple[int, int | None, int | None, str | None, str]]:
    """(id, actor, entry, ref, data) of every event of ``kind``."""
    with sqlite3.connect(h.db_path) as db:
        return db.execute("SELECT id, actor, entry, ref, data FROM events WHERE kind = ? "
                          "ORDER BY id", (kind,)).fetchall()


async def events_of(h: Harness, kind: str) -> list:  # type: ignore[type-arg]
    return await h.services.store.events(kinds=[kind])


# -- the card's code -----------------------------------------------------------------------


def test_a_cards_code_is_not_the_join_code_and_does_not_give_it_away() -> None:
    code = card_code("eAbCdEfGhIjKlMnOpQrStUv")
    assert code.startswith("t") and len(code) == 23
    assert "AbCdEfGhIjKlMnOpQrStUv" not in code
    assert code == card_code("eAbCdEfGhIjKlMnOpQrStUv") != card_code("eAbCdEfGhIjKlMnOpQrStUw")
    assert card_link("@puzzle_bot", "eX" * 9) == \
        f"https://t.me/puzzle_bot?start={card_code('eX' * 9)}"
    assert parse_button("dec:fol:12:y") == (12, True)
    assert parse_button("dec:fol:12:n") == (12, False)
    assert [parse_button(d) for d in ("dec:fol:12", "dec:fol:x:y", "dec:fol:0:y", "dec:fol:3:z",
                                      "take:5:3")] == [None] * 5


def test_the_first_phone_setting() -> None:
    base = CASTRILLO.read_text(encoding="utf-8")
    assert parse_contest(tomllib.loads(base), "x.toml").settings("following") is None
    anyone = parse_contest(tomllib.loads(base + '\n[following]\nfirst_phone = "anyone"\n'),
                           "x.toml")
    assert anyone.settings("following") == FollowRules("anyone")
    assert "Table cards: an entry's first phone follows it when it scans the card" in \
        summary(anyone)
    with pytest.raises(ContestFileError) as err:
        parse_contest(tomllib.loads(base + '\n[following]\nfirst_phone = "me"\n'), "x.toml")
    assert "x.toml: following.first_phone" in str(err.value)
    assert load_contest(CASTRILLO).settings("following") is None


# -- in the chat ---------------------------------------------------------------------------


async def test_a_scan_asks_the_entrys_phone_who_allows_it(tmp_path: Path) -> None:
    """Marta (German) scans entry 5's card: she follows nothing yet; Ana (Spanish, entry 5's
    phone) and the organiser get the request with Allow / Refuse; Ana allows: both copies close
    saying so, Marta is told in German and now follows entry 5."""
    h = await open_day(tmp_path)
    try:
        calls = await h.send(MARTA, f"/start {await card(h, 5)}", T0)
        assert said(calls, MARTA) == [
            "Ich habe die Leute, die der Anmeldung #5 folgen, gefragt, ob du ihr folgen darfst. "
            "Ich sage dir Bescheid, sobald einer von ihnen (oder jemand vom Orga-Team) "
            "antwortet."]
        assert await h.services.day.linked_users(5) == [ANA.id]  # not yet
        (line,) = sent_to(calls, ANA)
        assert line.text == ("Marta ha escaneado la tarjeta de mesa de la inscripción #5 (Ana "
                             "Uno) y pide seguirla: recibiría sus avisos y podría responder "
                             "por ella. ¿Lo permites?")
        (request,) = await events_of(h, "follow_request")
        assert keyboard(line) == [("Permitir", f"dec:fol:{request.id}:y"),
                                  ("Rechazar", f"dec:fol:{request.id}:n")]
        assert request.at == T0 and request.actor == MARTA.id and request.entry == 5
        (boss,) = sent_to(calls, BOSS)
        assert boss.text.endswith("También se ha preguntado a los teléfonos de la inscripción: "
                                  "decide quien responda primero.")
        assert keyboard(boss) == keyboard(line)

        pressed = await h.press(ANA, f"dec:fol:{request.id}:y", T0 + timedelta(minutes=2))
        closed = {c.chat_id: c for c in edits(pressed)}
        assert set(closed) == {ANA.id, BOSS.id}
        assert closed[ANA.id].text == line.text + "\n→ Permitido por Ana."
        assert closed[BOSS.id].text == boss.text + "\n→ Permitido por Ana."
        assert all(keyboard(c) == [] for c in closed.values())  # the buttons are gone
        told = said(pressed, MARTA)
        assert told[0].startswith("Ana hat dir erlaubt, der Anmeldung #5 zu folgen.\n"
                                  "Du folgst der Anmeldung #5 (Ana Uno)")
        assert sorted(await h.services.day.linked_users(5)) == [ANA.id, MARTA.id]
        (allowed,) = await events_of(h, "follow_allowed")
        assert allowed.actor == ANA.id and allowed.ref == f"dec:fol:{request.id}"
        assert allowed.at == T0 + timedelta(minutes=2)  # the press, as Telegram dated it
        # a second answer changes nothing, and says who answered first
        again = await h.press(BOSS, f"dec:fol:{request.id}:n", T0 + timedelta(minutes=3))
        assert said(again, BOSS) == ["Ya está respondida: Ana la aceptó."]
        assert edits(again) == [] and await events_of(h, "follow_refused") == []
    finally:
        await h.stop()


async def test_a_refusal_is_told_kindly_and_not_asked_again(tmp_path: Path) -> None:
    h = await open_day(tmp_path)
    try:
        code = await card(h, 5)
        await h.send(JONAS, f"/start {code}", T0)
        (request,) = await events_of(h, "follow_request")
        pressed = await h.press(ANA, f"dec:fol:{request.id}:n", T0 + timedelta(minutes=1))
        assert said(pressed, JONAS) == [
            "Tut uns leid: Deine Anfrage, der Anmeldung #5 zu folgen, wurde nicht angenommen. "
            "Wenn du in dieser Anmeldung mitspielst, frag bitte am Orga-Tisch nach."]
        assert {c.text.rsplit("\n", 1)[-1] for c in edits(pressed)} == {"→ Rechazado por Ana."}
        assert await h.services.day.linked_users(5) == [ANA.id]
        again = await h.send(JONAS, f"/start {code}", T0 + timedelta(minutes=5))
        assert said(again, JONAS) == [
            "Deine Anfrage, der Anmeldung #5 zu folgen, wurde nicht angenommen. Wenn du in "
            "dieser Anmeldung mitspielst, frag bitte am Orga-Tisch nach."]
        assert sent_to(again, ANA) == [] and len(await events_of(h, "follow_request")) == 1
    finally:
        await h.stop()


async def test_while_asking_a_second_scan_asks_nobody_again(tmp_path: Path) -> None:
    h = await open_day(tmp_path)
    try:
        code = await card(h, 5)
        await h.send(MARTA, f"/start {code}", T0)
        again = await h.send(MARTA, f"/start {code}", T0 + timedelta(minutes=1))
        assert said(again, MARTA) == [
            "Du hast schon gefragt, ob du der Anmeldung #5 folgen darfst: Es hat noch niemand "
            "geantwortet. Ich sage dir Bescheid, sobald jemand antwortet."]
        assert sent_to(again, ANA) == [] and len(await events_of(h, "follow_request")) == 1
    finally:
        await h.stop()


async def test_with_no_phone_yet_an_organiser_decides(tmp_path: Path) -> None:
    """Entry 6 has no phone: the first scan asks the organisers (the default); a stranger may
    not answer; the organiser allows, and Pepe is told in Spanish."""
    h = await open_day(tmp_path)
    try:
        calls = await h.send(STRANGER, f"/start {await card(h, 6)}", T0)
        assert said(calls, STRANGER) == [
            "Todavía nadie sigue la inscripción #6: he pedido a la organización que te deje "
            "seguirla. Te aviso en cuanto alguien responda."]
        (boss,) = sent_to(calls, BOSS)
        assert boss.text.endswith("Todavía ningún teléfono sigue esta inscripción.")
        (request,) = await events_of(h, "follow_request")
        # neither the one asking nor a phone of another entry may answer
        for who in (STRANGER, ANA):
            refused = await h.press(who, f"dec:fol:{request.id}:y", T0 + timedelta(minutes=1))
            assert said(refused, who) == [
                "Solo quienes siguen la inscripción #6, o alguien de la organización, pueden "
                "responder a esta petición."]
        assert await events_of(h, "follow_allowed") == []
        pressed = await h.press(BOSS, f"dec:fol:{request.id}:y", T0 + timedelta(minutes=2))
        assert said(pressed, STRANGER)[0].startswith(
            "Olga te ha dejado seguir la inscripción #6.\nSigues la inscripción #6 (Sol Dos)")
        assert [c.text.rsplit("\n", 1)[-1] for c in edits(pressed)] == ["→ Permitido por Olga."]
        assert await h.services.day.linked_users(6) == [STRANGER.id]
        (allowed,) = await events_of(h, "follow_allowed")
        assert allowed.role == "organiser"
    finally:
        await h.stop()


async def test_where_the_contest_says_so_the_first_scan_follows_at_once(tmp_path: Path) -> None:
    h = await open_day(tmp_path, '\n[following]\nfirst_phone = "anyone"\n')
    try:
        calls = await h.send(JONAS, f"/start {await card(h, 6)}", T0)
        assert said(calls, JONAS)[0].startswith("Du folgst der Anmeldung #6 (Sol Dos)")
        assert sent_to(calls, BOSS) == []
        assert await h.services.day.linked_users(6) == [JONAS.id]
        # the second phone asks the first
        later = await h.send(MARTA, f"/start {await card(h, 6)}", T0 + timedelta(minutes=1))
        assert len(sent_to(later, JONAS)) == 1 and keyboard(sent_to(later, JONAS)[0])
    finally:
        await h.stop()


async def test_the_join_code_still_links_at_once(tmp_path: Path) -> None:
    """The join code (given privately to whoever registered, for the partner's phone) is not
    a card's: it links without asking."""
    h = await open_day(tmp_path)
    try:
        entry = await h.services.store.entry(6)
        calls = await h.send(MARTA, f"/start {entry.join_code}", T0)
        assert said(calls, MARTA)[0].startswith("Du folgst der Anmeldung #6")
        assert await events_of(h, "follow_request") == []
    finally:
        await h.stop()


async def test_a_day_with_requests_travels_as_a_document(tmp_path: Path) -> None:
    """The requests and decisions are events like any other: a document of the day (the
    organisers' form) is imported again into a new database."""
    h = await open_day(tmp_path)
    try:
        await h.send(MARTA, f"/start {await card(h, 5)}", T0)
        await h.send(JONAS, f"/start {await card(h, 6)}", T0)
        first, second = await events_of(h, "follow_request")
        await h.press(ANA, f"dec:fol:{first.id}:y", T0 + timedelta(minutes=1))
        await h.press(BOSS, f"dec:fol:{second.id}:n", T0 + timedelta(minutes=1))
        text = h.contest_file.read_text(encoding="utf-8")
        doc = await export_document(h.services.contest, text, h.services.day)
    finally:
        await h.stop()
    store = await Store.open(str(tmp_path / "again.sqlite3"))
    try:
        await import_document(store, text, json.loads(json.dumps(doc)), "doc.json")
        kinds = [e.kind for e in await store.events()]
        assert kinds.count("follow_request") == 2
        assert kinds.count("follow_allowed") == kinds.count("follow_refused") == 1
    finally:
        await store.close()
