"""What the escape's operations give back, each outcome declared once (the refusals in
rules.py, where the rules decide them; what is recorded here), and what each person reads of
it in their language: the pair's hints and solutions, the volunteers' stages and solves.
``refused`` renders every reason of the escape's own with a ``match`` ending in
``assert_never``, so mypy proves each has its line (no fallback); the day's shared reasons go
through ``bot.texts.common.refusal``."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import assert_never

from bot.domain.clock import format_duration
from bot.domain.contest import Contest
from bot.features.escape.rules import (
    AlreadySolved,
    BeforeRequest,
    BeforeStage,
    Charge,
    ChatRefusal,
    ClockStopped,
    ConfirmationClosed,
    Cooldown,
    CooldownPastEnd,
    EscapeOver,
    EscapeRefusal,
    HintTaken,
    Kind,
    NotAnAnswer,
    NotInChat,
    NotNextStage,
    OutOfPlay,
    PassedByPartner,
    PassedMeanwhile,
    PastEscapeLimit,
    Paused,
    SolutionNeedsHint,
    SolutionTaken,
    StageAhead,
    StageBack,
    StageInvalid,
    StagePassed,
    StageSame,
    StagesInChat,
)
from bot.services.contest_day import RoundClosed
from bot.services.outcomes import Done, SharedRefusal
from bot.services.state import EntryState
from bot.support.i18n import ntr, tr
from bot.texts.common import refusal
from bot.texts.names import clock_time, names


@dataclass(frozen=True)
class Granted(Done):
    """A hint or solution given: what it cost and the entry's state with it."""

    charge: Charge
    state: EntryState | None
    event_id: int | None = None


@dataclass(frozen=True)
class StageRecorded(Done):
    entry: int
    stage: int
    time: int
    event_id: int | None = None


@dataclass(frozen=True)
class EscapeRecorded(Done):
    """An escape time recorded; ``corrected``: it replaced ``old``."""

    entry: int
    time: int
    old: int | None = None
    corrected: bool = False
    event_id: int | None = None


@dataclass(frozen=True)
class RightAnswer(Done):
    """An enigma answered right at contest time ``time``: the pair is in ``stage`` + 1, or,
    after the last, ``solved`` (its escape time is ``time``)."""

    entry: int
    stage: int
    time: int
    solved: bool
    state: EntryState | None = None  # the entry with the answer taken
    event_id: int | None = None


@dataclass(frozen=True)
class WrongAnswer(Done):
    """A wrong answer to stage ``stage``'s enigma, the ``wrong``-th there; ``paused``: the
    contest time the next is taken from, when this one began a wait (``moment``: its real
    instant)."""

    entry: int
    stage: int
    wrong: int
    paused: int | None = None
    moment: datetime | None = None


# what an operation of the escape may refuse: its own reasons and the day's shared ones
Refused = EscapeRefusal | SharedRefusal | RoundClosed


def _cooldown_minutes(contest: Contest) -> int:
    return round(contest.escape.cooldown / 60) if contest.escape else 0


def refusal_line(lang: str, out: Refused, contest: Contest, entry: int) -> str:
    """Why an operation about ``entry`` was refused: the escape's own reasons by ``refused``,
    the day's shared ones by ``bot.texts.common.refusal``."""
    if isinstance(out, EscapeRefusal):
        return refused(lang, out, contest, entry)
    return refusal(lang, out, contest)


def refused(lang: str, out: EscapeRefusal, contest: Contest, entry: int) -> str:
    """One line saying why the escape refused a request, a stage or a solve about ``entry``."""
    match out:
        case EscapeOver():
            return tr(lang, "The escape is over: no more hints or solutions.")
        case StageInvalid():
            return tr(lang, "There is no such stage: stages go from 1 to {stages}.",
                      stages=contest.escape.stages if contest.escape else 0)
        case StagePassed(stage=stage):
            return tr(lang, "That stage is behind you: you are in stage {stage}.", stage=stage)
        case HintTaken(stage=stage):
            return tr(lang, "The hint of stage {stage} was already given.", stage=stage)
        case SolutionNeedsHint(stage=stage):
            return tr(lang, "The solution of stage {stage} comes only after its "
                      "hint.", stage=stage)
        case SolutionTaken(stage=stage):
            return tr(lang, "The solution of stage {stage} was already given.", stage=stage)
        case Cooldown(next_at=next_at, moment=moment):
            return tr(lang, "Too soon: {minutes} minutes must pass between two requests. You "
                      "may ask again at {moment} (contest time {at}); I will tell you.",
                      moment=clock_time(contest, moment) if moment else "-",
                      at=format_duration(next_at), minutes=_cooldown_minutes(contest))
        case CooldownPastEnd():
            return tr(lang, "Too soon, and the escape ends before {minutes} minutes "
                      "have passed: no more requests are possible.",
                      minutes=_cooldown_minutes(contest))
        case StageBack(stage=stage):
            return tr(lang, "Entry {entry} was already confirmed in stage {stage}: a stage "
                      "can't go back (use /deshacer to correct your own mistake).",
                      entry=entry, stage=stage)
        case StageSame(stage=stage):
            return tr(lang, "Entry {entry} is already confirmed in stage {stage}.",
                      entry=entry, stage=stage)
        case AlreadySolved():
            return tr(lang, "Entry {entry} has already solved the escape.", entry=entry)
        case ConfirmationClosed():
            return tr(lang, "Too late to confirm a stage: the escape ended.")
        case PastEscapeLimit():
            return tr(lang, "That is past the escape's time limit ({limit}).",
                      limit=format_duration(contest.escape.time_limit)
                      if contest.escape else "-")
        case BeforeStage(stage=stage, passed_at=t):
            return tr(lang, "Entry {entry} reached stage {stage} at {time} on the contest "
                      "clock with its answers: it can't have solved the escape before.",
                      entry=entry, stage=stage, time=format_duration(t))
        case BeforeRequest(next_at=t):
            return tr(lang, "Entry {entry} asked for help after that moment, at {time} on "
                      "the contest clock: check the time.", entry=entry,
                      time=format_duration(t))
        case StageAhead() | StagesInChat() | NotInChat() | NotNextStage() | Paused() | \
                PassedByPartner() | NotAnAnswer() | OutOfPlay() | PassedMeanwhile() | \
                ClockStopped():
            return _refused_in_chat(lang, out, contest, entry)
        case _:
            assert_never(out)


def _refused_in_chat(lang: str, out: ChatRefusal, contest: Contest, entry: int) -> str:
    """Why the escape played in the chat refused an answer, a clue or a stage."""
    match out:
        case StageAhead(stage=stage):
            return tr(lang, "You are in stage {stage}: its clue and solution are the only "
                      "ones you can ask for.", stage=stage)
        case StagesInChat():
            return tr(lang, "The pairs answer the enigmas in the chat here: the bot knows each "
                      "pair's stage, nobody confirms it.")
        case NotInChat():
            return tr(lang, "The escape is not played in the chat in this contest: the "
                      "volunteers run it.")
        case NotNextStage(stage=stage):
            return tr(lang, "Entry {entry} is in stage {stage}.", entry=entry, stage=stage)
        case Paused(moment=None, until=until):  # the clocks stopped: no instant known yet
            return tr(lang, "Too many wrong answers in a row: wait until the contest clock "
                      "shows {at} before answering again.", at=format_duration(until))
        case Paused(moment=moment, until=until):
            return tr(lang, "Too many wrong answers in a row: wait until {moment} (contest "
                      "time {at}) before answering again.",
                      moment=clock_time(contest, moment) if moment else "-",
                      at=format_duration(until))
        case PassedByPartner(stage=stage) if contest.escape is not None and \
                stage >= contest.escape.stages:
            return tr(lang, "Right, but the escape is solved already (the other phone was "
                      "quicker): now the puzzle.")
        case PassedByPartner(stage=stage):
            return tr(lang, "Right, but stage {stage} is solved already (the other phone was "
                      "quicker): look at the enigma you are on now.", stage=stage)
        case NotAnAnswer():
            return tr(lang, "That is not an answer: type it with letters or digits.")
        case OutOfPlay(outcome="dsq"):
            return tr(lang, "Entry {entry} is disqualified: its answers are not taken.",
                      entry=entry)
        case OutOfPlay(outcome="dns"):
            return tr(lang, "Entry {entry} is recorded as not started: its answers are not "
                      "taken. If you are playing, tell a volunteer.", entry=entry)
        case OutOfPlay():
            return tr(lang, "Entry {entry} no longer holds a place: its answers are not "
                      "taken.", entry=entry)
        case ClockStopped():
            return tr(lang, "The clocks are stopped: answers are taken again when they "
                      "start again.")
        case PassedMeanwhile(stage=stage):
            return tr(lang, "Stage {stage} was solved on the other phone before this answer: "
                      "look at the enigma you are on now.", stage=stage)
        case _:
            assert_never(out)


def stage_confirmed(lang: str, out: StageRecorded) -> str:
    """A volunteer's /etapa, recorded."""
    return tr(lang, "Entry {entry} confirmed in stage {stage} at {time} on the contest clock.",
              entry=out.entry, stage=out.stage, time=format_duration(out.time))


def stage_settled(lang: str, out: StageRecorded, by: str) -> str:
    """Under every copy of the handover line once a pair's stage is confirmed."""
    return tr(lang, "→ #{entry}: stage {stage} confirmed ({name})", entry=out.entry,
              stage=out.stage, name=by)


def solved(lang: str, out: EscapeRecorded) -> str:
    """A volunteer's /escape, recorded (or a solve time corrected)."""
    t = format_duration(out.time)
    if out.corrected:
        return tr(lang, "Entry {entry}: escape time corrected from {old} to {time}.",
                  entry=out.entry, old=format_duration(out.old or 0), time=t)
    return tr(lang, "Entry {entry} solved the escape at {time}: hand over the puzzle.",
              entry=out.entry, time=t)


def solved_notice(lang: str, out: EscapeRecorded) -> str:
    """What the pair's phones hear of their solve."""
    return tr(lang, "Escape solved at {time}! Now the puzzle: when you finish it, send /listo.",
              time=format_duration(out.time))


def granted(lang: str, contest: Contest, out: Granted, number: int, kind: Kind,
            stage: int) -> str:
    """A hint or solution given, as the pair reads it: the text (or a volunteer coming),
    what it cost, what is left."""
    assert out.state is not None and out.state.ledger is not None
    rules = contest.escape
    assert rules is not None
    texts = rules.hints if kind is Kind.HINT else rules.solutions
    ledger = out.state.ledger
    charge = out.charge
    what = (tr(lang, "Hint for stage {stage}", stage=stage) if kind is Kind.HINT
            else tr(lang, "Solution for stage {stage}", stage=stage))
    lines = [f"{what} (#{number})."]
    enigma = rules.enigma(stage)
    if enigma is not None:  # played in the chat: the contest file's text, in the reader's
        given = enigma.hint if kind is Kind.HINT else enigma.solution
        lines.append(given.get(lang) or given.get(contest.language)
                     or next(iter(given.values()), ""))
    elif stage in texts:
        lines.append(texts[stage])
    else:
        lines.append(tr(lang, "A volunteer is coming to your table."))
    cost = ntr(lang, "Charged: {n} ticket.", "Charged: {n} tickets.", charge.tickets_used)
    if charge.tickets_bought:
        cost += " " + ntr(lang, "Bought with time: {n} ticket, +{penalty}.",
                          "Bought with time: {n} tickets, +{penalty}.",
                          charge.tickets_bought, penalty=format_duration(charge.penalty))
    lines.append(cost)
    lines.append(tr(lang, "Tickets left: {left}. Penalties so far: {penalty}.",
                    left=ledger.tickets_left, penalty=format_duration(ledger.penalty)))
    return "\n".join(lines)


def granted_staff_line(lang: str, contest: Contest, out: Granted, number: int, kind: Kind,
                       stage: int, at: datetime) -> str:
    """The volunteers' line of a hint or solution given at ``at``."""
    state = out.state
    assert state is not None
    kind_text = tr(lang, "hint") if kind is Kind.HINT else tr(lang, "solution")
    return tr(lang, "#{entry} {names}: {kind} stage {stage} at {time} ({clock}). "
              "Tickets used {used}, bought {bought}; {left} left.",
              entry=number, names=names(state.entry.names), kind=kind_text, stage=stage,
              time=format_duration(state.clock.elapsed(at) or 0),
              clock=clock_time(contest, at), used=out.charge.tickets_used,
              bought=out.charge.tickets_bought,
              left=state.ledger.tickets_left if state.ledger else 0)


