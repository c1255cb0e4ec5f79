"""How the day's moments, days and heats are named in running text, a label and its value, a
role: below bot/texts/common.py and the features' texts, so that each of them may use these."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from functools import cache
from zoneinfo import ZoneInfo

from babel.dates import format_date

from bot.domain.contest import Category, Contest
from bot.domain.rounds import Heat, heats_by_id
from bot.support.i18n import tr


def names(names_: Sequence[str]) -> str:
    return " / ".join(names_) if names_ else "-"


# a weekday and a day in running text ("el sábado 3 de julio", "le samedi 3 juillet")
_DAY_PATTERNS = {"es": "EEEE d 'de' MMMM"}


def clock_time(contest: Contest, moment: datetime) -> str:
    """A real instant as the hall's wall clock shows it (contest time zone)."""
    return moment.astimezone(ZoneInfo(contest.timezone)).strftime("%H:%M:%S")


def day_text(lang: str, day: date) -> str:
    """"Saturday 3 July" in the reader's language."""
    return format_date(day, format=_DAY_PATTERNS.get(lang, "EEEE d MMMM"), locale=lang)


def round_name(lang: str, contest: Contest, category: Category, index: int) -> str:
    name = category.rounds[index].name
    return name.get(lang) or name.get(contest.language) or next(iter(name.values()))


def heat_name(lang: str, contest: Contest, heat: Heat) -> str:
    """"Semi-final", or "Heats 2" when the round has several heats."""
    name = round_name(lang, contest, heat.category, heat.round_index)
    return f"{name} {heat.number}" if heat.round.heats > 1 else name


def heat_by_id(lang: str, contest: Contest, heat_id: str) -> str:
    """A heat's name by its id (the id itself when the contest has no such heat)."""
    heat = heats_by_id(contest.categories).get(heat_id)
    return heat_name(lang, contest, heat) if heat is not None else heat_id


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


def role_name(lang: str, role: str) -> str:
    words = {"participant": tr(lang, "participant"), "volunteer": tr(lang, "volunteer"),
             "organiser": tr(lang, "organiser"), "system": tr(lang, "bot")}
    return words.get(role, role)
