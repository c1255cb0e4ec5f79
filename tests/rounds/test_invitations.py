"""Issue 29, advancement as an invitation: the top two teams of each library *may* play their
county's semi-final. Each qualifier is told and answers by a deadline (buttons, or /acepto and
/renuncio); a place given up, or not answered in time, goes to the library's next team, who is
told in turn; only the teams that accepted play, seated in the round's order."""

from __future__ import annotations

import io
import tomllib
from datetime import datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from bot.domain.contest import Invite
from bot.domain.ranking import Competitor, rank
from bot.domain.rounds import qualifiers
from bot.features.invitations.day import reminder_moments
from bot.features.invitations.handlers import invitation_job, reminder_job
from bot.features.invitations.rules import (
    AlreadyAccepted,
    AlreadyDeclined,
    Answer,
    HeatBegun,
    Invitation,
    Lapsed,
    first_deadline,
    next_deadline,
    reply_verdict,
)
from bot.services.contest_file import ContestFileError, parse_contest
from bot.services.csvio import import_entries, read_entries
from tests.fakebot import Call, Harness, Person, staff
from tests.rounds.test_series import COUNTIES, LIBRARIES

TZ = ZoneInfo("America/Chicago")
BOSS, VIC = Person(1, "Olga", "en"), Person(20, "Vic", "en")

INVITING = COUNTIES.replace(
    "advance = { per_heat = 2 }        # the top two teams of each library",
    'advance = { per_heat = 2, invite = { within = "7 days" } }').replace(
    "advance = { per_heat = 3 }        # the top three of each county's semi-final",
    'advance = { per_heat = 3, invite = { by = 2024-11-01T18:00:00, within = "3 days" } }')


def at(*args: int) -> datetime:
    return datetime(*args, tzinfo=TZ)  # type: ignore[misc]


def phone(n: int, lang: str = "en") -> Person:
    return Person(100 + n, f"P{n}", lang)


def said(calls: list[Call], who: Person) -> list[str]:
    return [c.text for c in calls if c.method == "sendMessage" and c.chat_id == who.id]


# -- the rules ------------------------------------------------------------------------------------


def test_deadlines_follow_by_and_within_and_never_pass_the_heat() -> None:
    told, begins = at(2024, 9, 12, 19), at(2024, 10, 12, 10)
    week = Invite(within=7 * 86400)
    assert first_deadline(week, told, begins) == at(2024, 9, 19, 19)
    assert first_deadline(week, at(2024, 10, 10), begins) == begins  # capped at the heat
    by = Invite(by=at(2024, 10, 1, 18), within=3 * 86400)
    assert first_deadline(by, told, begins) == at(2024, 10, 1, 18)
    # the organiser confirmed after "by": the qualifiers get "within"
    assert first_deadline(by, at(2024, 10, 2), begins) == at(2024, 10, 5)
    assert first_deadline(Invite(by=at(2024, 9, 1)), told, begins) == begins
    # the next in line: "within" of being told; without it "by"; no time left: nobody
    assert next_deadline(by, at(2024, 9, 20), begins) == at(2024, 9, 23)
    assert next_deadline(Invite(by=at(2024, 10, 1, 18)), at(2024, 9, 20), begins) == \
        at(2024, 10, 1, 18)
    assert next_deadline(Invite(by=at(2024, 10, 1, 18)), at(2024, 10, 2), begins) is None
    assert next_deadline(week, begins, begins) is None


def test_an_answer_is_refused_once_lapsed_declined_or_the_heat_has_begun() -> None:
    told, deadline, begins = at(2024, 9, 12), at(2024, 9, 19), at(2024, 10, 12, 10)
    waiting = Invitation(3, told, deadline)
    assert reply_verdict(waiting, True, at(2024, 9, 18), begins) == Answer(None)
    assert reply_verdict(waiting, True, deadline, begins) == Lapsed(deadline)
    yes = Invitation(3, told, deadline, answer="yes", answered=told)
    assert reply_verdict(yes, True, at(2024, 9, 13), begins) == AlreadyAccepted()
    # an entry that accepted may still give its place up, after its deadline too
    assert reply_verdict(yes, False, at(2024, 10, 1), begins) == Answer("yes")
    assert reply_verdict(yes, False, begins, begins) == HeatBegun()
    no = Invitation(3, told, deadline, answer="no", answered=told)
    assert reply_verdict(no, True, at(2024, 9, 13), begins) == AlreadyDeclined()


def test_the_next_in_line_takes_a_place_given_up_and_top_percent_keeps_its_total() -> None:
    teams = parse_contest(tomllib.loads(INVITING), "series.toml").categories[0]
    rows = rank(teams, [Competitor(n, (f"T{n}",), finish=60 * n) for n in range(1, 7)])
    per_heat = teams.rounds[0].advance
    assert per_heat is not None
    heats = [rows[:3], rows[3:]]  # 1 2 3 | 4 5 6
    assert qualifiers(per_heat, heats, rows, lambda n: None) == [1, 2, 4, 5]
    assert qualifiers(per_heat, heats, rows, lambda n: None, skip=frozenset({2})) == [1, 3, 4, 5]
    half = type(per_heat)(top_percent=50)
    assert qualifiers(half, heats, rows, lambda n: None, skip=frozenset({1})) == [2, 3, 4]


@pytest.mark.parametrize("change, problem", [
    (('invite = { within = "7 days" }', "invite = {}"),
     "categories[1].rounds[1].advance.invite: needs by (a date-time the qualifiers answer by) "
     'or within (how long they have to answer once told, like "3 days")'),
    (("by = 2024-11-01T18:00:00", "by = 2024-11-09T10:30:00"),
     "categories[1].rounds[2].advance.invite.by: is after the next round begins (2024-11-09 "
     "10:00): the qualifiers must answer before they play"),
    (('within = "7 days"', 'within = "soon"'),
     'categories[1].rounds[1].advance.invite.within: must be a duration like "1:30:00", "5:00" '
     '(five minutes), "3 days" or "8 weeks", not \'soon\''),
    # a reminder as early as being told would never come: said, not silently dropped
    (('within = "7 days"', 'within = "7 days", remind = "7 days"'),
     "categories[1].rounds[1].advance.invite.remind: must be shorter than within (the time "
     'to answer), or "0:00" for no reminder'),
])
def test_a_wrong_invitation_is_refused_with_its_key(change: tuple[str, str], problem: str) -> None:
    with pytest.raises(ContestFileError) as exc:
        parse_contest(tomllib.loads(INVITING.replace(*change)), "series.toml")
    assert str(exc.value) == f"series.toml: {problem}"


# -- in the chat ----------------------------------------------------------------------------------


async def _locals_played(h: Harness, langs: dict[int, str] | None = None,
                         unfollowed: frozenset[int] = frozenset()) -> list[Call]:
    """Twelve teams, three per library, each followed by a phone (in English, or in
    ``langs``); every local contest played (at each library the team with the lowest number
    is fastest); the round confirmed."""
    svc = h.services
    lines = "".join(f"{n},teams,Team {n};Mate {n},1990;1991,{LIBRARIES[(n - 1) // 3]}\n"
                    for n in range(1, 13))
    await import_entries(svc.store, read_entries(svc.contest, io.StringIO(
        "number,category,names,born,library\n" + lines), "x.csv"))
    for n in range(1, 13):
        entry = await svc.store.entry(n)
        assert entry is not None
        if n not in unfollowed:
            await h.send(phone(n, (langs or {}).get(n, "en")), f"/start {entry.join_code}",
                         at(2024, 8, 1))
    await staff(h, BOSS, VIC, at(2024, 8, 1))
    for k, day in enumerate((at(2024, 8, 15, 18), at(2024, 8, 22, 18), at(2024, 9, 5, 18),
                             at(2024, 9, 12, 18))):
        await h.send(BOSS, "/inicio", day)
        for n in range(3 * k + 1, 3 * k + 4):
            await h.send(VIC, f"/fin {n} 0:{40 + n}:00", day + timedelta(minutes=58))
    return await h.send(BOSS, "/confirmar_ronda", at(2024, 9, 12, 19, 5))


async def run_job(h: Harness, when: datetime, job_of: Any = invitation_job) -> list[Call]:
    """The lapse job for the deadline ``when`` (or another job of ``when``), as the job
    queue runs it."""
    job = SimpleNamespace(data={"when": when.timestamp()})
    context = SimpleNamespace(job=job, application=h.app, bot_data=h.app.bot_data, bot=h.app.bot)
    before = len(h.request.calls)
    await job_of(context)
    await h.app.bot_data["sender"].settled()
    return list(h.request.calls[before:])


@pytest.fixture
async def series(tmp_path: Path) -> Any:
    path = tmp_path / "series.toml"
    path.write_text(INVITING, encoding="utf-8")
    h = await Harness(tmp_path, path, organisers=frozenset({BOSS.id})).start()
    try:
        yield h
    finally:
        await h.stop()


async def test_qualifiers_are_invited_and_only_those_who_accept_play(series: Harness) -> None:
    h = series
    teams = h.services.contest.category("teams")
    calls = await _locals_played(h)
    # nobody plays yet: the semi-finals wait for the answers
    assert (await h.services.day.lineups(teams))[1] == [[], []]
    assert said(calls, BOSS)[0].splitlines()[:3] == [
        "Teams: Local contest confirmed. 8 are invited to Semi-final; each plays once it "
        "accepts:",
        "Semi-final – Dane County (Saturday 12 October at 10:00, Madison Central Library):",
        "  #1 Team 1 / Mate 1 (answers by Thursday 19 September at 19:05)"]
    assert said(calls, phone(1)) == [
        "Entry #1 has earned a place in Semi-final – Dane County (Teams): Saturday 12 October "
        "at 10:00, Madison Central Library.\nWill you play? Answer by Thursday 19 September at "
        "19:05 with the buttons below (or /accept 1 or /decline 1). Without an answer by then, "
        "the place goes to the next in line."]
    assert h.buttons([c for c in calls if c.chat_id == phone(1).id]) == [
        ("✅ We'll play", "invite:yes:1"), ("❌ We can't", "invite:no:1")]
    # Fitchburg's third is told it is first in line for its library's places, never "not
    # enough this time" before "a place has come free" (issue 47, item 2)
    assert said(calls, phone(3)) == [
        "Entry #3: Local contest of Teams is over. Place 3 in Local contest – Fitchburg "
        "Library: not invited for now, but you are first in line. If an invited entry gives "
        "up its place or does not answer by Thursday "
        "19 September at 19:05, the place is yours and I will tell you here."]

    # a tap on "We'll play": in, at its table in the round's order
    out = await h.press(phone(4), "invite:yes:4", at(2024, 9, 13, 9))
    assert said(out, phone(4)) == [
        "Entry #4 plays Semi-final – Dane County (Teams): Saturday 12 October at 10:00, "
        "Madison Central Library. See you there! /heats shows your table once everyone has "
        "answered."]
    await h.send(phone(1), "/accept", at(2024, 9, 13, 10))
    assert (await h.services.day.lineups(teams))[1] == [[1, 4], []]
    again = await h.send(phone(1), "/accept 1", at(2024, 9, 13, 11))
    assert said(again, phone(1)) == ["Entry #1 has accepted already: nothing changed."]

    # team 2 gives its place up (asked first): Fitchburg's third, team 3, is invited
    asked = await h.send(phone(2), "/decline", at(2024, 9, 14, 9))
    assert said(asked, phone(2)) == [
        "Give up entry #2's place in Semi-final – Dane County (Teams)? It goes to the next in "
        "line and can't be taken back."]
    assert h.buttons(asked) == [("Yes, give it up", "invite:no!:2"),
                                ("No, keep it", "invite:keep:2")]
    kept = await h.press(phone(2), "invite:keep:2", at(2024, 9, 14, 9))
    assert said(kept, phone(2)) == ["Nothing changed: entry #2 keeps its invitation."]
    gone = await h.press(phone(2), "invite:no!:2", at(2024, 9, 14, 9))
    assert said(gone, phone(2)) == [
        "Entry #2 has given up its place in Semi-final – Dane County (Teams). Thank you for "
        "telling us: it goes to the next in line."]
    assert said(gone, phone(3)) == [
        "A place has come free and it is yours: entry #3 may play Semi-final – Dane County "
        "(Teams): Saturday 12 October at 10:00, Madison Central Library.\nWill you play? "
        "Answer by Saturday 21 September at 09:00 with the buttons below (or /accept 3 or "
        "/decline 3). Without an answer by then, the place goes to the next in line."]
    assert said(gone, VIC) == [
        "#2 Team 2 / Mate 2 gave up its place in Semi-final – Dane County (Teams). Invited "
        "instead: #3 Team 3 / Mate 3 (answers by Saturday 21 September at 09:00)."]
    back = await h.send(phone(2), "/accept 2", at(2024, 9, 14, 10))
    assert said(back, phone(2)) == [
        "Entry #2 gave up its place already: it went to the next in line and can't be taken "
        "back."]
    await h.press(phone(3), "invite:yes:3", at(2024, 9, 15))
    # team 3 plays instead of team 2, seated by the round's order (3 was faster than 4)
    assert (await h.services.day.lineups(teams))[1] == [[1, 3, 4], []]
    stranger = await h.send(phone(6), "/accept 6", at(2024, 9, 15))
    assert said(stranger, phone(6)) == ["Entry #6 has no invitation to answer."]
    series_now = await h.send(BOSS, "/series", at(2024, 9, 15))
    assert "  #2 Team 2 / Mate 2: gave up its place" in said(series_now, BOSS)[0].splitlines()
    assert "  #5 Team 5 / Mate 5: waiting, answers by Thursday 19 September at 19:05" in \
        said(series_now, BOSS)[0].splitlines()


async def test_a_place_not_answered_in_time_goes_to_the_next_in_line(series: Harness) -> None:
    h = series
    teams = h.services.contest.category("teams")
    await _locals_played(h)
    for n in (1, 2, 4, 7, 8, 10, 11):  # all but team 5 (Oregon's second) answer
        await h.press(phone(n), f"invite:yes:{n}", at(2024, 9, 13))
    deadline = at(2024, 9, 19, 19, 5)
    # a job waits for the deadline (already past on this machine's clock: due at once)
    assert any(name.startswith("invite:") for name in h.app.bot_data["jobs_by_name"])
    calls = await run_job(h, deadline)
    assert said(calls, phone(5)) == [
        "Entry #5 did not answer its invitation to Semi-final – Dane County (Teams) in time, "
        "so its place is no longer kept for it."]
    assert said(calls, phone(6))[0].startswith(
        "A place has come free and it is yours: entry #6 may play Semi-final – Dane County")
    assert "Answer by Thursday 26 September at 19:05" in said(calls, phone(6))[0]
    assert said(calls, VIC) == [
        "No answer in time to the invitation to Semi-final – Dane County (Teams) from #5 Team "
        "5 / Mate 5. Invited instead: #6 Team 6 / Mate 6 (answers by Thursday 26 September at "
        "19:05)."]
    late = await h.press(phone(5), "invite:yes:5", at(2024, 9, 19, 12))  # shown before...
    assert said(late, phone(5))[0].startswith("Too late: entry #5's invitation had to be "
                                              "answered by Thursday 19 September at 19:05")
    # run again (a restart): nothing lapses twice
    assert said(await run_job(h, deadline), VIC) == []
    await h.press(phone(6), "invite:yes:6", at(2024, 9, 20))
    assert (await h.services.day.lineups(teams))[1] == [[1, 2, 4, 6], [7, 8, 10, 11]]


async def test_no_answer_once_the_semi_final_has_begun(series: Harness) -> None:
    h = series
    await _locals_played(h)
    late = await h.send(phone(1), "/accept", at(2024, 10, 12, 10, 1))
    assert said(late, phone(1))[0].startswith("Too late: entry #1's invitation had to be "
                                              "answered by Thursday 19 September")
    await h.send(phone(4), "/accept", at(2024, 9, 14))
    asked = await h.send(phone(4), "/decline", at(2024, 10, 12, 9, 50))
    assert said(asked, phone(4))[0].startswith("Give up entry #4's place")
    # the semi-final begins: the question's button, pressed now, is refused
    await h.send(BOSS, "/inicio teams-semi1", at(2024, 10, 12, 10))
    gone = await h.press(phone(4), "invite:no!:4", at(2024, 10, 12, 9, 50))
    assert said(gone, phone(4)) == [
        "Entry #4's heat has begun: answers are no longer taken."]
    assert (await h.services.day.lineups(h.services.contest.category("teams")))[1][0] == [4]
    out = await h.send(phone(4), "/decline", at(2024, 10, 12, 10, 1))
    assert said(out, phone(4)) == ["Entry #4's heat has begun: answers are no longer taken."]


async def test_each_entry_left_out_is_told_its_number_in_line(tmp_path: Path) -> None:
    """One team per library invited: the second is first in line for its library's place,
    the third number 2, each in its own language (issue 47, item 2)."""
    path = tmp_path / "series.toml"
    path.write_text(INVITING.replace("per_heat = 2, invite", "per_heat = 1, invite"),
                    encoding="utf-8")
    h = await Harness(tmp_path, path, organisers=frozenset({BOSS.id})).start()
    try:
        calls = await _locals_played(h, {2: "de", 3: "es"})
    finally:
        await h.stop()
    assert said(calls, phone(2)) == [
        "Anmeldung #2: Local contest von Teams ist vorbei. Platz 2 (Local contest – "
        "Fitchburg Library): vorerst keine Einladung, aber du stehst ganz oben auf der "
        "Warteliste. Wenn eine eingeladene Anmeldung ihren "
        "Platz abgibt oder bis Donnerstag, 19. September um 19:05 nicht antwortet, gehört der "
        "Platz dir, und ich sage es dir hier."]
    assert said(calls, phone(3)) == [
        "Inscripción #3: Local contest de Teams ha terminado. Puesto 3 en Local contest – "
        "Fitchburg Library: de momento no tienes "
        "invitación; estás en el lugar 2 de la lista de espera por si queda una plaza libre "
        "(las inscripciones invitadas tienen hasta el jueves 19 de septiembre a las 19:05 "
        "para responder). Si te toca una, te lo diré aquí."]


async def test_an_invitation_still_unanswered_is_reminded_a_day_before(series: Harness) -> None:
    """Seven days to answer: the teams still silent a day before are told again, once, with
    the buttons; those who answered are not (issue 47, item 2)."""
    h = series
    await _locals_played(h)
    for n in (1, 2, 4, 7, 8, 10, 11):
        await h.press(phone(n), f"invite:yes:{n}", at(2024, 9, 13))
    reminder = at(2024, 9, 18, 19, 5)
    # a job at that moment (rebuilt at every start from what is still owed)
    assert await reminder_moments(h.services.day, at(2024, 9, 13)) == [reminder]
    calls = await run_job(h, reminder, reminder_job)
    assert said(calls, phone(5)) == [
        "Reminder: entry #5 is invited to Semi-final – Dane County (Teams): Saturday 12 "
        "October at 10:00, Madison Central Library, and has not answered yet. Will you play? "
        "Answer by Thursday 19 September at 19:05 with the buttons below (or /accept 5 or "
        "/decline 5); without an answer by then, the place goes to the next in line."]
    assert h.buttons([c for c in calls if c.chat_id == phone(5).id]) == [
        ("✅ We'll play", "invite:yes:5"), ("❌ We can't", "invite:no:5")]
    assert said(calls, phone(1)) == [] and said(calls, VIC) == []
    # once: run again (a restart), nobody is told twice, and no job is left for it
    assert [c for c in await run_job(h, reminder, reminder_job)
            if c.method == "sendMessage"] == []
    assert await reminder_moments(h.services.day, at(2024, 9, 13)) == []


async def test_an_invitation_no_phone_can_read_is_named_to_the_organisers(tmp_path: Path
                                                                          ) -> None:
    """Team 5 never linked a phone: a day before its deadline the organisers read that
    nobody can answer its invitation, in their language (issue 47, item 2)."""
    path = tmp_path / "series.toml"
    path.write_text(INVITING, encoding="utf-8")
    boss = Person(1, "Olga", "de")
    h = await Harness(tmp_path, path, organisers=frozenset({boss.id})).start()
    try:
        asked = await _locals_played(h, unfollowed=frozenset({5}))
        await h.press(boss, next(d for _, d in h.buttons(asked) if d.startswith("cr:")
                                 and d != "cr:-"), at(2024, 9, 12, 19, 6))
        calls = await run_job(h, at(2024, 9, 18, 19, 6), reminder_job)
    finally:
        await h.stop()
    assert said(calls, boss) == [
        "Kein Handy folgt #5 Team 5 / Mate 5 (Antwort bis Donnerstag, 19. September um "
        "19:06): Die Einladung erreicht niemanden und verfällt, wenn ihre Frist abläuft. Gib "
        "ihr ihren "
        "Link oder antworte für sie (/accept N oder /decline N)."]
