"""What the timers announce: the escape's handover, the clock alerts (minutes
left, time up), the breaks and the results."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence

from bot.domain.clock import format_duration
from bot.domain.contest import Break, Category, Contest
from bot.domain.rounds import Heat
from bot.features.escape.names import STAGE
from bot.features.results.names import PIECES
from bot.services.state import EntryState
from bot.support.commands import typed
from bot.support.i18n import tr
from bot.texts.names import clock_time, heat_name, names


def by_table(unsolved: Sequence[EntryState], tables: Mapping[int, int]
             ) -> list[EntryState]:
    """The unsolved pairs in the order a volunteer walks the hall: by table, then by number
    (pairs without a table last); the handover's lines and buttons both follow it."""
    return sorted(unsolved, key=lambda s: (tables.get(s.entry.number, sys.maxsize),
                                           s.entry.number))


def handover_staff_text(lang: str, limit: int, category: Category,
                        unsolved: Sequence[EntryState],
                        tables: Mapping[int, int] | None = None) -> str:
    """The volunteers' line at the escape's time limit: the unsolved pairs and their stages,
    each with its table when the hall's tables are drawn (``tables``), in the order given
    (``by_table``)."""
    lines = [tr(lang, "{time}: the escape is over in {category}. Unsolved pairs get the "
                "puzzle now. Confirm their stage with the buttons below (or {stage} N S) "
                "before the bonus is counted:", time=format_duration(limit),
                category=category.name, stage=typed(lang, STAGE))]
    for s in unsolved:
        assert s.ledger is not None
        line = tr(lang, "#{entry} {names}: says stage {reported}, confirmed stage "
                  "{confirmed}", entry=s.entry.number, names=names(s.entry.names),
                  reported=s.ledger.reported_stage, confirmed=s.ledger.confirmed_stage)
        table = (tables or {}).get(s.entry.number)
        lines.append(line if table is None else
                     tr(lang, "Table {table}", table=table) + " · " + line)
    if not unsolved:
        lines.append(tr(lang, "Every pair solved the escape."))
    return "\n".join(lines)


STAGE_BUTTON = "stg:"  # callback data "stg:<entry>:<stage>": as the stage typed
MOST_BUTTONS = 100  # Telegram's most buttons under one message


def handover_buttons(stages: int, unsolved: Sequence[EntryState]) -> list[list[tuple[str, str]]]:
    """Under the volunteers' handover line: for each unsolved pair, a button per stage a
    volunteer may still confirm (past the one confirmed; the one the pair says first). With
    more than Telegram takes, only the stage each pair says (the rest still typed)."""
    rows = []
    for s in unsolved:
        assert s.ledger is not None
        done = s.ledger.confirmed_stage
        said = min(s.ledger.reported_stage, stages)
        choices = ([said] if said > done else []) + [k for k in range(done + 1, stages + 1)
                                                     if k != said]
        rows.append([(f"#{s.entry.number} ▸ {k}", f"{STAGE_BUTTON}{s.entry.number}:{k}")
                     for k in choices])
    if sum(len(r) for r in rows) > MOST_BUTTONS:
        rows = [r[:1] for r in rows]
    rows = [r for r in rows if r]
    return rows[:MOST_BUTTONS]


def handover_entry_text(lang: str) -> str:
    return tr(lang, "Time is up for the escape: collect your puzzle from the volunteers now.")


def time_alert_text(lang: str, contest: Contest, category: Category, heat: Heat | None,
                    minutes: int) -> str:
    """``minutes`` left on a category's (or heat's) clock; 0: time is up."""
    name = category.name if heat is None else \
        f"{category.name} — {heat_name(lang, contest, heat)}"
    if minutes == 0 and category.self_timed:
        return tr(lang, "{category}: time is up! Hands off the puzzle, and send me a photo of "
                  "it as it is now (with your code): a reviewer counts the pieces.",
                  category=name)
    if minutes == 0:
        return tr(lang, "{category}: time is up! Hands off the puzzle; a volunteer "
                  "counts the pieces.", category=name)
    return tr(lang, "{category}: {minutes} minutes left.", category=name, minutes=minutes)


def time_up_at_home(lang: str, contest: Contest, category: Category, heat: Heat | None) -> str:
    """The reviewers' line at a self-timed category's time's up."""
    name = category.name if heat is None else \
        f"{category.name} — {heat_name(lang, contest, heat)}"
    return tr(lang, "{category}: time is up. The entries still playing send a photo of their "
              "puzzle: count the pieces in each and record them with {pieces} N P.",
              category=name, pieces=typed(lang, PIECES))


def break_text(lang: str, contest: Contest, brk: Break, edge: str) -> str:
    """A configured break begins (``edge`` "start") or ends."""
    if edge == "start":
        return tr(lang, "Break: every clock is paused until {end}.",
                  end=clock_time(contest, brk.end)[:5])
    return tr(lang, "The break is over: the clocks run again.")


def results_now_text(lang: str) -> str:
    return tr(lang, "The results are being announced now, in the hall.")
