"""Finding a partner (``[partners]``): someone alone registers in a category of pairs, looking
for a partner; the entry holds no place until it is matched with another (by an organiser's
``/emparejar N M``, or by both asking for each other), then takes a free place or joins the
end of the waiting list; still alone at the closing, it is out and refunded in full.

First the places as the allocation replays them (pure), then the chat through the real
Application over our fake Bot API, on Castrillo's contest with ``[partners]``. People write
in English: the fragments are the msgids."""

from __future__ import annotations

import sqlite3
import tomllib
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.domain.places import Application, Status, allocate
from bot.features.partners.rules import Together, TooMany, together
from bot.features.registration.rules import Ineligible, Member
from bot.handlers.desk import announce_changes, closing_soon_report
from bot.services.contest_file import parse_contest
from tests.conftest import CASTRILLO
from tests.documents import entries_survive
from tests.fakebot import Call, Harness, Person
from tests.registration.test_registration_chat import (
    Who,
    enter_member,
    madrid,
    open_harness,
    register,
    start_entry,
)

ORGANISER = Person(1, "Olga", "en")
ANA = Person(101, "Ana", "en")
BEA = Person(102, "Bea", "en")
CARL = Person(103, "Carl", "en")
DORA = Person(104, "Dora", "en")
PAT = Person(300, "Pat", "en")
SAM = Person(500, "Sam", "en")

CLOSES = datetime(2023, 4, 22, 0, 0, tzinfo=UTC) - timedelta(hours=2)  # Madrid's midnight


def with_partners(tmp_path: Path, extra: str = "") -> Path:
    path = tmp_path / "castrillo-partners.toml"
    path.write_text(CASTRILLO.read_text(encoding="utf-8") + "\n[partners]\n" + extra,
                    encoding="utf-8")
    return path


def texts_to(calls: list[Call], who: Person) -> list[str]:
    return [c.text for c in calls if c.method == "sendMessage" and c.chat_id == who.id]


def events(h: Harness, kind: str) -> list[sqlite3.Row]:
    with closing(sqlite3.connect(h.db_path)) as db:
        db.row_factory = sqlite3.Row
        return db.execute("SELECT * FROM events WHERE kind = ? ORDER BY id", (kind,)).fetchall()


def members(h: Harness, number: int) -> list[str]:
    with closing(sqlite3.connect(h.db_path)) as db:
        return [r[0] for r in db.execute(
            "SELECT name FROM members WHERE entry = ? ORDER BY position", (number,))]


async def alone(h: Harness, who: Person, m: Who, at: datetime) -> str:
    """/inscribir in pairs, one member, "I have no partner", no meal, confirmed."""
    await start_entry(h, who, "parejas", at)
    calls = await enter_member(h, who, m, at)
    assert ("I have no partner: find me one", "reg:alone") in h.buttons(calls), calls
    calls = await h.press(who, "reg:alone", at)
    if ("reg:meal:no") in [d for _, d in h.buttons(calls)]:
        calls = await h.press(who, "reg:meal:no", at)
    [summary] = texts_to(calls, who)
    assert "No partner yet" in summary, summary
    [done] = texts_to(await h.press(who, "reg:ok", at), who)
    return done


# -- the rules, pure ---------------------------------------------------------------------------

def test_who_may_join_whom() -> None:
    contest = parse_contest(tomllib.loads(CASTRILLO.read_text(encoding="utf-8")), CASTRILLO)
    pairs = contest.category("parejas")
    assert pairs is not None
    adult, kid = Member("Ana Uno", born_year=1980), Member("Nico Dos", born_year=2015)
    other_kid = Member("Dina Tres", born_year=2014)
    assert together(pairs, [adult], [kid], contest.date) == Together((adult, kid), True)
    # two children: a pair needs someone born 2010 or earlier
    problem = together(pairs, [kid], [other_kid], contest.date)
    assert isinstance(problem, Ineligible)
    assert together(pairs, [adult, kid], [other_kid], contest.date) == TooMany(3, 2)


def test_an_entry_looking_for_a_partner_holds_no_place_until_matched() -> None:
    contest = parse_contest(tomllib.loads(CASTRILLO.read_text(encoding="utf-8")), CASTRILLO)
    t0 = datetime(2023, 3, 1, 10, tzinfo=UTC)
    seeking = Application(1, "parejas", False, t0, seeking=True)
    waiting_first = Application(2, "parejas", False, t0 + timedelta(hours=1))
    assert allocate(contest, [seeking, waiting_first], t0 + timedelta(hours=2))[1].status \
        is Status.SEEKING
    matched = Application(1, "parejas", False, t0, seeking=True,
                          matched_at=t0 + timedelta(days=1))
    places = allocate(contest, [matched, waiting_first], t0 + timedelta(days=2))
    assert places[1].status is Status.CONFIRMED
    assert places[1].confirmed_at == t0 + timedelta(days=1)  # from the match, not before
    # asked about a moment before the match: still looking
    assert allocate(contest, [matched], t0 + timedelta(hours=5))[1].status is Status.SEEKING
    # the closing: out, refunded in full
    gone = allocate(contest, [seeking], datetime(2023, 4, 23, tzinfo=UTC))[1]
    assert gone.status is Status.UNMATCHED and gone.refund_percent == 100


def test_a_pair_matched_late_joins_the_end_of_the_waiting_list() -> None:
    text = CASTRILLO.read_text(encoding="utf-8").replace("capacity = 50", "capacity = 1") \
        .replace("places = 10\nfor", "places = 1\nfor")
    contest = parse_contest(tomllib.loads(text), CASTRILLO)
    t0 = datetime(2023, 3, 1, 10, tzinfo=UTC)
    first = Application(1, "parejas", True, t0)
    seeking = Application(2, "parejas", True, t0 + timedelta(hours=1), seeking=True,
                          matched_at=t0 + timedelta(days=3))
    waiting = Application(3, "parejas", True, t0 + timedelta(days=1))
    places = allocate(contest, [first, seeking, waiting], t0 + timedelta(days=4))
    assert places[3].waiting_position == 1 and places[2].waiting_position == 2


# -- in the chat -------------------------------------------------------------------------------

async def test_two_people_alone_ask_for_each_other_and_play_together(tmp_path: Path) -> None:
    h = await open_harness(tmp_path, with_partners(tmp_path))
    try:
        done = await alone(h, ANA, Who("Ana Uno", "1980"), madrid(3, 1))
        assert events(h, "seek")[0]["entry"] == 1
        assert "Entry #1: registered, looking for a partner" in done, done
        assert "looking for a partner" in texts_to(await h.send(ANA, "/mis_inscripciones",
                                                                  madrid(3, 1)), ANA)[0]
        await alone(h, PAT, Who("Nico Dos", "2015"), madrid(3, 2))
        await alone(h, DORA, Who("Dina Tres", "2014"), madrid(3, 3))
        listed = texts_to(await h.send(DORA, "/pair", madrid(3, 3)), DORA)[0]
        assert "#1 Ana Uno" in listed and "#2 Nico Dos" in listed and "#3" not in listed
        # two children can't make a pair: nothing asked
        refused = texts_to(await h.send(DORA, "/pair 2", madrid(3, 3)), DORA)[0]
        assert "Not possible" in refused and not events(h, "proposal")
        calls = await h.send(DORA, "/pair 1", madrid(3, 3, 13))
        assert "Asked: entry #1 (Ana Uno)" in texts_to(calls, DORA)[0]
        [request] = texts_to(calls, ANA)
        assert "Entry #3 (Dina Tres), looking for a partner too, asks to play with you" \
            in request
        assert ("Play with #3", "partner:yes:1:3") in h.buttons(calls)
        # someone else's button
        await h.press(SAM, "partner:yes:1:3", madrid(3, 3, 14))
        assert members(h, 1) == ["Ana Uno"]
        calls = await h.press(ANA, "partner:yes:1:3", madrid(3, 3, 15))
        assert members(h, 1) == ["Ana Uno", "Dina Tres"]
        told_dora = "\n".join(texts_to(calls, DORA))
        assert "Partner found: entry #1 is now Ana Uno / Dina Tres" in told_dora, told_dora
        assert "Entry #1 has a confirmed place" in told_dora, told_dora
        assert "a place freed up" not in told_dora
        mine = texts_to(await h.send(DORA, "/mis_inscripciones", madrid(3, 4)), DORA)[0]
        assert "#1" in mine and "Ana Uno / Dina Tres" in mine, mine
        [match] = events(h, "match")
        assert match["entry"] == 1 and '"other": 3' in match["data"]
        withdrawn = [e["entry"] for e in events(h, "withdraw")]
        assert withdrawn == [3]
        # the organiser's list: Nico still looking
        listed = texts_to(await h.send(ORGANISER, "/pair", madrid(3, 4)), ORGANISER)[0]
        assert "#2 Nico Dos" in listed and "#1" not in listed
    finally:
        await h.stop()
    kinds = entries_survive(h.contest_file, h.db_path, tmp_path)
    assert kinds.count("match") == 1 and kinds.count("seek") == 3


async def test_the_organiser_matches_and_nobody_is_left_silently(tmp_path: Path) -> None:
    h = await open_harness(tmp_path, with_partners(tmp_path, "self_service = false\n"))
    try:
        await alone(h, ANA, Who("Ana Uno", "1980"), madrid(3, 1))
        await alone(h, BEA, Who("Bea Dos", "1990"), madrid(3, 2))
        await alone(h, CARL, Who("Carl Tres", "1985"), madrid(3, 2))
        # participants don't match themselves here
        said = texts_to(await h.send(BEA, "/pair 1", madrid(3, 2)), BEA)[0]
        assert "the organisers match partners" in said and not events(h, "proposal")
        calls = await h.send(ORGANISER, "/pair 2 1", madrid(3, 3))
        assert "Partner found: entry #1 is now Ana Uno / Bea Dos" in \
            texts_to(calls, ORGANISER)[0]
        assert any("Partner found" in t for t in texts_to(calls, BEA))
        assert any("Partner found" in t for t in texts_to(calls, ANA))
        again = texts_to(await h.send(ORGANISER, "/pair 1 3", madrid(3, 3)), ORGANISER)[0]
        assert "Entry #1 is not looking for a partner" in again
        # a regular pair registering meanwhile takes its place as usual
        await register(h, SAM, "parejas", [Who("Sam A", "1970"), Who("Sam B", "1972")],
                       madrid(3, 5))
        desk = texts_to(await h.send(ORGANISER, "/inscritos parejas", madrid(3, 6)),
                        ORGANISER)[0]
        assert "Looking for a partner (1): #3 Carl Tres" in desk, desk
        # Carl is still alone at the closing: told, out, refunded in full
        h.request.calls.clear()
        await announce_changes(h.app, CLOSES + timedelta(minutes=1))
        told = [c.text for c in h.request.calls if c.method == "sendMessage"
                and c.chat_id == CARL.id]
        assert any("no partner was found before registration closed" in t for t in told), told
    finally:
        await h.stop()


async def test_a_member_added_by_hand_is_refused_a_match_is_the_way(tmp_path: Path) -> None:
    """Where teams' members may change (``keep_originals``), an organiser's ``/sustituir N +``
    on an entry looking for a partner is refused: its partner comes by a match (which withdraws
    the partner's own entry), never by a member added that would leave it looking forever. A
    payment recorded for an entry never matched is owed back in full, and listed."""
    path = with_partners(tmp_path)
    path.write_text(path.read_text(encoding="utf-8").replace(
        'fee = 20                        # per pair',
        'fee = 20                        # per pair\nkeep_originals = 1'), encoding="utf-8")
    h = await open_harness(tmp_path, path)
    try:
        await alone(h, ANA, Who("Ana Uno", "1980"), madrid(3, 1))
        said = texts_to(await h.send(ORGANISER, "/substitute 1 + Bea Dos 1990", madrid(3, 2)),
                        ORGANISER)[0]
        assert "Entry #1 is looking for a partner: match it with another entry looking for " \
            "one (/pair 1 M)." == said, said
        assert members(h, 1) == ["Ana Uno"] and not events(h, "member_change")
        await h.send(ORGANISER, "/paid 1 2023-03-02", madrid(3, 2))
        after = CLOSES + timedelta(hours=1)
        desk = texts_to(await h.send(ORGANISER, "/inscritos parejas", after), ORGANISER)[0]
        assert "No partner found (1): #1 Ana Uno" in desk, desk
        assert "#1 Ana Uno: 20 € (100 % of 20 €)" in desk.split("Refunds due:")[1], desk
    finally:
        await h.stop()


async def test_the_organisers_are_told_before_the_closing_who_is_still_alone(
        tmp_path: Path) -> None:
    """The list before the closing names the entries still looking for a partner, with how
    to match them: at the closing they are out."""
    h = await open_harness(tmp_path, with_partners(tmp_path))
    try:
        await h.send(ORGANISER, "/start", madrid(3, 1))
        await alone(h, ANA, Who("Ana Uno", "1980"), madrid(3, 1))
        h.request.calls.clear()
        await closing_soon_report(h.app, CLOSES - timedelta(days=1))
        await h.app.bot_data["sender"].settled()
        told = "\n".join(texts_to(h.request.calls, ORGANISER))
        assert "Still looking for a partner (1), out at the closing unless matched (/pair N M):" \
            " #1 Ana Uno" in told, told
    finally:
        await h.stop()
