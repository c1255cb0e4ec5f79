"""Issue 47: contest texts fell back to Spanish on German and Italian phones ("Series",
"¿En el concurso local de qué biblioteca…?"). A text of the contest file is read in the
reader's language, else English, else the contest's; ``check-contest`` names the texts missing
a language the file writes others in."""

from __future__ import annotations

import tomllib
from datetime import timedelta
from pathlib import Path

from bot.services.contest_file import parse_contest
from bot.services.contest_rounds import language_warnings
from tests.fakebot import Person
from tests.rounds.test_rounds import CONTEST, DAY1, open_day, said

SPANISH = CONTEST.replace('language = "en"', 'language = "es"')


async def test_german_and_italian_phones_read_the_english_round_name(tmp_path: Path) -> None:
    h = await open_day(tmp_path, SPANISH)
    try:
        svc = h.services
        for n, lang in ((3, "de"), (4, "it")):
            entry = await svc.store.entry(n)
            assert entry is not None
            person = Person(300 + n, f"Q{n}", lang)
            await h.send(person, f"/start {entry.join_code}", DAY1 - timedelta(hours=1))
            seen = said(await h.send(person, "/series", DAY1), person)
            assert len(seen) == 1 and "Heats 1" in seen[0] and "Series" not in seen[0], seen
        es = Person(310, "Ana", "es")
        entry = await svc.store.entry(5)
        assert entry is not None
        await h.send(es, f"/start {entry.join_code}", DAY1 - timedelta(hours=1))
        assert "Series 2" in said(await h.send(es, "/series", DAY1), es)[0]
    finally:
        await h.stop()


def test_check_contest_names_the_texts_missing_a_language(tmp_path: Path) -> None:
    text = SPANISH.replace(
        "[[categories]]",
        '[[questions]]\nid = "club"\ntext = { es = "¿Club?", de = "Verein?" }\n\n'
        "[[categories]]", 1)
    contest = parse_contest(tomllib.loads(text), "x.toml")
    warnings = language_warnings(contest, "x.toml")
    by_language = {w.split(" text for ")[0]: w for w in warnings}
    assert set(by_language) == {"x.toml: no French (fr)", "x.toml: no English (en)",
                                "x.toml: no German (de)"}
    assert "questions[1].text" in by_language["x.toml: no English (en)"]
    assert "categories[1].rounds[1].name" in by_language["x.toml: no German (de)"]
    assert "questions[1].text" not in by_language["x.toml: no German (de)"]
