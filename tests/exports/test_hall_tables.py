"""The tables of a contest played in one round (bot/features/tables/rules.py and sheets.py):
numbered through the hall category after category, or at each entry's own number, as the
contest file's ``seating`` says; listed by /mesas; fixed once the category's clock started."""

from __future__ import annotations

import io
import tomllib
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pypdf
import pytest

from bot.features.tables.rules import hall_tables
from bot.features.tables.sheets import hall_seats
from bot.services.contest_file import ContestFileError, load_contest, parse_contest
from bot.services.csvio import import_entries, read_entries
from tests.conftest import CASTRILLO
from tests.fakebot import Harness, Person, staff

T0 = datetime(2023, 4, 22, 10, 0, tzinfo=ZoneInfo("Europe/Madrid"))
OLGA, VIC = Person(1, "Olga"), Person(2, "Víctor")
CSV = ("number,category,names,born\n"
       "9,parejas,Ana Uno; Bea Dos,1980; 1981\n"
       "4,parejas,Carla Tres; Dani Cuatro,1980; 1981\n"
       "12,adultos,Eva Cinco,1970\n"
       "2,adultos,Fede Seis,1971\n")


def test_through_the_hall_category_after_category_or_at_each_number() -> None:
    groups = [[12, 2], [], [9, 4]]  # adults, an empty category, pairs (as the file orders them)
    assert hall_tables(groups) == {2: 1, 12: 2, 4: 3, 9: 4}
    assert hall_tables(groups, "numbers") == {12: 12, 2: 2, 9: 9, 4: 4}
    assert hall_tables([]) == {}
    with pytest.raises(ValueError):
        hall_tables(groups, "random")


def test_the_contest_file_setting() -> None:
    assert load_contest(CASTRILLO).seating == "categories"  # the default


async def open_day(tmp_path, contest=CASTRILLO) -> Harness:
    h = await Harness(tmp_path, contest, organisers=frozenset({OLGA.id})).start()
    await import_entries(h.services.store, read_entries(h.services.contest, io.StringIO(CSV),
                                                        "x.csv"))
    await staff(h, OLGA, VIC, T0 - timedelta(days=1))
    return h


async def test_mesas_sends_every_categorys_list_in_table_order(tmp_path) -> None:
    h = await open_day(tmp_path)
    try:
        calls = await h.send(OLGA, "/mesas", T0 - timedelta(hours=1))
        [doc] = [c for c in calls if c.method == "sendDocument"]
        assert doc.params["document"]["file"] == "tables-all.pdf"
        pages = [p.extract_text() for p in
                 pypdf.PdfReader(io.BytesIO(doc.params["document"]["bytes"])).pages]
        assert len(pages) == 5  # a page per category, the empty ones saying so
        adults, pairs = pages[3], pages[4]
        assert adults.index("#2") < adults.index("#12")
        assert "Fede Seis" in adults and "Carla Tres / Dani Cuatro" in pairs
        # one category by name, as people call it
        calls = await h.send(OLGA, "/mesas adultos parejas", T0 - timedelta(hours=1))
        [doc] = [c for c in calls if c.method == "sendDocument"]
        assert doc.params["document"]["file"] == "tables-parejas.pdf"
        assert doc.params["caption"] == "Adultos parejas"
        # an unknown one: the categories, nothing sent
        calls = await h.send(OLGA, "/mesas nadie", T0 - timedelta(hours=1))
        assert [c.method for c in calls] == ["sendMessage"]
        assert calls[0].params["text"].startswith("Categoría desconocida.")
        # not for volunteers
        calls = await h.send(VIC, "/mesas", T0)
        assert [c.method for c in calls] == ["sendMessage"]
    finally:
        await h.stop()


async def withdraw(h: Harness, number: int, at: datetime) -> None:
    """The entry's own phone withdraws it (/baja, then Yes)."""
    person = Person(100 + number, f"P{number}")
    entry = await h.services.store.entry(number)
    await h.send(person, f"/start {entry.join_code}", at - timedelta(minutes=1))
    await h.send(person, "/baja", at)
    await h.press(person, f"baja:y:{number}:{int(at.timestamp())}", at)


async def test_a_withdrawal_moves_the_tables_until_the_clock_starts(tmp_path) -> None:
    h = await open_day(tmp_path)
    try:
        day = h.services.day
        assert await hall_seats(day) == {2: 1, 12: 2, 4: 3, 9: 4}
        await withdraw(h, 12, T0 - timedelta(hours=1))  # before: the tables close up
        assert await hall_seats(day) == {2: 1, 4: 2, 9: 3}
        await h.send(OLGA, "/inicio", T0)
        await withdraw(h, 4, T0 + timedelta(minutes=5))  # once playing: nobody moves
        assert await hall_seats(day) == {2: 1, 4: 2, 9: 3}
    finally:
        await h.stop()


async def test_seating_by_numbers(tmp_path) -> None:
    text = CASTRILLO.read_text(encoding="utf-8").replace(
        'start = "10:00"\n', 'start = "10:00"\nseating = "numbers"\n', 1)
    path = tmp_path / "c.toml"
    path.write_text(text, encoding="utf-8")
    h = await open_day(tmp_path, path)
    try:
        assert await hall_seats(h.services.day) == {2: 2, 12: 12, 4: 4, 9: 9}
    finally:
        await h.stop()


NEEDS = '''
[[questions]]
id = "wheelchair"
text = "Needs an accessible table?"
label = { es = "mesa accesible", en = "accessible table" }
on_tables = true

[[questions]]
id = "hand"
kind = "choice"
per = "entry"
text = "Which hand?"
choices = ["left", "right"]
on_tables = true
'''


async def test_needs_marked_on_tables_are_printed_after_the_names(tmp_path) -> None:
    """Issue 48: a need the hall must meet (an accessible table) could not reach the table
    lists. A question marked ``on_tables`` prints its answer after the names: a yes/no one its
    label when a member said yes (nothing otherwise), another its answer."""
    text = CASTRILLO.read_text(encoding="utf-8")
    contest = tmp_path / "needs.toml"
    contest.write_text(text.replace("[[categories]]", NEEDS + "\n[[categories]]", 1),
                       encoding="utf-8")
    h = await Harness(tmp_path, contest, organisers=frozenset({OLGA.id})).start()
    try:
        rows = ("number,category,names,born,wheelchair,hand\n"
                "9,parejas,Ana Uno; Bea Dos,1980; 1981,no; yes,left\n"
                "4,parejas,Carla Tres; Dani Cuatro,1980; 1981,no; no,right\n")
        await import_entries(h.services.store, read_entries(h.services.contest,
                                                            io.StringIO(rows), "x.csv"))
        await staff(h, OLGA, VIC, T0 - timedelta(days=1))
        calls = await h.send(OLGA, "/mesas", T0 - timedelta(hours=1))
        [doc] = [c for c in calls if c.method == "sendDocument"]
        text = "\n".join(p.extract_text() for p in
                         pypdf.PdfReader(io.BytesIO(doc.params["document"]["bytes"])).pages)
        assert "Ana Uno / Bea Dos (mesa accesible, left)" in text, text
        assert "Carla Tres / Dani Cuatro (right)" in text, text
    finally:
        await h.stop()


@pytest.mark.parametrize(("change", "problem"), [
    ('seating = "seeded"', "categories[1].seating: seeded needs a round before"),
    ('seating = "draw"\n[[categories.rounds]]\nid = "final"\nname = "Final"',
     "categories[1].seating: is for a category played once: with rounds, give each round "
     "its seating"),
    ('start = "15:00"\n[[categories.rounds]]\nid = "final"\nname = "Final"',
     "categories[1].start: is for a category played once: with rounds, give each round "
     "its start"),
])
def test_start_and_seating_of_a_category_played_once_are_checked(change, problem) -> None:
    from tests.config.test_contest_file import MINIMAL
    with pytest.raises(ContestFileError) as err:
        parse_contest(tomllib.loads(MINIMAL + change + "\n"), "x.toml")
    assert str(err.value).startswith(f"x.toml: {problem}")


async def test_a_category_played_once_at_its_own_start(tmp_path) -> None:
    """``start`` on a category played once: its table lists and the day plan say its own
    time, not the contest's."""
    text = CASTRILLO.read_text(encoding="utf-8").replace(
        'id = "adultos"', 'id = "adultos"\nstart = "17:30"\nseating = "draw"', 1)
    contest_path = tmp_path / "own-start.toml"
    contest_path.write_text(text, encoding="utf-8")
    contest = load_contest(contest_path)
    adults = contest.category("adultos")
    assert adults is not None and adults.start is not None
    assert (adults.start.hour, adults.start.minute, adults.seating) == (17, 30, "draw")
    assert contest.start_of(adults) == adults.start
    assert contest.start_of(contest.categories[0]) == contest.start
    h = await open_day(tmp_path, contest_path)
    try:
        calls = await h.send(OLGA, "/mesas", T0 - timedelta(hours=1))
        [doc] = [c for c in calls if c.method == "sendDocument"]
        pages = [p.extract_text() for p in
                 pypdf.PdfReader(io.BytesIO(doc.params["document"]["bytes"])).pages]
        adults_page = next(p for p in pages if "Eva Cinco" in p)
        assert "17:30" in adults_page
        assert "17:30" not in next(p for p in pages if "Ana Uno" in p)
    finally:
        await h.stop()
