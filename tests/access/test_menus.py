"""Menus and the bot's description follow the contest, the category, the role and the moment:
no escape commands at a contest or in a category without an escape, no round commands without
rounds, registration's commands only while registration is open, the volunteers' group gets the
volunteers' list, and an empty chat says what the bot is for (issue 17)."""

from __future__ import annotations

import io
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from bot.chat.app import HANDLERS
from bot.features.installed import FEATURES
from bot.handlers import (
    access,
    clocks,
    desk,
    entries,
    history,
    menus,
    ready,
    rounds,
)
from bot.handlers.menus import MENU_CHANGE
from bot.services.contest_file import load_contest
from bot.services.csvio import import_entries, read_entries
from bot.support.commands import (
    BY_NAME,
    COMMANDS,
    DOOR,
    ESCAPE,
    ESCAPE_IN_CHAT,
    ESCAPE_STAGES,
    PAYMENTS,
    PENALTIES,
    ROUNDS,
    SELF_TIMED,
    SPLITS,
    features,
)
from tests.conftest import BILLOM, CASTRILLO, ROOT
from tests.day.test_bot_commands import CSV, ORGANISER, P3, P50, VOLUNTEER, menu_calls, open_day
from tests.fakebot import Call, FrozenClock, Harness, Person

MADRID = ZoneInfo("Europe/Madrid")
CHAMPIONSHIP = ROOT / "contests" / "championship-2027.toml"
DURING_REGISTRATION = datetime(2023, 4, 10, 12, 0, tzinfo=MADRID)  # Castrillo closes on the 22nd


def default_menus(calls: Sequence[Call]) -> dict[str | None, list[str]]:
    return {c.params.get("language_code"): [x["command"] for x in c.params["commands"]]
            for c in calls if c.method == "setMyCommands"
            and c.params.get("scope") == {"type": "all_private_chats"}}


def descriptions(calls: Sequence[Call], method: str) -> dict[str | None, str]:
    key = "description" if method == "setMyDescription" else "short_description"
    return {c.params.get("language_code"): c.params[key] for c in calls if c.method == method}


@pytest.fixture
async def day(tmp_path):
    d = await open_day(tmp_path)
    yield d
    await d.h.stop()


async def test_menus_follow_the_category_of_the_entry(day):
    # pair 3 plays the escape; adult 50's category has none: no hint, solution or tickets
    pair = menu_calls(await day.send(P3, "/start", "0:01:00"), P3)[None]
    adult = menu_calls(await day.send(P50, "/start", "0:01:00"), P50)[None]
    assert {"hint", "solution", "tickets", "done"} <= set(pair)
    assert "done" in adult and not {"hint", "solution", "tickets"} & set(adult)
    # a chat's menu never offers registration's commands: set weeks before, it would still
    # offer them on the contest day (/ayuda lists them while registration is open)
    assert not {"register", "withdraw", "cancel"} & set(pair + adult)
    assert "my_entries" in pair
    # Castrillo has no rounds and no penalty kinds
    staff = menu_calls(await day.send(ORGANISER, "/start", "0:01:00"), ORGANISER)[None]
    assert {"go", "ranking", "stage", "escaped", "finish"} <= set(staff)
    assert not {"confirm_round", "heats", "penalty", "split"} & set(staff)
    assert "tables" in staff  # every contest has tables to print
    volunteer = menu_calls(await day.send(VOLUNTEER, "/start", "0:01:00"), VOLUNTEER)[None]
    assert "finish" in volunteer and not {"hint", "register", "ranking"} & set(volunteer)


async def test_a_contest_without_an_escape_offers_none_of_its_commands(tmp_path):
    h = await Harness(tmp_path, BILLOM).start()
    try:
        default = default_menus(h.request.calls)
        assert set(default) == {"es", "fr", "en", "de", "it", "pt", "nl", None}
        assert default[None] == default["fr"]  # another phone language: the contest's
        organiser = Person(1, "Olga", "fr")
        calls = await h.send(organiser, "/start", datetime(2012, 3, 10, 9, tzinfo=UTC))
        staff = menu_calls(calls, organiser)[None]
        assert {"depart", "classement", "termine", "paye", "inscrits"} <= set(staff)
        assert not {"indice", "solution", "billets", "etape", "evasion"} & set(staff)
        assert not {"valider_manche", "series"} & set(staff)
    finally:
        await h.stop()


async def test_default_menu_and_description_follow_registration(tmp_path, monkeypatch):
    # the bot started while registration is open: strangers are offered /inscribir, in their
    # language, and the empty chat says how to register
    monkeypatch.setattr(menus, "CLOCK", FrozenClock(DURING_REGISTRATION))
    h = await Harness(tmp_path, CASTRILLO).start()
    try:
        default = default_menus(h.request.calls)
        assert default["es"] == ["start", "ayuda", "idioma", "inscribir", "mis_inscripciones",
                                 "cancelar"]
        assert default["en"] == ["start", "help", "language", "register", "my_entries",
                                 "cancel"]
        assert default[None] == default["es"]
        text = descriptions(h.request.calls, "setMyDescription")
        assert set(text) == {"es", "fr", "en", "de", "it", "pt", "nl", None}
        assert text["en"].startswith("I run the puzzle contest ")
        assert "/register" in text["en"] and "/inscription" in text["fr"]
        assert "/inscribir" in text["es"] and text[None] == text["es"]
        assert "hints" in text["en"]  # Castrillo has an escape
        short = descriptions(h.request.calls, "setMyShortDescription")
        assert short["fr"].startswith("Concours de puzzle :")
        assert all(0 < len(t) <= 120 for t in short.values())
        assert all(len(t) <= 512 for t in text.values())
    finally:
        await h.stop()
    # the same bot on the contest day: nothing to register any more
    monkeypatch.setattr(menus, "CLOCK", FrozenClock(datetime(2023, 4, 22, 9, tzinfo=MADRID)))
    (tmp_path / "day").mkdir()
    h = await Harness(tmp_path / "day", CASTRILLO).start()
    try:
        assert default_menus(h.request.calls)["en"] == ["start", "help", "language"]
        text = descriptions(h.request.calls, "setMyDescription")
        assert "/register" not in text["en"]
    finally:
        await h.stop()


async def test_the_menu_changes_when_registration_closes(tmp_path, monkeypatch):
    monkeypatch.setattr(menus, "CLOCK", FrozenClock(DURING_REGISTRATION))
    h = await Harness(tmp_path, CASTRILLO).start()
    try:
        named = h.app.bot_data["jobs_by_name"]
        # Castrillo closes at the start of its contest day: one moment ahead, one job
        assert {n for n in named if n.startswith(MENU_CHANGE)} == {MENU_CHANGE + "closes",
                                                                  MENU_CHANGE + "contest_day"}
        before = len(h.request.calls)
        monkeypatch.setattr(menus, "CLOCK", FrozenClock(datetime(2023, 4, 22, 0, 0, 1,
                                                                 tzinfo=MADRID)))
        job = named[MENU_CHANGE + "closes"]
        await job.callback(type("Ctx", (), {"application": h.app})())
        assert default_menus(h.request.calls[before:])["es"] == ["start", "ayuda", "idioma"]
    finally:
        await h.stop()


async def test_the_volunteers_group_gets_the_volunteers_commands(tmp_path):
    h = await Harness(tmp_path, CASTRILLO, volunteer_chat=-100123).start()
    try:
        (group,) = [c for c in h.request.calls if c.method == "setMyCommands"
                    and c.params.get("scope") == {"type": "chat", "chat_id": -100123}]
        names = [x["command"] for x in group.params["commands"]]
        assert {"fin", "piezas", "etapa", "deshacer", "historial"} <= set(names)
        assert not {"pista", "inscribir", "inicio", "clasificacion"} & set(names)
    finally:
        await h.stop()


@pytest.mark.parametrize(("at", "listed"), [
    (DURING_REGISTRATION, True), (datetime(2023, 4, 22, 10, tzinfo=MADRID), False)])
async def test_help_lists_registration_while_it_is_open(tmp_path, at, listed):
    h = await Harness(tmp_path, CASTRILLO).start()
    try:
        sam = Person(500, "Sam", "en")
        (text,) = [c.text for c in await h.send(sam, "/help", at) if c.method == "sendMessage"]
        assert ("/register - " in text) is listed
        assert ("/cancel - " in text) is listed
        assert "/hint" not in text  # follows no entry
    finally:
        await h.stop()


async def test_nobody_is_offered_the_heats_before_following_an_entry(tmp_path):
    h = await Harness(tmp_path, CHAMPIONSHIP).start()
    try:
        default = default_menus(h.request.calls)
        assert not {"series", "heats"} & {c for menu in default.values() for c in menu}
    finally:
        await h.stop()


# -- menus from the contest file: what a hint and a solution cost, only the commands it has ----


def castrillo_with(tmp_path: Path, old: str, new: str) -> Path:
    """Castrillo's contest file with ``old`` (which must be there) replaced by ``new``."""
    text = CASTRILLO.read_text()
    assert old in text
    path = tmp_path / "contest.toml"
    path.write_text(text.replace(old, new))
    return path


def menu_items(calls: Sequence[Call], who: Person) -> dict[str, str]:
    """The last menu set for ``who``'s chat: command -> description."""
    (last, *_) = [c for c in reversed(calls) if c.method == "setMyCommands"
                  and c.params.get("scope") == {"type": "chat", "chat_id": who.id}]
    return {x["command"]: x["description"] for x in last.params["commands"]}


CONTEST_DAY = datetime(2023, 4, 22, 10, tzinfo=MADRID)


async def linked_day(tmp_path: Path, contest: Path,
                     **options: Any) -> tuple[Harness, dict[int, str]]:
    """The bot of ``contest`` with the entries of tests/day/test_bot_commands.py imported, and
    their join codes."""
    h = await Harness(tmp_path, contest, **options).start()
    await import_entries(h.services.store,
                         read_entries(h.services.contest, io.StringIO(CSV), "entries.csv"))
    return h, {e.number: e.join_code for e in await h.services.store.entries()}


async def test_menus_name_what_a_hint_and_a_solution_cost_in_the_contest(tmp_path):
    contest = castrillo_with(tmp_path, "hint_cost = 1\nsolution_cost = 2\n",
                             "hint_cost = 2\nsolution_cost = 1\n")
    h, codes = await linked_day(tmp_path, contest)
    try:
        ana, juan, lea = Person(103, "Ana", "en"), Person(104, "Juan", "es"), \
            Person(105, "Léa", "fr")
        menus_of = {}
        for who in (ana, juan, lea):
            menus_of[who.lang] = menu_items(
                await h.send(who, f"/start {codes[3]}", CONTEST_DAY), who)
        assert menus_of["en"]["hint"] == "Ask for a hint (2 tickets)"
        assert menus_of["en"]["solution"] == "Ask for the solution (1 ticket)"
        assert menus_of["es"]["pista"] == "Pedir una pista (2 billetes)"
        assert menus_of["es"]["solucion"] == "Pedir la solución (1 billete)"
        assert menus_of["fr"]["indice"] == "Demander un indice (2 billets)"
        assert menus_of["fr"]["solution"] == "Demander la solution (1 billet)"
        # /ayuda lists the same lines
        (text,) = [c.text for c in await h.send(juan, "/ayuda", CONTEST_DAY)
                   if c.method == "sendMessage"]
        assert "/pista - Pedir una pista (2 billetes)" in text
        assert "/solucion - Pedir la solución (1 billete)" in text
    finally:
        await h.stop()


ESCAPE_NAMES = {"pista", "indice", "hint", "solucion", "solution", "billetes", "billets",
                "tickets", "etapa", "etape", "stage", "escape", "evasion", "escaped"}


async def test_a_contest_without_the_escape_has_no_escape_command_in_any_menu(tmp_path):
    text = CASTRILLO.read_text()
    escape = text[text.index("[escape]\n"):text.index("[[categories]]")]
    contest = castrillo_with(tmp_path, escape, "")
    contest.write_text(contest.read_text().replace("escape = true\n", ""))
    organiser, volunteer_group = Person(1, "Olga", "fr"), -100123
    h, codes = await linked_day(tmp_path, contest, organisers=frozenset({organiser.id}),
                                volunteer_chat=volunteer_group)
    try:
        assert h.services.contest.escape is None
        offered: set[str] = set()
        for c in h.request.calls:  # the default menus and the volunteers' group's
            if c.method == "setMyCommands":
                offered |= {x["command"] for x in c.params["commands"]}
        assert "fin" in offered  # the volunteers' group, in the contest's language
        for lang, number in (("es", 3), ("fr", 20), ("en", 50)):
            pair = Person(200 + number, "Ana", lang)
            offered |= set(menu_items(
                await h.send(pair, f"/start {codes[number]}", CONTEST_DAY), pair))
            (help_text,) = [c.text for c in await h.send(pair, "/ayuda", CONTEST_DAY)
                            if c.method == "sendMessage"]
            offered |= {line.split()[0].lstrip("/") for line in help_text.splitlines()
                        if line.startswith("/")}
        offered |= set(menu_items(await h.send(organiser, "/start", CONTEST_DAY), organiser))
        assert {"listo", "fini", "done", "depart", "classement"} <= offered
        assert not ESCAPE_NAMES & offered
    finally:
        await h.stop()


def test_each_command_says_what_the_contest_must_have_for_it() -> None:
    needs = {f: {c.name for c in COMMANDS if c.needs == f} for f in (ESCAPE, ROUNDS)}
    assert needs[ESCAPE] == {"pista", "solucion", "billetes", "escape"}
    # the stages confirmed by volunteers, or answered in the chat (issue 52)
    assert BY_NAME["etapa"].needs == ESCAPE_STAGES and BY_NAME["respuesta"].needs == ESCAPE_IN_CHAT
    assert needs[ROUNDS] == {"series", "confirmar_ronda", "acepto", "renuncio"}  # /mesas: all
    assert BY_NAME["penalizacion"].needs == PENALTIES and BY_NAME["parcial"].needs == SPLITS
    castrillo = load_contest(CASTRILLO)
    assert features(castrillo) == {ESCAPE, ESCAPE_STAGES, PAYMENTS}  # /pagar: where it pays
    assert features(load_contest(ROOT / "contests" / "escape-chat-2027.toml")) == {
        ESCAPE, ESCAPE_IN_CHAT}
    assert features(castrillo, ["adultos"]) == {PAYMENTS}
    assert BY_NAME["pagar"].needs == PAYMENTS and BY_NAME["presente"].needs == DOOR
    assert features(load_contest(BILLOM)) == frozenset()
    assert features(load_contest(CHAMPIONSHIP)) >= {ROUNDS}
    # /rechazar: for contests played at home
    assert BY_NAME["rechazar"].needs == SELF_TIMED
    assert features(load_contest(ROOT / "contests" / "home-cup-2026.toml")) == {SELF_TIMED}


def test_every_command_of_the_menus_has_one_handler_and_every_handler_a_command():
    # each feature lists its commands (bot/handlers/F.py COMMANDS, a feature package's
    # FEATURE.handlers); app.py registers them all
    listed = [name for m in (access, clocks, desk, entries, ready, history, rounds)
              for name in m.COMMANDS] + [name for f in FEATURES for name in f.handlers]
    assert len(listed) == len(set(listed))  # no command answered by two features
    assert set(HANDLERS) == set(listed)
    # /inscribir and /cancelar: the registration conversation's own entry and way out
    assert set(HANDLERS) | {"inscribir", "cancelar"} == set(BY_NAME)


def test_staff_menus_follow_the_order_of_their_day():
    from bot.handlers.commands import menu, view_for

    contest = load_contest(CASTRILLO)
    day = datetime(2023, 4, 22, 9, tzinfo=UTC)
    organiser = [n for n, _ in menu("organiser", "es", view_for(contest, day, "organiser", []))]
    assert organiser[:4] == ["inicio", "clasificacion", "publicar", "fin"]
    assert organiser[-3:] == ["start", "ayuda", "idioma"]  # everyone's, last
    assert organiser.index("pagado") > organiser.index("deshacer")
    volunteer = [n for n, _ in menu("volunteer", "en", view_for(contest, day, "volunteer", []))]
    assert volunteer[:2] == ["finish", "pieces"]
    # while registration is open, the desk first
    before = datetime(2023, 3, 1, 9, tzinfo=UTC)
    desk = [n for n, _ in menu("organiser", "es", view_for(contest, before, "organiser", []))]
    assert desk[:2] == ["pagado", "inscritos"]
