"""How the day's moments, days and heats are named in running text, a label and its value, a
role: below bot/texts/common.py and the features' texts, so that each of them may use these."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from decimal import Decimal
from functools import cache
from zoneinfo import ZoneInfo

from babel.dates import format_date
from babel.lists import format_list
from babel.numbers import format_decimal
from babel.units import format_unit

from bot.domain.clock import format_duration
from bot.domain.contest import Category, Contest, localized
from bot.domain.rounds import Heat, heats_by_id
from bot.support.commands import in_language
from bot.support.i18n import LANGUAGES, tr


def names(names_: Sequence[str]) -> str:
    return " / ".join(names_) if names_ else "-"


# a weekday and a day in running text ("el sábado 3 de julio", "le samedi 3 juillet")
_DAY_PATTERNS = {"es": "EEEE d 'de' MMMM", "de": "EEEE, d. MMMM", "it": "EEEE d MMMM",
                 "pt": "EEEE, d 'de' MMMM", "nl": "EEEE d MMMM"}


CURRENCY_SYMBOLS = {"EUR": "€"}  # as summary.money writes them; other currencies by their code


def amount_text(lang: str, cents: int, currency: str) -> str:
    """"12,50 €" (Spanish), "12.50 €" (English): an amount as the reader writes numbers
    (Babel), a whole one without cents ("5 €")."""
    number = format_decimal(Decimal(cents) / 100,
                            format="#,##0" if cents % 100 == 0 else "#,##0.00", locale=lang)
    return f"{number} {CURRENCY_SYMBOLS.get(currency, currency)}"


def clock_time(contest: Contest, moment: datetime) -> str:
    """A real instant as the hall's wall clock shows it (contest time zone)."""
    return moment.astimezone(ZoneInfo(contest.timezone)).strftime("%H:%M:%S")


def day_text(lang: str, day: date) -> str:
    """"Saturday 3 July" in the reader's language."""
    return format_date(day, format=_DAY_PATTERNS.get(lang, "EEEE d MMMM"), locale=lang)


def round_name(lang: str, contest: Contest, category: Category, index: int) -> str:
    name = category.rounds[index].name
    return localized(name, lang, contest.language) or category.rounds[index].id


def heat_name(lang: str, contest: Contest, heat: Heat) -> str:
    """"Semi-final", or "Heats 2" when the round has several heats; a heat with a name of
    its own, or chosen by a question (``heats_by``), by it: "Local contest – Fitchburg
    Library"."""
    name = round_name(lang, contest, heat.category, heat.round_index)
    choice = heat_label(lang, contest, heat)
    if choice is not None:
        return f"{name} – {choice}"
    return f"{name} {heat.number}" if heat.round.heats > 1 else name


def heat_label(lang: str, contest: Contest, heat: Heat) -> str | None:
    """The heat's own name ("Dane County"), else what the answer that puts an entry in it
    reads ("Fitchburg Library") in a round split by a question (None: neither)."""
    rnd = heat.round
    own = rnd.schedule[heat.number - 1].name if len(rnd.schedule) >= heat.number else {}
    if own:
        return localized(own, lang, contest.language) or None
    if rnd.heats_by is None or heat.number > len(rnd.heat_choices):
        return None
    q = contest.question(rnd.heats_by)
    choice = q.choice(rnd.heat_choices[heat.number - 1]) if q is not None else None
    return choice.shown(lang) if choice is not None else rnd.heat_choices[heat.number - 1]


def unit_names(contest: Contest, rounds: dict[str, tuple[Category, int]],
               unit_id: str) -> set[str]:
    """Every name people may type for a category, a round (``rounds``: the day's round ids)
    or a heat, in every language: "Adultos parejas", "Semi-final (Pairs)", "Heats 2 Pairs"."""
    out: set[str] = set()
    category = contest.category(unit_id)
    if category is not None:
        out.add(category.name)
    heat = heats_by_id(contest.categories).get(unit_id)
    played = rounds.get(unit_id)
    for lang in LANGUAGES:
        if heat is not None:
            name, of = heat_name(lang, contest, heat), heat.category.name
            choice = heat_label(lang, contest, heat)
            if choice is not None:  # "Fitchburg Library", "Porto"
                out |= {choice, f"{choice} {of}", f"{choice} ({of})"}
        elif played is not None:
            name, of = round_name(lang, contest, *played), played[0].name
        else:
            continue
        out |= {name, f"{name} {of}", f"{name} ({of})", f"{of} {name}"}
    return out


def unit_label(lang: str, contest: Contest, rounds: dict[str, tuple[Category, int]],
               unit_id: str) -> str:
    """A category, round or heat as a list of them names it: "Heats 2 (Pairs)"."""
    heat = heats_by_id(contest.categories).get(unit_id)
    if heat is not None:
        return f"{heat_name(lang, contest, heat)} ({heat.category.name})"
    played = rounds.get(unit_id)
    if played is not None:
        return f"{round_name(lang, contest, *played)} ({played[0].name})"
    category = contest.category(unit_id)
    return category.name if category is not None else unit_id


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


def usage_text(lang: str, line: str, example: str | None = None) -> str:
    """How to type a command (``/historial N``), as the reader types it, with an example and
    what it means (issue 26: a usage line alone left people guessing): ``example``, a
    feature's own, or the one below."""
    text = tr(lang, "Usage: {usage}", usage=in_language(lang, line))
    words = line.split()
    if example is None:
        example = _example(lang, words[0] if words else "")
    return f"{text}\n{example}" if example else text


def _example(lang: str, command: str) -> str:
    match command:
        case "/historial":
            return tr(lang, "For example /historial 12 (everything recorded for entry 12).")
        case _:
            return ""


DAY_SECONDS = 86400
_SPANS = (("week", 7 * DAY_SECONDS), ("day", DAY_SECONDS), ("hour", 3600))


def span_text(lang: str, seconds: int) -> str:
    """A span as people say it: from a day up, in weeks, days or hours ("3 weeks", "10 days",
    "36 hours", never "504:00:00"); from two days up, days and hours rather than hundreds of
    hours ("27 days and 23 hours", its seconds left out); under a day, as the clock shows it
    ("1:30:00")."""
    if seconds < DAY_SECONDS:
        return format_duration(seconds)
    for unit, size in _SPANS:
        if seconds % size == 0 and (unit != "hour" or seconds < 2 * DAY_SECONDS):
            return _unit(lang, seconds // size, unit)
    days, rest = divmod(seconds, DAY_SECONDS)
    if days >= 2:
        hours, minutes = rest // 3600, rest % 3600 // 60
        return format_list([_unit(lang, n, unit) for n, unit in
                            ((days, "day"), (hours, "hour"), (minutes, "minute")) if n],
                           locale=lang)
    return _unit(lang, days, "day") + " " + format_duration(rest)


def _unit(lang: str, n: int, unit: str) -> str:
    """"3 weeks", "1 Tag", in the reader's language."""
    return str(format_unit(n, f"duration-{unit}", length="long", locale=lang))
