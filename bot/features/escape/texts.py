"""The escape's own words outside its outcomes (its menu lines are in feature.py): /billetes'
report, how /pista and /solucion are typed, their stage buttons, the notice when a cooldown is
over, and what a phone that follows a pair of the escape is told to use."""

from __future__ import annotations

from datetime import datetime

from bot.domain.clock import format_duration
from bot.domain.contest import Category, Contest
from bot.features.escape.rules import Kind
from bot.services.state import EntryState
from bot.support.i18n import tr
from bot.texts.names import clock_time, usage_text


def tickets_report(lang: str, contest: Contest, state: EntryState, now_t: int | None,
                   next_moment: datetime | None) -> str:
    assert state.ledger is not None
    led = state.ledger
    lines = [
        tr(lang, "Entry {entry}: {left} tickets left, stage {stage}.", entry=state.entry.number,
           left=led.tickets_left, stage=led.stage),
        tr(lang, "Time penalties so far: {penalty}.", penalty=format_duration(led.penalty)),
    ]
    if now_t is None:
        lines.append(tr(lang, "The clock has not started yet."))
    elif led.over(now_t):
        lines.append(tr(lang, "The escape is over."))
    elif led.next_request_at is None or now_t >= led.next_request_at:
        lines.append(tr(lang, "You may ask for a hint or a solution now."))
    else:
        lines.append(tr(lang, "Next request allowed at {moment}.",
                        moment=clock_time(contest, next_moment) if next_moment else "-"))
    return "\n".join(lines)


def stage_usage(lang: str, kind: Kind, stages: int) -> str:
    """How /pista or /solucion is typed (shown by ``show_usage``)."""
    return "/{} [{}]".format("pista" if kind is Kind.HINT else "solucion",
                             tr(lang, "stage 1-{stages}", stages=stages))


def stage_button(lang: str, stage: int) -> str:
    return tr(lang, "Stage {stage}", stage=stage)


def which_stage(lang: str, kind: Kind) -> str:
    """The question above the stage buttons of /pista and /solucion."""
    return (tr(lang, "Hint for which stage?") if kind is Kind.HINT
            else tr(lang, "Solution for which stage?"))


def cooldown_over(lang: str, entry: int, minutes: int) -> str:
    """The pair's phones, when the cooldown a refused request named is over."""
    return tr(lang, "Entry #{entry}: {minutes} minutes have passed, you may ask for a hint or a "
              "solution again (/pista, /solucion).", entry=entry, minutes=minutes)


def linked_line(lang: str, category: Category) -> str | None:
    """What a phone that starts following an entry of ``category`` is told to use: the escape's
    commands and /listo where the category plays the escape (None elsewhere)."""
    if not category.escape:
        return None
    return tr(lang, "During the escape: /pista for a hint, /solucion for a solution, /billetes "
              "for your tickets. When you finish the puzzle: /listo.")


def usage(lang: str, line: str) -> str:
    """How to type one of the escape's volunteer commands (``line``: ``/etapa N S``), with an
    example."""
    return usage_text(lang, line, _example(lang, line.split()[0]))


def _example(lang: str, command: str) -> str:
    match command:
        case "/escape":
            return tr(lang, "For example /escape 12 0:48:10 (pair 12, the time the clock "
                      "shows), or /escape 12 (now).")
        case "/etapa":
            return tr(lang, "For example /etapa 12 3 (pair 12 is in stage 3).")
        case _:
            return ""
