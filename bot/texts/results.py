"""What volunteers and organisers read about results: the refusals of what they record, an
outcome's and a penalty's names, an event's name in a history, how a result is made up.

Nothing here imports bot/texts/common.py (its ``refusal`` calls ``results_refusal``); the
longer texts built on the shared formatting, a ranking and a history, are in
bot/texts/result_lines.py."""

from __future__ import annotations

from collections.abc import Sequence
from typing import assert_never

from bot.domain.clock import format_duration
from bot.domain.contest import Contest
from bot.domain.events import ENTRY_ROWS, EventKind
from bot.domain.ranking import Competitor
from bot.services.results import (
    AlreadyOutcome,
    AlreadyRecordedPieces,
    BeforeEscape,
    BeforeSplit,
    EntryDisqualified,
    FinishBeforeSplits,
    NoSplits,
    NothingToUndo,
    PiecesRange,
    QuestionOutdated,
    ReasonNeeded,
    ResultsRefusal,
    SplitsDone,
    UnknownPenalty,
    WhichPuzzle,
)
from bot.support.i18n import ntr, tr

_K = EventKind


def results_refusal(lang: str, refused: ResultsRefusal, contest: Contest) -> str:
    """One line saying why a result was not recorded."""
    match refused:
        case PiecesRange(size=size):
            return tr(lang, "The pieces must be between 0 and {size} (the puzzle's size).",
                      size=size)
        case UnknownPenalty(given=given, known=known):
            if not known:
                return tr(lang, "This contest has no penalties.")
            return tr(lang, "No penalty called \"{given}\". This contest has: {known}.",
                      given=given[:32], known=", ".join(known))
        case AlreadyRecordedPieces(entry=entry, count=count):
            return tr(lang, "Entry {entry} already has {count} pieces "
                      "recorded: nothing changed.", entry=entry, count=count)
        case NothingToUndo():
            return tr(lang, "You have nothing to undo.")
        case QuestionOutdated(entry=entry):
            return tr(lang, "Entry {entry}'s finish changed since this question (or its heat "
                      "is over): nothing recorded. Send /fin {entry} again if needed.",
                      entry=entry)
        case BeforeEscape(entry=entry, time=t):
            return tr(lang, "That is before entry {entry} solved the escape ({time}).",
                      entry=entry, time=format_duration(t))
        case ReasonNeeded(entry=entry):
            return tr(lang, "Give the reason of entry {entry}'s disqualification: /estado "
                      "{entry} dsq REASON", entry=entry)
        case AlreadyOutcome(entry=entry, outcome=outcome):
            return tr(lang, "Entry {entry} is already recorded as {outcome}.", entry=entry,
                      outcome=outcome_text(lang, outcome))
        case NoSplits(entry=entry):
            return tr(lang, "Entry {entry} plays one puzzle: record its finish with /fin.",
                      entry=entry)
        case SplitsDone(entry=entry, puzzles=puzzles):
            return tr(lang, "Entry {entry} has finished every puzzle but the last of {puzzles}: "
                      "record its finish with /fin.", entry=entry, puzzles=puzzles)
        case WhichPuzzle(entry=entry, left=left):
            return tr(lang, "Which puzzle did entry {entry} finish? Puzzles left: {left}. For "
                      "example: /parcial {entry} {first} 0:40:00", entry=entry,
                      left=", ".join(map(str, left)), first=left[0] if left else 1)
        case FinishBeforeSplits(entry=entry, missing=missing, left=left, played=played,
                                any_order=False):
            return ntr(lang, "Nothing recorded: entry {entry} has no split time yet for puzzle "
                       "{puzzles} of {played}. Record it first with /parcial {entry} [h:mm:ss], "
                       "then the finish with /fin.",
                       "Nothing recorded: entry {entry} has no split time yet for puzzles "
                       "{puzzles} of {played}. Record them first, one by one, with /parcial "
                       "{entry} [h:mm:ss], then the finish with /fin.", missing, entry=entry,
                       puzzles=", ".join(map(str, left)), played=played)
        case FinishBeforeSplits(entry=entry, missing=missing, left=left, played=played):
            return ntr(lang, "Nothing recorded: entry {entry} plays {played} puzzles and still "
                       "needs {n} split time before its last one (puzzles left: {left}). "
                       "Record it first with /parcial {entry} PUZZLE [h:mm:ss], then the "
                       "finish with /fin.",
                       "Nothing recorded: entry {entry} plays {played} puzzles and still "
                       "needs {n} split times before its last one (puzzles left: {left}). "
                       "Record them first, one by one, with /parcial {entry} PUZZLE "
                       "[h:mm:ss], then the finish with /fin.", missing, entry=entry,
                       left=", ".join(map(str, left)), played=played)
        case EntryDisqualified(entry=entry, why=why):
            return tr(lang, "Entry {entry} is {outcome}: nothing recorded.", entry=entry,
                      outcome=outcome_text(lang, "dsq", why))
        case BeforeSplit(entry=entry, time=t):
            return tr(lang, "Entry {entry} finished its previous puzzle at {time}: a later time "
                      "is needed (or /deshacer to correct it).", entry=entry,
                      time=format_duration(t))
        case _:
            assert_never(refused)


def result_detail(lang: str, competitor: Competitor) -> str:
    """How a result is made up, for /historial: the escape, its bonus and penalty, the puzzle,
    the split times and the penalties."""
    parts = []
    esc = competitor.escape
    if esc is not None and competitor.finish is not None:
        parts.append(tr(lang, "escape {escape}, bonus -{bonus}, penalty +{penalty}, puzzle "
                        "{puzzle}", escape=format_duration(esc.escape_time),
                        bonus=format_duration(esc.compensation),
                        penalty=format_duration(esc.penalty),
                        puzzle=format_duration(competitor.finish - esc.escape_time)))
    if competitor.splits:
        parts.append(tr(lang, "splits {times}",
                        times=", ".join(format_duration(t) for t in competitor.splits)))
    return "; ".join(parts)


def outcome_text(lang: str, outcome: str, reason: str = "") -> str:
    """"did not start", "disqualified (reason)"."""
    if outcome == "dns":
        text = tr(lang, "did not start")
    elif outcome == "oc":
        text = tr(lang, "out of competition")
    else:
        text = tr(lang, "disqualified")
    return f"{text} ({reason})" if reason else text


def penalty_name(lang: str, contest: Contest, kind_id: str) -> str:
    kind = contest.penalty(kind_id)
    if kind is None:
        return kind_id
    return kind.name.get(lang) or kind.name.get(contest.language) or next(
        iter(kind.name.values()), kind_id)


def penalties_text(lang: str, contest: Contest, counts: Sequence[tuple[str, int]],
                   seconds: int) -> str:
    """"(penalties +0:00:20: lost piece ×2)"."""
    detail = ", ".join(f"{penalty_name(lang, contest, k)} ×{n}" for k, n in counts)
    return tr(lang, "(penalties +{time}: {detail})", time=format_duration(seconds),
              detail=detail)


def event_name(lang: str, kind: str) -> str:
    names_: dict[str, str] = {
        _K.LINK: tr(lang, "linked a phone"),
        _K.HINT: tr(lang, "hint"),
        _K.SOLUTION: tr(lang, "solution"),
        _K.REQUEST_REFUSED: tr(lang, "request refused, may ask again at"),
        _K.NOTICE: tr(lang, "told they may ask again"),
        _K.STAGE: tr(lang, "stage confirmed"),
        _K.ESCAPE: tr(lang, "escape solved"),
        _K.READY: tr(lang, "said finished"),
        _K.FINISH: tr(lang, "finish"),
        _K.PIECES: tr(lang, "pieces"),
        _K.PENALTY: tr(lang, "penalty"),
        _K.SPLIT: tr(lang, "split time"),
        _K.OUTCOME: tr(lang, "did not start or disqualified"),
        _K.ROUND_FINAL: tr(lang, "round confirmed"),
        _K.UNDO: tr(lang, "taken back"),
        _K.CLOCK_START: tr(lang, "clock started"),
        _K.PAUSE: tr(lang, "break"),
        _K.RESUME: tr(lang, "clocks running again"),
        _K.VOLUNTEER_JOIN: tr(lang, "joined as volunteer"),
        _K.VOLUNTEER_INVITE: tr(lang, "volunteer invitation"),
        _K.ORGANISER_JOIN: tr(lang, "joined as organiser"),
        _K.ORGANISER_INVITE: tr(lang, "organiser invitation"),
        _K.HANDOVER: tr(lang, "escape handover"),
        ENTRY_ROWS: tr(lang, "registered"),
        _K.PAYMENT: tr(lang, "payment recorded"),
        _K.WITHDRAW: tr(lang, "withdrew"),
        _K.STATUS_NOTICE: tr(lang, "told of its place"),
        _K.ALERT: tr(lang, "clock alert"),
        _K.ANNOUNCEMENT: tr(lang, "announcement"),
    }
    return names_.get(kind, kind)
