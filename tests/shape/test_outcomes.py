"""The contest day's outcomes are typed: one class per refusal, with the data its message needs,
and one per thing recorded. Every refusal has its own line in every language, the domain's
reason codes are the operations' own (a feature's rules declare its reasons once), and the
operations give the values the handlers match on."""

from __future__ import annotations

import io
from dataclasses import fields
from datetime import datetime, timedelta
from typing import get_args
from zoneinfo import ZoneInfo

import pytest

from bot.domain.contest import Contest
from bot.features.escape.operations import confirm_stage, request, solve
from bot.features.escape.outcomes import EscapeRecorded, Granted, refused
from bot.features.escape.rules import Cooldown, Kind, StageBack
from bot.features.registration import day as registrations
from bot.features.results import day as results
from bot.features.results.outcomes import FinishRecorded, PiecesRange, PiecesRecorded
from bot.services import history
from bot.services.clocks import ClocksStarted, pause, pending_notices, start_clock
from bot.services.contest_day import ContestDay
from bot.services.csvio import import_entries, read_entries
from bot.services.history import Undone
from bot.services.outcomes import (
    AlreadyRecorded,
    ClockNotStarted,
    Done,
    NotEscape,
    PastLimit,
    Refusal,
    UnknownEntry,
)
from bot.storage.store import Store
from bot.texts.common import DayRefusal, refusal

T0 = datetime(2023, 4, 22, 10, 0, tzinfo=ZoneInfo("Europe/Madrid"))
ORGANISER = 1
VOLUNTEER = 2
PHONE = 3
CSV = """number,category,names,born
3,parejas,Ana; Bea,1980; 1985
4,adultos,Eva Gil,1981
"""


def refusals(features: bool = False) -> list[type[Refusal]]:
    """The contest day's refusals (the registration desk's are answered by its own lines; a
    feature package's by its own ``outcomes.py``, exhaustively: ``features`` includes them)."""
    return [cls for cls in Refusal.__subclasses__()
            if cls.__module__ != registrations.__name__
            and (features or not cls.__module__.startswith("bot.features."))]


def an_instance(cls: type[Refusal]) -> Refusal:
    """A refusal of ``cls`` with made-up data (every field is an int, a tuple or a moment)."""
    values: dict[str, object] = {f.name: 1 for f in fields(cls)}
    if "categories" in values:
        values["categories"] = ("parejas",)
    if "moment" in values:
        values["moment"] = T0
    if "given" in values:  # an unknown penalty kind, and the contest's
        values["given"], values["known"] = "lost", ("lost_piece",)
    if "heat" in values:  # a heat of a round (the names are the contest's)
        values["heat"] = "parejas-final"
    if "waiting" in values:
        values["waiting"] = (3, 4)
    if "entries" in values:  # entries a refusal names
        values["entries"] = (3, 4)
    if "day" in values:
        values["day"] = T0.date()
    if "category" in values:
        values["category"] = "parejas"
    if "start" in values:
        values["start"] = T0
    if "outcome" in values:
        values["outcome"] = "dsq"
    if "left" in values:  # puzzles left to finish
        values["left"] = (1, 3)
    return cls(**values)


def test_every_refusal_has_its_own_reason_code() -> None:
    codes = [cls.code for cls in refusals(features=True)]
    assert len(codes) == len(set(codes)) > 40
    assert all(codes)


@pytest.mark.parametrize("lang", ["es", "fr", "en"])
def test_every_refusal_has_its_own_line(castrillo: Contest, lang: str) -> None:
    # mypy proves each member of DayRefusal has its text; this holds that every refusal class
    # of the contest day is a member (there is no fallback line any more)
    members = set(get_args(DayRefusal))
    lines = set()
    for cls in refusals():
        assert cls in members, cls
        refused = an_instance(cls)
        assert not refused.ok
        text = refusal(lang, refused, castrillo)
        assert text and "{" not in text, cls
        lines.add(text)
    assert len(lines) == len(refusals())  # each its own line


def test_the_lines_say_what_the_refusal_carries(castrillo: Contest) -> None:
    # the very lines the string-keyed outcomes gave
    moment = datetime(2023, 4, 22, 10, 25, tzinfo=ZoneInfo("Europe/Madrid"))
    assert refused("en", Cooldown(25 * 60, moment), castrillo, 3) == (
        "Too soon: 5 minutes must pass between two requests. You may ask again at 10:25:00 "
        "(contest time 0:25:00); I will tell you.")
    assert refused("en", Cooldown(25 * 60), castrillo, 3).count(" at - (") == 1
    assert refusal("en", PastLimit(9000, 7200), castrillo) == (
        "2:30:00 is past the category's time limit (2:00:00): record the pieces with /pieces "
        "instead.")
    assert refusal("en", PiecesRange(600, 500), castrillo) == (
        "The pieces must be between 0 and 500 (the puzzle's size).")
    assert refusal("en", AlreadyRecorded(7, 6000), castrillo) == (
        "Entry 7 already has 1:40:00 recorded: nothing changed.")
    assert refused("en", StageBack(3), castrillo, 7) == (
        "Entry 7 was already confirmed in stage 3: a stage can't go back (use /undo to "
        "correct your own mistake).")
    assert refusal("en", UnknownEntry(99), castrillo) == "There is no entry number 99."


async def open_day(tmp_path, castrillo: Contest) -> ContestDay:
    store = await Store.open(str(tmp_path / "day.sqlite3"))
    await import_entries(store, read_entries(castrillo, io.StringIO(CSV), "entries.csv"))
    return ContestDay(castrillo, store, frozenset({ORGANISER}))


async def test_the_operations_give_typed_values(tmp_path, castrillo: Contest) -> None:
    day = await open_day(tmp_path, castrillo)
    assert await results.finish(day, VOLUNTEER, "volunteer", 4, None, T0,
                                None) == ClockNotStarted(4)
    assert await results.pieces(day, VOLUNTEER, "volunteer", 99, 10, T0, None) == UnknownEntry(99)
    started = await start_clock(day, ORGANISER, None, T0, None)
    assert isinstance(started, ClocksStarted) and started.ok
    assert set(started.started) == {c.id for c in castrillo.categories}
    again = await start_clock(day, ORGANISER, "parejas", T0, None)
    assert isinstance(again, Refusal) and again.reason == "already_started"
    assert await confirm_stage(day, VOLUNTEER, "volunteer", 4, 2, T0, None) == NotEscape(4)

    minute = timedelta(minutes=1)
    granted = await request(day, PHONE, 3, Kind.HINT, 1, T0 + 10 * minute, None)
    assert isinstance(granted, Granted) and granted.event_id is not None
    assert granted.charge.tickets_used == 1
    assert granted.state is not None and granted.state.ledger is not None
    assert granted.state.ledger.tickets_left == 10

    # too soon: the refusal says when, in contest time and real time, and the notice is owed
    soon = await request(day, PHONE, 3, Kind.HINT, 2, T0 + 12 * minute, None)
    assert soon == Cooldown(15 * 60, T0 + 15 * minute)
    assert [n[1] for n in await pending_notices(day)] == ["cooldown:3:900"]

    solved = await solve(day, VOLUNTEER, "volunteer", 3, None, T0 + 40 * minute, None)
    assert isinstance(solved, EscapeRecorded)
    assert (solved.time, solved.corrected, solved.old) == (40 * 60, False, None)
    corrected = await solve(day, VOLUNTEER, "volunteer", 3, 39 * 60, T0 + 41 * minute, None)
    assert isinstance(corrected, EscapeRecorded)
    assert (corrected.corrected, corrected.old, corrected.time) == (True, 40 * 60, 39 * 60)

    pieces = await results.pieces(day, VOLUNTEER, "volunteer", 4, 120, T0 + 50 * minute, None)
    assert isinstance(pieces, PiecesRecorded) and (pieces.corrected, pieces.old) == (False, None)
    finished = await results.finish(day, VOLUNTEER, "volunteer", 4, None, T0 + 100 * minute, None)
    assert isinstance(finished, FinishRecorded)
    assert (finished.time, finished.corrected, finished.from_ready) == (100 * 60, False, False)
    assert await results.finish(day, VOLUNTEER, "volunteer", 4, 100 * 60, T0 + 101 * minute,
                            None) == AlreadyRecorded(4, 100 * 60)

    undone = await history.undo(day, VOLUNTEER, "volunteer", T0 + 102 * minute, None)
    assert isinstance(undone, Undone) and undone.event.kind == "finish"
    paused = await pause(day, ORGANISER, T0 + 103 * minute, None)
    assert isinstance(paused, Done) and paused.ok
    assert (await pause(day, ORGANISER, T0 + 104 * minute, None)).reason == "already_paused"
    await day.store.close()
