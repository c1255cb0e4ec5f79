"""Issue 47, item 5: a confirmed entry read only "Inscripción #19: tu plaza está confirmada",
with no date, time, venue, what to bring, how and until when to pay; a library team got no
date for its evening, a home player London time only. Now the place comes with a card: the
contest, when, where, what to bring, what it owes and how and until when to pay, its table
once drawn, only what the contest file says; and again when the place is confirmed later (a
payment recorded, a place freed up). Over the fake Bot API, in Spanish and German."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from tests.conftest import ROOT
from tests.fakebot import Call, Harness, Person

MADRID = ZoneInfo("Europe/Madrid")
LONDON = ZoneInfo("Europe/London")
CHICAGO = ZoneInfo("America/Chicago")
BOSS = Person(1, "Olga", "es")
ELENA = Person(101, "Elena", "es")
JONAS = Person(102, "Jonas", "de")
PEPA = Person(103, "Pepa", "es")

TORDESILLAS = """
[contest]
name = "Concurso de Puzzles de Tordesillas"
date = 2027-05-08
timezone = "Europe/Madrid"
language = "es"
venue = "Polideportivo municipal, Tordesillas"
start = "10:30"
seating = "numbers"
bring.es = "Una esterilla y un bolígrafo"
bring.de = "Eine Unterlage und einen Stift"
bring.en = "A mat and a pen"

[registration]
opens = 2027-03-01T00:00:00
closes = 2027-05-01T00:00:00
pay_within_days = 7
how_to_pay.es = "Bizum al 600 000 000, con tu número de inscripción"
how_to_pay.de = "Überweisung auf ES00 0000 0000, mit deiner Anmeldenummer"
how_to_pay.en = "Bizum to 600 000 000, with your entry's number"

[[categories]]
id = "solo"
name = "Individual"
members = 1
slots = [{}]
pieces = 500
time_limit = "1:30:00"
fee = 12
capacity = 1

[[categories]]
id = "infantil"
name = "Infantil"
members = 1
slots = [{}]
pieces = 200
time_limit = "1:00:00"
fee = 0
"""


def madrid(month: int, day: int, hour: int = 12) -> datetime:
    return datetime(2027, month, day, hour, tzinfo=MADRID)


def said(calls: list[Call], who: Person) -> list[str]:
    return [c.text for c in calls if c.method == "sendMessage" and c.chat_id == who.id]


async def open_bot(tmp_path: Path, text: str = TORDESILLAS) -> Harness:
    path = tmp_path / "contest.toml"
    path.write_text(text, encoding="utf-8")
    return await Harness(tmp_path, path, organisers=frozenset({BOSS.id})).start()


async def register(h: Harness, who: Person, category: str, typed: list[str],
                   at: datetime, taps: tuple[str, ...] = ()) -> list[str]:
    """/inscribir, the category, what is typed (names, births), the buttons ``taps`` (a
    question's answer), then Confirm: the lines of the bot's answer."""
    await h.send(who, "/inscribir", at)
    await h.press(who, f"reg:cat:{category}", at)
    for text in typed:
        await h.send(who, text, at)
    for data in taps:
        await h.press(who, data, at)
    [answer] = said(await h.press(who, "reg:ok", at), who)
    return answer.splitlines()


@pytest.mark.parametrize("who, card", [
    (ELENA, ["Inscripción #1: tu plaza está confirmada.",
             "Concurso de Puzzles de Tordesillas",
             "Cuándo: 8 de mayo de 2027 a las 10:30",
             "Dónde: Polideportivo municipal, Tordesillas",
             "Qué necesitas: Una esterilla y un bolígrafo",
             "Por pagar: 12 €",
             "Cómo pagar: Bizum al 600 000 000, con tu número de inscripción",
             "Paga como muy tarde el 9 de marzo de 2027: una inscripción que no esté pagada "
             "para entonces caduca.",
             "Mesa: 1",
             "Tus inscripciones y pagos: /mis_inscripciones"]),
    (JONAS, ["Anmeldung #1: Dein Platz ist bestätigt.",
             "Concurso de Puzzles de Tordesillas",
             "Wann: 8. Mai 2027 um 10:30",
             "Wo: Polideportivo municipal, Tordesillas",
             "Was du brauchst: Eine Unterlage und einen Stift",
             "Zu zahlen: 12 €",
             "So zahlst du: Überweisung auf ES00 0000 0000, mit deiner Anmeldenummer",
             "Zahle spätestens am 9. März 2027: Eine Anmeldung, die bis dahin nicht bezahlt "
             "ist, verfällt.",
             "Tisch: 1",
             "Deine Anmeldungen und Zahlungen: /my_entries"]),
])
async def test_a_paid_entry_is_told_when_where_what_to_bring_and_how_and_until_when_to_pay(
        tmp_path: Path, who: Person, card: list[str]) -> None:
    h = await open_bot(tmp_path)
    try:
        # registered on 2 March at noon: 7 days to pay, so until 9 March
        assert await register(h, who, "solo", [who.name, "1980"], madrid(3, 2)) == card
    finally:
        await h.stop()


@pytest.mark.parametrize("who, when", [(ELENA, "Cuándo: 8 de mayo de 2027 a las 10:30"),
                                       (JONAS, "Wann: 8. Mai 2027 um 10:30")])
async def test_a_free_entry_is_told_no_payment(tmp_path: Path, who: Person, when: str) -> None:
    h = await open_bot(tmp_path)
    try:
        lines = await register(h, who, "infantil", [who.name, "2015"], madrid(3, 2))
        assert lines[1:3] == ["Concurso de Puzzles de Tordesillas", when]
        # the venue, what to bring, the table, then the entries' command: nothing to pay
        assert len(lines) == 7 and lines[5] in ("Mesa: 1", "Tisch: 1"), lines
        assert not any(w in line for line in lines for w in (
            "Por pagar", "Cómo pagar", "Paga ", "Zu zahlen", "So zahlst", "Zahle", "€"))
    finally:
        await h.stop()


async def test_a_place_confirmed_by_a_payment_comes_with_its_card(tmp_path: Path) -> None:
    """Payment required: the entry registered is held until paid (its card says what to pay),
    and /pagado confirms it with the card again, paid."""
    h = await open_bot(tmp_path, TORDESILLAS.replace(
        "pay_within_days = 7", "pay_within_days = 7\npayment_required = true"))
    try:
        await h.send(BOSS, "/start", madrid(3, 1))
        lines = await register(h, JONAS, "solo", ["Jonas", "1980"], madrid(3, 2))
        assert lines[0].startswith("Anmeldung #1: angemeldet")
        assert "Zu zahlen: 12 €" in lines and "Tisch: 1" not in lines  # no place, no table
        calls = await h.send(BOSS, "/pagado 1", madrid(3, 4))
        await h.app.bot_data["sender"].settled()
        told = h.sent(JONAS.id)[-1].splitlines()
        assert told == ["Zahlung erhalten: Anmeldung #1 hat einen bestätigten Platz.",
                        "Concurso de Puzzles de Tordesillas",
                        "Wann: 8. Mai 2027 um 10:30",
                        "Wo: Polideportivo municipal, Tordesillas",
                        "Was du brauchst: Eine Unterlage und einen Stift",
                        "Bezahlt: 12 €",
                        "Tisch: 1"], told
        assert said(calls, BOSS)  # the organiser's answer as before
    finally:
        await h.stop()


async def test_a_place_freed_up_comes_with_its_card(tmp_path: Path) -> None:
    """One place: Pepa waits for it; Elena withdraws, and Pepa's place comes with its card,
    the day to pay by counted from her own registration."""
    h = await open_bot(tmp_path)
    try:
        await register(h, ELENA, "solo", ["Elena", "1980"], madrid(3, 2))
        lines = await register(h, PEPA, "solo", ["Pepa", "1985"], madrid(3, 5))
        assert "lista de espera" in lines[0] and len(lines) == 2  # no card on the list
        calls = await h.send(ELENA, "/baja", madrid(3, 6))
        yes = next(d for _, d in h.buttons(calls) if d.startswith("baja:y:"))
        await h.press(ELENA, yes, madrid(3, 6))
        await h.app.bot_data["sender"].settled()
        told = h.sent(PEPA.id)[-1].splitlines()
        assert told[0].startswith("Buenas noticias: ha quedado libre una plaza"), told
        assert told[1:] == ["Concurso de Puzzles de Tordesillas",
                            "Cuándo: 8 de mayo de 2027 a las 10:30",
                            "Dónde: Polideportivo municipal, Tordesillas",
                            "Qué necesitas: Una esterilla y un bolígrafo",
                            "Por pagar: 12 €",
                            "Cómo pagar: Bizum al 600 000 000, con tu número de inscripción",
                            "Paga como muy tarde el 12 de marzo de 2027: una inscripción que "
                            "no esté pagada para entonces caduca.",
                            "Mesa: 2"], told
    finally:
        await h.stop()


@pytest.mark.parametrize("who, card", [
    (ELENA, ["Library Puzzle Masters 2024: Concurso local – Oregon Library",
             "Cuándo: 22 de agosto de 2024 a las 18:00",
             "Dónde: Oregon Library"]),
    (JONAS, ["Library Puzzle Masters 2024: Local contest – Oregon Library",
             "Wann: 22. August 2024 um 18:00",
             "Wo: Oregon Library"]),
])
async def test_a_library_team_is_told_its_own_evening(tmp_path: Path, who: Person,
                                                     card: list[str]) -> None:
    h = await Harness(tmp_path, ROOT / "contests" / "library-series-2024.toml",
                      organisers=frozenset({BOSS.id})).start()
    try:
        at = datetime(2024, 7, 10, 12, tzinfo=CHICAGO)
        lines = await register(h, who, "teams", ["Ana", "1990-05-01", "Ben", "1991-06-02"],
                               at, ("reg:more:n", "reg:c:0:1"))  # Oregon Library
        assert lines[0].endswith(("tu plaza está confirmada.", "Dein Platz ist bestätigt."))
        assert lines[1:4] == card
        assert not any("€" in line or "USD" in line for line in lines)  # a free series
    finally:
        await h.stop()


@pytest.mark.parametrize("who, when, bring", [
    (ELENA, "Cuándo: 14 de noviembre de 2026 de 19:00 a 21:00 (hora de Londres)",
     "Qué necesitas: El puzle precintado que te enviamos"),
    (JONAS, "Wann: 14. November 2026 von 19:00 bis 21:00 (Ortszeit London)",
     "Was du brauchst: Das versiegelte Puzzle, das wir dir geschickt haben"),
])
async def test_a_home_player_is_told_the_window_with_its_time_zone_named(
        tmp_path: Path, who: Person, when: str, bring: str) -> None:
    h = await Harness(tmp_path, ROOT / "contests" / "home-cup-2026.toml",
                      organisers=frozenset({BOSS.id})).start()
    try:
        at = datetime(2026, 10, 20, 12, tzinfo=LONDON)
        lines = await register(h, who, "solo", [who.name, "1990-05-01"], at,
                               ("reg:c:0:2",))  # plays from Spain
        assert lines[1] == "Home Puzzle Cup 2026 – Round 1"
        assert lines[2] == when
        assert lines[4].startswith(bring)
        assert lines[5] in ("Por pagar: 8 GBP", "Zu zahlen: 8 GBP")
    finally:
        await h.stop()
