"""Translations: every English message of the bot has a Spanish and a French translation that
keeps its ``{placeholders}``, and ``tr``/``pick_language`` pick and fill them."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from datetime import UTC, date, datetime
from pathlib import Path
from string import Formatter
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from bot.domain.contest import Contest
from bot.domain.ranking import Competitor, Row
from bot.features.registration.texts import closed_text
from bot.support.commands import COMMANDS, in_language
from bot.support.i18n import LANGUAGES, LOCALES, ntr, pick_language, tr
from bot.texts.common import day_text
from bot.texts.names import amount_text
from bot.texts.result_lines import ranking_lines
from tests.conftest import BILLOM, CASTRILLO
from tests.fakebot import Harness, Person

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = ("es", "fr", "de", "it", "pt", "nl")


def placeholders(text: str) -> Counter[str]:
    """The ``{names}`` a message fills (``str.format`` fields), with how often each appears."""
    return Counter(field for _, field, _, _ in Formatter().parse(text) if field is not None)


def read_catalog(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as fh:
        return read_po(fh, locale=locale)


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    """A fresh template, extracted from the sources exactly as docs/dev/README.md's command does."""
    out = tmp_path_factory.mktemp("i18n") / "bot.pot"
    subprocess.run(
        [sys.executable, "-m", "babel.messages.frontend", "extract", "-F", "babel.cfg",
         "-k", "tr:2", "-k", "ntr:2,3", "-k", "N_", "--no-default-keywords", "--no-location",
         "--omit-header",
         "-o", str(out), "."],
        cwd=ROOT, check=True, capture_output=True, text=True,
    )
    return read_catalog(out)


def test_template_is_not_empty(template: Catalog) -> None:
    ids = [m.id for m in template if m.id]
    assert len(ids) > 50
    assert "I will write to you in English." in ids


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated(template: Catalog, lang: str) -> None:
    catalog = read_catalog(LOCALES / lang / "LC_MESSAGES" / "bot.po", lang)
    assert not catalog.fuzzy, f"{lang}: the catalog header is marked fuzzy"
    problems = []
    for message in template:
        if not message.id:
            continue
        # a plural message (``ntr``): every form the language has, each with the plural's
        # placeholders
        key = message.id[0] if isinstance(message.id, tuple) else message.id
        wanted = placeholders(message.id[1] if isinstance(message.id, tuple) else message.id)
        translation = catalog.get(key)
        strings = (translation.string if translation is not None
                   and isinstance(translation.string, tuple) else
                   (translation.string,) if translation is not None else ())
        if translation is None:
            problems.append(f"missing: {message.id!r}")
        elif isinstance(message.id, tuple) != isinstance(translation.string, tuple) or (
                isinstance(message.id, tuple) and len(strings) != catalog.num_plurals):
            problems.append(f"plural forms: {message.id!r} -> {translation.string!r}")
        elif not all(isinstance(t, str) and t.strip() for t in strings):
            problems.append(f"empty: {message.id!r}")
        elif translation.fuzzy:
            problems.append(f"fuzzy: {message.id!r}")
        elif any(placeholders(t) != wanted for t in strings):
            problems.append(f"placeholders differ: {message.id!r} -> {translation.string!r}")
    assert not problems, f"{lang}/LC_MESSAGES/bot.po:\n" + "\n".join(problems)


def test_tr_spanish_fills_placeholders() -> None:
    assert tr("es", "Entry {entry}: {count} pieces.", entry=12, count=480) == (
        "Inscripción 12: 480 piezas."
    )
    assert tr("es", "Usage: {usage}", usage="/pista [etapa 1-5]") == "Uso: /pista [etapa 1-5]"
    assert tr("es", "I will write to you in English.") == "Te escribiré en español."


def test_tr_french_fills_placeholders() -> None:
    assert tr("fr", "Entry {entry}: {count} pieces.", entry=12, count=480) == (
        "Inscription 12 : 480 pièces."
    )
    assert tr("fr", "Escape solved at {time}! Now the puzzle: when you finish it, send /listo.",
              time="0:42:10") == (
        "Escape résolu en 0:42:10 ! Place au puzzle : quand vous l'aurez fini, envoyez /fini."
    )
    assert tr("fr", "I will write to you in English.") == "Je vous écrirai en français."


def test_ntr_picks_each_languages_plural_form() -> None:
    """French counts 0 and 1 as singular, Spanish and English only 1; ``{n}`` is filled."""
    def adults(lang: str, n: int) -> str:
        return ntr(lang, "{n} adult", "{n} adults", n)

    assert [adults("en", n) for n in (0, 1, 2)] == ["0 adults", "1 adult", "2 adults"]
    assert [adults("es", n) for n in (0, 1, 2)] == ["0 adultos", "1 adulto", "2 adultos"]
    assert [adults("fr", n) for n in (0, 1, 2)] == ["0 adulte", "1 adulte", "2 adultes"]
    assert ntr("es", "Discounts: -{amount} ({n} member)", "Discounts: -{amount} ({n} members)",
               1, amount="5 €") == "Descuentos: -5 € (1 participante)"
    assert [adults("de", n) for n in (0, 1, 2)] == ["0 Erwachsene", "1 Erwachsener",
                                                    "2 Erwachsene"]
    assert ntr("ja", "{n} child", "{n} children", 2) == "2 niños"  # Spanish by default


def test_dates_in_texts_read_as_each_language_writes_them(billom: Contest) -> None:
    # never an ISO date in prose: Billom's registration opens 2012-01-23 00:00, closes 2012-03-02
    assert closed_text("fr", billom, "not_open_yet") == (
        "Les inscriptions ouvrent le 23 janvier 2012 à 00:00.")
    assert closed_text("es", billom, "closed") == (
        "Las inscripciones están cerradas (desde el 2 de marzo de 2012 a las 00:00).")
    assert day_text("es", date(2027, 7, 3)) == "sábado 3 de julio"
    assert day_text("fr", date(2027, 7, 3)) == "samedi 3 juillet"
    assert day_text("en", date(2027, 7, 3)) == "Saturday 3 July"
    assert day_text("de", date(2027, 7, 3)) == "Samstag, 3. Juli"


def test_french_puts_a_space_before_the_colon_of_lines_built_in_code(billom: Contest) -> None:
    cat = billom.category("junior")
    assert cat is not None
    row = Row(1, Competitor(4, ("Anne", "Bruno"), finish=3600), True, 3600, None)
    assert ranking_lines("fr", billom, cat, [row])[1] == "1. #4 Anne / Bruno : 1:00:00"
    assert ranking_lines("es", billom, cat, [row])[1] == "1. #4 Anne / Bruno: 1:00:00"


def test_tr_english_is_the_message_itself() -> None:
    assert tr("en", "Entry {entry}: {count} pieces.", entry=3, count=7) == "Entry 3: 7 pieces."


def test_tr_unknown_language_falls_back_to_spanish() -> None:
    assert tr("ja", "I will write to you in English.") == "Te escribiré en español."
    assert tr("zz", "Stage {stage}", stage=2) == "Etapa 2"


def test_texts_name_commands_as_the_reader_types_them() -> None:
    # the msgids name the Spanish commands; each reader sees their own language's alias
    text = "When you finish the puzzle, send /listo."
    assert tr("es", text) == "Cuando termines el puzzle, envía /listo."
    assert tr("fr", text).endswith("/fini.")
    assert tr("en", text) == "When you finish the puzzle, send /done."
    assert tr("fr", "Your entries and payments: /mis_inscripciones").endswith(
        "/mes_inscriptions")
    # a command without an alias keeps its name; what is not one of ours is left alone
    assert in_language("fr", "/start, /final, t.me/bot?start=x, a/b, /fin") == \
        "/start, /final, t.me/bot?start=x, a/b, /termine"
    assert in_language("en", "Usage: /piezas N P (or /deshacer)") == \
        "Usage: /pieces N P (or /undo)"
    assert in_language("es", "/pista") == "/pista"
    # German has no command names of its own: it types the English ones
    assert tr("de", text) == "Wenn du das Puzzle fertig hast, schick /done."
    assert in_language("de", "/piezas N P, /series") == "/pieces N P, /heats"


def test_every_command_has_a_menu_line_in_every_language() -> None:
    for c in COMMANDS:
        for lang in LANGUAGES:
            assert tr(lang, c.line) != c.line or lang == "en", (c.name, lang)


async def test_a_german_phone_reads_german_with_the_english_commands(tmp_path) -> None:
    h = await Harness(tmp_path, BILLOM).start()
    try:
        hans = Person(77, "Hans", "de")
        calls = await h.send(hans, "/help", datetime.now(UTC))
        text = next(c.text for c in calls if c.method == "sendMessage")
        assert "/start - Starten / meine Anmeldung verknüpfen" in text.splitlines(), text
        assert "/help - Was ich tun kann" in text.splitlines(), text
        menus = [c for c in h.request.calls if c.method == "setMyCommands"
                 and c.params.get("language_code") == "de"]
        assert menus, "no German menu"
    finally:
        await h.stop()


async def test_a_french_volunteer_is_told_the_french_command(tmp_path) -> None:
    h = await Harness(tmp_path, BILLOM).start()
    try:
        o = Person(1, "Olga", "fr")  # BILLOM's harness organiser
        said = [c.text for c in await h.send(o, "/pieces", datetime.now(UTC))
                if c.method == "sendMessage"]
        assert said == ["Utilisation : /pieces N P\nPar exemple /pieces 12 350 (l'inscription "
                        "12 a posé 350 pièces)."], said
    finally:
        await h.stop()


def test_pick_language() -> None:
    assert pick_language(None, "fr-FR") == "fr"
    assert pick_language(None, "ja") == "es"
    assert pick_language(None, "de-AT") == "de"
    # a phone in a language the bot does not speak reads the contest's language
    assert pick_language(None, "ja", "fr") == "fr"
    assert pick_language(None, None, "en") == "en"
    assert pick_language("es", "ja", "fr") == "es"
    assert pick_language("en", "fr") == "en"


async def test_a_japanese_phone_at_a_french_contest_reads_french(tmp_path) -> None:
    h = await Harness(tmp_path, BILLOM).start()
    try:
        hans = Person(77, "Hana", "ja")
        calls = await h.send(hans, "/ayuda", datetime.now(UTC))
        text = next(c.text for c in calls if c.method == "sendMessage")
        assert text.splitlines()[:3] == [
            "Concours de puzzle : Concours de puzzle par équipe de 2 — Billom",
            "/start - Commencer / lier mon inscription", "/aide - Ce que je peux faire"], text
    finally:
        await h.stop()


async def test_free_text_and_unknown_commands_get_a_pointer_to_the_help(tmp_path) -> None:
    h = await Harness(tmp_path, CASTRILLO).start()
    try:
        ana = Person(78, "Ana", "en")
        now = datetime.now(UTC)
        said = [c.text for c in await h.send(ana, "hello?", now) if c.method == "sendMessage"]
        assert said == ["I only understand commands. /help lists what you can do."]
        said = [c.text for c in await h.send(ana, "/frobnicate", now)
                if c.method == "sendMessage"]
        assert said == ["I don't know that command. /help lists what you can do."]
    finally:
        await h.stop()
    (tmp_path / "b").mkdir()
    h = await Harness(tmp_path / "b", BILLOM).start()
    try:
        said = [c.text for c in await h.send(Person(79, "Léa", "fr"), "bonjour",
                                             datetime.now(UTC)) if c.method == "sendMessage"]
        assert said == [tr("fr", "I only understand commands. /{help} lists what you can do.",
                           help="aide")]
    finally:
        await h.stop()


def test_ticket_counts_use_the_languages_plural_forms() -> None:
    one, many = "Charged: {n} ticket.", "Charged: {n} tickets."
    assert ntr("es", one, many, 1) == "Coste: 1 billete."
    assert ntr("es", one, many, 0) == "Coste: 0 billetes."
    assert ntr("fr", one, many, 0) == "Coût : 0 billet."  # French: 0 is singular
    assert ntr("fr", one, many, 2) == "Coût : 2 billets."
    assert ntr("en", one, many, 1) == "Charged: 1 ticket."

    # /inscritos' counts: no "(s)" any more
    assert ntr("es", "{n} confirmed", "{n} confirmed", 1) == "1 confirmada"
    assert ntr("es", "{n} free", "{n} free", 9) == "9 libres"
    assert ntr("fr", "{n} confirmed", "{n} confirmed", 41) == "41 confirmées"


def _literal_msgids() -> list[tuple[str, int, str]]:
    """Every ``tr``/``ntr`` call in bot/ with a literal message, wherever it sits: also one
    nested in another call's arguments, which the extractor may not see."""
    import ast

    out = []
    for path in sorted((ROOT / "bot").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("tr", "ntr") \
                    and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) \
                    and isinstance(node.args[1].value, str):
                out.append((str(path.relative_to(ROOT)), node.lineno, node.args[1].value))
    return out


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_written_in_the_code_is_translated(lang: str, capsys: Any) -> None:
    with (LOCALES / lang / "LC_MESSAGES" / "bot.po").open("rb") as fh:
        catalog = read_po(fh, locale=lang)
    # babel only warns of a malformed entry (a plural form too many): the bot's log would
    # start with its lines
    assert "WARNING" not in capsys.readouterr().out
    found = _literal_msgids()
    assert len(found) > 500
    missing = [(where, line, text[:50]) for where, line, text in found
               if text not in catalog or not catalog[text].string]
    assert not missing, missing


@pytest.mark.parametrize(("lang", "finish", "day"), [
    ("it", "Quando finisci il puzzle, manda /done.", "sabato 3 luglio"),
    ("pt", "Quando terminares o puzzle, envia /done.", "sábado, 3 de julho"),
    ("nl", "Stuur /done als je de puzzel af hebt.", "zaterdag 3 juli"),
])
def test_italian_portuguese_and_dutch_read_their_own_with_the_english_commands(
        lang: str, finish: str, day: str) -> None:
    assert tr(lang, "When you finish the puzzle, send /listo.") == finish
    assert day_text(lang, date(2027, 7, 3)) == day
    assert pick_language(None, f"{lang}-XX") == lang
    one, two = (ntr(lang, "{n} piece", "{n} pieces", n) for n in (1, 2))
    assert one != two and one.startswith("1 ") and two.startswith("2 ")


def test_amounts_read_as_each_language_writes_numbers() -> None:
    assert [amount_text(lang, 1250, "EUR") for lang in ("es", "en", "de", "nl")] == [
        "12,50 €", "12.50 €", "12,50 €", "12,50 €"]
    assert amount_text("fr", 500, "EUR") == "5 €"  # a whole amount without cents
    assert amount_text("en", 125000, "EUR") == "1,250 €"
    assert amount_text("pt", 999, "USD") == "9,99 USD"
