"""What the escape's outcomes read as: the refusals of a pair's requests and of the
volunteers' stages and solves, and a pair's tickets."""

from __future__ import annotations

from datetime import datetime
from typing import assert_never

from bot.domain.clock import format_duration
from bot.domain.contest import Contest
from bot.services.escape import (
    AlreadySolved,
    ConfirmationClosed,
    Cooldown,
    CooldownPastEnd,
    EscapeOver,
    EscapeRefusal,
    HintTaken,
    PastEscapeLimit,
    SolutionNeedsHint,
    SolutionTaken,
    StageBack,
    StageInvalid,
    StagePassed,
    StageSame,
)
from bot.services.state import EntryState
from bot.support.i18n import tr
from bot.texts.names import clock_time


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
