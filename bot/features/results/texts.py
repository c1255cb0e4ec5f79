"""What volunteers and organisers read about results: the refusals of what they record, an
outcome's and a penalty's names, how a result is made up.

Nothing here imports bot/texts/common.py (its ``refusal`` calls ``results_refusal``); the
longer texts built on the shared formatting, a ranking, are in bot/texts/result_lines.py, and
an entry's history in bot/texts/history.py."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import assert_never

from bot.domain.clock import format_duration
from bot.domain.contest import Contest, localized
from bot.domain.ranking import Competitor, ranking_time
from bot.features.results.names import OUTCOME_BUTTON
from bot.features.results.outcomes import (
    AlreadyOutcome,
    AlreadyRecordedPieces,
    BeforeEscape,
    BeforeSplit,
    EntryDisqualified,
    FinishBeforeSplits,
    FinishRecorded,
    FinishToConfirm,
    JokerAfterCount,
    JokerOnLast,
    JokersUsed,
    NoJoker,
    NoSplits,
    NotFinishedNoted,
    OutcomeRecorded,
    PiecesRange,
    PiecesRecorded,
    QuestionOutdated,
    ReadyLineOutdated,
    ReasonNeeded,
    ResultsRefusal,
    SplitRecorded,
    SplitsDone,
    WhichJoker,
    WhichPuzzle,
)
from bot.services.outcomes import NothingClaimed, OwnTimes
from bot.services.ready import ReadyNoted
from bot.storage.store import Entry
from bot.support.commands import in_language
from bot.support.i18n import ntr, tr
from bot.texts.names import clock_time, names, usage_text


def _at_home_refusal(lang: str, refused: OwnTimes | NothingClaimed) -> str:
    """Why a result of an entry playing at home was not recorded."""
    if isinstance(refused, NothingClaimed):
        return tr(lang, "Entry {entry} plays at home and has no finish waiting for review "
                  "(no /listo since the last decision): nothing recorded. A time read "
                  "elsewhere is typed: /fin {entry} h:mm:ss.", entry=refused.entry)
    return tr(lang, "Entry {entry} starts each puzzle itself: its times are its own. Confirm "
              "its claim with the button under its photo, or /fin {entry} without a time.",
              entry=refused.entry)


def results_refusal(lang: str, refused: ResultsRefusal, contest: Contest) -> str:
    """One line saying why a result was not recorded."""
    if isinstance(refused, OwnTimes | NothingClaimed):
        return _at_home_refusal(lang, refused)
    if isinstance(refused, NoJoker | JokersUsed | JokerOnLast | JokerAfterCount | WhichJoker):
        return _joker_refusal(lang, refused)
    match refused:
        case PiecesRange(size=size):
            return tr(lang, "The pieces must be between 0 and {size} (the puzzle's size).",
                      size=size)
        case AlreadyRecordedPieces(entry=entry, count=count):
            return tr(lang, "Entry {entry} already has {count} pieces "
                      "recorded: nothing changed.", entry=entry, count=count)
        case QuestionOutdated(entry=entry):
            return tr(lang, "Entry {entry}'s finish changed since this question (or its heat "
                      "is over): nothing recorded. Send /fin {entry} again if needed.",
                      entry=entry)
        case ReadyLineOutdated(entry=entry):
            return tr(lang, "Entry {entry} has said /listo again, or a result was recorded for "
                      "it since this line: nothing recorded. Look at its newest line, or send "
                      "/fin {entry}.", entry=entry)
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


def _joker_refusal(lang: str, refused: NoJoker | JokersUsed | JokerOnLast | JokerAfterCount
                   | WhichJoker) -> str:
    """Why a joker (/comodin) was not recorded."""
    match refused:
        case NoJoker(entry=entry):
            return tr(lang, "Entry {entry}'s category has no joker: every puzzle is played. "
                      "Nothing recorded.", entry=entry)
        case JokersUsed(entry=entry):
            return tr(lang, "Entry {entry} has no joker left: nothing recorded.", entry=entry)
        case JokerAfterCount(entry=entry):
            return tr(lang, "Entry {entry}'s pieces are counted already, the puzzle it is on "
                      "included: nothing recorded. To give that puzzle up, take the count back "
                      "first (/deshacer).", entry=entry)
        case WhichJoker(entry=entry, left=left):
            return tr(lang, "Which puzzle does entry {entry} give up? Puzzles left: {left}. For "
                      "example: /comodin {entry} {first}", entry=entry,
                      left=", ".join(map(str, left)), first=left[0] if left else 1)
        case JokerOnLast(entry=entry, puzzles=puzzles):
            return tr(lang, "Entry {entry} is on its last puzzle of {puzzles}: a joker gives "
                      "nothing there. Record its finish with /fin, or its pieces at the end "
                      "with /piezas (a joker kept may count extra).", entry=entry,
                      puzzles=puzzles)
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
    return localized(kind.name, lang, contest.language) or kind_id


def penalties_text(lang: str, contest: Contest, counts: Sequence[tuple[str, int]],
                   seconds: int) -> str:
    """"(penalties +0:00:20: lost piece ×2)"."""
    detail = ", ".join(f"{penalty_name(lang, contest, k)} ×{n}" for k, n in counts)
    return tr(lang, "(penalties +{time}: {detail})", time=format_duration(seconds),
              detail=detail)


# -- what a volunteer's /fin, /piezas, /estado, /parcial answer ------------------------------


def confirm_question(lang: str, asked: FinishToConfirm) -> str:
    """A /fin that asks first: what the time would change, then "choose"."""
    t = format_duration(asked.time)
    lines = []
    if asked.old is not None:
        lines.append(tr(lang, "Entry {entry} already finished at {old}: {time} would move it by "
                        "{moved}.", entry=asked.entry, old=format_duration(asked.old), time=t,
                        moved=format_duration(abs(asked.time - asked.old))))
    if asked.ahead is not None:
        lines.append(tr(lang, "Entry {entry}: {typed} is later than the clock shows now "
                        "({time}). Record the clock's time?", entry=asked.entry,
                        typed=format_duration(asked.ahead), time=t))
    if asked.instead is not None:
        lines.append(tr(lang, "Entry {entry}: {time}? Read as {instead}, it would be faster than "
                        "anyone finishes {pieces} pieces.", entry=asked.entry, time=t,
                        instead=format_duration(asked.instead), pieces=asked.pieces))
    if asked.other is not None:
        lines.append(tr(lang, "Entry {entry}: {time} or {other}?", entry=asked.entry, time=t,
                        other=format_duration(asked.other)))
    if asked.floor is not None:
        lines.append(tr(lang, "Entry {entry}: {time} for {pieces} pieces is faster than anyone "
                        "plausibly finishes (under {floor}). Check the time on the clock.",
                        entry=asked.entry, time=t, pieces=asked.pieces,
                        floor=format_duration(asked.floor)))
    lines.append(tr(lang, "Nothing is recorded until you choose:"))
    return "\n".join(lines)


def record_button(lang: str, time: int) -> str:
    return tr(lang, "Record {time}", time=format_duration(time))


def keep_button(lang: str, asked: FinishToConfirm) -> str:
    """The button that changes nothing."""
    return tr(lang, "Keep {time}", time=format_duration(asked.old)) if asked.old is not None \
        else tr(lang, "Record nothing")


def not_finished_button(lang: str) -> str:
    """Under a "FINISHED?" line: the volunteer found the puzzle not done."""
    return tr(lang, "Not finished")


def not_finished_answer(lang: str, out: NotFinishedNoted) -> str:
    """To the volunteer who pressed "Not finished"."""
    return tr(lang, "Entry {entry}: not finished, noted. They are told to play on and to send "
              "/listo again when it is done.", entry=out.entry)


def not_finished_notice(lang: str, out: NotFinishedNoted) -> str:
    """To the entry's phones: the /listo of {time} was checked, and the puzzle is not done."""
    return tr(lang, "A volunteer checked your puzzle: it is not finished yet (you said done at "
              "{time}). The clock is still running: play on, and send /listo again when it "
              "is done.", time=format_duration(out.time))


def nothing_changed(lang: str, entry: int) -> str:
    return tr(lang, "Nothing changed for entry {entry}.", entry=entry)


def _old(out: FinishRecorded) -> str:
    return format_duration(out.old) if out.old is not None else "-"


def finish_answer(lang: str, out: FinishRecorded, first: str | None = None) -> str:
    """To the volunteer; ``first``: who recorded the finish replaced, when someone else did."""
    t = format_duration(out.time)
    if out.corrected and first is not None:
        return tr(lang, "Entry {entry}: finish corrected from {old} (recorded by "
                  "{name}) to {time}.", entry=out.entry, old=_old(out), name=first, time=t)
    if out.corrected:
        return tr(lang, "Entry {entry}: finish corrected from {old} to {time}.",
                  entry=out.entry, old=_old(out), time=t)
    if out.from_ready:
        return tr(lang, "Entry {entry} finished at {time} (the moment they said "
                  "/listo).", entry=out.entry, time=t)
    return tr(lang, "Entry {entry} finished at {time}.", entry=out.entry, time=t)


def finish_replaced_notice(lang: str, out: FinishRecorded, by: str) -> str:
    """To the volunteer whose finish time ``by`` replaced."""
    return tr(lang, "Entry {entry}: the finish time you recorded ({old}) was replaced by "
              "{name}'s {time}. If {name} is wrong, send /fin {entry} with the right time.",
              entry=out.entry, old=_old(out), name=by, time=format_duration(out.time))


def finish_notice(lang: str, out: FinishRecorded, competitor: Competitor | None = None) -> str:
    """To the entry's phones; an escape pair (``competitor``) also reads the time it is ranked
    on and how it is made up."""
    text = tr(lang, "Your finish is recorded: {time}. Well done!",
              time=format_duration(out.time))
    ranked = ranking_time(competitor) if competitor is not None else None
    if competitor is None or competitor.escape is None or ranked is None:
        return text
    return text + "\n" + tr(lang, "Your ranking time, with the escape's bonus and penalty: "
                            "{time} ({detail}).", time=format_duration(ranked),
                            detail=result_detail(lang, competitor))


def pieces_answer(lang: str, out: PiecesRecorded) -> str:
    if out.corrected:
        text = tr(lang, "Entry {entry}: pieces corrected from {old} to {count}.",
                  entry=out.entry, old=out.old, count=out.count)
    else:
        text = tr(lang, "Entry {entry}: {count} pieces.", entry=out.entry, count=out.count)
    if out.early is None:
        return text
    now, limit = out.early
    return text + "\n" + tr(
        lang, "Its time is not up yet ({now} of {limit}): a count now ranks it on these pieces "
        "while others still play. If it was a mistake, take it back.",
        now=format_duration(now), limit=format_duration(limit))


def outcome_answer(lang: str, out: OutcomeRecorded) -> str:
    return tr(lang, "Entry {entry}: {outcome}. It is not placed and does "
              "not advance (/deshacer to take it back).", entry=out.entry,
              outcome=outcome_text(lang, out.outcome, out.reason))


def outcome_question(lang: str, number: int, who: Sequence[str]) -> str:
    """``/estado N`` without an outcome: the buttons, and how to type a disqualification."""
    return tr(lang, "Entry {entry} ({names}): which status? A disqualification needs its "
              "reason: /estado {entry} dsq REASON", entry=number, names=names(who))


def outcome_button(lang: str, outcome: str) -> str:
    return outcome_text(lang, outcome).capitalize()


def outcome_notice(lang: str, out: OutcomeRecorded) -> str:
    return tr(lang, "Your entry is recorded as {outcome}. Ask the organisers if this is wrong.",
              outcome=outcome_text(lang, out.outcome, out.reason))


def split_answer(lang: str, out: SplitRecorded) -> str:
    t = format_duration(out.time)
    if out.joker:
        return ntr(lang, "Entry {entry}: puzzle {puzzle} given up at {time} with its joker "
                   "({n} joker left); it counts nothing. On to the next puzzle.",
                   "Entry {entry}: puzzle {puzzle} given up at {time} with its joker "
                   "({n} jokers left); it counts nothing. On to the next puzzle.",
                   out.jokers_left, entry=out.entry, puzzle=out.puzzle, time=t)
    if out.puzzle == out.position:
        return tr(lang, "Entry {entry}: puzzle {puzzle} of {puzzles} done at {time}.",
                  entry=out.entry, puzzle=out.puzzle, puzzles=out.puzzles, time=t)
    # puzzles in any order: which one, and how many so far
    return tr(lang, "Entry {entry}: puzzle {puzzle} done at {time} ({position} of "
              "{puzzles}).", entry=out.entry, puzzle=out.puzzle, time=t,
              position=out.position, puzzles=out.puzzles)


def split_notice(lang: str, out: SplitRecorded) -> str:
    if out.joker:
        return tr(lang, "Puzzle {puzzle} given up at {time} with your joker: it counts "
                  "nothing. On to the next one!", puzzle=out.puzzle,
                  time=format_duration(out.time))
    return tr(lang, "Puzzle {puzzle} of {puzzles} done at {time}: on to the next one!",
              puzzle=out.position, puzzles=out.puzzles, time=format_duration(out.time))


def sheet(contest: Contest, lang: str) -> list[str]:
    """The results' lines in the volunteers' sheet: the questions a finish may ask first."""
    lines = []
    if contest.confirm_correction:
        lines.append(in_language(lang, correction_button(lang, contest.confirm_correction // 60)))
    if contest.plausible_seconds_per_piece:
        lines.append(plausible_button(lang, contest.plausible_seconds_per_piece))
    return lines


def correction_button(lang: str, minutes: int) -> str:
    return tr(lang, "A /fin that moves a finish by more than {minutes} minutes asks you to "
              "confirm it with a button first.", minutes=minutes)


def plausible_button(lang: str, per_piece: float) -> str:
    """The contest's fastest plausible finish (``plausible_seconds_per_piece``), as a rule."""
    return tr(lang, "A finish faster than {seconds} seconds per piece (a 500-piece puzzle in "
              "under {example}) asks you with a button first: check the clock.",
              seconds=f"{per_piece:g}", example=format_duration(int(500 * per_piece)))


def usage(lang: str, line: str) -> str:
    """How to type one of the results' commands (``line``: ``/piezas N P``), with an example."""
    return usage_text(lang, line, _example(lang, line.split()[0]))


def _example(lang: str, command: str) -> str:
    match command:
        case "/fin":
            return tr(lang, "For example /fin 12 1:47:30 (entry 12, the time the clock shows), "
                      "or /fin 12 (now).")
        case "/piezas":
            return tr(lang, "For example /piezas 12 350 (entry 12 placed 350 pieces).")
        case "/parcial":
            return tr(lang, "For example /parcial 12 0:40:00 (entry 12 finished a puzzle at "
                      "0:40:00 on the clock).")
        case "/comodin":
            return tr(lang, "For example /comodin 12 (entry 12 gives up the puzzle it is on), "
                      "or /comodin 12 3 (puzzle 3, where each entry chooses its order).")
        case "/estado":
            return tr(lang, "For example /estado 12 dns (did not start), /estado 12 dsq REASON "
                      "(disqualified) or /estado 12 oc (out of competition).")
        case _:
            return ""


def ready_staff_line(lang: str, contest: Contest, entry: Entry, out: ReadyNoted,
                     at: datetime) -> str:
    """The volunteers' line of a pair's /listo: go and check."""
    return tr(lang, "FINISHED? #{entry} {names} says done at {time} ({clock}): go and check, "
              "then /fin {entry}.", entry=entry.number, names=names(entry.names),
              time=format_duration(out.time), clock=clock_time(contest, at))


def did_not_start_rows(lang: str, numbers: Sequence[int], most: int = 12
                       ) -> list[list[tuple[str, str]]]:
    """Under a question listing entries with no result (making results final, confirming a
    round): "#N Did not start", two to a row, for the first ``most`` of them."""
    shown = list(numbers)[:most]
    return [[(f"#{n} {outcome_button(lang, 'dns')}", f"{OUTCOME_BUTTON}{n}:dns")
             for n in shown[i:i + 2]] for i in range(0, len(shown), 2)]


def finish_settled(lang: str, out: FinishRecorded, by: str) -> str:
    """Under every copy of the "FINISHED?" line once its finish is recorded."""
    return tr(lang, "✅ Recorded: {time} ({name})", time=format_duration(out.time), name=by)


def not_finished_settled(lang: str, out: NotFinishedNoted, by: str) -> str:
    """Under every copy of the "FINISHED?" line once the puzzle was found not done."""
    return tr(lang, "↩️ Not finished: told to play on ({name})", name=by)
