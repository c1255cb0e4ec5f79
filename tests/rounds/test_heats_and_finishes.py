"""Issue 24, items 5, 6 and 8, in the chat: heats keep to their schedule (/inicio CATEGORY as a
bare /inicio, only a heat's own name overrides, never the next heat while the one before is
played, heats at different venues together), the answer names clocks in words; a finish before
every split is refused naming what is missing; a disqualified entry's /fin says so; the
reasons of /estado are cleaned as names are."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from bot.services import rounds
from bot.services.exports import result_rows
from tests.fakebot import Harness, Person
from tests.rounds.test_rounds import BOSS, CONTEST, DAY1, TZ, VIC, open_day, play_heats, said

HEATS = '''heats = 2
advance = { per_heat = 2, best = 5 }
'''
# heat 1 at 10:00, heat 2 at 15:00, one venue
SCHEDULED = CONTEST.replace(HEATS, HEATS + '''
[[categories.rounds.heat]]
date = 2027-07-02
start = "10:00"

[[categories.rounds.heat]]
date = 2027-07-02
start = "15:00"
''')
# two halls at 10:00
TWO_HALLS = CONTEST.replace(HEATS, HEATS + '''
[[categories.rounds.heat]]
date = 2027-07-02
start = "10:00"
venue = "Hall A"

[[categories.rounds.heat]]
date = 2027-07-02
start = "10:00"
venue = "Hall B"
''')


async def started(h: Harness) -> list[str]:
    return [u.id for u in await rounds.current_units(h.services.day)
            if (await h.services.day.clock(u.id)).started is not None]


async def test_inicio_category_keeps_to_the_schedule(tmp_path: Path) -> None:
    """The issue's case: /inicio solo at 09:00, heats at 10:00 and 15:00."""
    h = await open_day(tmp_path, SCHEDULED)
    try:
        nine = DAY1 - timedelta(hours=1)
        assert said(await h.send(BOSS, "/inicio solo", nine), BOSS) == [
            "Nothing to start now: Heats 1 starts at 10:00. To start it now anyway: "
            "/go solo-heats1"]
        assert await started(h) == []
        at = DAY1 - timedelta(minutes=30)  # from half an hour before
        assert said(await h.send(BOSS, "/inicio solo", at), BOSS) == [
            "Clock started for: Heats 1 (Individual)."]
        for text in ("/inicio solo", "/inicio"):  # sent again: heat 2 waits for 15:00
            assert said(await h.send(BOSS, text, at + timedelta(seconds=30)), BOSS) == [
                "Nothing to start now: Heats 2 starts at 15:00. To start it now anyway: "
                "/go solo-heats2"], text
        assert await started(h) == ["solo-heats1"]
        # a heat already running is never started again
        assert said(await h.send(BOSS, "/inicio solo-heats1", at + timedelta(minutes=1)),
                    BOSS) == ["That clock is already running."]
        three = datetime(2027, 7, 2, 14, 30, tzinfo=TZ)
        assert said(await h.send(BOSS, "/inicio solo", three), BOSS) == [
            "Clock started for: Heats 2 (Individual)."]
        assert said(await h.send(BOSS, "/inicio solo", three), BOSS) == [
            "That clock is already running."]
    finally:
        await h.stop()


async def test_the_next_heat_waits_for_the_one_before_unless_named(tmp_path: Path) -> None:
    """Heats one after the other (no time of their own): the next one starts once the heat
    before is over (its time is up, or everyone in it has a result); by its name, at once."""
    h = await open_day(tmp_path)
    try:
        assert said(await h.send(BOSS, "/inicio", DAY1), BOSS) == [
            "Clock started for: Heats 1 (Individual)."]
        waits = ["Nothing started: Heats 2 comes after Heats 1, which is still being played. "
                 "To start it now anyway: /go solo-heats2"]
        for text in ("/inicio", "/inicio solo"):
            assert said(await h.send(BOSS, text, DAY1 + timedelta(minutes=20)), BOSS) == \
                waits, text
        at = DAY1 + timedelta(minutes=45)
        for n in (1, 2, 3):
            await h.send(VIC, f"/fin {n} 0:4{n}:00", at)
        assert said(await h.send(BOSS, "/inicio", at), BOSS) == waits  # #4 still plays
        await h.send(VIC, "/estado 4 dns", at)
        assert said(await h.send(BOSS, "/inicio solo", at), BOSS) == [
            "Clock started for: Heats 2 (Individual)."]
        assert await started(h) == ["solo-heats1", "solo-heats2"]
    finally:
        await h.stop()


async def test_a_heat_named_starts_while_the_one_before_runs(tmp_path: Path) -> None:
    h = await open_day(tmp_path)
    try:
        await h.send(BOSS, "/inicio", DAY1)
        assert said(await h.send(BOSS, "/inicio solo-heats2", DAY1 + timedelta(minutes=5)),
                    BOSS) == ["Clock started for: Heats 2 (Individual)."]
        assert said(await h.send(BOSS, "/inicio solo-heats2", DAY1 + timedelta(minutes=6)),
                    BOSS) == ["That clock is already running."]
    finally:
        await h.stop()


async def test_heats_at_different_venues_start_together(tmp_path: Path) -> None:
    h = await open_day(tmp_path, TWO_HALLS)
    try:
        olga = Person(BOSS.id, BOSS.name, "es")  # the answer in the reader's language
        assert said(await h.send(olga, "/inicio solo", DAY1 - timedelta(minutes=40)), olga) \
            == ["Nada que empezar ahora: Series 1 empieza a las 10:00. Para empezarla ya de "
                "todos modos: /inicio solo-heats1"]
        assert said(await h.send(olga, "/inicio solo", DAY1 - timedelta(minutes=10)), olga) \
            == ["Reloj en marcha para: Series 1 (Individual), Series 2 (Individual)."]
        assert await started(h) == ["solo-heats1", "solo-heats2"]
    finally:
        await h.stop()


# -- results that can't be half-recorded ------------------------------------------------------

FIVE = CONTEST.replace('''puzzles = [500, 500]''', '''puzzles = [100, 100, 100, 100, 100]''')
ANY = CONTEST.replace('''puzzles = [500, 500]''', '''puzzles = [500, 300, 200]
puzzle_order = "any"
play = 3''')


async def to_the_final(h: Harness) -> datetime:
    """Four entries through heats and semi-final to the final; its clock started."""
    await play_heats(h, ((1, "0:31:00"), (2, "0:32:00")), ((3, "0:33:00"), (4, "0:34:00")))
    await h.send(BOSS, "/confirmar_ronda", DAY1 + timedelta(hours=3, minutes=1))
    semi = DAY1 + timedelta(days=1)
    await h.send(BOSS, "/inicio", semi)
    for n in (1, 2, 3, 4):
        await h.send(VIC, f"/fin {n} 0:3{n}:00", semi + timedelta(minutes=40))
    await h.send(BOSS, "/confirmar_ronda", semi + timedelta(minutes=41))
    final = datetime(2027, 7, 3, 16, 0, tzinfo=TZ)
    await h.send(BOSS, "/inicio", final)
    return final


async def finish_of(h: Harness, number: int) -> int | None:
    state = await h.services.day.state(number)
    assert state is not None
    return state.finish


async def test_a_finish_before_every_split_is_refused_with_what_is_missing(
        tmp_path: Path) -> None:
    h = await open_day(tmp_path, FIVE, entries=4)
    try:
        final = await to_the_final(h)  # finalists 1, 2, 3
        at = final + timedelta(hours=1, minutes=50)
        for k in (1, 2, 3):
            await h.send(VIC, f"/parcial 1 0:{k}0:00", at)
        assert said(await h.send(VIC, "/fin 1 1:30:00", at), VIC) == [
            "Nothing recorded: entry 1 has no split time yet for puzzle 4 of 5. Record it "
            "first with /split 1 [h:mm:ss], then the finish with /finish."]
        assert await finish_of(h, 1) is None
        await h.send(VIC, "/parcial 2 0:20:00", at)
        fr = Person(VIC.id, VIC.name, "fr")
        assert said(await h.send(fr, "/fin 2", at), fr) == [
            "Rien n'est noté : l'inscription 2 n'a pas encore de temps intermédiaire pour les "
            "puzzles 2, 3, 4 sur 5. Notez-les d'abord, un par un, avec /intermediaire 2 "
            "[h:mm:ss], puis l'arrivée avec /termine."]
        assert await finish_of(h, 2) is None
        # the missing split, then the finish: recorded, ranked as a finisher
        await h.send(VIC, "/parcial 1 1:00:00", at)
        assert said(await h.send(VIC, "/fin 1 1:30:00", at), VIC) == [
            "Entry 1 finished at 1:30:00."]
        ranking = said(await h.send(BOSS, "/clasificacion solo-final", at), BOSS)[0]
        assert ranking.splitlines()[1] == "1. #1 Player 1: 1:30:00", ranking
    finally:
        await h.stop()


async def test_puzzles_in_any_order_a_finish_waits_for_the_splits_too(tmp_path: Path) -> None:
    h = await open_day(tmp_path, ANY, entries=4)
    try:
        final = await to_the_final(h)
        at = final + timedelta(hours=1)
        await h.send(VIC, "/parcial 3 2 0:30:00", at)
        assert said(await h.send(VIC, "/fin 3 0:50:00", at), VIC) == [
            "Nothing recorded: entry 3 plays 3 puzzles and still needs 1 split time before "
            "its last one (puzzles left: 1, 3). Record it first with /split 3 PUZZLE "
            "[h:mm:ss], then the finish with /finish."]
        assert await finish_of(h, 3) is None
    finally:
        await h.stop()


async def test_a_disqualified_entrys_finish_says_so_and_changes_nothing(
        tmp_path: Path) -> None:
    h = await open_day(tmp_path)
    try:
        await h.send(BOSS, "/inicio", DAY1)
        at = DAY1 + timedelta(minutes=40)
        await h.send(VIC, "/estado 2 dsq pieces taken from another table", at)
        assert said(await h.send(VIC, "/fin 2 0:39:00", at), VIC) == [
            "Entry 2 is disqualified (pieces taken from another table): nothing recorded."]
        assert said(await h.send(VIC, "/fin 2", at), VIC) == [
            "Entry 2 is disqualified (pieces taken from another table): nothing recorded."]
        assert await finish_of(h, 2) is None
        assert not await h.services.store.events(entry=2, kinds=["finish"])
    finally:
        await h.stop()


async def test_a_reason_is_cleaned_as_names_are(tmp_path: Path) -> None:
    h = await open_day(tmp_path)
    try:
        await h.send(BOSS, "/inicio", DAY1)
        at = DAY1 + timedelta(minutes=40)
        typed = "/estado 2 dsq \x1b[2Jpieces\x07 taken \u202eelbat 4\u202c"
        assert said(await h.send(VIC, typed, at), VIC) == [
            "Entry 2: disqualified ([2Jpieces taken elbat 4). It is not placed and does not "
            "advance (/undo to take it back)."]
        await h.send(VIC, "/estado 3 oc \u2066late\u2069\x1b team", at)
        outcomes = {e.entry: e.data["reason"]
                    for e in await h.services.store.events(kinds=["outcome"])}
        assert outcomes == {2: "[2Jpieces taken elbat 4", 3: "late team"}
        header, *rows = await result_rows(h.services.contest, h.services.day, "solo-heats1")
        number, reason = header.index("number"), header.index("outcome_reason")
        reasons = {r[number]: r[reason] for r in rows if r[reason]}
        assert reasons == {2: "[2Jpieces taken elbat 4", 3: "late team"}, reasons
        assert said(await h.send(VIC, "/estado 4 dsq \x1b\x07\u202e", at), VIC) == [
            "Give the reason of entry 4's disqualification: /status 4 dsq REASON"]
    finally:
        await h.stop()
