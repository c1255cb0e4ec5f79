"""The contest file's ``[waiting_list]`` table (optional): a freed place offered to the next in
line, who accepts it within ``offer_hours``; without it the next in line takes it at once."""

from __future__ import annotations

from bot.domain.contest import Contest
from bot.features.waiting_list.rules import (
    OFFER_DEFAULT_HOURS,
    OFFER_MAX_HOURS,
    WAITING_LIST,
    OfferRules,
    rules_of,
)
from bot.services.contest_toml import Table
from bot.support.contest_keys import Key, Section

TABLE = WAITING_LIST
KEYS = Section(TABLE, "A waiting list that moves itself. Optional: without it, a place that "
               "frees up goes at once to the next in line. With it, the place is offered to "
               "the next in line, who accepts it in the chat; not accepted in time, it is "
               "offered to the one after, and the entry is out of the waiting list (refunded "
               "in full).", (
                   Key("offer_hours", "int", "Hours the next in line has to accept a place "
                       "offered, counted from when its people are told (ending at its "
                       "category's start at the latest).", default=OFFER_DEFAULT_HOURS,
                       minimum=1, maximum=OFFER_MAX_HOURS, example="24"),
               ))


def describe(contest: Contest) -> list[str]:
    """What ``check-contest``'s summary says of it (nothing without the table)."""
    rules = rules_of(contest)
    if rules is None:
        return []
    return [f"Waiting list: a freed place is offered to the next in line, who has "
            f"{rules.offer_hours} h to accept it"]


def read(t: Table) -> OfferRules:
    hours = t.int("offer_hours", OFFER_DEFAULT_HOURS)
    t.done()
    return OfferRules(hours)
