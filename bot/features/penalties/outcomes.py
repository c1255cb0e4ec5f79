"""What recording penalties gives back, each outcome declared here once, and what people read
of it: the volunteer's answer (``answer``, exhaustive: mypy proves every outcome has its line,
the shared refusals in their shared words), the entry's notice."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, assert_never

from bot.domain.clock import format_duration
from bot.domain.contest import Category, Contest
from bot.features.results.outcomes import ResultsRefusal
from bot.features.results.texts import penalty_name
from bot.features.standings.texts import final_note
from bot.services.contest_day import RoundClosed
from bot.services.outcomes import Done, Refusal, SharedRefusal
from bot.support.i18n import tr
from bot.texts.common import refusal


@dataclass(frozen=True)
class PenaltyRecorded(Done):
    """``count`` penalties of ``kind`` recorded for ``entry``; ``total``: the seconds all its
    penalties now add; ``final``: the category whose results were final already (its entries
    were told otherwise), if so."""

    entry: int
    kind: str
    count: int
    seconds: int
    total: int
    event_id: int | None = None
    final: Category | None = None


@dataclass(frozen=True)
class UnknownPenalty(Refusal):
    """No such penalty kind in the contest file (``known``: the ones there are)."""

    code: ClassVar[str] = "unknown_penalty"
    given: str
    known: tuple[str, ...]


Outcome = PenaltyRecorded | UnknownPenalty | ResultsRefusal | SharedRefusal | RoundClosed


def answer(lang: str, out: Outcome, contest: Contest) -> str:
    match out:
        case PenaltyRecorded():
            text = tr(lang, "Entry {entry}: penalty recorded, {what} ×{count} (+{time}). Its "
                      "penalties now total {total}.", entry=out.entry,
                      what=penalty_name(lang, contest, out.kind), count=out.count,
                      time=format_duration(out.seconds), total=format_duration(out.total))
            return text if out.final is None else text + "\n" + final_note(lang, out.final.name)
        case UnknownPenalty(given=given, known=known):
            if not known:
                return tr(lang, "This contest has no penalties.")
            return tr(lang, "No penalty called \"{given}\". This contest has: {known}.",
                      given=given[:32], known=", ".join(known))
        case _:
            if isinstance(out, Refusal):
                return refusal(lang, out, contest)
            assert_never(out)


def notice(lang: str, contest: Contest, out: PenaltyRecorded) -> str:
    """To the entry's phones."""
    return tr(lang, "A penalty was recorded for your entry: {what} ×{count} (+{time}).",
              what=penalty_name(lang, contest, out.kind), count=out.count,
              time=format_duration(out.seconds))
