"""The plain formatting every feature's texts share: a moment on the hall's clock, a day in
running text, a list of names. Below common.py and the feature texts, so both can use it."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from zoneinfo import ZoneInfo

from babel.dates import format_date

from bot.domain.contest import Contest


def clock_time(contest: Contest, moment: datetime) -> str:
    """A real instant as the hall's wall clock shows it (contest time zone)."""
    return moment.astimezone(ZoneInfo(contest.timezone)).strftime("%H:%M:%S")


def names(names_: Sequence[str]) -> str:
    return " / ".join(names_) if names_ else "-"


# a weekday and a day in running text ("el sábado 3 de julio", "le samedi 3 juillet")
_DAY_PATTERNS = {"es": "EEEE d 'de' MMMM"}


def day_text(lang: str, day: date) -> str:
    """"Saturday 3 July" in the reader's language."""
    return format_date(day, format=_DAY_PATTERNS.get(lang, "EEEE d MMMM"), locale=lang)
