"""The reads that a big day makes in bulk give what the entry-by-entry reads gave (issue 50).

Who follows which entry is read once and then only the links written since; the entries in one
read. The cooldown notices still owed are found from the refusals without a notice, without an
``Event`` made of every refusal. Each is held here to the straightforward read it replaces."""

from __future__ import annotations

import io
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from bot.domain.contest import Contest
from bot.domain.events import EventKind
from bot.features.escape.operations import request
from bot.features.escape.rules import Kind
from bot.services import clocks, contest_day, rounds
from bot.services.access import link
from bot.services.clocks import start_clock
from bot.services.contest_day import ContestDay
from bot.services.csvio import import_entries, read_entries
from bot.storage.store import Store
from tests.rounds.test_rounds import BOSS, DAY1, VIC, open_day, play_heats
from tests.storage.test_cache_races import ORGANISER, T0

CSV = """number,category,names,born,join_code
1,parejas,Ana Ruiz; Eva Gil,1980; 1981,code-entry-000001
2,parejas,Luis Paz; Rosa Gil,1970; 1975,code-entry-000002
3,parejas,Iván Sol; Marta Sol,1990; 1991,code-entry-000003
4,adultos,Pepe Mar,1960,code-entry-000004
"""
MIN = 60


async def open_day_csv(tmp_path, castrillo) -> ContestDay:
    store = await Store.open(str(tmp_path / "day.sqlite3"))
    await import_entries(store, read_entries(castrillo, io.StringIO(CSV), "entries.csv"))
    return ContestDay(castrillo, store, frozenset({ORGANISER}))


async def one_by_one(day: ContestDay, user: int) -> list[int]:
    """The entries ``user`` follows as read before: every link, then each entry alone."""
    numbers = sorted({e.entry for e in await day.store.events(kinds=[EventKind.LINK])
                      if e.actor == user and e.entry})
    return [e.number for n in numbers if (e := await day.store.entry(n)) is not None]


async def followers(day: ContestDay, number: int) -> list[int]:
    return sorted({e.actor for e in await day.store.events(entry=number, kinds=[EventKind.LINK])
                   if e.actor is not None})


async def same_links(day: ContestDay, users: list[int]) -> None:
    for user in users:
        assert [e.number for e in await day.linked_entries(user)] == \
            await one_by_one(day, user), user
    for number in (1, 2, 3, 4):
        assert await day.linked_users(number) == await followers(day, number), number


async def test_links_read_in_bulk_and_then_only_the_new_ones(tmp_path, castrillo) -> None:
    day = await open_day_csv(tmp_path, castrillo)
    users = [101, 102, 103]
    await same_links(day, users)  # nobody follows anything yet
    for user, code in ((101, "code-entry-000001"), (102, "code-entry-000001"),
                       (101, "code-entry-000004")):
        assert (await link(day, user, code, T0, None)).ok
    await same_links(day, users)
    # a link written after the map was read is in the next answer
    assert (await link(day, 103, "code-entry-000003", T0, None)).ok
    assert (await link(day, 101, "code-entry-000002", T0, None)).ok
    await same_links(day, users)
    assert [e.number for e in await day.linked_entries(101)] == [1, 2, 4]
    await day.store.close()


async def test_a_link_rolled_back_is_not_followed(tmp_path, castrillo) -> None:
    day = await open_day_csv(tmp_path, castrillo)
    assert (await link(day, 101, "code-entry-000001", T0, None)).ok
    await same_links(day, [101])
    with pytest.raises(RuntimeError, match="undone"):
        async with day.store.transaction() as tx:
            await tx.add_event(at=T0, kind=EventKind.LINK, role="participant", actor=101,
                               entry=2, ref="code-entry-000002")
            assert [e.number for e in await day.linked_entries(101)] == [1, 2]
            raise RuntimeError("undone")
    await same_links(day, [101])
    assert [e.number for e in await day.linked_entries(101)] == [1]
    assert await day.linked_users(2) == []
    await day.store.close()


async def old_pending_notices(day: ContestDay) -> list[tuple[int, str, int, datetime]]:
    """``clocks.pending_notices`` as it read before: every refusal and every notice."""
    refused = await day.store.events(kinds=[EventKind.REQUEST_REFUSED])
    sent = {e.ref for e in await day.store.events(kinds=[EventKind.NOTICE])}
    owed: dict[str, tuple[int, str, int, datetime]] = {}
    for e in refused:
        if e.ref is None or e.ref in sent or e.entry is None or e.value is None:
            continue
        state = await day.state(e.entry)
        if state is None or state.ledger is None:
            continue
        if state.ledger.over(e.value) or state.ledger.next_request_at != e.value:
            continue
        moment = state.clock.instant_at(e.value)
        if moment is not None:
            owed[e.ref] = (e.entry, e.ref, e.value, moment)
    return sorted(owed.values(), key=lambda x: x[3])


async def test_the_notices_owed_are_those_of_the_full_read(tmp_path, castrillo) -> None:
    day = await open_day_csv(tmp_path, castrillo)
    assert (await start_clock(day, ORGANISER, "parejas", T0, None)).ok

    async def ask(number: int, minute: int, kind: Kind = Kind.SOLUTION) -> object:
        return await request(day, 100 + number, number, kind, 1,
                             T0 + timedelta(minutes=minute), None)

    # 1: refused twice in one cooldown (one notice owed); 2: refused, its notice sent;
    # 3: refused, then the escape solved before the notice's moment
    for number in (1, 2, 3):
        assert (await ask(number, 10, Kind.HINT)).ok
        assert not (await ask(number, 12)).ok
    assert not (await ask(1, 13)).ok
    assert await clocks.pending_notices(day) == await old_pending_notices(day)
    owed = {key: entry for entry, key, _, _ in await clocks.pending_notices(day)}
    assert set(owed.values()) == {1, 2, 3}
    await clocks.record_notice(day, "cooldown:2:900", 2, T0 + timedelta(minutes=15))
    async with day.store.transaction() as tx:
        await tx.add_event(at=T0 + timedelta(minutes=14), kind=EventKind.ESCAPE,
                           role="volunteer", actor=ORGANISER, entry=3, value=14 * MIN)
    assert await day.store.refusals_without_notice() == [
        (1, "cooldown:1:900", 900), (3, "cooldown:3:900", 900), (1, "cooldown:1:900", 900)]
    found = await clocks.pending_notices(day)
    assert found == await old_pending_notices(day)
    assert [(entry, key) for entry, key, _, _ in found] == [(1, "cooldown:1:900")]
    # the notice of 2 taken back (an undo that replaces it): its refusal is owed again
    notice = (await day.store.events(kinds=[EventKind.NOTICE]))[0]
    async with day.store.transaction() as tx:
        await tx.add_event(at=T0 + timedelta(minutes=16), kind=EventKind.UNDO,
                           role="organiser", actor=ORGANISER, entry=2, supersedes=notice.id)
    assert await day.store.refusals_without_notice() == [
        (1, "cooldown:1:900", 900), (2, "cooldown:2:900", 900), (3, "cooldown:3:900", 900),
        (1, "cooldown:1:900", 900)]
    assert await clocks.pending_notices(day) == await old_pending_notices(day)
    await day.store.close()


# -- a ranking's histories read in bulk --------------------------------------------------------


async def rankings_read(path: Path, contest: Contest, names: list[str]) -> dict[str, list]:
    """Every ranking of ``names`` on a store just opened (no history held in memory)."""
    store = await Store.open(str(path))
    try:
        day = ContestDay(contest, store, frozenset({BOSS.id}))
        out = {}
        for name in names:
            category = contest.category(name) or await rounds.unit(day, name)
            assert category is not None, name
            out[name] = list(await day.ranking(category))
        solo = contest.category("solo")
        assert solo is not None
        out["round"] = list(await rounds.round_ranking(day, solo, 0))
        heat = day.heats["solo-heats1"]
        out["states"] = [(s.entry.number, s.finish, s.unit) for s in await day.heat_states(heat)]
        return out
    finally:
        await store.close()


async def test_rankings_read_in_bulk_are_those_read_entry_by_entry(tmp_path, monkeypatch) -> None:
    """The heats, the round over both and the classification: the same rows whether the
    entries and their histories are read one by one or a few queries for all of them (forced
    here on eight entries), a corrected finish included."""
    h = await open_day(tmp_path, entries=8)
    try:
        await play_heats(h, [(1, "0:40:00"), (2, "0:41:00"), (3, "0:45:00")],
                         [(5, "0:30:00"), (6, "0:50:00"), (7, "0:35:00")])
        # a finish corrected: the correction is the one in force
        await h.send(VIC, "/fin 6 0:49:00", DAY1 + timedelta(hours=2, minutes=55))
        await h.send(VIC, "/piezas 4 300", DAY1 + timedelta(hours=1, minutes=1))
        contest = h.services.contest
    finally:
        await h.stop()
    names = ["solo-heats1", "solo-heats2", "solo"]
    one_by_one = await rankings_read(h.db_path, contest, names)
    monkeypatch.setattr(contest_day, "BULK_READ", 0)
    in_bulk = await rankings_read(h.db_path, contest, names)
    assert in_bulk == one_by_one
    times = {r.number: r.time for h in ("solo-heats1", "solo-heats2") for r in one_by_one[h]}
    assert times[6] == 49 * 60 and times[1] == 40 * 60 and len(times) == 8


async def test_events_of_entries_are_each_entrys_effective_events(tmp_path, castrillo) -> None:
    day = await open_day_csv(tmp_path, castrillo)
    async with day.store.transaction() as tx:
        first = await tx.add_event(at=T0, kind=EventKind.FINISH, role="volunteer", entry=4,
                                   value=100)
        await tx.add_event(at=T0, kind=EventKind.FINISH, role="volunteer", entry=4, value=90,
                           supersedes=first)
        await tx.add_event(at=T0, kind=EventKind.PIECES, role="volunteer", entry=2, value=7)
        await tx.add_event(at=T0, kind=EventKind.LINK, role="participant", entry=2, actor=9)
    kinds = [EventKind.FINISH, EventKind.PIECES]
    found = await day.store.events_of_entries([4, 2, 1, 4], kinds)
    assert found == {n: await day.store.events(entry=n, kinds=kinds) for n in (2, 4)}
    assert [e.value for e in found[4]] == [90]
    await day.store.close()
