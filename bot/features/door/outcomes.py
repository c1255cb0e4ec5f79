"""What ``arrive`` gives back, each outcome declared once, and what the volunteer reads of it
(``answer``: a ``match`` ending in ``assert_never``, so mypy proves each has its line)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import ClassVar, assert_never

from bot.domain.contest import Contest
from bot.domain.places import Status
from bot.domain.rounds import heats_by_id
from bot.services.outcomes import Refusal, UnknownEntry
from bot.storage.records import Entry
from bot.support.i18n import tr
from bot.texts.common import date_text, refusal
from bot.texts.names import clock_time, heat_name, names


@dataclass(frozen=True)
class Arrived:
    """Entry ``entry`` marked present at ``at``; ``here`` of ``expected`` in its category (or
    heat) ``unit`` have come."""

    entry: Entry
    at: datetime
    unit: str
    here: int
    expected: int


@dataclass(frozen=True)
class AlreadyHere(Refusal):
    code: ClassVar[str] = "door_already_here"
    entry: Entry
    since: datetime


@dataclass(frozen=True)
class HoldsNoPlace(Refusal):
    """The entry holds no place (withdrawn, waiting, unpaid): nobody expects it at a table."""

    code: ClassVar[str] = "door_no_place"
    entry: Entry
    status: Status


@dataclass(frozen=True)
class NotItsDay(Refusal):
    """Not the day its category or heat is played (``day``): nobody comes to the door yet."""

    code: ClassVar[str] = "door_not_its_day"
    entry: Entry
    day: date


Outcome = Arrived | AlreadyHere | HoldsNoPlace | NotItsDay | UnknownEntry


def unit_title(lang: str, contest: Contest, unit: str) -> str:
    """A category's name, or a heat's with its category's ("Individual – Heats 2"), as a
    volunteer tells them apart."""
    category = contest.category(unit)
    if category is not None:
        return category.name
    heat = heats_by_id(contest.categories).get(unit)
    return f"{heat.category.name} – {heat_name(lang, contest, heat)}" if heat is not None \
        else unit


def answer(lang: str, out: Outcome, contest: Contest) -> str:
    """The volunteer's answer."""
    match out:
        case Arrived():
            where = unit_title(lang, contest, out.unit)
            return tr(lang, "✅ #{entry} {names}: here ({time}). {unit}: {here} of {expected} "
                      "here.", entry=out.entry.number, names=names(out.entry.names),
                      time=clock_time(contest, out.at)[:5], unit=where, here=out.here,
                      expected=out.expected)
        case AlreadyHere():
            return tr(lang, "#{entry} {names} was marked present already, at {time}.",
                      entry=out.entry.number, names=names(out.entry.names),
                      time=clock_time(contest, out.since)[:5])
        case HoldsNoPlace():
            return tr(lang, "#{entry} {names} holds no place ({status}): nobody expects it at "
                      "a table. Check with the organisers.", entry=out.entry.number,
                      names=names(out.entry.names), status=_status(lang, out.status))
        case NotItsDay():
            return tr(lang, "#{entry} {names} plays on {day}: it is marked present at the door "
                      "that day.", entry=out.entry.number, names=names(out.entry.names),
                      day=date_text(lang, out.day))
        case UnknownEntry():
            return refusal(lang, out, contest)
        case _:
            assert_never(out)


def _status(lang: str, status: Status) -> str:
    match status:
        case Status.WITHDRAWN | Status.DECLINED:
            return tr(lang, "withdrawn")
        case Status.WAITING | Status.LEFT_OUT:
            return tr(lang, "on the waiting list")
        case Status.PENDING_PAYMENT | Status.LAPSED:
            return tr(lang, "not paid")
        case Status.SEEKING:
            return tr(lang, "looking for a partner")
        case Status.UNMATCHED:
            return tr(lang, "no partner found")
        case Status.CONFIRMED:
            return ""
        case _:
            assert_never(status)
