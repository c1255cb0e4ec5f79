"""Turning outcomes, ledgers and rankings into text in the person's language (plain text)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from typing import assert_never
from zoneinfo import ZoneInfo

from babel.dates import format_date

from bot.domain.clock import DurationError, format_duration
from bot.domain.contest import Contest
from bot.features.escape.names import SOLVED
from bot.features.invitations.day import InvitationRefusal
from bot.features.invitations.texts import invitation_refusal
from bot.features.registration.names import REGISTER
from bot.features.results.names import PIECES
from bot.features.results.outcomes import ResultsRefusal
from bot.features.results.texts import results_refusal
from bot.features.selftimed.day import SelfTimedRefusal
from bot.features.selftimed.texts import selftimed_refusal
from bot.features.standings.outcomes import StandingsRefusal
from bot.features.standings.texts import standings_refusal
from bot.services.access import AccessRefusal
from bot.services.claims import ClaimRefusal
from bot.services.clocks import ClocksRefusal
from bot.services.history import HistoryRefusal
from bot.services.outcomes import (
    AlreadyFinished,
    AlreadyRecorded,
    ClockNotStarted,
    EscapeNotOver,
    InTheFuture,
    NotEscape,
    NoTime,
    PastLimit,
    SharedRefusal,
    UnknownEntry,
)
from bot.services.rounds import RoundsRefusal
from bot.support.commands import typed
from bot.support.i18n import tr
from bot.texts.access import access_refusal
from bot.texts.claims import claim_refusal
from bot.texts.clocks import clocks_refusal
from bot.texts.history import history_refusal
from bot.texts.names import clock_time as clock_time  # re-exported: the texts use them
from bot.texts.names import day_text as day_text
from bot.texts.names import heat_name as heat_name
from bot.texts.names import labelled as labelled
from bot.texts.names import names as names
from bot.texts.names import role_name as role_name
from bot.texts.names import round_name as round_name
from bot.texts.names import span_text
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


DayRefusal = (SharedRefusal | ClocksRefusal | AccessRefusal | RoundsRefusal
              | ResultsRefusal | HistoryRefusal | StandingsRefusal | ClaimRefusal
              | SelfTimedRefusal | InvitationRefusal)


def refusal(lang: str, refused: DayRefusal, contest: Contest) -> str:
    """One line saying why something was refused: each feature's refusals by its own texts.
    mypy proves every refusal an operation can give has its text (no fallback). A feature
    package renders its own reasons (its ``outcomes.py``) and the shared ones through this."""
    if isinstance(refused, ClocksRefusal):
        return clocks_refusal(lang, refused, contest)
    if isinstance(refused, AccessRefusal):
        return access_refusal(lang, refused)
    if isinstance(refused, RoundsRefusal):
        return rounds_refusal(lang, refused, contest)
    if isinstance(refused, ResultsRefusal):
        return results_refusal(lang, refused, contest)
    if isinstance(refused, HistoryRefusal):
        return history_refusal(lang, refused)
    if isinstance(refused, StandingsRefusal):
        return standings_refusal(lang, refused, contest)
    if isinstance(refused, ClaimRefusal):
        return claim_refusal(lang, refused)
    if isinstance(refused, SelfTimedRefusal):
        return selftimed_refusal(lang, refused, contest)
    if isinstance(refused, InvitationRefusal):
        return invitation_refusal(lang, refused, contest)
    if isinstance(refused, EscapeNotOver) and contest.escape is not None \
            and contest.escape.in_chat:  # the pair's last right answer ends it, not a volunteer
        return tr(lang, "Entry {entry} has not finished the escape yet: it is still answering "
                  "its enigmas in the chat.", entry=refused.entry)
    return shared_refusal(lang, refused)


def shared_refusal(lang: str, refused: SharedRefusal) -> str:
    """The refusals several features give: about the entry itself, or the time typed."""
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
        case NoTime():
            return tr(lang, "0:00:00 can't be a finish time: type the time the clock showed.")
        case InTheFuture(time=t, now=now):
            return tr(lang, "{time} is later than the clock shows now ({now}).",
                      time=format_duration(t), now=format_duration(now))
        case PastLimit(time=t, limit=limit):
            return tr(lang, "{time} is past the category's time limit ({limit}): record the "
                      "pieces with {pieces} instead.", time=format_duration(t),
                      limit=span_text(lang, limit), pieces=typed(lang, PIECES))
        case EscapeNotOver(entry=entry):
            return tr(lang, "Entry {entry} has not finished the escape yet: record it "
                      "with {escape} first.", entry=entry, escape=typed(lang, SOLVED))
        case _:
            assert_never(refused)


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
        text += " " + tr(lang, "To register, press Start and then send {register}.",
                         register=typed(lang, REGISTER))
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


def short(name: str, most: int = RANKING_NAME) -> str:
    """A name cut to ``most`` characters for a ranking's line (the whole name is in the exports)."""
    return name if len(name) <= most else name[:most - 1].rstrip() + "…"
