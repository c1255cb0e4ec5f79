"""What people read of a place offered from the waiting list: the offer with its deadline and
its buttons, the answer to accepting it, why it could not be, and the events' names in a
history."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.domain.contest import Contest
from bot.domain.places import Place
from bot.features.waiting_list.names import ACCEPT_PLACE
from bot.features.waiting_list.rules import BUTTON
from bot.support.commands import typed
from bot.support.i18n import tr
from bot.texts.common import moment_text, names


def offer_text(lang: str, contest: Contest, number: int, place: Place) -> str:
    """Entry ``number``'s people told of the place offered to it, with its deadline."""
    first = tr(lang, "Good news: a place has freed up and it is offered to entry #{entry}, "
               "first in line.", entry=number)
    if place.offer_until is None:
        return first + " " + tr(lang, "Accept it with {accept}.",
                                accept=typed(lang, ACCEPT_PLACE))
    return first + " " + tr(
        lang, "It is yours if you accept it by {time} (the button below, or {accept}); "
        "otherwise it goes to the next in line and your entry leaves the waiting list.",
        time=moment_text(lang, contest, place.offer_until), accept=typed(lang, ACCEPT_PLACE))


def offer_buttons(lang: str, number: int) -> list[list[tuple[str, str]]]:
    return [[(tr(lang, "Accept the place"), f"{BUTTON}:yes:{number}"),
             (tr(lang, "Give it up"), f"{BUTTON}:no:{number}")]]


def offered_status(lang: str, contest: Contest, place: Place) -> str:
    """A place offered, as a list of entries shows it."""
    if place.offer_until is None:
        return tr(lang, "place offered: accept it with {accept}",
                  accept=typed(lang, ACCEPT_PLACE))
    return tr(lang, "place offered: accept it by {time} with {accept}",
              time=moment_text(lang, contest, place.offer_until),
              accept=typed(lang, ACCEPT_PLACE))


def offered_line(lang: str, contest: Contest, number: int, who: Sequence[str],
                 until: datetime | None) -> str:
    """/inscritos: a place offered and not accepted yet."""
    if until is None:
        return "  " + tr(lang, "#{entry} {names}: place offered, its people not told yet",
                         entry=number, names=names(who))
    return "  " + tr(lang, "#{entry} {names}: place offered, to accept by {time}",
                     entry=number, names=names(who), time=moment_text(lang, contest, until))


def accepted_text(lang: str, number: int) -> str:
    return tr(lang, "Entry #{entry}: place accepted. Your place is confirmed.", entry=number)


def accepted_copy(lang: str, number: int, by: str) -> str:
    """The entry's other phones: someone of it accepted."""
    return tr(lang, "{name} accepted the place offered to entry #{entry}: it is confirmed.",
              name=by, entry=number)


def not_offered_text(lang: str, number: int) -> str:
    return tr(lang, "Entry #{entry} has no place offered to accept.", entry=number)


def offer_ended_text(lang: str, number: int, until: str) -> str:
    return tr(lang, "Entry #{entry}: the place offered could be accepted until {time}; it "
              "has gone to the next in line.", entry=number, time=until)


def unfollowed_offer_text(lang: str, contest: Contest, number: int, who: Sequence[str],
                          until: datetime) -> str:
    """For the organisers: a place offered to an entry no phone follows (nobody of it can be
    told or accept)."""
    return tr(lang, "A place is offered to entry #{entry} {names}, first in line, but no phone "
              "follows it, so nobody of it has been told. Reach them, and accept it for them "
              "with {accept} {entry} by {time}; otherwise it goes to the next in line.",
              entry=number, names=names(who), accept=typed(lang, ACCEPT_PLACE),
              time=moment_text(lang, contest, until))


def no_waiting_list(lang: str) -> str:
    return tr(lang, "This contest offers no places from a waiting list: a place that frees "
              "up goes straight to the next in line.")


def offer_name(lang: str) -> str:
    return tr(lang, "place offered")


def accept_name(lang: str) -> str:
    return tr(lang, "place accepted")
