"""Turning outcomes, ledgers and rankings into text in the person's language (plain text)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import date, datetime
from functools import cache
from zoneinfo import ZoneInfo

from babel.dates import format_date

from bot.domain.clock import DurationError, format_duration
from bot.domain.contest import Category, Contest, Slot
from bot.domain.ranking import Row
from bot.domain.registration import Ineligible
from bot.domain.rounds import Heat, heats_by_id, table_number
from bot.services.contest_day import (
    AlreadyPaused,
    AlreadySolved,
    AlreadyStarted,
    BadCode,
    BeforeRequest,
    ConfirmationClosed,
    Cooldown,
    CooldownPastEnd,
    EscapeOver,
    HeatNotStarted,
    HeatRunning,
    HintTaken,
    InviteUsed,
    NoQualifiers,
    NotEscape,
    NothingToStart,
    NotPaused,
    NotReached,
    NotYet,
    OrganiserInviteUsed,
    PastEscapeLimit,
    RoundClosed,
    RoundNotOver,
    RoundsOver,
    SolutionNeedsHint,
    SolutionTaken,
    StageBack,
    StageInvalid,
    StagePassed,
    StageSame,
)
from bot.services.outcomes import (
    AlreadyFinished,
    AlreadyRecorded,
    ClockNotStarted,
    EscapeNotOver,
    InTheFuture,
    NoTime,
    PastLimit,
    Refusal,
    UnknownEntry,
)
from bot.services.results import ResultsRefusal
from bot.services.state import EntryState
from bot.support.i18n import tr
from bot.texts.results import results_refusal

MAX_MESSAGE = 4096
RANKING_NAME = 30  # characters of each name on a ranking's line


def clock_time(contest: Contest, moment: datetime) -> str:
    """A real instant as the hall's wall clock shows it (contest time zone)."""
    return moment.astimezone(ZoneInfo(contest.timezone)).strftime("%H:%M:%S")


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


def names(names_: Sequence[str]) -> str:
    return " / ".join(names_) if names_ else "-"


def refusal(lang: str, refused: Refusal, contest: Contest) -> str:
    """One line saying why something was refused."""
    if isinstance(refused, ResultsRefusal):
        return results_refusal(lang, refused, contest)
    for words in (_entry_refusal, _request_refusal, _record_refusal, _desk_refusal):
        text = words(lang, refused, contest)
        if text is not None:
            return text
    return tr(lang, "That can't be done now.")


def _cooldown_minutes(contest: Contest) -> int:
    return round(contest.escape.cooldown / 60) if contest.escape else 0


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
        case AlreadyRecorded(entry=entry, time=t):
            return tr(lang, "Entry {entry} already has {time} recorded: nothing "
                      "changed.", entry=entry, time=format_duration(t))
    return None


def _request_refusal(lang: str, refused: Refusal, contest: Contest) -> str | None:
    """Refusals of a pair's request for a hint or a solution."""
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
    return None


def _record_refusal(lang: str, refused: Refusal, contest: Contest) -> str | None:
    """Refusals of what a volunteer records: a stage, an escape, a finish."""
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
        case BeforeRequest(entry=entry, time=t):
            return tr(lang, "Entry {entry} asked for help after that moment, at "
                      "{time}: check the time.", entry=entry, time=format_duration(t))
        case NoTime():
            return tr(lang, "0:00:00 can't be a finish time: type the time the clock showed.")
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
    return None


def _desk_refusal(lang: str, refused: Refusal, contest: Contest) -> str | None:
    """Refusals of the organisers' clock commands and of the links people open."""
    match refused:
        case AlreadyStarted():
            return tr(lang, "That clock is already running.")
        case AlreadyPaused():
            return tr(lang, "The clocks are already paused.")
        case NotPaused():
            return tr(lang, "The clocks are not paused.")
        case BadCode():
            return tr(lang, "That link is not valid. Ask the organisers for your entry's "
                      "link.")
        case InviteUsed():
            return tr(lang, "That volunteer invitation was already used. Ask an organiser "
                      "for a new one.")
        case OrganiserInviteUsed():
            return tr(lang, "That organiser invitation was already used. Ask an organiser "
                      "for a new one.")
        case RoundNotOver(heat=heat, waiting=waiting):
            return tr(lang, "{heat} is not over: no result yet for {entries}. Record their "
                      "finish or pieces first (or wait for the time limit).",
                      heat=_heat_by_id(lang, contest, heat),
                      entries=", ".join(f"#{n}" for n in waiting[:20]))
        case RoundClosed(heat=heat):
            return tr(lang, "{heat} is confirmed: its results can't change any more.",
                      heat=_heat_by_id(lang, contest, heat))
        case NotYet(heat=heat, day=day, start=None):
            return tr(lang, "Nothing to start today: {heat} is on {day}. To start it now "
                      "anyway: /inicio {id}", heat=_heat_by_id(lang, contest, heat),
                      day=day_text(lang, day), id=heat)
        case NotYet(heat=heat, day=day, start=datetime() as start):
            return tr(lang, "Nothing to start now: {heat} starts at {time}. To start it now "
                      "anyway: /inicio {id}", heat=_heat_by_id(lang, contest, heat),
                      time=clock_time(contest, start)[:5], id=heat)
        case HeatRunning(heat=heat, running=running):
            return tr(lang, "Nothing started: {heat} comes after {running}, which is still "
                      "being played. To start it now anyway: /inicio {id}",
                      heat=_heat_by_id(lang, contest, heat),
                      running=_heat_by_id(lang, contest, running), id=heat)
        case NotReached(heat=heat):
            return tr(lang, "{heat} has nobody in it yet: its entrants are known once the round "
                      "before is confirmed (/confirmar_ronda).",
                      heat=_heat_by_id(lang, contest, heat))
        case HeatNotStarted(heat=heat):
            return tr(lang, "{heat} has not been played: start its clock with /inicio {id} "
                      "first.", heat=_heat_by_id(lang, contest, heat), id=heat)
        case NoQualifiers(heat=heat):
            return tr(lang, "Nobody goes through from {heat} by the contest file's rule "
                      "(advance): check the results, or the rule, before confirming.",
                      heat=_round_by_heat(lang, contest, heat))
        case NothingToStart():
            return tr(lang, "Nothing to start: no category or heat is waiting for its clock.")
        case RoundsOver(category=category):
            return tr(lang, "Every round of {category} is already confirmed.",
                      category=category)
    return None


def clock_name(lang: str, contest: Contest, unit_id: str) -> str:
    """What a clock is called in running text: a category's name ("Individual"), a heat's
    with its category ("Heats 2 (Individual)"), never the id the contest file gives them."""
    heat = heats_by_id(contest.categories).get(unit_id)
    if heat is not None:
        return f"{heat_name(lang, contest, heat)} ({heat.category.name})"
    category = contest.category(unit_id)
    return category.name if category is not None else unit_id


def _heat_by_id(lang: str, contest: Contest, heat_id: str) -> str:
    heat = heats_by_id(contest.categories).get(heat_id)
    return heat_name(lang, contest, heat) if heat is not None else heat_id


def _round_by_heat(lang: str, contest: Contest, heat_id: str) -> str:
    heat = heats_by_id(contest.categories).get(heat_id)
    return round_name(lang, contest, heat.category, heat.round_index) if heat else heat_id


# a weekday and a day in running text ("el sábado 3 de julio", "le samedi 3 juillet")
_DAY_PATTERNS = {"es": "EEEE d 'de' MMMM"}


def day_text(lang: str, day: date) -> str:
    """"Saturday 3 July" in the reader's language."""
    return format_date(day, format=_DAY_PATTERNS.get(lang, "EEEE d MMMM"), locale=lang)


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


def round_name(lang: str, contest: Contest, category: Category, index: int) -> str:
    name = category.rounds[index].name
    return name.get(lang) or name.get(contest.language) or next(iter(name.values()))


def heat_name(lang: str, contest: Contest, heat: Heat) -> str:
    """"Semi-final", or "Heats 2" when the round has several heats."""
    name = round_name(lang, contest, heat.category, heat.round_index)
    return f"{name} {heat.number}" if heat.round.heats > 1 else name


def when_text(lang: str, contest: Contest, heat: Heat) -> str:
    """"Saturday 3 July at 10:00", and the heat's own venue when it has one."""
    when = heat.round.when(heat.number)
    text = day_text(lang, when.date) if when.start is None else tr(
        lang, "{day} at {time}", day=day_text(lang, when.date),
        time=clock_time(contest, when.start)[:5])
    return f"{text}, {when.venue}" if when.venue else text


def qualified_text(lang: str, contest: Contest, number: int, heat: Heat, table: int) -> str:
    return tr(lang, "Entry #{entry} goes through to {round} ({category}): {when}, table "
              "{table}. Well done!", entry=number, round=heat_name(lang, contest, heat),
              category=heat.category.name, when=when_text(lang, contest, heat), table=table)


def plays_text(lang: str, contest: Contest, number: int, heat: Heat, table: int) -> str:
    return tr(lang, "Entry #{entry} plays {round} ({category}): {when}, table {table}.",
              entry=number, round=heat_name(lang, contest, heat), category=heat.category.name,
              when=when_text(lang, contest, heat), table=table)


def out_text(lang: str, contest: Contest, number: int, category: Category, index: int,
             row: Row | None, played: bool = False) -> str:
    """To an entry that did not go through to the next round (``played``: its place there
    is not at hand, as for /series)."""
    name = round_name(lang, contest, category, index)
    if played and index == len(category.rounds) - 1:
        return tr(lang, "Entry #{entry}: {round} of {category} is over; its results are "
                  "final.", entry=number, round=name, category=category.name)
    if played:
        return tr(lang, "Entry #{entry} did not go through after {round} of {category}. "
                  "Thank you for taking part!", entry=number, round=name,
                  category=category.name)
    if row is None or row.position is None:
        return tr(lang, "Entry #{entry}: {round} of {category} is over, and it has no result "
                  "in it. Thank you for taking part!", entry=number, round=name,
                  category=category.name)
    return tr(lang, "Entry #{entry}: {round} of {category} is over. Place {position} in it; "
              "not enough to go through this time. Thank you for taking part!", entry=number,
              round=name, category=category.name, position=row.position)


def final_place_text(lang: str, category: Category, number: int, row: Row) -> str:
    text = tr(lang, "Entry #{entry}: final classification of {category}: place {position}.",
              entry=number, category=category.name, position=row.position)
    return text + (f" {row.prize}" if row.prize else "")


def lineup_lines(lang: str, contest: Contest, category: Category, index: int,
                 heats: Sequence[Sequence[int]], who: Mapping[int, Sequence[str]]) -> list[str]:
    """The heats of a round, each entry with its table."""
    lines = []
    for h, numbers in enumerate(heats, 1):
        heat = Heat(category, index, h)
        lines.append(tr(lang, "{heat} ({when}):", heat=heat_name(lang, contest, heat),
                        when=when_text(lang, contest, heat)))
        for i, n in enumerate(numbers):
            lines.append(tr(lang, "  table {table}: #{entry} {names}",
                            table=table_number(i, heat.round.per_table), entry=n,
                            names=names(who.get(n, ()))))
        if not numbers:
            lines.append("  " + tr(lang, "No entries."))
    return lines


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


def short(name: str, most: int = RANKING_NAME) -> str:
    """A name cut to ``most`` characters for a ranking's line (the whole name is in the exports)."""
    return name if len(name) <= most else name[:most - 1].rstrip() + "…"


def role_name(lang: str, role: str) -> str:
    words = {"participant": tr(lang, "participant"), "volunteer": tr(lang, "volunteer"),
             "organiser": tr(lang, "organiser"), "system": tr(lang, "bot")}
    return words.get(role, role)


def slot_text(lang: str, slot: Slot) -> str:
    own = _own_slot_text(lang, replace(slot, alternatives=()))
    if slot.alternatives:
        return tr(lang, " or ").join([own, *(_own_slot_text(lang, a) for a in slot.alternatives)])
    return own


def _own_slot_text(lang: str, slot: Slot) -> str:
    if slot.with_adult is not None:
        rest = replace(slot, with_adult=None)
        adult = tr(lang, "with a member aged {age} or more", age=slot.with_adult)
        return adult if rest.is_open else f"{_own_slot_text(lang, rest)} {adult}"
    if slot.is_open:
        return tr(lang, "anyone")
    if slot.born_from is not None and slot.born_to is not None:
        return tr(lang, "born {start}-{end}", start=slot.born_from, end=slot.born_to)
    if slot.born_from is not None:
        return tr(lang, "born {year} or later", year=slot.born_from)
    if slot.born_to is not None:
        return tr(lang, "born {year} or earlier", year=slot.born_to)
    if slot.min_age is not None and slot.max_age is not None:
        return tr(lang, "aged {low}-{high} on the contest day", low=slot.min_age,
                  high=slot.max_age)
    if slot.min_age is not None:
        return tr(lang, "aged {age} or more on the contest day", age=slot.min_age)
    return tr(lang, "under {age} on the contest day", age=(slot.max_age or 0) + 1)


def ineligible_text(lang: str, problem: Ineligible, name: str = "") -> str:
    """Why a member cannot be in the category; ``name``: the member's, said where the member
    named is not the one just entered (a place "with an adult")."""
    who = (tr(lang, "born {year}", year=problem.born_year) if problem.age is None
           else tr(lang, "aged {age} on the contest day", age=problem.age))
    if problem.reason == "adult_needed":
        return tr(lang, "Not possible: {name}{who}, so this category needs someone aged "
                  "{adult} or more in the same entry.", name=f"{name}, " if name else "",
                  who=who, adult=problem.adult_age)
    needs = tr(lang, " or ").join(slot_text(lang, s) for s in problem.needs) or "-"
    return tr(lang, "Not possible: {who}, and this category needs {needs}.", who=who,
              needs=needs)


# -- registration: what changed on the waiting list -------------------------------------------


def lost_place_text(lang: str, entry: int, by: int, day: str) -> str:
    """Why an entry lost its place: a payment recorded late (dated ``day``) came before."""
    return tr(lang, "Entry #{entry} has lost its place: the payment of entry #{other}, dated "
              "{day}, came before it.", entry=entry, other=by, day=day)


def waiting_move_text(lang: str, entry: int, before: int, position: int) -> str:
    """An entry's place on the waiting list changed (the list moved up, or an entry that paid
    earlier came in ahead)."""
    return tr(lang, "Entry #{entry}: you are now number {position} on the waiting list (you were "
              "number {before}). I will tell you if a place frees up.", entry=entry,
              position=position, before=before)


def displaced_note(lang: str, entry: int, names_: Sequence[str], position: int | None) -> str:
    """For the organiser who recorded the payment: the entry it took the place of."""
    if position is None:
        return tr(lang, "Entry #{entry} ({names}) loses its place to this payment: no place is "
                  "left for it, and it is owed a refund. Its people are told.", entry=entry,
                  names=names(names_))
    return tr(lang, "Entry #{entry} ({names}) loses its place to this payment: it is now number "
              "{position} on the waiting list. Its people are told.", entry=entry,
              names=names(names_), position=position)
