"""The escape's own words outside its outcomes (its menu lines are in feature.py): /billetes'
report, how /pista and /solucion are typed, their stage buttons, the notice when a cooldown is
over, and what a phone that follows a pair of the escape is told to use."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bot.domain.clock import format_duration
from bot.domain.contest import Category, Contest, Enigma
from bot.features.escape.rules import Kind
from bot.services.state import EntryState
from bot.support.commands import typed
from bot.support.i18n import ntr, tr
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


def linked_line(lang: str, contest: Contest, category: Category) -> str | None:
    """What a phone that starts following an entry of ``category`` is told to use: the escape's
    commands and /listo where the category plays the escape (None elsewhere); where the bot
    hosts it, that answers are typed in the chat."""
    if not category.escape:
        return None
    if contest.escape is not None and contest.escape.in_chat:
        return tr(lang, "During the escape: the enigmas come here, type your answers here. "
                  "/pista for a hint, /solucion for a solution, /billetes for your tickets. "
                  "When you finish the puzzle: /listo.")
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


# -- the escape played in the chat ---------------------------------------------------------------


def in_language(texts: dict[str, str], lang: str, contest: Contest) -> str:
    """A text the contest file gives per language, in ``lang`` (else the contest's language,
    else the first given)."""
    return texts.get(lang) or texts.get(contest.language) or next(iter(texts.values()), "")


def enigma_text(lang: str, contest: Contest, enigma: Enigma, lead: str = "") -> str:
    """A stage's enigma as a pair's phone reads it (after ``lead``: what came before it)."""
    rules = contest.escape
    assert rules is not None
    lines = [lead] if lead else []
    lines.append(tr(lang, "Stage {stage} of {stages}:", stage=enigma.stage, stages=rules.stages))
    lines.append(in_language(enigma.text, lang, contest))
    lines.append(tr(lang, "Tap your answer below, or type it here.") if enigma.choices
                 else tr(lang, "Type your answer here."))
    return "\n".join(lines)


def right_lead(lang: str, stage: int, time: int) -> str:
    return tr(lang, "Right! Stage {stage} solved at {time}.", stage=stage,
              time=format_duration(time))


def passed_after_time_up(lang: str, stage: int, time: int) -> str:
    """A right answer sent in time but handled once the escape's time was up: it counts, and
    no enigma comes after it."""
    return tr(lang, "Right! Stage {stage} solved at {time}: it counts. The escape's time is up "
              "now, so no more enigmas.", stage=stage, time=format_duration(time))


def solved_in_chat(lang: str, time: int, table: int | None) -> str:
    """The pair's phones, once the last enigma is answered right."""
    text = tr(lang, "Right! Escape solved at {time}. A volunteer brings you the puzzle now: "
              "when you finish it, send {ready}.", time=format_duration(time),
              ready=typed(lang, "listo"))
    if table is not None:
        text += " " + tr(lang, "Table {table}.", table=table)
    return text


def solved_staff_line(lang: str, number: int, names_text: str, time: int,
                      table: int | None) -> str:
    """The volunteers' line when a pair answers the last enigma: take it the puzzle."""
    line = tr(lang, "#{entry} {names} solved the escape at {time}: hand over the puzzle.",
              entry=number, names=names_text, time=format_duration(time))
    return line if table is None else tr(lang, "Table {table}", table=table) + " · " + line


def wrong_text(lang: str, contest: Contest, stage: int, wrong: int,
               moment: datetime | None, until: int | None = None) -> str:
    """A wrong answer, to the phone that typed it (``until``: a wait begins, until that
    contest time, the real ``moment``)."""
    text = tr(lang, "Not the answer to stage {stage}. Try again.", stage=stage)
    if until is not None and moment is None:  # the clocks stopped meanwhile
        text += "\n" + ntr(lang, "{n} wrong answer in a row: wait until the contest clock "
                           "shows {at} before the next.", "{n} wrong answers in a row: wait "
                           "until the contest clock shows {at} before the next.", wrong,
                           at=format_duration(until))
    if moment is not None:
        text += "\n" + ntr(lang, "{n} wrong answer in a row: wait until {moment} before the "
                           "next.", "{n} wrong answers in a row: wait until {moment} before "
                           "the next.", wrong, moment=clock_time(contest, moment))
    return text


def time_up_in_chat(lang: str, stage: int, stages: int) -> str:
    """The pair's phones at the escape's time limit, played in the chat."""
    return tr(lang, "Time is up for the escape: you reached stage {stage} of {stages}. A "
              "volunteer brings you the puzzle now: when you finish it, send {ready}.",
              stage=stage, stages=stages, ready=typed(lang, "listo"))


def handover_in_chat(lang: str, limit: int, category: Category,
                     reached: list[tuple[str, int | None, int]]) -> str:
    """The volunteers' line at the escape's time limit, played in the chat: every pair still
    playing (``reached``: its names, its table, its stage), each known from its answers."""
    lines = [tr(lang, "{time}: the escape is over in {category}. These pairs get the puzzle "
                "now (their stage is known: nothing to confirm):", time=format_duration(limit),
                category=category.name)]
    for who, table, stage in reached:
        line = tr(lang, "{names}: stage {stage}", names=who, stage=stage)
        lines.append(line if table is None else
                     tr(lang, "Table {table}", table=table) + " · " + line)
    if not reached:
        lines.append(tr(lang, "Every pair solved the escape."))
    return "\n".join(lines)


def no_phone_line(lang: str, pairs: list[str]) -> str:
    """The volunteers' line at the start: pairs no phone follows get no enigma."""
    return tr(lang, "No phone follows these pairs, so their enigmas reach nobody: give them "
              "their join link (or a phone), or record their solve with {escape} N: {pairs}",
              escape=typed(lang, "escape"), pairs="; ".join(pairs))


def no_running_enigma(lang: str) -> str:
    return tr(lang, "There is no enigma to answer now: the escape has not started, or it is "
              "over for you.")


def which_entry_answers(lang: str, numbers: list[int]) -> str:
    return tr(lang, "You follow several pairs playing: answer with {command} N ANSWER "
              "(N: {numbers}).", numbers=", ".join(str(n) for n in numbers),
              command=typed(lang, "respuesta"))


def attempt_name(lang: str) -> str:
    """A history's name of a wrong answer typed to an enigma."""
    return tr(lang, "wrong answer")


def attempt_detail(event: Any) -> str:
    """What a history's line adds about a wrong answer: what was typed."""
    return f'"{event.data.get("answer", "")}"'
