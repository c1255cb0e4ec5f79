"""What ``warn`` gives back, each outcome declared here once, and what each person reads of it in
their language: the volunteer's answer (``answer``: a ``match`` ending in ``assert_never``, so
mypy proves every outcome has its line; no fallback), the entry's phones, the volunteers' line
at a disqualification."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, assert_never

from bot.domain.contest import Category, Contest
from bot.features.standings.texts import final_note
from bot.features.warnings.texts import usage
from bot.services.contest_day import RoundClosed
from bot.services.outcomes import Refusal, UnknownEntry
from bot.support.i18n import ntr, tr
from bot.texts.common import refusal


@dataclass(frozen=True)
class Warned:
    """A warning recorded: the entry's ``count``-th in its heat (``limit``: the contest's, 0
    none); ``disqualified``: it disqualified the entry."""

    entry: int
    reason: str
    count: int
    limit: int
    disqualified: bool
    event_id: int
    final: Category | None = None  # its category's results were final already (told otherwise)


@dataclass(frozen=True)
class ReasonMissing(Refusal):
    """Nothing readable in the reason once cleaned (invisible characters only)."""

    code: ClassVar[str] = "warning_reason_missing"


@dataclass(frozen=True)
class ReasonTooLong(Refusal):
    code: ClassVar[str] = "warning_reason_too_long"
    limit: int


Outcome = Warned | UnknownEntry | RoundClosed | ReasonMissing | ReasonTooLong


def _count(lang: str, out: Warned) -> str:
    if out.limit:
        return tr(lang, "warning {count} of {limit}", count=out.count, limit=out.limit)
    return tr(lang, "warning {count}", count=out.count)


def answer(lang: str, out: Outcome, contest: Contest) -> str:
    """The volunteer's answer."""
    match out:
        case Warned():
            line = tr(lang, "Recorded for #{entry}: {count} ({reason}).", entry=out.entry,
                      count=_count(lang, out), reason=out.reason)
            if out.disqualified:
                line += " " + tr(lang, "That is the limit: entry {entry} is disqualified.",
                                 entry=out.entry)
            return line if out.final is None else line + "\n" + final_note(lang,
                                                                            out.final.name)
        case ReasonMissing():
            return usage(lang)
        case ReasonTooLong(limit=limit):
            return tr(lang, "A warning's reason is at most {limit} characters: nothing "
                      "recorded.", limit=limit)
        case UnknownEntry() | RoundClosed():
            return refusal(lang, out, contest)
        case _:
            assert_never(out)


def notice(lang: str, out: Warned) -> str:
    """The entry's phones."""
    if out.disqualified:
        return ntr(lang, "Your entry has received {n} warning and is disqualified: {reason}.",
                   "Your entry has received {n} warnings and is disqualified. The last one: "
                   "{reason}.", out.count, reason=out.reason)
    if out.limit:
        return tr(lang, "A volunteer gave your entry a warning ({count}): {reason}. At "
                  "{limit} warnings the entry is disqualified.", count=_count(lang, out),
                  reason=out.reason, limit=out.limit)
    return tr(lang, "A volunteer gave your entry a warning: {reason}.", reason=out.reason)


def staff_line(lang: str, out: Warned) -> str:
    """The volunteers' line, when a warning disqualified the entry."""
    return ntr(lang, "#{entry} disqualified: {n} warning ({reason}).",
               "#{entry} disqualified: {n} warnings (the last: {reason}).", out.count,
               entry=out.entry, reason=out.reason)
