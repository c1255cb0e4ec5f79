"""What the escape's outcomes read as: a pair's hints, solutions, tickets and /listo, the
volunteers' stages and solves, and the refusals of each."""

from __future__ import annotations

from datetime import datetime
from typing import assert_never

from bot.domain.clock import format_duration
from bot.domain.contest import Contest
from bot.domain.escape import Kind
from bot.services.escape import (
    AlreadySolved,
    ConfirmationClosed,
    Cooldown,
    CooldownPastEnd,
    EscapeOver,
    EscapeRecorded,
    EscapeRefusal,
    Granted,
    HintTaken,
    PastEscapeLimit,
    ReadyNoted,
    SolutionNeedsHint,
    SolutionTaken,
    StageBack,
    StageInvalid,
    StagePassed,
    StageRecorded,
    StageSame,
)
from bot.services.outcomes import EscapeNotOver, PastLimit
from bot.services.state import EntryState
from bot.storage.store import Entry
from bot.support.i18n import ntr, tr
from bot.texts.names import clock_time, names


def _cooldown_minutes(contest: Contest) -> int:
    return round(contest.escape.cooldown / 60) if contest.escape else 0


def escape_refusal(lang: str, refused: EscapeRefusal, contest: Contest) -> str:
    """One line saying why the escape refused a request, a stage or a solve."""
    match refused:
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
        case StageBack() | StageSame() | AlreadySolved() | ConfirmationClosed() | \
                PastEscapeLimit():
            return _record_refusal(lang, refused, contest)
        case _:
            assert_never(refused)


def _record_refusal(lang: str, refused: StageBack | StageSame | AlreadySolved
                    | ConfirmationClosed | PastEscapeLimit, contest: Contest) -> str:
    """The refusals of a volunteer's /etapa and /escape."""
    match refused:
        case StageBack(entry=entry, stage=stage):
            return tr(lang, "Entry {entry} was already confirmed in stage {stage}: a stage "
                      "can't go back (use /deshacer to correct your own mistake).",
                      entry=entry, stage=stage)
        case StageSame(entry=entry, stage=stage):
            return tr(lang, "Entry {entry} is already confirmed in stage {stage}.",
                      entry=entry, stage=stage)
        case AlreadySolved(entry=entry):
            return tr(lang, "Entry {entry} has already solved the escape.", entry=entry)
        case ConfirmationClosed():
            return tr(lang, "Too late to confirm a stage: the escape ended.")
        case PastEscapeLimit():
            return tr(lang, "That is past the escape's time limit ({limit}).",
                      limit=format_duration(contest.escape.time_limit)
                      if contest.escape else "-")
        case _:
            assert_never(refused)


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


def stage_confirmed(lang: str, out: StageRecorded) -> str:
    """A volunteer's /etapa, recorded."""
    return tr(lang, "Entry {entry} confirmed in stage {stage} at {time}.",
              entry=out.entry, stage=out.stage, time=format_duration(out.time))


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
    if stage in texts:
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


def ready_refusal(lang: str, refused: PastLimit | EscapeNotOver) -> str:
    """The participants' answer to a /listo refused for these (not the volunteers')."""
    match refused:
        case PastLimit(limit=limit):
            return tr(lang, "Time is up ({limit}): hands off the puzzle. A volunteer will "
                      "count your pieces.", limit=format_duration(limit))
        case EscapeNotOver():
            return tr(lang, "Your escape is not over yet: when you solve it, call a "
                      "volunteer, who records it. Then the puzzle!")
        case _:
            assert_never(refused)


def ready(lang: str, contest: Contest, out: ReadyNoted, at: datetime) -> str:
    """A pair's /listo, noted at ``at``."""
    return tr(lang, "Noted: finished at {time} ({clock}). A volunteer is coming to check.",
              time=format_duration(out.time), clock=clock_time(contest, at))


def ready_staff_line(lang: str, contest: Contest, entry: Entry, out: ReadyNoted,
                     at: datetime) -> str:
    """The volunteers' line of a pair's /listo: go and check."""
    return tr(lang, "FINISHED? #{entry} {names} says done at {time} ({clock}): go and check, "
              "then /fin {entry}.", entry=entry.number, names=names(entry.names),
              time=format_duration(out.time), clock=clock_time(contest, at))
