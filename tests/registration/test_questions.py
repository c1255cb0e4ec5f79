"""Questions beyond yes/no: a choice (a country, a T-shirt size) or a line of text (a club),
asked of every member or once per entry; shown in rankings, exported and imported, and a
choice's ``quota`` (at most N entries with the same answer hold a place in a category).

The contest is Castrillo's with four more questions (``QUESTIONS``): per member a T-shirt size
(choice) and a club (text, shown), per entry a country (choice, shown, quota 2) and a motto
(text). People write in English, so the fragments matched are the msgids.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import AsyncIterator, Callable
from datetime import datetime
from pathlib import Path

import pytest
from openpyxl import load_workbook  # type: ignore[import-untyped, unused-ignore]

from bot.domain.contest import Contest
from bot.domain.places import Application, Status, allocate
from bot.domain.ranking import Competitor, Row
from bot.features.registration.day import Registered, Registrations
from bot.features.registration.rules import Member, entry_value
from bot.services.contest_file import ContestFileError, load_contest
from bot.services.csvio import ImportError_, check_import, import_entries, read_entries
from bot.services.exports import entry_rows, export_entries, export_results, xlsx
from bot.services.summary import summary
from bot.storage.store import Entry, Store
from bot.texts.result_lines import ranking_lines
from tests.config.test_contest_file import MINIMAL, edit
from tests.conftest import CASTRILLO
from tests.fakebot import Call, Harness, Person, texts
from tests.registration.test_registration_chat import (
    ANA,
    BEA,
    data_of,
    madrid,
    member_rows,
    one_text,
    open_harness,
    rows,
)

QUESTIONS = """\
[[questions]]
id = "shirt"
text = { es = "¿Talla de camiseta?", fr = "Taille de t-shirt ?", en = "T-shirt size?" }
kind = "choice"
choices = ["S", "M", "L"]
label = { es = "Talla", fr = "Taille", en = "Size" }

[[questions]]
id = "club"
text = { es = "¿Club?", fr = "Club ?", en = "Which club?" }
kind = "text"
max_length = 12
show = true

[[questions]]
id = "country"
text = { es = "¿País del equipo?", fr = "Pays de l'équipe ?", en = "The team's country?" }
kind = "choice"
per = "entry"
choices = ["ES", { id = "FR", label = { es = "Francia", fr = "France", en = "France" } }, "PT",
           "DE"]
show = true
quota = 2
label = { es = "País", fr = "Pays", en = "Country" }

[[questions]]
id = "motto"
text = "Motto?"
kind = "text"
per = "entry"
max_length = 30
label = "Motto"

"""
SHIRT, CLUB, COUNTRY, MOTTO = 2, 3, 4, 5  # their indices (after Castrillo's two yes/no)
CARL = Person(103, "Carl", "en")
LUZ = Person(105, "Luz", "es")


def contest_file(tmp_path: Path, extra: str = QUESTIONS) -> Path:
    text = edit(CASTRILLO.read_text(encoding="utf-8"), "[local]\n", extra + "[local]\n")
    path = tmp_path / "questions.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def contest(tmp_path: Path) -> Contest:
    return load_contest(contest_file(tmp_path))


@pytest.fixture
async def bot(tmp_path: Path) -> AsyncIterator[Harness]:
    h = await open_harness(tmp_path, contest_file(tmp_path))
    yield h
    await h.stop()


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(tmp_path / "x.sqlite3")
    yield s
    await s.close()


# -- the contest file -------------------------------------------------------------------------


def test_the_new_keys_are_read(contest: Contest) -> None:
    shirt, club, country, motto = contest.questions[2:]
    assert (shirt.kind, shirt.per, [c.id for c in shirt.choices]) == ("choice", "member",
                                                                       ["S", "M", "L"])
    assert (club.kind, club.max_length, club.show, club.label_in("en")) == ("text", 12, True,
                                                                            "club")
    assert (country.per, country.quota, country.show) == ("entry", 2, True)
    assert country.choices[1].shown("fr") == "France" and country.choices[0].shown("fr") == "ES"
    assert (motto.kind, motto.per, motto.label_in("es")) == ("text", "entry", "Motto")
    # Castrillo's own questions are as they were
    assert [(q.kind, q.per, q.show) for q in contest.questions[:2]] == [
        ("yes_no", "member", False)] * 2


def test_check_contest_describes_the_new_questions(contest: Contest) -> None:
    lines = summary(contest).splitlines()
    assert "Question country: one of ES, FR, PT, DE, once per entry; at most 2 entries with the " \
           "same answer hold a place in a category; shown in rankings" in lines
    assert "Question club: a line of text (at most 12 characters), per member; shown in " \
           "rankings" in lines
    assert not any(line.startswith("Question") for line in summary(
        load_contest(CASTRILLO)).splitlines())


def minimal_with_question(question: str) -> str:
    return MINIMAL.replace("[[categories]]", "[[questions]]\nid = \"q\"\ntext = \"Q?\"\n"
                           + question + "\n[[categories]]")


BAD: dict[str, tuple[Callable[[], str], str, str]] = {
    "unknown-kind": (lambda: minimal_with_question('kind = "number"'), "questions[1].kind",
                     'must be "yes_no", "choice" or "text", not \'number\''),
    "choice-without-choices": (lambda: minimal_with_question('kind = "choice"'),
                               "questions[1].choices", 'is required when kind = "choice"'),
    "empty-choices": (lambda: minimal_with_question('kind = "choice"\nchoices = []'),
                      "questions[1].choices", "needs at least one choice"),
    "duplicate-choice": (lambda: minimal_with_question('kind = "choice"\nchoices = ["ES", "es"]'),
                         "questions[1].choices[2]", "'es' is a choice twice"),
    "choice-with-separator": (lambda: minimal_with_question('kind = "choice"\nchoices = ["A;B"]'),
                              "questions[1].choices[1]",
                              "must be 1 to 32 letters, digits, single spaces, . _ ' ( ) or -, "
                              "beginning with a letter or digit, not 'A;B'"),
    "choice-table-unknown-key": (
        lambda: minimal_with_question('kind = "choice"\nchoices = [{ id = "ES", name = "x" }]'),
        "questions[1].choices[1].name", "unknown key (the keys here: id, label, places)"),
    "choices-on-text": (lambda: minimal_with_question('kind = "text"\nchoices = ["A"]'),
                        "questions[1].choices", 'is only for kind = "choice" questions'),
    "quota-on-text": (lambda: minimal_with_question('kind = "text"\nquota = 2'),
                      "questions[1].quota", 'is only for kind = "choice" questions'),
    "zero-quota": (lambda: minimal_with_question('kind = "choice"\nchoices = ["A"]\nquota = 0'),
                   "questions[1].quota", "must be at least 1, not 0"),
    "max-length-on-choice": (
        lambda: minimal_with_question('kind = "choice"\nchoices = ["A"]\nmax_length = 9'),
        "questions[1].max_length", 'is only for kind = "text" questions'),
    "show-on-yes-no": (lambda: minimal_with_question("show = true"), "questions[1].show",
                       'is only for kind = "choice" or "text" questions'),
    "unknown-per": (lambda: minimal_with_question('per = "team"'), "questions[1].per",
                    'must be "member" or "entry", not \'team\''),
    "label-two-lines": (lambda: minimal_with_question('label = "a\\nb"'), "questions[1].label",
                        "must be one line of text"),
    "question-twice": (lambda: minimal_with_question('[[questions]]\nid = "q"\ntext = "Again?"'),
                       "questions[2].id", "'q' is used by another question"),
    "question-named-like-a-column": (
        lambda: MINIMAL.replace("[[categories]]",
                                '[[questions]]\nid = "names"\ntext = "?"\n\n[[categories]]'),
        "questions[1].id", "'names' is a column of the CSV files already"),
    "local-not-yes-no": (
        lambda: minimal_with_question('kind = "text"\n\n[local]\nany_member = ["q"]'),
        "local.any_member[1]",
        "'q' must be a yes/no question asked of each member (kind = \"yes_no\", per = \"member\")"),
    "discount-per-entry": (
        lambda: minimal_with_question('per = "entry"\n\n[discount]\namount = 5\nany_of = ["q"]'),
        "discount.any_of[1]",
        "'q' must be a yes/no question asked of each member (kind = \"yes_no\", per = \"member\")"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_a_bad_question_is_one_clear_error(tmp_path: Path, name: str) -> None:
    text, key, problem = BAD[name]
    path = tmp_path / "bad.toml"
    path.write_text(text(), encoding="utf-8")
    with pytest.raises(ContestFileError) as err:
        load_contest(path)
    assert (err.value.key, err.value.problem) == (key, problem)


# -- the chat ---------------------------------------------------------------------------------


async def member(h: Harness, who: Person, name: str, birth: str, shirt: int, club: str,
                 at: datetime) -> list[Call]:
    """Name, birth, Castrillo's yes/no questions (no), a size button and a club typed."""
    await h.send(who, name, at)
    calls = await h.send(who, birth, at)
    for i in (0, 1):
        assert f"reg:q:{i}:n" in data_of(h, calls), texts(calls)
        calls = await h.press(who, f"reg:q:{i}:n", at)
    assert data_of(h, calls) == [f"reg:c:{SHIRT}:{k}" for k in range(3)], texts(calls)
    asked = {"en": ("T-shirt size?", "Which club?"), "es": ("¿Talla de camiseta?", "¿Club?")}
    assert one_text(calls, who) == f"{name}: {asked[who.lang][0]}"
    calls = await h.press(who, f"reg:c:{SHIRT}:{shirt}", at)
    assert data_of(h, calls) == []
    assert one_text(calls, who).startswith(f"{name}: {asked[who.lang][1]}\n")
    return await h.send(who, club, at)


async def pair_to_summary(h: Harness, who: Person, at: datetime, country: int = 0,
                          motto: str = "Piece by piece", clubs: tuple[str, str] = ("Lynx",
                                                                                      "Lynx"),
                          category: str = "parejas") -> str:
    await h.send(who, "/inscribir", at)
    await h.press(who, f"reg:cat:{category}", at)
    calls = await member(h, who, "Ana Uno", "1980", 1, clubs[0], at)
    if category == "parejas":
        calls = await member(h, who, "Bea Dos", "1985", 2, clubs[1], at)
    # the entry's questions, once, after its members, without a member's name
    buttons = h.buttons(calls)
    assert [d for _, d in buttons] == [f"reg:c:{COUNTRY}:{k}" for k in range(4)]
    assert [t for t, _ in buttons][:2] == ["ES", "France" if who.lang != "es" else "Francia"]
    assert one_text(calls, who) == "The team's country?" or who.lang != "en"
    calls = await h.press(who, f"reg:c:{COUNTRY}:{country}", at)
    assert one_text(calls, who).startswith("Motto?")
    calls = await h.send(who, motto, at)
    calls = await h.press(who, "reg:ma:0", at)
    calls = await h.press(who, "reg:mc:0", at)
    assert "reg:ok" in data_of(h, calls)
    return one_text(calls, who)


async def test_a_pair_answers_every_kind_and_the_answers_are_stored(bot: Harness) -> None:
    at = madrid(3, 1)
    summary = await pair_to_summary(bot, ANA, at, country=1, clubs=("Lynx", "Owls"))
    assert "1. Ana Uno (1980, Size: M, club: Lynx)" in summary
    assert "2. Bea Dos (1985, Size: L, club: Owls)" in summary
    assert "Country: France" in summary and "Motto: Piece by piece" in summary
    assert "Which club?" not in summary and "country?" not in summary  # labels, not questions
    assert "Entry #1" in one_text(await bot.press(ANA, "reg:ok", at), ANA)
    entry = await bot.services.store.entry(1)
    assert entry.answer("country") == "FR" and entry.answer("motto") == "Piece by piece"
    assert entry.answer("club") == "Lynx/Owls" and entry.answer("shirt") == "L/M"
    assert [m.value("shirt") for m in entry.members] == ["M", "L"]
    # in the file itself, after a restart of the store's caches
    assert [r["answer_values"] for r in member_rows(bot, 1)] == ['{"shirt":"M","club":"Lynx"}',
                                                                 '{"shirt":"L","club":"Owls"}']
    assert rows(bot, "SELECT answer_values FROM entries")[0][0] == (
        '{"country":"FR","motto":"Piece by piece"}')


async def test_the_buttons_are_in_the_persons_language_and_rows_of_three(bot: Harness) -> None:
    at = madrid(3, 1)
    await bot.send(LUZ, "/inscribir", at)
    await bot.press(LUZ, "reg:cat:adultos", at)
    calls = await member(bot, LUZ, "Luz", "1980", 0, "Gatos", at)
    markup = next(c.params["reply_markup"] for c in calls if "reply_markup" in c.params)
    keyboard = (markup if isinstance(markup, dict) else json.loads(markup))["inline_keyboard"]
    assert [[b["text"] for b in row] for row in keyboard] == [["ES", "Francia", "PT"], ["DE"]]
    assert one_text(calls, LUZ) == "¿País del equipo?"


async def test_a_bad_text_answer_is_refused_with_the_reason_and_asked_again(
        bot: Harness) -> None:
    at = madrid(3, 1)
    await bot.send(CARL, "/inscribir", at)
    await bot.press(CARL, "reg:cat:adultos", at)
    await bot.send(CARL, "Carl", at)
    calls = await bot.send(CARL, "1970", at)
    for i in (0, 1):
        calls = await bot.press(CARL, f"reg:q:{i}:n", at)
    calls = await bot.press(CARL, f"reg:c:{SHIRT}:0", at)
    assert "(Write the answer: one line, at most 12 characters.)" in one_text(calls, CARL)
    for typed, why in [("A club far too long", "Please write an answer of 1 to 12 characters."),
                       ("\u200b", "Please write an answer of 1 to 12 characters."),
                       ("Lynx\nOwls", "Please write the answer on one line."),
                       ("Lynx;Owls", "An answer cannot contain \";\"")]:
        refusal = one_text(await bot.send(CARL, typed, at), CARL)
        assert refusal.startswith(why) and refusal.endswith("Which club?"), refusal
    # a button of a choice question does nothing here; then the right answer goes on
    assert data_of(bot, await bot.press(CARL, f"reg:c:{SHIRT}:1", at)) == []
    calls = await bot.send(CARL, "  Lynx\t Club ", at)
    assert data_of(bot, calls)[:1] == [f"reg:c:{COUNTRY}:0"]
    await bot.press(CARL, f"reg:c:{COUNTRY}:3", at)
    await bot.send(CARL, "Go", at)
    await bot.press(CARL, "reg:ma:0", at)
    summary = one_text(await bot.press(CARL, "reg:mc:0", at), CARL)
    assert "1. Carl (1970, Size: S, club: Lynx Club)" in summary and "Country: DE" in summary


async def test_old_or_foreign_choice_buttons_change_nothing(bot: Harness) -> None:
    at = madrid(3, 1)
    await bot.send(CARL, "/inscribir", at)
    await bot.press(CARL, "reg:cat:adultos", at)
    await bot.send(CARL, "Carl", at)
    await bot.send(CARL, "1970", at)
    await bot.press(CARL, "reg:q:0:n", at)
    calls = await bot.press(CARL, "reg:q:1:n", at)
    for data in (f"reg:c:{SHIRT}:3", f"reg:c:{COUNTRY}:0", f"reg:q:{SHIRT}:y", "reg:c:1:0"):
        assert texts(await bot.press(CARL, data, at)) == [], data
    calls = await bot.press(CARL, f"reg:c:{SHIRT}:2", at)
    assert one_text(calls, CARL).startswith("Carl: Which club?")


def test_callback_data_stays_short(contest: Contest) -> None:
    longest = f"reg:c:{len(contest.questions) - 1}:{59}"
    assert len(longest.encode()) < 64


# -- quota ------------------------------------------------------------------------------------


async def test_a_third_pair_of_a_country_waits_and_takes_a_freed_place(bot: Harness) -> None:
    at = madrid(3, 1)
    for who in (ANA, BEA):
        await pair_to_summary(bot, who, at, country=0)
        assert "your place is confirmed" in one_text(await bot.press(who, "reg:ok", at), who)
    await pair_to_summary(bot, CARL, at, country=0)
    third = one_text(await bot.press(CARL, "reg:ok", at), CARL)
    assert "Entry #3: no place is free; you are number 1 on the waiting list" in third
    # another country still gets a place, and so does Spain in another category
    await pair_to_summary(bot, LUZ, at, country=2)
    assert "confirmada" in one_text(await bot.press(LUZ, "reg:ok", at), LUZ)
    dora = Person(104, "Dora", "en")
    await pair_to_summary(bot, dora, at, country=0, category="adultos")
    assert "confirmed" in one_text(await bot.press(dora, "reg:ok", at), dora)
    # entry 1 withdraws: the waiting Spanish pair takes the place
    later = madrid(3, 2)
    await bot.send(ANA, "/baja 1", later)
    await bot.press(ANA, f"baja:y:1:{int(later.timestamp())}", later)
    assert any("entry #3 now has a confirmed place" in t for t in bot.sent(CARL.id))


def test_the_quota_counts_per_category_and_per_answer(contest: Contest) -> None:
    def app(n: int, country: str, category: str = "parejas") -> Application:
        return Application(n, category, False, madrid(3, 1, 10, n),
                           quota_values=(("country", country),))

    apps = [app(1, "ES"), app(2, "ES/FR"), app(3, "ES"), app(4, "ES"), app(5, "ES", "adultos"),
            Application(6, "parejas", False, madrid(3, 1, 10, 6))]
    places = allocate(contest, apps, madrid(3, 2))
    assert {n: p.status for n, p in places.items()} == {
        1: Status.CONFIRMED, 2: Status.CONFIRMED, 3: Status.CONFIRMED, 4: Status.WAITING,
        5: Status.CONFIRMED, 6: Status.CONFIRMED}
    assert places[4].waiting_position == 1


def test_an_entrys_answer_to_a_member_question() -> None:
    es, fr = Member("A", values=(("c", "ES"),)), Member("B", values=(("c", "FR"),))
    assert entry_value([es, Member("C", values=(("c", "ES"),))], "c") == "ES"
    assert entry_value([fr, es], "c") == entry_value([es, fr], "c") == "ES/FR"
    assert entry_value([es, Member("Nobody")], "c") == "ES"
    assert entry_value([Member("Nobody")], "c") is None
    entry = Entry(1, "parejas", "x" * 16, False, madrid(3, 1), (es, fr),
                  values=(("team", "Lynx"),))
    assert (entry.answer("team"), entry.answer("c"), entry.answer("nope")) == ("Lynx", "ES/FR",
                                                                                None)


async def test_the_import_refuses_a_file_over_a_quota_unless_forced(contest: Contest,
                                                                     store: Store) -> None:
    text = ("category,names,born,country\n" + "parejas,A;B,1980;1980,es\n" * 2
            + "parejas,C;D,1980;1980,ES\nadultos,E,1980,ES\n")
    lines = read_entries(contest, io.StringIO(text), "in.csv")
    assert [dict(r.values) for r in lines] == [{"country": "ES"}] * 4
    check = await check_import(contest, Registrations(contest, store), lines, madrid(3, 1))
    assert check.problems == ["parejas: at most 2 entries answer 'ES' to country "
                              "(questions.quota): the file goes 1 over (lines 4)"]


# -- CSV and XLSX -----------------------------------------------------------------------------


async def test_export_then_import_gives_the_same_answers(contest: Contest, store: Store,
                                                         tmp_path: Path) -> None:
    regs = Registrations(contest, store)
    parejas, adultos = contest.category("parejas"), contest.category("adultos")
    out = await regs.register(
        7, parejas, [Member("Ana", born_year=1980, answers=frozenset({"resident"}),
                            values=(("shirt", "M"), ("club", "=Lynx"))),
                     Member("Bea", born_year=1985, values=(("shirt", "S"),))],
        0, 0, madrid(3, 1), None, values=(("country", "FR"), ("motto", "Á tope; always")))
    assert isinstance(out, Registered)
    await regs.register(8, adultos, [Member("Carl", born_year=1970)], 0, 0, madrid(3, 1), None)
    exported = io.StringIO()
    await export_entries(contest, store, exported)
    table = list(csv.DictReader(io.StringIO(exported.getvalue())))
    assert [(r["shirt"], r["club"], r["country"], r["motto"], r["resident"]) for r in table] == [
        ("M; S", "'=Lynx; ", "FR", "Á tope; always", "yes; no"), ("", "", "", "", "no")]
    again = await Store.open(tmp_path / "again.sqlite3")
    try:
        await import_entries(again, read_entries(contest, io.StringIO(exported.getvalue()),
                                                 "exported.csv"))
        assert [(e.members, e.values) for e in await again.entries()] == [
            (e.members, e.values) for e in await store.entries()]
        twice = io.StringIO()
        await export_entries(contest, again, twice)
        columns = ["number", "names", "aepuzz_member", "resident", "shirt", "club", "country",
                   "motto"]
        assert [[r[c] for c in columns] for r in csv.DictReader(io.StringIO(
            twice.getvalue()))] == [[r[c] for c in columns] for r in table]
    finally:
        await again.close()
    # the workbook has the same columns
    book = xlsx({"Entries": await entry_rows(contest, store)})
    sheet = load_workbook(io.BytesIO(book))["Entries"]
    header = [c.value for c in sheet[1]]
    assert sheet.cell(row=2, column=header.index("country") + 1).value == "FR"


@pytest.mark.parametrize("column,cell,problem", [
    ("country", "XX", "in.csv:2: column country: 'XX' is not one of ES, FR, PT, DE"),
    ("shirt", "M; XL", "in.csv:2: column shirt: 'XL' is not one of S, M, L"),
    ("shirt", "M; S; L", "in.csv:2: column shirt needs one answer per member (2), found 3"),
    ("club", "A club far too long", "in.csv:2: column club: 19 characters, at most 12"),
])
def test_a_bad_answer_in_the_import_names_the_line_the_column_and_what_is_allowed(
        contest: Contest, column: str, cell: str, problem: str) -> None:
    text = f'category,names,born,{column}\nparejas,A;B,1980;1980,"{cell}"\n'
    with pytest.raises(ImportError_) as err:
        read_entries(contest, io.StringIO(text), "in.csv")
    assert str(err.value) == problem


def test_one_value_for_every_member_and_choices_in_any_case(contest: Contest) -> None:
    text = "category,names,born,shirt,club\nparejas,A;B,1980;1980,m,Lynx\n"
    (line,) = read_entries(contest, io.StringIO(text), "in.csv")
    assert [m.values for m in line.members] == [(("shirt", "M"), ("club", "Lynx"))] * 2


# -- rankings and results ---------------------------------------------------------------------


async def test_shown_answers_follow_the_names_in_rankings_and_results(bot: Harness) -> None:
    at = madrid(3, 1)
    await pair_to_summary(bot, ANA, at, country=1, clubs=("Lynx", "Lynx"))
    await bot.press(ANA, "reg:ok", at)
    svc = bot.services
    cat = svc.contest.category("parejas")
    lines = ranking_lines("en", svc.contest, cat, await svc.day.ranking(cat, at))
    assert lines[1] == "- #1 Ana Uno / Bea Dos (Lynx, FR): no result yet"
    out = io.StringIO()
    await export_results(svc.contest, svc.day, out, "parejas", at)
    (result,) = csv.DictReader(io.StringIO(out.getvalue()))
    assert (result["shirt"], result["club"], result["country"], result["motto"]) == (
        "M; L", "Lynx; Lynx", "FR", "Piece by piece")


def test_ranking_lines_without_shown_answers_are_unchanged(contest: Contest) -> None:
    cat = contest.category("adultos")
    plain = Row(1, Competitor(4, ("Ana",), finish=3600), True, 3600, None)
    shown = Row(1, Competitor(4, ("Ana",), finish=3600, shown=("ES", "Lynx")), True, 3600, None)
    assert ranking_lines("en", contest, cat, [plain])[1] == "1. #4 Ana: 1:00:00"
    assert ranking_lines("en", contest, cat, [shown])[1] == "1. #4 Ana (ES, Lynx): 1:00:00"
