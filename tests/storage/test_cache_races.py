"""The caches of derived state against writes that land while they are being filled.

Each update is handled concurrently with the others: a ranking may be reading the history when a
volunteer's /fin is written. What the ranking read is then older than the /fin, and must never be
kept as if it had seen it (a CI run once showed a finished pair as "no result yet" for the rest
of the day). Writes undone by a rollback must not survive in any cache either."""

from __future__ import annotations

import asyncio
import io
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from bot.domain.events import PLACE_KINDS
from bot.domain.places import Status
from bot.features.registration.day import Registrations
from bot.features.results import day as results
from bot.services.clocks import start_clock
from bot.services.contest_day import ContestDay
from bot.services.csvio import import_entries, read_entries
from bot.storage.store import Store

T0 = datetime(2023, 4, 22, 10, 0, tzinfo=ZoneInfo("Europe/Madrid"))
CSV = """number,category,names,born
1,adultos,Ana Ruiz,1980
2,adultos,Eva Gil,1981
"""
ORGANISER = 1
VOLUNTEER = 2


async def open_day(tmp_path, castrillo) -> ContestDay:
    store = await Store.open(str(tmp_path / "day.sqlite3"))
    await import_entries(store, read_entries(castrillo, io.StringIO(CSV), "entries.csv"))
    day = ContestDay(castrillo, store, frozenset({ORGANISER}))
    assert (await start_clock(day, ORGANISER, "adultos", T0, None)).ok
    return day


def finished(rows) -> dict[int, int | None]:
    return {r.number: r.time for r in rows}


async def test_a_finish_written_while_a_ranking_reads_is_in_the_next_ranking(tmp_path, castrillo):
    day = await open_day(tmp_path, castrillo)
    category = castrillo.category("adultos")
    assert category is not None
    original = day.store.events
    raced = False

    async def events_then_a_finish(*args, **kwargs):
        nonlocal raced
        read = await original(*args, **kwargs)
        if not raced and kwargs.get("entry") == 1:
            raced = True  # the volunteer's /fin lands between the ranking's read and its use
            outcome = await results.finish(day, VOLUNTEER, "volunteer", 1, None,
                                       T0 + timedelta(hours=1, minutes=40), None)
            assert outcome.ok, outcome
        return read

    day.store.events = events_then_a_finish  # type: ignore[method-assign]
    try:
        before = finished(await day.ranking(category, T0 + timedelta(hours=2)))
    finally:
        day.store.events = original  # type: ignore[method-assign]
    assert raced
    assert before[1] is None  # it read the history before the /fin: fair for that answer
    after = finished(await day.ranking(category, T0 + timedelta(hours=2)))
    assert after[1] == 100 * 60  # and every later answer has it
    state = await day.state(1)
    assert state is not None and state.finish == 100 * 60
    # a second /fin with the same time is refused as already recorded, not written twice
    again = await results.finish(day, VOLUNTEER, "volunteer", 1, None,
                             T0 + timedelta(hours=1, minutes=40), None)
    assert not again.ok and again.reason == "already_recorded"
    await day.store.close()


async def test_a_state_read_during_an_undone_write_is_not_kept(tmp_path, castrillo):
    day = await open_day(tmp_path, castrillo)
    store = day.store
    original = store.events

    class Undone(Exception):
        pass

    async def events_seeing_an_undone_finish(*args, **kwargs):
        # another update's transaction inserts a finish; this read sees it; then it fails
        try:
            async with store.transaction() as tx:
                await tx.add_event(at=T0 + timedelta(minutes=90), kind="finish",
                                   role="volunteer", actor=VOLUNTEER, entry=2,
                                   value=90 * 60)
                read = await original(*args, **kwargs)
                raise Undone
        except Undone:
            return read

    store.events = events_seeing_an_undone_finish  # type: ignore[method-assign]
    try:
        phantom = await day.state(2)
    finally:
        store.events = original  # type: ignore[method-assign]
    assert phantom is not None and phantom.finish is not None  # it saw the row, then undone
    state = await day.state(2)
    assert state is not None and state.finish is None
    category = castrillo.category("adultos")
    assert category is not None
    assert finished(await day.ranking(category, T0 + timedelta(hours=2)))[2] is None
    await store.close()


async def test_a_failed_write_alone_in_its_batch_leaves_nobody_waiting(tmp_path, castrillo):
    day = await open_day(tmp_path, castrillo)
    store = day.store

    class Broken(Exception):
        pass

    with pytest.raises(Broken):
        async with store.transaction() as tx:
            await tx.add_event(at=T0, kind="finish", role="volunteer", actor=VOLUNTEER,
                               entry=1, value=60)
            raise Broken
    # whoever answers from the database next waits for the batch: it must end, empty
    await asyncio.wait_for(store.durable(), 5)
    await asyncio.sleep(0.05)
    assert not store.conn.in_transaction
    assert await store.events(kinds=["finish"]) == []
    await store.close()


async def test_an_entry_history_read_racing_a_write_of_that_entry_misses_nothing(
        tmp_path, castrillo):
    day = await open_day(tmp_path, castrillo)
    store = day.store
    assert await store.entry(1) is not None  # a known entry: its history is worth keeping
    original = store._fetchall
    raced = False

    async def read_then_a_write(sql, params=()):
        nonlocal raced
        rows = await original(sql, params)
        if not raced and "WHERE entry = ?" in sql:
            raced = True  # the /piezas lands after the history was read, before it is kept
            async with store.transaction() as tx:
                await tx.add_event(at=T0 + timedelta(hours=3), kind="pieces", role="volunteer",
                                   actor=VOLUNTEER, entry=1, value=321)
        return rows

    store._fetchall = read_then_a_write  # type: ignore[method-assign]
    try:
        first = await store.events(entry=1, kinds=["pieces"])
    finally:
        store._fetchall = original  # type: ignore[method-assign]
    assert raced and first == []
    later = await store.events(entry=1, kinds=["pieces"])
    assert [e.value for e in later] == [321]
    # and once kept, this process's writes are appended: same events as the file holds
    async with store.transaction() as tx:
        await tx.add_event(at=T0 + timedelta(hours=3, minutes=1), kind="pieces",
                           role="volunteer", actor=VOLUNTEER, entry=1, value=322,
                           data={"note": "recount ñ"}, supersedes=later[0].id)
    kept = await store.events(entry=1, effective=False)
    store._by_entry.clear()
    assert await store.events(entry=1, effective=False) == kept
    assert [e.value for e in await store.events(entry=1, kinds=["pieces"])] == [322]
    await store.close()


async def test_redeliveries_are_recognised_in_memory_and_after_a_restart(tmp_path, castrillo):
    day = await open_day(tmp_path, castrillo)
    store = day.store
    async with store.transaction() as tx:
        await tx.add_event(at=T0, kind="pieces", role="volunteer", actor=VOLUNTEER, entry=1,
                           value=10, update_id=700)
    assert await store.handled(700) and not await store.handled(701)

    class Undone(Exception):
        pass

    with pytest.raises(Undone):
        async with store.transaction() as tx:
            await tx.add_event(at=T0, kind="pieces", role="volunteer", actor=VOLUNTEER,
                               entry=1, value=11, update_id=702)
            raise Undone
    assert not await store.handled(702)  # undone: never recorded, so not a redelivery
    assert await store.handled(700)
    await store.close()
    again = await Store.open(str(tmp_path / "day.sqlite3"))
    assert await again.handled(700)  # older than the file's newest: asked of the file
    assert not await again.handled(699) and not await again.handled(702)
    await again.close()


async def test_a_correction_undone_with_its_operation_leaves_the_corrected_event_in_force(
        tmp_path, castrillo):
    day = await open_day(tmp_path, castrillo)
    store = day.store
    try:
        async with store.transaction() as tx:
            first = await tx.add_event(at=T0, kind="finish", role="volunteer", actor=VOLUNTEER,
                                       entry=1, value=6000)
        with pytest.raises(RuntimeError):
            async with store.transaction() as tx:
                await tx.add_event(at=T0, kind="finish", role="volunteer", actor=VOLUNTEER,
                                   entry=1, value=6100, supersedes=first)
                assert not store.is_effective(first)  # corrected, inside the operation
                raise RuntimeError("the operation fails after its correction")
        assert store.is_effective(first)
        assert [e.value for e in await store.events(entry=1, kinds=["finish"])] == [6000]
        # and a later correction that goes well takes effect
        async with store.transaction() as tx:
            await tx.add_event(at=T0, kind="finish", role="volunteer", actor=VOLUNTEER,
                               entry=1, value=6200, supersedes=first)
        assert not store.is_effective(first)
        assert [e.value for e in await store.events(entry=1, kinds=["finish"])] == [6200]
    finally:
        await store.close()


async def test_a_registration_write_empties_the_registrations_projections(tmp_path, castrillo):
    """The places are kept in the day's read model (``ContestDay.read``); a withdrawal or a
    payment, even through another ``Registrations`` on the store, must reach them."""
    day = await open_day(tmp_path, castrillo)
    later = T0 + timedelta(hours=2)
    places = await day.registrations.places(later)
    assert places[1].status is Status.CONFIRMED
    assert await day.registrations.places(later) is places  # served from the read model
    assert day.read.projection("allocation", PLACE_KINDS)["at"][1] is places

    desk = Registrations(castrillo, day.store)  # its own read model: the same stamps
    assert (await desk.withdraw(ORGANISER, "organiser", 1, T0, None)).ok
    assert (await day.registrations.places(later))[1].status is Status.WITHDRAWN
    assert [a.withdrawn_at for a in await day.registrations.applications()] == [T0, None]

    assert (await day.registrations.pay(ORGANISER, 2, T0, T0, None)).ok
    assert [a.paid_at for a in await day.registrations.applications()] == [None, T0]
    await day.store.close()
