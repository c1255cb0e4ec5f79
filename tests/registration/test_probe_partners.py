"""Probing finding a partner (``[partners]``), a hostile review. The first section's tests
each state a behaviour an organiser would expect and the bot gets wrong (they fail on the
branch as reviewed); the last section's were probed and hold. Same harness as
test_partners.py: the real Application over the fake Bot API, Castrillo's contest with
``[partners]`` (and Billom's and the library series' where said)."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from bot.handlers.desk import announce_changes, closing_report
from bot.services.exports import entry_rows
from tests.conftest import BILLOM, ROOT
from tests.documents import entries_survive
from tests.fakebot import Harness, Person
from tests.registration.test_partners import (
    ANA,
    BEA,
    CARL,
    CLOSES,
    DORA,
    ORGANISER,
    SAM,
    alone,
    events,
    members,
    texts_to,
    with_partners,
)
from tests.registration.test_registration_chat import (
    Who,
    enter_member,
    madrid,
    open_harness,
    paris,
    register,
    start_entry,
)

EVA = Person(105, "Eva", "en")


# -- helpers ----------------------------------------------------------------------------------

def teams_file(tmp_path: Path) -> Path:
    """Castrillo's pairs made teams of 3 or 4 (one born 2010 or earlier)."""
    path = with_partners(tmp_path)
    text = path.read_text(encoding="utf-8").replace(
        "members = 2\n# At least one member born 2010 or earlier; the other may be any age.\n"
        "slots = [{ born_to = 2010 }, {}]",
        "members = 4\nmin_members = 3\nslots = [{ born_to = 2010 }, {}, {}, {}]")
    assert "min_members = 3" in text
    path.write_text(text, encoding="utf-8")
    return path


async def alone_in(h: Harness, who: Person, category: str, m: Who, at: datetime) -> None:
    """As ``alone``, in any category (no meal asked where the contest has none)."""
    await start_entry(h, who, category, at)
    calls = await enter_member(h, who, m, at)
    assert ("reg:alone") in [d for _, d in h.buttons(calls)], calls
    calls = await h.press(who, "reg:alone", at)
    if "reg:meal:no" in [d for _, d in h.buttons(calls)]:
        await h.press(who, "reg:meal:no", at)
    await h.press(who, "reg:ok", at)


def billom_partners(tmp_path: Path) -> Path:
    path = tmp_path / "billom-partners.toml"
    path.write_text(BILLOM.read_text(encoding="utf-8") + "\n[partners]\n", encoding="utf-8")
    return path


CHICAGO = ZoneInfo("America/Chicago")


async def alone_in_library(h: Harness, who: Person, name: str, birth: str, choice: int,
                           at: datetime) -> list[str]:
    """Library series: a team of one looking, playing the library ``choice`` (0: Fitchburg)."""
    await start_entry(h, who, "teams", at)
    await h.send(who, name, at)
    calls = await h.send(who, birth, at)
    assert "reg:alone" in [d for _, d in h.buttons(calls)], [c.text for c in calls]
    calls = await h.press(who, "reg:alone", at)
    assert f"reg:c:0:{choice}" in [d for _, d in h.buttons(calls)], [c.text for c in calls]
    await h.press(who, f"reg:c:0:{choice}", at)
    return texts_to(await h.press(who, "reg:ok", at), who)


async def alone_with_meal(h: Harness, who: Person, m: Who, at: datetime) -> None:
    """In pairs, alone, booking the meal for one adult."""
    await start_entry(h, who, "parejas", at)
    await enter_member(h, who, m, at)
    calls = await h.press(who, "reg:alone", at)
    assert "reg:ma:1" in [d for _, d in h.buttons(calls)], [c.text for c in calls]
    calls = await h.press(who, "reg:ma:1", at)
    if "reg:mc:0" in [d for _, d in h.buttons(calls)]:
        await h.press(who, "reg:mc:0", at)
    await h.press(who, "reg:ok", at)


# -- bugs: each of these fails on h-partners as committed ---------------------------------------

async def test_saying_no_to_someone_does_not_cancel_my_own_request(tmp_path: Path) -> None:
    """Ana asks Bea (/pair 2). Meanwhile Carl asks Ana, and Ana taps "No, thanks" on Carl's
    request. Bea then taps "Play with #1" on Ana's request: both asked for each other, so they
    must be matched. Declining Carl says nothing about Bea; yet the "no" is written as Ana's
    own request in force (a ``proposal`` on entry 1 with value 0), so Bea's yes is taken as a
    fresh request to Ana and they are not matched."""
    h = await open_harness(tmp_path, with_partners(tmp_path))
    try:
        await alone(h, ANA, Who("Ana Uno", "1980"), madrid(3, 1))
        await alone(h, BEA, Who("Bea Dos", "1990"), madrid(3, 1, 13))
        await alone(h, CARL, Who("Carl Tres", "1985"), madrid(3, 1, 14))
        await h.send(ANA, "/pair 2", madrid(3, 2, 10))
        await h.send(CARL, "/pair 1", madrid(3, 2, 11))
        await h.press(ANA, "partner:no:1:3", madrid(3, 2, 12))
        calls = await h.press(BEA, "partner:yes:2:1", madrid(3, 2, 13))
        assert members(h, 1) == ["Ana Uno", "Bea Dos"], texts_to(calls, BEA)
    finally:
        await h.stop()


async def test_a_forged_no_tells_nothing_to_an_entry_that_never_asked(tmp_path: Path) -> None:
    """``partner:no:N:M`` answers a request M sent to N. Pressed (forged data: any client can
    send any callback data) by Ana for an entry that never asked her, here a regular pair not
    looking for anyone, it must change nothing and tell that entry nothing; instead its people
    read "Entry #1 would rather not play with you. You are still looking for a partner." about
    an entry they never asked, and a ``proposal`` is recorded."""
    h = await open_harness(tmp_path, with_partners(tmp_path))
    try:
        await alone(h, ANA, Who("Ana Uno", "1980"), madrid(3, 1))
        await register(h, EVA, "parejas", [Who("Eva A", "1970"), Who("Eva B", "1972")],
                       madrid(3, 1, 13))
        calls = await h.press(ANA, "partner:no:1:2", madrid(3, 2))
        assert texts_to(calls, EVA) == [], texts_to(calls, EVA)
        assert not events(h, "proposal")
    finally:
        await h.stop()


async def test_the_closing_report_lists_entries_never_matched_that_paid(tmp_path: Path) -> None:
    """At the closing, organisers get "Entries left without a place, to be refunded". An entry
    still looking for a partner is out then and refunded in full (docs/rules.md); if it paid,
    the organisers must find it in that report. The report lists only LEFT_OUT entries and
    says "None: every paid entry has a place." while Ana's 20 € is owed back."""
    h = await open_harness(tmp_path, with_partners(tmp_path))
    try:
        await alone(h, ANA, Who("Ana Uno", "1980"), madrid(3, 1))
        await h.send(ORGANISER, "/paid 1 2023-03-02", madrid(3, 2))
        h.request.calls.clear()
        after = CLOSES + timedelta(minutes=1)
        await announce_changes(h.app, after)
        await closing_report(h.app, after)
        await h.app.bot_data["sender"].settled()
        report = "\n".join(t for t in texts_to(h.request.calls, ORGANISER)
                           if "Registrations are closed" in t)
        assert "#1 Ana Uno" in report, report
        assert "every paid entry has a place" not in report, report
    finally:
        await h.stop()


async def test_the_export_marks_the_refund_due_of_an_entry_never_matched(tmp_path: Path
                                                                         ) -> None:
    """The entries table (/exportar, CSV and workbook) has a "refund due" column the treasurer
    works from. A paid entry out for want of a partner is owed everything back, as /inscritos
    says ("Refunds due"); the column must say yes, it says no."""
    h = await open_harness(tmp_path, with_partners(tmp_path))
    try:
        await alone(h, ANA, Who("Ana Uno", "1980"), madrid(3, 1))
        await h.send(ORGANISER, "/paid 1 2023-03-02", madrid(3, 2))
        after = CLOSES + timedelta(hours=1)
        desk = texts_to(await h.send(ORGANISER, "/inscritos parejas", after), ORGANISER)[0]
        assert "Refunds due" in desk  # the bot knows it is owed
        rows = await entry_rows(h.services.contest, h.services.store,
                                h.app.bot_data["registrations"], after)
        header, row = rows[0], rows[1]
        assert row[header.index("status")] == "unmatched", dict(zip(header, row, strict=True))
        due_column = next(c for c in header if "refund" in str(c).lower())
        assert row[header.index(due_column)] == "yes", dict(zip(header, row, strict=True))
    finally:
        await h.stop()


async def test_an_organisers_match_survives_the_document_round_trip(tmp_path: Path) -> None:
    """``export document`` then ``import document`` (the backup, the move to another machine)
    must take back every contest the bot ran. An organiser's ``/pair 2 1`` records the entry
    that joined as withdrawn *by an organiser* (role "organiser"), and the import refuses it:
    "a withdraw is recorded by a participant; nothing was imported". (The participants' own
    match, in test_partners.py, passes only because a participant pressed.)"""
    h = await open_harness(tmp_path, with_partners(tmp_path))
    try:
        await alone(h, ANA, Who("Ana Uno", "1980"), madrid(3, 1))
        await alone(h, BEA, Who("Bea Dos", "1990"), madrid(3, 2))
        calls = await h.send(ORGANISER, "/pair 2 1", madrid(3, 3))
        assert "Partner found" in texts_to(calls, ORGANISER)[0]
    finally:
        await h.stop()
    kinds = entries_survive(h.contest_file, h.db_path, tmp_path)
    assert kinds.count("match") == 1


async def test_where_payment_confirms_people_matched_are_told(tmp_path: Path) -> None:
    """Billom: a place is confirmed only once paid (payment_required). Two people alone, not
    paid yet (they pay once a partner joins: the bot sends no invoice to an entry looking),
    are matched by an organiser. Both must hear it: their entry is now a pair, and it must be
    paid to hold a place. The bot tells a match only through ``announce_changes``, which
    speaks of confirmed, waiting, left out... places, never of "pending payment": neither Anne
    nor Bruno hears anything, though the organiser is told "Partner found"."""
    anne, bruno = Person(201, "Anne", "en"), Person(202, "Bruno", "en")
    h = await open_harness(tmp_path, billom_partners(tmp_path))
    try:
        await alone_in(h, anne, "adulte", Who("Anne Un", "1980-01-01"), paris(1, 24))
        await alone_in(h, bruno, "adulte", Who("Bruno Deux", "1985-02-02"), paris(1, 25))
        calls = await h.send(ORGANISER, "/pair 1 2", paris(1, 26))
        await h.app.bot_data["sender"].settled()
        assert "Partner found" in texts_to(calls, ORGANISER)[0]
        told_anne = "\n".join(texts_to(h.request.calls, anne)[-1:])
        told_bruno = "\n".join(texts_to(h.request.calls, bruno)[-1:])
        assert "Partner found" in told_anne, told_anne
        assert "Partner found" in told_bruno, told_bruno
    finally:
        await h.stop()


async def test_an_organiser_who_plays_may_still_match_their_own_entry(tmp_path: Path) -> None:
    """With ``self_service = false`` only organisers match. Olga organises and also registered
    alone (entry 1). ``/pair 2 1`` matches; ``/pair 1 2``, the same two entries in the other
    order, is taken as Olga the participant asking, and refused: "In this contest the
    organisers match partners" — said to an organiser. The order of N and M must not
    matter to an organiser."""
    h = await open_harness(tmp_path, with_partners(tmp_path, "self_service = false\n"))
    try:
        await alone(h, ORGANISER, Who("Olga Uno", "1980"), madrid(3, 1))
        await alone(h, BEA, Who("Bea Dos", "1990"), madrid(3, 2))
        said = texts_to(await h.send(ORGANISER, "/pair 1 2", madrid(3, 3)), ORGANISER)[0]
        assert "Partner found" in said, said
        assert members(h, 1) == ["Olga Uno", "Bea Dos"]
    finally:
        await h.stop()


async def test_a_match_never_puts_a_team_into_a_heat_already_played(tmp_path: Path) -> None:
    """Library series: each team plays the local contest of the library it chose; Fitchburg's
    is on 15 August (its registrations close on the 12th); registration stays open for the
    other libraries until 5 October. Ana and Bea, alone, both chose Fitchburg in July. On
    20 August, after Fitchburg's contest was played, an organiser matches them: a
    registration for Fitchburg is refused then ("heat started"), so the match must be too;
    instead entry 1 gets a confirmed place in a contest that is over."""
    path = tmp_path / "library-partners.toml"
    path.write_text((ROOT / "contests" / "library-series-2024.toml").read_text(
        encoding="utf-8") + "\n[partners]\n", encoding="utf-8")
    h = await open_harness(tmp_path, path)
    try:
        july = datetime(2024, 7, 10, 12, tzinfo=CHICAGO)
        done = await alone_in_library(h, ANA, "Ana Uno", "1990-05-01", 0, july)
        assert any("looking for a partner" in t for t in done), done
        await alone_in_library(h, BEA, "Bea Dos", "1991-06-02", 0, july)
        # a new team for Fitchburg is refused now
        late = datetime(2024, 8, 20, 12, tzinfo=CHICAGO)
        teams = h.services.contest.category("teams")
        assert await h.app.bot_data["registrations"].too_late(
            teams, late, {"library": "fitchburg"}) is not None
        calls = await h.send(ORGANISER, "/pair 1 2", late)
        said = texts_to(calls, ORGANISER)[0]
        assert members(h, 1) == ["Ana Uno"], said
        assert not events(h, "match"), said
    finally:
        await h.stop()


async def test_a_meal_booked_by_the_partner_who_joins_is_paid_for(tmp_path: Path) -> None:
    """Ana, alone, booked her meal (12 €) and her 20 € entry: the organisers recorded her
    32 € (/paid). Bea, alone, booked her meal too and paid nothing. Matched, entry 1 would
    hold both meals (44 €) shown "(paid)", and the kitchen would cook a meal nobody paid for:
    entry 1 keeps what it paid for, and Bea's meal is to book again, said with the match."""
    h = await open_harness(tmp_path, with_partners(tmp_path))
    try:
        await alone_with_meal(h, ANA, Who("Ana Uno", "1980"), madrid(3, 1))
        await alone_with_meal(h, BEA, Who("Bea Dos", "1990"), madrid(3, 2))
        await h.send(ORGANISER, "/paid 1 2023-03-02", madrid(3, 2))
        said = texts_to(await h.send(ORGANISER, "/pair 1 2", madrid(3, 3)), ORGANISER)[0]
        # (the bot's choice) an entry paid already keeps what it paid for: Bea's meal is not
        # cooked unpaid, and everyone is told to book it again
        assert "the meals booked with the other entry (1 adult) are not on it" in said, said
        mine = texts_to(await h.send(ANA, "/mis_inscripciones", madrid(3, 4)), ANA)[0]
        line = next(ln for ln in mine.splitlines() if ln.startswith("#1 "))
        assert "32 € (paid)" in line, line
    finally:
        await h.stop()


async def test_the_history_says_who_joined_whom_and_who_said_no(tmp_path: Path) -> None:
    """/historial is the organisers' record of what happened. Ana says no to Dora's request;
    later they are matched. Entry 1's history reads "Ana: asked to play with another entry"
    for her *no* (a decline is recorded as a proposal), and entry 2's history reads "Ana
    (participant): withdrew" — as if Ana, who does not follow entry 2, had withdrawn Dora's
    entry — with no word that it joined entry 1."""
    h = await open_harness(tmp_path, with_partners(tmp_path))
    try:
        await alone(h, ANA, Who("Ana Uno", "1980"), madrid(3, 1))
        await alone(h, DORA, Who("Dina Tres", "2014"), madrid(3, 2))
        await h.send(DORA, "/pair 1", madrid(3, 3))
        await h.press(ANA, "partner:no:1:2", madrid(3, 3, 13))
        await h.send(DORA, "/pair 1", madrid(3, 3, 14))
        await h.press(ANA, "partner:yes:1:2", madrid(3, 4))
        one = texts_to(await h.send(ORGANISER, "/historial 1", madrid(3, 5)), ORGANISER)[0]
        two = texts_to(await h.send(ORGANISER, "/historial 2", madrid(3, 5)), ORGANISER)[0]
        friday = [ln for ln in one.splitlines() if "Friday 3 March" in ln]
        assert not any("asked to play" in ln for ln in friday), one  # Ana only said no
        withdrew = [ln for ln in two.splitlines() if "withdr" in ln or "joined" in ln]
        assert withdrew and "#1" in withdrew[0], two
    finally:
        await h.stop()


# -- checked, and working -------------------------------------------------------------------------

async def test_forged_partner_buttons_change_nothing(tmp_path: Path) -> None:
    h = await open_harness(tmp_path, with_partners(tmp_path))
    try:
        await alone(h, ANA, Who("Ana Uno", "1980"), madrid(3, 1))
        await alone(h, BEA, Who("Bea Dos", "1990"), madrid(3, 1, 13))
        for data in ("partner:yes:1:1", "partner:yes:1:999", "partner:yes:1:-2",
                     "partner:yes:1:2:3", "partner:maybe:1:2", "partner:yes:2:1",
                     "partner:yes:1:0", "partner:yes::2", "partner:no:1:999"):
            await h.press(ANA, data, madrid(3, 2))
        assert members(h, 1) == ["Ana Uno"] and members(h, 2) == ["Bea Dos"]
        assert not events(h, "match") and not events(h, "proposal")
    finally:
        await h.stop()


async def test_a_team_built_from_three_people_alone(tmp_path: Path) -> None:
    h = await open_harness(tmp_path, teams_file(tmp_path))
    try:
        await alone(h, ANA, Who("Ana Uno", "1980"), madrid(3, 1))
        await alone(h, BEA, Who("Bea Dos", "1990"), madrid(3, 1, 13))
        await alone(h, CARL, Who("Carl Tres", "1985"), madrid(3, 1, 14))
        await h.send(ANA, "/pair 2", madrid(3, 2))
        calls = await h.press(BEA, "partner:yes:2:1", madrid(3, 2))
        said = texts_to(calls, BEA)[0]
        assert "It still needs more members: it keeps looking." in said, said
        assert any("keeps looking" in t for t in texts_to(calls, ANA)), texts_to(calls, ANA)
        mine = texts_to(await h.send(BEA, "/mis_inscripciones", madrid(3, 2)), BEA)[0]
        assert "#1" in mine and "looking for a partner" in mine, mine
        listed = texts_to(await h.send(CARL, "/pair", madrid(3, 2)), CARL)[0]
        assert "#1 Ana Uno / Bea Dos" in listed, listed
        await h.send(CARL, "/pair 1", madrid(3, 3))
        calls = await h.press(BEA, "partner:yes:1:3", madrid(3, 3, 13))
        assert members(h, 1) == ["Ana Uno", "Bea Dos", "Carl Tres"], texts_to(calls, BEA)
        told = "\n".join(texts_to(calls, CARL))
        assert "Entry #1 has a confirmed place" in told, told
        told = "\n".join(texts_to(calls, ANA))
        assert "Entry #1 has a confirmed place" in told, told
    finally:
        await h.stop()
    kinds = entries_survive(h.contest_file, h.db_path, tmp_path)
    assert kinds.count("match") == 2


async def test_paid_partner_who_joins_is_owed_everything_back(tmp_path: Path) -> None:
    """Both paid while looking (an organiser's /paid); matched after the full-refund date
    (15 April): the entry that joined never held a place, so what it paid comes back in
    full, and /inscritos lists it."""
    h = await open_harness(tmp_path, with_partners(tmp_path))
    try:
        await alone(h, ANA, Who("Ana Uno", "1980"), madrid(3, 1))
        await alone(h, BEA, Who("Bea Dos", "1990"), madrid(3, 2))
        await h.send(ORGANISER, "/paid 1 2023-03-02", madrid(3, 2))
        await h.send(ORGANISER, "/paid 2 2023-03-02", madrid(3, 2))
        await h.send(ORGANISER, "/pair 1 2", madrid(4, 18))
        desk = texts_to(await h.send(ORGANISER, "/inscritos parejas", madrid(4, 18)),
                        ORGANISER)[0]
        assert "#2 Bea Dos: 20 € (100 % of 20 €)" in desk, desk
    finally:
        await h.stop()


async def test_a_request_from_an_entry_that_withdrew_matches_nothing(tmp_path: Path) -> None:
    h = await open_harness(tmp_path, with_partners(tmp_path))
    try:
        await alone(h, ANA, Who("Ana Uno", "1980"), madrid(3, 1))
        await alone(h, BEA, Who("Bea Dos", "1990"), madrid(3, 2))
        await h.send(ANA, "/pair 2", madrid(3, 3))
        calls = await h.send(ANA, "/baja 1", madrid(3, 4))
        for d in [d for _, d in h.buttons(calls) if "1" in d][:1]:
            await h.press(ANA, d, madrid(3, 4))
        calls = await h.press(BEA, "partner:yes:2:1", madrid(3, 5))
        assert members(h, 2) == ["Bea Dos"] and members(h, 1) == ["Ana Uno"]
        assert not events(h, "match")
        said = texts_to(calls, BEA)
        assert said and "not looking for a partner" in said[0], said
    finally:
        await h.stop()


async def test_a_request_survives_a_restart(tmp_path: Path) -> None:
    path = with_partners(tmp_path)
    h = await open_harness(tmp_path, path)
    try:
        await alone(h, ANA, Who("Ana Uno", "1980"), madrid(3, 1))
        await alone(h, BEA, Who("Bea Dos", "1990"), madrid(3, 2))
        await h.send(ANA, "/pair 2", madrid(3, 3))
    finally:
        await h.stop()
    h = await open_harness(tmp_path, path)
    try:
        await h.press(BEA, "partner:yes:2:1", madrid(3, 4))
        assert members(h, 1) == ["Ana Uno", "Bea Dos"]
        hist = texts_to(await h.send(ORGANISER, "/historial 1", madrid(3, 5)), ORGANISER)
        assert hist and "partner found" in "\n".join(hist), hist
    finally:
        await h.stop()


async def test_a_yes_pressed_after_the_closing_matches_nothing(tmp_path: Path) -> None:
    h = await open_harness(tmp_path, with_partners(tmp_path))
    try:
        await alone(h, ANA, Who("Ana Uno", "1980"), madrid(3, 1))
        await alone(h, BEA, Who("Bea Dos", "1990"), madrid(3, 2))
        await h.send(ANA, "/pair 2", CLOSES - timedelta(hours=1))
        after = CLOSES + timedelta(minutes=5)
        await announce_changes(h.app, after)
        await h.send(ORGANISER, "/inscritos", after)  # someone wrote after the closing
        calls = await h.press(BEA, "partner:yes:2:1", after + timedelta(minutes=1),
                              shown=CLOSES - timedelta(hours=1))
        assert members(h, 1) == ["Ana Uno"] and not events(h, "match"), texts_to(calls, BEA)
        # and the organiser can't match them any more
        said = texts_to(await h.send(ORGANISER, "/pair 1 2", after + timedelta(minutes=2)),
                        ORGANISER)[0]
        assert "not looking for a partner" in said, said
    finally:
        await h.stop()


async def test_both_asking_at_once_are_matched_once(tmp_path: Path) -> None:
    h = await open_harness(tmp_path, with_partners(tmp_path))
    try:
        await alone(h, ANA, Who("Ana Uno", "1980"), madrid(3, 1))
        await alone(h, BEA, Who("Bea Dos", "1990"), madrid(3, 2))
        await asyncio.gather(h.send(ANA, "/pair 2", madrid(3, 3)),
                             h.send(BEA, "/pair 1", madrid(3, 3)))
        await h.send(ANA, "/pair 2", madrid(3, 3, 13))  # whichever was second
        await asyncio.gather(h.press(ANA, "partner:yes:1:2", madrid(3, 4)),
                             h.press(BEA, "partner:yes:2:1", madrid(3, 4)))
        assert members(h, 1) == ["Ana Uno", "Bea Dos"]
        assert len(events(h, "match")) == 1 and len(events(h, "withdraw")) == 1
    finally:
        await h.stop()


async def test_a_seeker_who_withdraws_after_the_refund_date_gets_everything_back(
        tmp_path: Path) -> None:
    """Withdrawn after 15 April (no refund for a place given up then), but the entry never
    held a place: refunded in full, as a withdrawal from the waiting list is."""
    h = await open_harness(tmp_path, with_partners(tmp_path))
    try:
        await alone(h, ANA, Who("Ana Uno", "1980"), madrid(3, 1))
        await h.send(ORGANISER, "/paid 1 2023-03-02", madrid(3, 2))
        calls = await h.send(ANA, "/baja 1", madrid(4, 18))
        data = [d for _, d in h.buttons(calls)]
        yes = [d for d in data if "y" in d.split(":")[-1] or d.endswith(":1")]
        calls = await h.press(ANA, (yes or data)[0], madrid(4, 18))
        assert events(h, "withdraw"), texts_to(calls, ANA)
        desk = texts_to(await h.send(ORGANISER, "/inscritos parejas", madrid(4, 18)),
                        ORGANISER)[0]
        assert "#1 Ana Uno: 20 € (100 % of 20 €)" in desk, desk
    finally:
        await h.stop()


async def test_a_pair_matched_when_full_waits_behind_those_already_waiting(
        tmp_path: Path) -> None:
    """Two places, one kept for local pairs until 15 April: Sam takes the other, Eva waits;
    a pair of people alone matched then waits behind Eva; matched with a resident instead,
    the entry is local and takes the place kept for local pairs."""
    path = with_partners(tmp_path)
    path.write_text(path.read_text(encoding="utf-8").replace("capacity = 50", "capacity = 2")
                    .replace("places = 10\nfor", "places = 1\nfor"), encoding="utf-8")
    h = await open_harness(tmp_path, path)
    try:
        await alone(h, ANA, Who("Ana Uno", "1980"), madrid(3, 1))
        await alone(h, BEA, Who("Bea Dos", "1990"), madrid(3, 1, 13))
        await alone(h, CARL, Who("Carl Tres", "1985"), madrid(3, 1, 14))
        await alone(h, DORA, Who("Dora Cuatro", "1975", ("resident",)), madrid(3, 1, 15))
        await register(h, SAM, "parejas", [Who("Sam A", "1970"), Who("Sam B", "1972")],
                       madrid(3, 2))
        await register(h, EVA, "parejas", [Who("Eva A", "1970"), Who("Eva B", "1972")],
                       madrid(3, 3))
        calls = await h.send(ORGANISER, "/pair 1 2", madrid(3, 4))
        told = "\n".join(texts_to(calls, ANA) + texts_to(calls, BEA))
        assert "number 2 on the waiting list" in told, told
        calls = await h.send(ORGANISER, "/pair 3 4", madrid(3, 5))
        told = "\n".join(texts_to(calls, CARL))
        assert "Entry #3 has a confirmed place" in told, told
        rows = await entry_rows(h.services.contest, h.services.store,
                                h.app.bot_data["registrations"], madrid(3, 5))
        third = dict(zip(rows[0], rows[3], strict=True))
        assert third["local"] == "yes", third
    finally:
        await h.stop()


async def test_no_match_across_categories(tmp_path: Path) -> None:
    anne, bruno = Person(201, "Anne", "en"), Person(202, "Bruno", "en")
    h = await open_harness(tmp_path, billom_partners(tmp_path))
    try:
        await alone_in(h, anne, "adulte", Who("Anne Un", "1980-01-01"), paris(1, 24))
        await alone_in(h, bruno, "expert", Who("Bruno Deux", "1985-02-02"), paris(1, 25))
        said = texts_to(await h.send(ORGANISER, "/pair 1 2", paris(1, 26)), ORGANISER)[0]
        assert "partners are matched within one category" in said, said
        said = texts_to(await h.send(anne, "/pair 2", paris(1, 26)), anne)[0]
        assert "partners are matched within one category" in said, said
        assert not events(h, "match") and not events(h, "proposal")
        assert members(h, 1) == ["Anne Un"]
    finally:
        await h.stop()
