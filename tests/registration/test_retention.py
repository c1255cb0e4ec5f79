"""Personal data kept for a time (``[privacy] keep_days``) and erased on request.

``keep_days`` after the contest day the bot removes members' births (unless a category ranks
by age, or the entry's people agreed to keep them for the ratings: ``/conservar_datos``), the
answers no rule reads any more, and the phones (who registered or follows each entry, their
names and languages, their conversations, the texts sent to them); names, results, payments
and refunds stay. An organiser erases one entry's data on request (``/borrar_datos N``),
asked first; an entry that never played loses its names too. Through the real Application
over our fake Bot API, on Castrillo's contest. People write in English: the fragments are the
msgids."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from datetime import datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from bot.features.answers.rules import fixed_questions
from bot.features.privacy import handlers as privacy_handlers
from bot.features.privacy.rules import kept_questions
from bot.services.contest_file import load_contest
from tests.conftest import CASTRILLO, ROOT
from tests.documents import entries_survive
from tests.fakebot import Call, FrozenClock, Harness, Person
from tests.registration.test_registration_chat import Who, madrid, register

ORGANISER = Person(1, "Olga", "en")
ANA = Person(101, "Ana", "en")
BEA = Person(102, "Bea", "en")
PAT = Person(300, "Pat", "en")
SAM = Person(500, "Sam", "en")

REMOVAL = datetime(2023, 5, 23, 0, 0, tzinfo=ZoneInfo("Europe/Madrid"))  # 30 days after


def contest(tmp_path: Path) -> Path:
    path = tmp_path / "castrillo-privacy.toml"
    path.write_text(CASTRILLO.read_text(encoding="utf-8") + "\n[privacy]\nkeep_days = 30\n",
                    encoding="utf-8")
    return path


def rows(h: Harness, sql: str, *params: Any) -> list[sqlite3.Row]:
    with closing(sqlite3.connect(h.db_path)) as db:
        db.row_factory = sqlite3.Row
        return db.execute(sql, params).fetchall()


def said(calls: list[Call], who: Person) -> str:
    return "\n".join(c.text for c in calls if c.method == "sendMessage" and c.chat_id == who.id)


@pytest.fixture(autouse=True)
def before_the_contest(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot's clock at registration time: the retention's timer waits for its moment."""
    monkeypatch.setattr(privacy_handlers, "CLOCK", FrozenClock(madrid(3, 1)))


async def two_entries(h: Harness) -> None:
    """Entry 1, a pair (Ana registers, Bea follows it); entry 2, a child (Pat)."""
    final = await register(h, ANA, "parejas", [Who("Ana Uno", "1980", ("resident",)),
                                                Who("Bea Dos", "1982")], madrid(3, 1))
    code = final.split("start=")[1].split()[0].rstrip(".")
    await h.send(BEA, f"/start {code}", madrid(3, 1, 13))
    await register(h, PAT, "infantil-a", [Who("Lucas Perz", "2018")], madrid(3, 2))
    await h.send(PAT, "/correct 2 1 Lucas Pérez 2018", madrid(3, 2, 13))
    await h.send(ORGANISER, "/start", madrid(3, 2))


async def run_purge(h: Harness) -> None:
    job = h.app.bot_data["jobs_by_name"]["privacy-purge"]
    assert job.data["when"] == REMOVAL.timestamp()
    await job.callback(SimpleNamespace(job=job, application=h.app))
    await h.app.bot_data["sender"].settled()


async def test_after_keep_days_births_answers_and_phones_go(tmp_path: Path) -> None:
    h = await Harness(tmp_path, contest(tmp_path), organisers=frozenset({ORGANISER.id})).start()
    try:
        await two_entries(h)
        mine = said(await h.send(ANA, "/my_data", madrid(3, 3)), ANA)
        assert "On May 23, 2023 births, answers no rule reads and phone links are removed" \
            in mine, mine
        kept = said(await h.send(PAT, "/keep_data", madrid(3, 3)), PAT)
        assert "entry #2's births are kept for the ratings" in kept, kept
        assert "Births kept for the ratings: #2" in said(await h.send(PAT, "/my_data",
                                                                     madrid(3, 3)), PAT)
        h.request.calls.clear()
        await run_purge(h)
        told = said(h.request.calls, ORGANISER)
        assert "Personal data removed, as the contest file says" in told, told
        assert "2 births removed; 1 kept" in told and "3 people forgotten" in told, told
        members = rows(h, "SELECT entry, name, born, born_year, answers FROM members "
                          "ORDER BY entry, position")
        assert [(m["entry"], m["name"], m["born_year"]) for m in members] == [
            (1, "Ana Uno", None), (1, "Bea Dos", None), (2, "Lucas Pérez", 2018)]
        # "resident" makes the entry local (the reserved places, the best local pair): kept
        assert members[0]["answers"] == "resident"
        assert not rows(h, "SELECT * FROM people WHERE user_id IN (?, ?, ?)", ANA.id, BEA.id,
                        PAT.id)
        assert rows(h, "SELECT * FROM people WHERE user_id = ?", ORGANISER.id)
        assert not rows(h, "SELECT * FROM events WHERE role = 'participant' AND actor IS NOT "
                           "NULL")
        assert rows(h, "SELECT registered_by FROM entries WHERE number = 1")[0][0] is None
        # the correction of entry 2 (agreed for the ratings) keeps its births
        [fix] = rows(h, "SELECT data FROM events WHERE kind = 'member_fix'")
        assert json.loads(fix["data"])["new"]["year"] == 2018
        # Ana's phone no longer follows anything: it is told nothing of entry 1
        mine = said(await h.send(ANA, "/mis_inscripciones", REMOVAL), ANA)
        assert "#1" not in mine and "Ana Uno" not in mine, mine
        assert not rows(h, "SELECT * FROM people WHERE user_id = ?", ANA.id)  # a stranger now
        # once only
        before = len(rows(h, "SELECT * FROM events"))
        await run_purge(h)
        assert len(rows(h, "SELECT * FROM events")) == before
        assert len(rows(h, "SELECT * FROM events WHERE kind = 'purge'")) == 1
    finally:
        await h.stop()
    kinds = entries_survive(h.contest_file, h.db_path, tmp_path)
    assert kinds.count("purge") == 1


async def test_an_entry_erased_on_request(tmp_path: Path) -> None:
    h = await Harness(tmp_path, contest(tmp_path), organisers=frozenset({ORGANISER.id})).start()
    try:
        await two_entries(h)
        asked = await h.send(ORGANISER, "/erase_data 2", madrid(3, 4))
        assert "Erase entry #2's data (Lucas Pérez)?" in said(asked, ORGANISER)
        assert "It has no result, so its names go too." in said(asked, ORGANISER)
        # still taking part: withdrawn first, never by the erasure itself
        refused = said(await h.press(ORGANISER, "erase:y:2", madrid(3, 4)), ORGANISER)
        assert "Entry #2 still takes part and has no result: withdraw it first (/withdraw 2)" \
            in refused, refused
        assert rows(h, "SELECT name FROM members WHERE entry = 2")[0][0] == "Lucas Pérez"
        # someone else's press changes nothing
        await h.press(SAM, "erase:y:2", madrid(3, 4))
        asked = await h.send(PAT, "/baja 2", madrid(3, 5))
        [yes] = [d for _, d in h.buttons(asked) if d.startswith("baja:y:2")]
        await h.press(PAT, yes, madrid(3, 5))
        done = said(await h.press(ORGANISER, "erase:y:2", madrid(3, 6)), ORGANISER)
        assert "Entry #2's data erased" in done and "listed as #2.1" in done, done
        assert [(r["name"], r["born_year"]) for r in rows(
            h, "SELECT name, born_year FROM members WHERE entry = 2")] == [("#2.1", None)]
        assert not rows(h, "SELECT * FROM events WHERE kind = 'member_fix'")
        assert not rows(h, "SELECT * FROM people WHERE user_id = ?", PAT.id)
        assert rows(h, "SELECT * FROM people WHERE user_id = ?", ANA.id)  # another entry's
        # its link links nobody any more: the erased entry is followed by no phone again
        code = (await h.services.store.entry(2)).join_code
        again = said(await h.send(PAT, f"/start {code}", madrid(3, 6)), PAT)
        assert "it can't be followed any more" in again, again
        assert await h.services.day.linked_users(2) == []
        again = said(await h.send(ORGANISER, "/erase_data 2", madrid(3, 6)), ORGANISER)
        assert "Erase entry #2's data (#2.1)?" in again
        assert "erased already" in said(await h.press(ORGANISER, "erase:y:2", madrid(3, 6)),
                                        ORGANISER)
        kept = said(await h.press(ORGANISER, "erase:n:1", madrid(3, 6)), ORGANISER)
        assert "Nothing erased: entry #1 stays as it is." in kept
    finally:
        await h.stop()
    kinds = entries_survive(h.contest_file, h.db_path, tmp_path)
    assert kinds.count("erase") == 1


def test_the_purge_keeps_every_answer_a_rule_reads(tmp_path: Path) -> None:
    """The purge and the answers a participant may change read one list (``Contest.
    rule_questions``): a round's qualifiers counted by country (``max_per``, ``by``) keep their
    country after the purge, even without a quota, as a round's heats do; an answer only
    shown in the rankings stays too."""
    text = (ROOT / "contests" / "championship-2027.toml").read_text(encoding="utf-8")
    assert "quota = 6" in text and 'by = "country"' in text
    path = tmp_path / "championship-no-quota.toml"
    path.write_text(text.replace("quota = 6", "").replace("show = true ", "show = false"),
                    encoding="utf-8")
    championship = load_contest(str(path))
    assert "country" in championship.rule_questions()
    assert "country" in kept_questions(championship)
    assert kept_questions(championship) >= fixed_questions(championship)
