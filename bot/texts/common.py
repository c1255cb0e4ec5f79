"""Turning outcomes, ledgers and rankings into text in the person's language (plain text)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from functools import cache
from zoneinfo import ZoneInfo

from babel.dates import format_date

from bot.domain.clock import DurationError, format_duration
from bot.domain.contest import Category, Contest
from bot.domain.ranking import Competitor, Row, ranking_time
from bot.domain.rounds import heats_by_id
from bot.services.access import AccessRefusal
from bot.services.clocks import ClocksRefusal
from bot.services.contest_day import (
    AlreadyOutcome,
    AlreadyRecordedPieces,
    BeforeEscape,
    BeforeSplit,
    EntryDisqualified,
    FinishBeforeSplits,
    NoSplits,
    NothingToUndo,
    NoTime,
    PiecesRange,
    QuestionOutdated,
    ReasonNeeded,
    SplitsDone,
    UnknownPenalty,
    WhichPuzzle,
)
from bot.services.escape import EscapeRefusal
from bot.services.outcomes import (
    AlreadyFinished,
    AlreadyRecorded,
    BeforeRequest,
    ClockNotStarted,
    EscapeNotOver,
    InTheFuture,
    NotEscape,
    PastLimit,
    Refusal,
    UnknownEntry,
)
from bot.services.rounds import RoundsRefusal
from bot.storage.store import Event
from bot.support.i18n import ntr, tr
from bot.texts.access import access_refusal
from bot.texts.clocks import clocks_refusal
from bot.texts.escape import escape_refusal
from bot.texts.names import clock_time as clock_time  # re-exported: the texts use them
from bot.texts.names import day_text as day_text
from bot.texts.names import heat_name as heat_name
from bot.texts.names import names as names
from bot.texts.names import round_name as round_name
from bot.texts.rounds import rounds_refusal

MAX_MESSAGE = 4096
RANKING_NAME = 30  # characters of each name on a ranking's line


def duration_error(lang: str, err: DurationError) -> str:
    return tr(lang, "I can't read the time \"{text}\": write it as h:mm:ss (1:47:30) or m:ss "
              "(47:30).", text=err.text)


def message_parts(text: str, limit: int = MAX_MESSAGE) -> list[str]:
    """``text`` as the messages it takes: itself when it fits (nearly always), else cut at
    line ends by ``split_messages``."""
    if text and len(text) <= limit and not text.startswith("\n"):
        return [text]  # what split_messages would give, without walking the lines
    return split_messages(text.split("\n"), limit)


def split_messages(lines: Sequence[str], limit: int = MAX_MESSAGE) -> list[str]:
    """Join lines into as few messages as fit Telegram's limit (a long line is cut)."""
    messages: list[str] = []
    current = ""
    for line in lines:
        while len(line) > limit:
            if current:
                messages.append(current)
                current = ""
            messages.append(line[:limit])
            line = line[limit:]
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            messages.append(current)
            current = line
        else:
            current = candidate
    if current:
        messages.append(current)
    return messages


def labelled(lang: str, label: str, value: str) -> str:
    """"Junior: 1:47:30"; French puts a space before the colon ("Junior : 1:47:30")."""
    between = _between(lang)
    if between is None:
        return tr(lang, "{label}: {value}", label=label, value=value)
    return label + between + value  # one per row of a 10,000-entry ranking: no formatting


@cache
def _between(lang: str) -> str | None:
    """What a language puts between a label and its value (": ", " : "), when its translation
    is label, then that, then value."""
    template = tr(lang, "{label}: {value}", label="\0L", value="\0V")
    if template.startswith("\0L") and template.endswith("\0V") and template.count("\0") == 2:
        return template[2:-2]
    return None


def refusal(lang: str, refused: Refusal, contest: Contest) -> str:
    """One line saying why something was refused: a feature's own refusals by its texts."""
    if isinstance(refused, EscapeRefusal):
        return escape_refusal(lang, refused, contest)
    if isinstance(refused, ClocksRefusal):
        return clocks_refusal(lang, refused, contest)
    if isinstance(refused, AccessRefusal):
        return access_refusal(lang, refused)
    if isinstance(refused, RoundsRefusal):
        return rounds_refusal(lang, refused, contest)
    for words in (_entry_refusal, _record_refusal):
        text = words(lang, refused, contest)
        if text is not None:
            return text
    return tr(lang, "That can't be done now.")


def _entry_refusal(lang: str, refused: Refusal, contest: Contest) -> str | None:
    """Refusals about the entry itself (any command naming one)."""
    match refused:
        case UnknownEntry(entry=entry):
            return tr(lang, "There is no entry number {entry}.", entry=entry)
        case NotEscape(entry=entry):
            return tr(lang, "Entry {entry} has no escape stage.", entry=entry)
        case ClockNotStarted(entry=entry):
            return tr(lang, "The clock of entry {entry}'s category has not started "
                      "yet.", entry=entry)
        case AlreadyFinished(entry=entry):
            return tr(lang, "Entry {entry} has already finished.", entry=entry)
        case PiecesRange(size=size):
            return tr(lang, "The pieces must be between 0 and {size} (the puzzle's size).",
                      size=size)
        case AlreadyRecorded(entry=entry, time=t):
            return tr(lang, "Entry {entry} already has {time} recorded: nothing "
                      "changed.", entry=entry, time=format_duration(t))
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
    return None


def _record_refusal(lang: str, refused: Refusal, contest: Contest) -> str | None:
    """Refusals of what a volunteer records: a stage, an escape, a finish."""
    match refused:
        case BeforeRequest(entry=entry, time=t):
            return tr(lang, "Entry {entry} asked for help after that moment, at "
                      "{time}: check the time.", entry=entry, time=format_duration(t))
        case NoTime():
            return tr(lang, "0:00:00 can't be a finish time: type the time the clock showed.")
        case QuestionOutdated(entry=entry):
            return tr(lang, "Entry {entry}'s finish changed since this question (or its heat "
                      "is over): nothing recorded. Send /fin {entry} again if needed.",
                      entry=entry)
        case InTheFuture(time=t):
            return tr(lang, "{time} is later than the clock shows now.",
                      time=format_duration(t))
        case PastLimit(time=t, limit=limit):
            return tr(lang, "{time} is past the category's time limit ({limit}): record the "
                      "pieces with /piezas instead.",
                      time=format_duration(t), limit=format_duration(limit))
        case EscapeNotOver(entry=entry):
            return tr(lang, "Entry {entry} has not finished the escape yet: record it "
                      "with /escape first.", entry=entry)
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
    return None


def clock_name(lang: str, contest: Contest, unit_id: str) -> str:
    """What a clock is called in running text: a category's name ("Individual"), a heat's
    with its category ("Heats 2 (Individual)"), never the id the contest file gives them."""
    heat = heats_by_id(contest.categories).get(unit_id)
    if heat is not None:
        return f"{heat_name(lang, contest, heat)} ({heat.category.name})"
    category = contest.category(unit_id)
    return category.name if category is not None else unit_id


def date_text(lang: str, day: date) -> str:
    """"22 April 2023" as the reader writes it ("22 de abril de 2023", "22 avril 2023")."""
    return format_date(day, format="long", locale=lang)


def moment_text(lang: str, contest: Contest, moment: datetime) -> str:
    """A date and time on the hall's clock in running text: "22 de abril de 2023 a las 00:00",
    "22 avril 2023 à 00:00" (never an ISO date)."""
    local = moment.astimezone(ZoneInfo(contest.timezone))
    return tr(lang, "{day} at {time}", day=date_text(lang, local.date()),
              time=local.strftime("%H:%M"))


def bot_description(lang: str, contest: Contest, registering: bool) -> str:
    """What Telegram shows in the empty chat of someone who opens the bot (a child who scanned
    the QR code on their table), before they send anything."""
    text = tr(lang, "I run the puzzle contest {name} on {date}.", name=contest.name,
              date=format_date(contest.date, format="long", locale=lang))
    if registering:
        text += " " + tr(lang, "To register, press Start and then send /inscribir.")
    if contest.escape is not None:
        text += " " + tr(lang, "Registered already? Open the link the organisers gave you, or "
                         "scan the QR code on your table: I will give you hints and tell you "
                         "your results.")
    else:
        text += " " + tr(lang, "Registered already? Open the link the organisers gave you, or "
                         "scan the QR code on your table: I will tell you your results.")
    return text[:512]


def bot_short_description(lang: str, contest: Contest) -> str:
    """The line on the bot's profile and in shared links (at most 120 characters)."""
    return tr(lang, "Puzzle contest: {name}", name=contest.name)[:120]


def ranking_lines(
    lang: str, contest: Contest, category: Category, rows: Sequence[Row], title: str = ""
) -> list[str]:
    lines = [title or tr(lang, "{category} - ranking", category=category.name)]
    if not rows:
        lines.append(tr(lang, "No entries."))
    for r in rows:
        pos = f"{r.position}." if r.position is not None else "-"
        c = r.competitor
        who = f"{pos} #{r.number} {names([short(n) for n in c.names])}" + (
            f" ({', '.join(c.shown)})" if c.shown else "")
        if c.outcome == "oc":  # its result, but no place
            t = ranking_time(c)
            result = (format_duration(t) if t is not None else
                      tr(lang, "{pieces} pieces", pieces=c.pieces) if c.pieces is not None
                      else tr(lang, "no result yet"))
            line = labelled(lang, who,
                            f"{result} ({outcome_text(lang, c.outcome, c.outcome_reason)})")
        elif c.outcome is not None:
            line = labelled(lang, who, outcome_text(lang, c.outcome, c.outcome_reason))
        elif r.finished and r.time is not None:
            # one short line a phone shows whole: how the time was made up (escape, bonus,
            # splits) is in /historial and in the exports
            line = labelled(lang, who, format_duration(r.time))
            if c.time_penalty:
                line += " " + penalties_text(lang, contest, c.penalties, c.time_penalty)
        elif c.finish is not None and c.time_penalty:
            line = labelled(lang, who, tr(lang, "finished at {time}, but its penalties take it "
                                          "past the time limit",
                                          time=format_duration(c.finish)) + " " + penalties_text(
                lang, contest, c.penalties, c.time_penalty))
        elif r.competitor.pieces is not None:
            line = labelled(lang, who, tr(lang, "{pieces} pieces", pieces=r.competitor.pieces))
        else:
            line = labelled(lang, who, tr(lang, "no result yet"))
        if r.round is not None and len(category.rounds) > 1:
            index = next((i for i, x in enumerate(category.rounds) if x.id == r.round), None)
            if index is not None and index < len(category.rounds) - 1:
                line += f" ({round_name(lang, contest, category, index)})"
        if r.prize:
            line += f" - {r.prize}"
        lines.append(line)
    for extra in category.extra_prizes:
        winners = [r for r in rows if extra.id in r.extra_prizes]
        if winners:
            lines.append(
                labelled(lang, extra.name,
                         ", ".join(f"#{r.number} {names(r.competitor.names)}" for r in winners)
                         + f" - {extra.prize}")
            )
    return lines


def short(name: str, most: int = RANKING_NAME) -> str:
    """A name cut to ``most`` characters for a ranking's line (the whole name is in the exports)."""
    return name if len(name) <= most else name[:most - 1].rstrip() + "…"


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


def history_lines(lang: str, contest: Contest, number: int, events: Sequence[Event],
                  alive: set[int], people: dict[int, str],
                  times: dict[int, int | None]) -> list[str]:
    """Every event of an entry, corrections and what they replaced included. ``times``: the
    contest time each event stands for (typed by a volunteer, or the clock at its moment)."""
    lines = [tr(lang, "History of entry {entry}:", entry=number)]
    rounds_by_heat = {i: heat_name(lang, contest, h)
                      for i, h in heats_by_id(contest.categories).items()}
    for e in events:
        who = people.get(e.actor or 0, str(e.actor) if e.actor else "bot")
        what = event_name(lang, e.kind) if e.kind != "outcome" else outcome_text(
            lang, e.ref or "", str(e.data.get("reason", "")))
        if e.stage is not None and e.kind == "split":
            what += " " + tr(lang, "puzzle {puzzle}", puzzle=e.stage)
        elif e.stage is not None and e.kind == "stage":
            what = tr(lang, "stage {stage} confirmed", stage=e.stage)
        elif e.stage is not None:
            stage_word = tr(lang, "stage")
            what += f" {stage_word} {e.stage}"
        if e.kind == "pieces" and e.value is not None:
            what += f" {e.value}"
        elif e.kind == "penalty" and e.ref is not None:
            what += f" {penalty_name(lang, contest, e.ref)} ×{e.value}"
        elif e.kind == "request_refused" and e.value is not None:
            what += f" {format_duration(e.value)}"
        elif times.get(e.id) is not None:
            what += f" {format_duration(times[e.id] or 0)}"
        if e.category is not None and e.category in rounds_by_heat:
            what += f" ({rounds_by_heat[e.category]})"
        if e.supersedes is not None:
            what += " " + tr(lang, "(corrects #{id})", id=e.supersedes)
        if e.id not in alive:
            what += " " + tr(lang, "[replaced]")
        role = role_name(lang, e.role)
        local = e.at.astimezone(ZoneInfo(contest.timezone))
        when = clock_time(contest, e.at) if local.date() == contest.date else tr(
            lang, "{day} at {time}", day=day_text(lang, local.date()),
            time=clock_time(contest, e.at)[:5])
        lines.append(labelled(lang, f"#{e.id} {when} {who} ({role})", what))
    return lines


def role_name(lang: str, role: str) -> str:
    words = {"participant": tr(lang, "participant"), "volunteer": tr(lang, "volunteer"),
             "organiser": tr(lang, "organiser"), "system": tr(lang, "bot")}
    return words.get(role, role)


def event_name(lang: str, kind: str) -> str:
    names_ = {
        "link": tr(lang, "linked a phone"),
        "hint": tr(lang, "hint"),
        "solution": tr(lang, "solution"),
        "request_refused": tr(lang, "request refused, may ask again at"),
        "notice": tr(lang, "told they may ask again"),
        "stage": tr(lang, "stage confirmed"),
        "escape": tr(lang, "escape solved"),
        "ready": tr(lang, "said finished"),
        "finish": tr(lang, "finish"),
        "pieces": tr(lang, "pieces"),
        "penalty": tr(lang, "penalty"),
        "split": tr(lang, "split time"),
        "outcome": tr(lang, "did not start or disqualified"),
        "round_final": tr(lang, "round confirmed"),
        "undo": tr(lang, "taken back"),
        "clock_start": tr(lang, "clock started"),
        "pause": tr(lang, "break"),
        "resume": tr(lang, "clocks running again"),
        "volunteer_join": tr(lang, "joined as volunteer"),
        "volunteer_invite": tr(lang, "volunteer invitation"),
        "organiser_join": tr(lang, "joined as organiser"),
        "organiser_invite": tr(lang, "organiser invitation"),
        "handover": tr(lang, "escape handover"),
        "entry": tr(lang, "registered"),
        "payment": tr(lang, "payment recorded"),
        "withdraw": tr(lang, "withdrew"),
        "status_notice": tr(lang, "told of its place"),
        "alert": tr(lang, "clock alert"),
        "announcement": tr(lang, "announcement"),
    }
    return names_.get(kind, kind)
