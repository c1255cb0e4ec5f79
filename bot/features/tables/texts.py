"""The tables in words: what an entry is told of its table (and again when it changed), the
organiser's question before telling and its answer, and the event's name in a history."""

from __future__ import annotations

from collections.abc import Sequence

from bot.domain.contest import Contest
from bot.features.tables.day import Seat
from bot.support.i18n import ntr, tr
from bot.texts.names import clock_time, day_text
from bot.texts.rounds import plays_text


def seat_text(lang: str, contest: Contest, seat: Seat, again: bool) -> str:
    """To an entry's phones: its table, its category and when it plays (a heat: which one);
    ``again``: its table changed since it was told."""
    if seat.heat is not None:
        line = plays_text(lang, contest, seat.number, seat.heat, seat.table)
        return tr(lang, "Your table has changed. {line}", line=line) if again else line
    date = day_text(lang, contest.date)
    start = contest.start_of(seat.category)
    when = date if start is None else tr(
        lang, "{day} at {time}", day=date, time=clock_time(contest, start)[:5])
    if again:
        return tr(lang, "Your table has changed: it is now table {table} ({category}, {when}).",
                  table=seat.table, category=seat.category.name, when=when)
    return tr(lang, "Your table: {table} ({category}, {when}).", table=seat.table,
              category=seat.category.name, when=when)


def tell_question(lang: str, entries: int, people: int) -> str:
    """Under the table lists: whether to tell each entry its table."""
    return "\n".join([
        ntr(lang, "Tell {n} entry its table by message (never told, or its table changed)?",
            "Tell {n} entries their table by message (never told, or their table changed)?",
            entries),
        ntr(lang, "It reaches {n} person.", "It reaches {n} people.", people)])


def tell_button(lang: str) -> str:
    return tr(lang, "Tell them")


def cancel_button(lang: str) -> str:
    return tr(lang, "Cancel")


def told_text(lang: str, told: int) -> str:
    """The organiser's answer once told."""
    if not told:
        return tr(lang, "Every entry with a phone linked already knows its table.")
    return ntr(lang, "{n} entry told its table.", "{n} entries told their table.", told)


def not_told(lang: str) -> str:
    return tr(lang, "Nobody was told.")


def event_name(lang: str) -> str:
    """The event's name in a history."""
    return tr(lang, "tables told")


def moved_text(lang: str, moved: Sequence[tuple[Seat, int]]) -> str:
    """To the organisers: entries told their table that a place change moved elsewhere."""
    listed = ", ".join(tr(lang, "#{entry} now at table {table} (told {told})",
                          entry=seat.number, table=seat.table, told=told)
                       for seat, told in moved)
    return ntr(lang, "A place changed, and {n} entry told its table sits elsewhere now: "
               "{entries}. Tell it again?", "A place changed, and {n} entries told their "
               "table sit elsewhere now: {entries}. Tell them again?", len(moved),
               entries=listed)
