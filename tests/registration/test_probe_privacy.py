"""Hostile probes of personal data retention and erasure (bot/features/privacy): the purge
(``[privacy] keep_days``), ``/borrar_datos`` and ``/conservar_datos``. Each failing test names
a bug; the others are checks that hold. Through the real Application over our fake Bot API,
with the retention's timer run by hand (as tests/registration/test_retention.py does)."""

from __future__ import annotations

import io
import json
from datetime import datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from zoneinfo import ZoneInfo

from bot.features.privacy.rules import removal_at, rules_of
from bot.services.contest_file import load_contest
from bot.services.csvio import import_entries, read_entries
from tests.conftest import CASTRILLO, ROOT
from tests.documents import entries_survive
from tests.fakebot import Harness, Person, staff
from tests.registration.test_registration_chat import Who, madrid, register
from tests.registration.test_retention import before_the_contest, rows, said

MADRID = ZoneInfo("Europe/Madrid")
ORGANISER = Person(1, "Olga", "en")
VIC = Person(20, "Vic", "en")
ANA = Person(101, "Ana", "en")
BEA = Person(102, "Bea", "en")
MARTA = Person(103, "Marta", "en")
PAT = Person(300, "Pat", "en")
SAM = Person(500, "Sam", "en")

__all__ = ["before_the_contest"]  # the retention's timer waits for its moment here too

PRIVACY = "\n[privacy]\nkeep_days = 30\n"


def with_privacy(tmp_path: Path, text: str, name: str = "contest.toml",
                 extra: str = PRIVACY) -> Path:
    path = tmp_path / name
    path.write_text(text + extra, encoding="utf-8")
    return path


def castrillo(tmp_path: Path, *changes: tuple[str, str]) -> Path:
    text = CASTRILLO.read_text(encoding="utf-8")
    for old, new in changes:
        assert old in text
        text = text.replace(old, new, 1)
    return with_privacy(tmp_path, text, "castrillo-privacy.toml")


async def run_purge(h: Harness) -> None:
    """The retention's timer, run by hand whatever its moment."""
    job = h.app.bot_data["jobs_by_name"]["privacy-purge"]
    await job.callback(SimpleNamespace(job=job, application=h.app))
    await h.app.bot_data["sender"].settled()


# -- when the retention runs ------------------------------------------------------------------


def test_retention_counts_from_the_last_day_of_a_contest_in_rounds(tmp_path: Path) -> None:
    """The championship is played over three days (heats on 1 July, the final of the pairs
    and the teams on 3 July). ``keep_days = 1`` is "one day after the contest" (docs/
    privacy.md, "How long"): an organiser expects the phones and births to go on 5 July,
    never before the final is played. Counted from ``[contest] date`` (the first day) the
    removal runs on 3 July at midnight: the phones no longer follow their entries on the
    final's morning (nobody is told they go through, nor their results) and the births go
    before the youth ranking is even final. Likely place: rules.py ``removal_at`` (the last
    round's or heat's date, not ``contest.date``)."""
    text = (ROOT / "contests" / "championship-2027.toml").read_text(encoding="utf-8")
    contest = load_contest(with_privacy(tmp_path, text, extra="\n[privacy]\nkeep_days = 1\n"))
    rules = rules_of(contest)
    assert rules is not None
    last_day = max(r.when(h).date for c in contest.categories for r in c.rounds
                   for h in range(1, r.heats + 1))
    assert last_day.isoformat() == "2027-07-03"
    assert removal_at(contest, rules) >= datetime(2027, 7, 5, 0, 0, tzinfo=MADRID), \
        removal_at(contest, rules)


# -- a document after the purge ---------------------------------------------------------------


async def test_a_pair_with_a_member_change_travels_as_a_document_after_the_purge(
        tmp_path: Path) -> None:
    """Castrillo's pairs keeping one of the members they registered with (keep_originals): a
    member replaced by the organisers before the day. After the retention (births gone from
    the members and from the change's details) ``export document`` then ``import document``
    must still work (docs/privacy.md: "export document still works, and its import takes the
    entries without births"): it is how the organisers archive the contest. The import
    replays the change by ``change_verdict``, which no longer finds the originals (``same_
    person`` needs a birth) nor the places' ages, and refuses the whole document. Likely
    place: bot/services/document_history.py ``_member_change`` (a scrubbed entry's change not
    judged on births)."""
    path = castrillo(tmp_path, ("capacity = 50", "capacity = 50\nkeep_originals = 1"))
    h = await Harness(tmp_path, path, organisers=frozenset({ORGANISER.id})).start()
    try:
        await h.send(ORGANISER, "/start", madrid(3, 1))
        await register(h, ANA, "parejas", [Who("Ana Uno", "1980"), Who("Bea Dos", "1982")],
                       madrid(3, 1))
        await h.send(ORGANISER, "/sustituir 1 2 Carla Tres 1985", madrid(3, 3))
        assert rows(h, "SELECT kind FROM events WHERE kind = 'member_change'")
        await run_purge(h)
        assert rows(h, "SELECT * FROM events WHERE kind = 'purge'")
    finally:
        await h.stop()
    kinds = entries_survive(path, h.db_path, tmp_path)
    assert kinds.count("purge") == 1


async def test_a_child_corrected_travels_as_a_document_after_the_purge(tmp_path: Path) -> None:
    """A parent corrects their child's name (/correct) in Castrillo's Infantil A (born 2017 to
    2019) and does not agree to keep the births. After the retention the document must still
    export and import (docs/privacy.md). The import replays the correction and checks the
    child, now without a birth, against the category's ages: refused, the whole document
    with it. (test_retention.py only tries it with the births kept by consent.) Likely place:
    bot/services/document_history.py ``_member_fix`` (``check_entry`` on a scrubbed
    entry)."""
    h = await Harness(tmp_path, castrillo(tmp_path), organisers=frozenset({ORGANISER.id})
                      ).start()
    try:
        await h.send(ORGANISER, "/start", madrid(3, 1))
        await register(h, PAT, "infantil-a", [Who("Lucas Perz", "2018")], madrid(3, 2))
        await h.send(PAT, "/correct 1 1 Lucas Pérez 2018", madrid(3, 2, 13))
        assert rows(h, "SELECT kind FROM events WHERE kind = 'member_fix'")
        await run_purge(h)
        assert rows(h, "SELECT born_year FROM members")[0][0] is None
    finally:
        await h.stop()
    kinds = entries_survive(h.contest_file, h.db_path, tmp_path)
    assert kinds.count("purge") == 1


# -- the phones -------------------------------------------------------------------------------


async def test_the_purge_forgets_who_scanned_a_table_card(tmp_path: Path) -> None:
    """Marta scans the table card of Ana's entry and Ana lets her follow it; Jonas scans it
    too and the organiser refuses him. After the retention the phones are gone (docs/
    privacy.md: "which phones follow it, who sent each message ... every participant's name
    ... as Telegram gave them"): nothing in the database (nor in ``export document``) may
    still hold Marta's or Jonas's Telegram id or name. The purge sets the events' actors to
    NULL, but the follow request keeps ``{"name": "Marta"}`` and the decisions keep
    ``{"user": <Telegram id>}`` in their details, for good. Likely place: operations.py
    ``purge`` / bot/storage/personal.py ``unlink_phones`` (the following feature's details,
    bot/features/following/operations.py)."""
    jonas = Person(104, "Jonas", "en")
    h = await Harness(tmp_path, castrillo(tmp_path), organisers=frozenset({ORGANISER.id})
                      ).start()
    try:
        from bot.features.following.rules import card_code
        await h.send(ORGANISER, "/start", madrid(3, 1))
        await register(h, ANA, "parejas", [Who("Ana Uno", "1980"), Who("Bea Dos", "1982")],
                       madrid(3, 1))
        entry = await h.services.store.entry(1)
        card = card_code(entry.join_code)
        await h.send(MARTA, f"/start {card}", madrid(3, 2))
        await h.send(jonas, f"/start {card}", madrid(3, 2))
        requests = rows(h, "SELECT id, actor FROM events WHERE kind = 'follow_request' "
                           "ORDER BY id")
        assert [r["actor"] for r in requests] == [MARTA.id, jonas.id]
        await h.press(ANA, f"dec:fol:{requests[0]['id']}:y", madrid(3, 2, 13))
        await h.press(ORGANISER, f"dec:fol:{requests[1]['id']}:n", madrid(3, 2, 13))
        assert MARTA.id in await h.services.day.linked_users(1)
        await run_purge(h)
        left = [dict(r) for r in rows(h, "SELECT kind, actor, data FROM events")
                if str(MARTA.id) in str(r["data"]) or str(jonas.id) in str(r["data"])
                or "Marta" in str(r["data"]) or "Jonas" in str(r["data"])
                or r["actor"] in (MARTA.id, jonas.id)]
        assert left == [], left
    finally:
        await h.stop()


# -- rounds: what a rule reads after the day ---------------------------------------------------


async def test_a_later_round_split_by_a_question_keeps_its_heats_after_the_purge(
        tmp_path: Path) -> None:
    """The library series whose semi-finals are split by county (a later round's
    ``heats_by``, answered at registration, neither shown nor a quota). After the retention
    the semi-finals must still hold the same teams (the rankings of each county's semi-final
    are the contest's results: "nothing else may change"). The purge keeps only the first
    round's ``heats_by`` answers (rules.py ``kept_questions``: ``cat.rounds[:1]``), but a later
    round's heats are seated again from the answers each time they are read
    (``ContestDay.lineups``): with the county gone the semi-finals' teams change. Likely
    place: rules.py ``kept_questions`` (every round's ``heats_by``)."""
    from tests.rounds.test_series import BY_COUNTY, LIBRARIES, at
    path = with_privacy(tmp_path, BY_COUNTY, "series.toml", "\n[privacy]\nkeep_days = 200\n")
    h = await Harness(tmp_path, path, organisers=frozenset({ORGANISER.id})).start()
    try:
        svc = h.services
        county = {1: "dane", 2: "dane", 3: "sauk", 4: "dane", 5: "sauk", 6: "sauk",
                  7: "sauk", 8: "sauk"}
        lines = "".join(f"{n},teams,Team {n};Mate {n},1990;1991,{LIBRARIES[(n - 1) // 2]},"
                        f"{county[n]}\n" for n in range(1, 9))
        await import_entries(svc.store, read_entries(svc.contest, io.StringIO(
            "number,category,names,born,library,county\n" + lines), "x.csv"))
        await staff(h, ORGANISER, VIC, at(2024, 8, 1))
        for k, day in enumerate((at(2024, 8, 15, 18), at(2024, 8, 22, 18),
                                 at(2024, 9, 5, 18), at(2024, 9, 12, 18))):
            await h.send(ORGANISER, "/inicio", day)
            for n in (2 * k + 1, 2 * k + 2):
                await h.send(VIC, f"/fin {n} 0:{30 + n}:00", day + timedelta(minutes=58))
        await h.send(ORGANISER, "/confirmar_ronda", at(2024, 9, 12, 19, 5))
        teams = svc.contest.category("teams")
        assert teams is not None
        before = await svc.day.lineups(teams)
        assert before[1] == [[1, 2, 4], [3, 5, 6, 7, 8]]
        await run_purge(h)
        after = await svc.day.lineups(teams)
    finally:
        await h.stop()
    again = await Harness(tmp_path, path, organisers=frozenset({ORGANISER.id})).start()
    try:
        teams = again.services.contest.category("teams")
        restarted = await again.services.day.lineups(teams)
    finally:
        await again.stop()
    assert (after, restarted) == (before, before)


async def test_rankings_by_age_and_by_answer_are_the_same_after_the_purge(
        tmp_path: Path) -> None:
    """Holds: a category with an under-18 ranking and a residents' ranking (a question that
    is neither shown nor public): the chat's rankings and the results table are the same
    after the retention, the births of that category kept."""
    from bot.services.exports import result_rows
    from tests.results.test_separate_rankings import CONTEST, T0
    path = with_privacy(tmp_path, CONTEST)
    h = await Harness(tmp_path, path, organisers=frozenset({ORGANISER.id})).start()
    try:
        svc = h.services
        await import_entries(svc.store, read_entries(svc.contest, io.StringIO(
            "number,category,names,born,resident\n"
            "1,open,Ana Adult,1980-01-01,no\n2,open,Kid Local,2012-03-03,yes\n"
            "3,open,Teen Away,2011-01-01,no\n4,open,Late Local,1990-01-01,yes\n"
            "5,open,Old Local,1950-01-01,yes\n"), "x.csv"))
        await staff(h, ORGANISER, VIC, T0 - timedelta(hours=1))
        await h.send(ORGANISER, "/inicio", T0)
        at = T0 + timedelta(minutes=59)
        for n, t in ((1, "0:40:00"), (2, "0:45:00"), (3, "0:50:00"), (4, "0:30:00")):
            await h.send(VIC, f"/fin {n} {t}", at)
        await h.send(VIC, "/piezas 5 300", at)
        await h.send(VIC, "/estado 4 fc arrived after the start", at)
        await h.send(ORGANISER, "/publicar open", at)
        await h.press(ORGANISER, "pub:open", at)
        later = at + timedelta(days=60)
        before = (said(await h.send(ORGANISER, "/clasificacion", later), ORGANISER),
                  await result_rows(svc.contest, svc.day))
        assert "Under 18" in before[0] and "Residents" in before[0]
        await run_purge(h)
        after = (said(await h.send(ORGANISER, "/clasificacion", later), ORGANISER),
                 await result_rows(svc.contest, svc.day))
        assert after == before
        # the volunteer's results keep who recorded them; the staff are not forgotten
        assert not rows(h, "SELECT * FROM events WHERE role IN ('volunteer', 'organiser') "
                           "AND actor IS NULL AND kind IN ('finish', 'pieces', 'outcome')")
        assert {r[0] for r in rows(h, "SELECT user_id FROM people")} == {ORGANISER.id, VIC.id}
    finally:
        await h.stop()


# -- erasure on request -----------------------------------------------------------------------

PAIRS = """
[contest]
name = "Pairs with changes"
date = 2023-04-22
timezone = "Europe/Madrid"
language = "en"
start = "10:00"

[[categories]]
id = "pairs"
name = "Pairs"
members = 2
slots = [{ born_to = 2010 }, {}]
pieces = 500
time_limit = "1:00:00"
fee = 0
keep_originals = 1
"""
T0 = datetime(2023, 4, 22, 10, 0, tzinfo=MADRID)


async def pairs_played(tmp_path: Path) -> Harness:
    """Pair 1 (a member replaced before the day) and pair 2 both finish; pair 3 is absent."""
    path = with_privacy(tmp_path, PAIRS, "pairs.toml")
    h = await Harness(tmp_path, path, organisers=frozenset({ORGANISER.id})).start()
    try:
        svc = h.services
        await import_entries(svc.store, read_entries(svc.contest, io.StringIO(
            "number,category,names,born\n1,pairs,Ana Uno;Bea Dos,1980;1982\n"
            "2,pairs,Sol Dos;Luz Tres,1981;1983\n3,pairs,Eva Cinco;Ivo Seis,1984;1985\n"),
            "x.csv"))
        for person, number in ((ANA, 1), (PAT, 2)):
            entry = await svc.store.entry(number)
            await h.send(person, f"/start {entry.join_code}", T0 - timedelta(days=2))
        await staff(h, ORGANISER, VIC, T0 - timedelta(days=1))
        replaced = said(await h.send(ORGANISER, "/sustituir 1 2 Carla Tres 1985",
                                     T0 - timedelta(days=1)), ORGANISER)
        assert rows(h, "SELECT * FROM events WHERE kind = 'member_change'"), replaced
        await h.send(ORGANISER, "/inicio", T0)
        await h.send(VIC, "/fin 1 0:40:00", T0 + timedelta(minutes=40))
        await h.send(VIC, "/fin 2 0:45:00", T0 + timedelta(minutes=45))
    except BaseException:
        await h.stop()
        raise
    return h


async def test_a_played_pair_with_a_member_change_erased_travels_as_a_document(
        tmp_path: Path) -> None:
    """A pair that changed a member before the day and played asks for its data to be erased
    (a parent, for a child). It keeps its names and result (it has one), its births go. The
    results stay the same, and the contest must still export and import as a document
    (docs/privacy.md: the erasure is in the history and the import takes the entries without
    births). The import replays the member change and, the births gone, refuses it ("fewer
    than 1 of the members the team registered with"): the organisers can no longer archive
    the contest. Likely place: bot/services/document_history.py ``_member_change`` (an
    erased entry's change judged on births)."""
    from bot.services.exports import result_rows
    h = await pairs_played(tmp_path)
    try:
        before = await result_rows(h.services.contest, h.services.day)
        asked = said(await h.send(ORGANISER, "/erase_data 1", T0 + timedelta(hours=2)),
                     ORGANISER)
        assert "Its names and results stay" in asked, asked
        done = said(await h.press(ORGANISER, "erase:y:1", T0 + timedelta(hours=2)), ORGANISER)
        assert "Its names stay" in done, done
        assert [(r["name"], r["born_year"]) for r in rows(
            h, "SELECT name, born_year FROM members WHERE entry = 1 ORDER BY position")] == [
            ("Ana Uno", None), ("Carla Tres", None)]
        assert await result_rows(h.services.contest, h.services.day) == before
        assert not rows(h, "SELECT * FROM people WHERE user_id = ?", ANA.id)
    finally:
        await h.stop()
    kinds = entries_survive(h.contest_file, h.db_path, tmp_path)
    assert kinds.count("erase") == 1


async def test_erasure_refused_to_everyone_but_the_organisers(tmp_path: Path) -> None:
    """Holds: a volunteer's /borrar_datos, forged Erase buttons from a volunteer, from the
    entry's own phone and from a stranger change nothing; a bad number or none gets the
    usage or "no entry", and nothing is recorded."""
    h = await pairs_played(tmp_path)
    try:
        at = T0 + timedelta(hours=2)
        before = [tuple(r) for r in rows(h, "SELECT * FROM events")]
        members = [tuple(r) for r in rows(h, "SELECT * FROM members")]
        people = [tuple(r) for r in rows(h, "SELECT * FROM people")]
        for who, text in ((VIC, "/erase_data 2"), (PAT, "/erase_data 2"), (SAM, "/erase_data 2")):
            assert said(await h.send(who, text, at), who)
        for who in (VIC, PAT, SAM):
            await h.press(who, "erase:y:2", at)
        for text in ("/erase_data", "/erase_data two", "/erase_data 2 3", "/erase_data 99",
                     "/erase_data -2", "/erase_data 0"):
            assert said(await h.send(ORGANISER, text, at), ORGANISER), text
        for data in ("erase:y:99", "erase:x:2", "erase:y:2:extra", "erase:y:"):
            await h.press(ORGANISER, data, at)
        assert [tuple(r) for r in rows(h, "SELECT * FROM events")] == before
        assert [tuple(r) for r in rows(h, "SELECT * FROM members")] == members
        assert [tuple(r) for r in rows(h, "SELECT * FROM people")] == people
        unknown = said(await h.press(ORGANISER, "erase:y:99", at), ORGANISER)
        assert "99" in unknown, unknown
    finally:
        await h.stop()


# -- what is left of the phones after the purge -----------------------------------------------


async def test_an_unfinished_registration_is_forgotten_by_the_purge(tmp_path: Path) -> None:
    """A parent starts registering their child (name "Lucas Pérez", born 2018) and gives up
    half way: the draft stays in the bot's memory of the conversation (``user_data``,
    ``conversations``). After the retention the bot must keep nothing of that parent (docs/
    privacy.md: "every participant's name and language ..., their unfinished conversation");
    the child's name and birth stay for good, because the purge only forgets the people with
    a row in ``people`` and a stranger's commands never write one. Likely place:
    bot/storage/personal.py ``forget_people`` (every non-staff id of ``user_data`` and
    ``conversations`` too)."""
    from tests.registration.test_registration_chat import start_entry
    h = await Harness(tmp_path, castrillo(tmp_path), organisers=frozenset({ORGANISER.id})
                      ).start()
    try:
        await h.send(ORGANISER, "/start", madrid(3, 1))
        await start_entry(h, SAM, "infantil-a", madrid(3, 1))
        await h.send(SAM, "Lucas Pérez", madrid(3, 1))
        assert "Aepuzz member?" in said(await h.send(SAM, "2018", madrid(3, 1)), SAM)
        assert rows(h, "SELECT * FROM user_data WHERE user_id = ?", SAM.id)
        await run_purge(h)
        assert [dict(r) for r in rows(h, "SELECT * FROM user_data")] == []
        assert [dict(r) for r in rows(h, "SELECT * FROM conversations")] == []
    finally:
        await h.stop()


async def test_keeping_births_after_they_were_removed_is_not_promised(tmp_path: Path) -> None:
    """After the retention ran, Ana opens her entry's old link again (it links no more) and
    asks to keep its births for the ratings (/keep_data). The births are gone already: the
    bot must not answer "Noted: entry #1's births are kept for the ratings", nor record a
    consent that keeps nothing; and /my_data must not offer /keep_data as if the removal
    were still to come. A parent reading "kept" expects the ratings to find their child.
    Likely place: handlers.py ``conservar_datos`` (refuse once the ``purge`` ran: the
    ``RemovedAlready`` answer) and ``_removal``."""
    h = await Harness(tmp_path, castrillo(tmp_path), organisers=frozenset({ORGANISER.id})
                      ).start()
    try:
        await h.send(ORGANISER, "/start", madrid(3, 1))
        await register(h, ANA, "parejas", [Who("Ana Uno", "1980"), Who("Bea Dos", "1982")],
                       madrid(3, 1))
        await run_purge(h)
        entry = await h.services.store.entry(1)
        # (the bot's choice) once removed, a phone is never linked again: the old link says so
        assert "it can't be followed any more" in said(
            await h.send(ANA, f"/start {entry.join_code}", madrid(6, 1)), ANA)
        mine = said(await h.send(ANA, "/my_data", madrid(6, 1)), ANA)
        kept = said(await h.send(ANA, "/keep_data", madrid(6, 1)), ANA)
        assert "births are kept" not in kept, kept
        assert not rows(h, "SELECT * FROM events WHERE kind = 'consent'")
        assert "To keep your entry's births for the ratings" not in mine, mine
    finally:
        await h.stop()


async def test_a_phone_linked_after_the_purge_is_not_kept_for_good(tmp_path: Path) -> None:
    """The entries' join links still work after the retention: anyone holding one (the old
    phone, or whoever it was forwarded to) follows the entry again, and the bot records that
    phone's id and name. The purge runs once and never again, so that phone is kept for
    good, past the time the contest file promises ("keep_days after the contest day the bot
    removes ... the phones"). Expected: after the removal a join link no longer links a phone
    (nothing written), or the phones linked since are removed too. Likely place: the link
    (bot/features/access / registration ``/start``) or handlers.py ``schedule_purge``."""
    h = await Harness(tmp_path, castrillo(tmp_path), organisers=frozenset({ORGANISER.id})
                      ).start()
    try:
        await h.send(ORGANISER, "/start", madrid(3, 1))
        await register(h, ANA, "parejas", [Who("Ana Uno", "1980"), Who("Bea Dos", "1982")],
                       madrid(3, 1))
        await run_purge(h)
        entry = await h.services.store.entry(1)
        await h.send(SAM, f"/start {entry.join_code}", madrid(6, 1))
        linked = await h.services.day.linked_users(1)
    finally:
        await h.stop()
    again = await Harness(tmp_path, h.contest_file, organisers=frozenset({ORGANISER.id})
                          ).start()
    try:
        assert "privacy-purge" not in again.app.bot_data.get("jobs_by_name", {})
        assert (linked, rows(again, "SELECT * FROM people WHERE user_id = ?", SAM.id)) == (
            [], [])
    finally:
        await again.stop()


async def test_the_purge_runs_once_even_across_restarts(tmp_path: Path) -> None:
    """Holds: once the retention ran, a restart sets no timer again and a second run of the
    job changes nothing; a volunteer's and the organiser's names stay."""
    h = await Harness(tmp_path, castrillo(tmp_path), organisers=frozenset({ORGANISER.id})
                      ).start()
    try:
        await staff(h, ORGANISER, VIC, madrid(3, 1))
        await register(h, ANA, "parejas", [Who("Ana Uno", "1980"), Who("Bea Dos", "1982")],
                       madrid(3, 1))
        job = h.app.bot_data["jobs_by_name"]["privacy-purge"]
        await run_purge(h)
        events = [tuple(r) for r in rows(h, "SELECT * FROM events")]
    finally:
        await h.stop()
    again = await Harness(tmp_path, h.contest_file, organisers=frozenset({ORGANISER.id})
                          ).start()
    try:
        assert "privacy-purge" not in again.app.bot_data.get("jobs_by_name", {})
        await job.callback(SimpleNamespace(job=job, application=again.app))
        await again.app.bot_data["sender"].settled()
        assert [tuple(r) for r in rows(again, "SELECT * FROM events")] == events
        assert {r[0] for r in rows(again, "SELECT user_id FROM people")} == {ORGANISER.id,
                                                                              VIC.id}
    finally:
        await again.stop()


async def test_fees_discounts_and_refunds_owed_are_the_same_after_the_purge(
        tmp_path: Path) -> None:
    """Holds: a local pair with an Aepuzz member (discounts, the reserved local place), a
    child paid then withdrawn before the refund deadline (a refund owed), meals: each entry's
    place, fee and what is owed back are the same after the retention."""
    h = await Harness(tmp_path, castrillo(tmp_path), organisers=frozenset({ORGANISER.id})
                      ).start()
    try:
        await h.send(ORGANISER, "/start", madrid(3, 1))
        await register(h, ANA, "parejas", [Who("Ana Uno", "1980", ("resident",)),
                                            Who("Bea Dos", "1982", ("aepuzz_member",))],
                       madrid(3, 1), meal=(2, 1))
        await register(h, PAT, "infantil-a", [Who("Lucas Pérez", "2018", ("aepuzz_member",))],
                       madrid(3, 2))
        await h.send(ORGANISER, "/paid 1 2023-03-02", madrid(3, 2))
        await h.send(ORGANISER, "/paid 2 2023-03-02", madrid(3, 2))
        asked = await h.send(PAT, "/baja 2", madrid(3, 5))
        [yes] = [d for _, d in h.buttons(asked) if d.startswith("baja:y:2")]
        await h.press(PAT, yes, madrid(3, 5))
        regs = h.app.bot_data["registrations"]

        async def money() -> list[tuple[Any, ...]]:
            return [(s.entry.number, s.entry.local, s.place, s.fee, s.paid_at, s.refund,
                     s.owed_back) for s in await regs.statuses(madrid(6, 1))]

        before = await money()
        assert before[0][1] and before[0][3].discount and before[0][3].meal, before
        assert before[1][6] > 0, before  # a refund owed to the child withdrawn
        await run_purge(h)
        assert await money() == before
    finally:
        await h.stop()


# -- the ratings across contests after the purge ----------------------------------------------


async def test_a_purged_contest_is_rated_with_the_births_agreed(tmp_path: Path) -> None:
    """Holds: two adults play; Ana's phone agrees to keep her entry's births (/keep_data).
    After the retention the document still rates (``python -m bot rating``): Ana with her
    year of birth, Sol rated apart without one."""
    import csv
    import os

    from tests.documents import bot
    from tests.fakebot import two_adults_playing
    sol = Person(102, "Sol", "en")
    h = await two_adults_playing(tmp_path, castrillo(tmp_path), ORGANISER, VIC, (ANA, sol),
                                 T0)
    try:
        assert "#5's births are kept" in said(await h.send(ANA, "/keep_data", T0), ANA)
        await h.send(VIC, "/fin 5 1:00:00", T0 + timedelta(hours=1))
        await h.send(VIC, "/fin 6 1:10:00", T0 + timedelta(hours=1, minutes=10))
        await run_purge(h)
    finally:
        await h.stop()
    env = {**os.environ, "PUZZLEBOT_CONTEST": str(h.contest_file),
           "PUZZLEBOT_DB": str(h.db_path)}
    doc = tmp_path / "doc.json"
    assert bot(["export", "document", "--out", str(doc)], env).returncode == 0
    births = {m["name"]: (m.get("born"), m.get("born_year"))
              for e in json.loads(doc.read_text(encoding="utf-8"))["entries"]
              for m in e["members"]}
    assert births == {"Ana Uno": (None, 1980), "Sol Dos": (None, None)}, births
    out = tmp_path / "rating.csv"
    rated = bot(["rating", str(doc), "--csv", str(out)], env)
    assert rated.returncode == 0, rated.stderr
    table = {r["name"]: r for r in csv.DictReader(out.open(encoding="utf-8"))}
    assert table["Ana Uno"]["birth"] == "1980" and table["Sol Dos"]["birth"] == ""
