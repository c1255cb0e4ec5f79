"""A waiting list that moves itself: the rules, pure.

An offer's deadline runs from when the entry's people were told of it (an ``offer`` event,
its deadline in ``value``), never from the moment the place freed up: a place freed while the
bot was off, or offered to an entry nobody could be told yet, still gives its people their
whole time. Told before its category's start (a category played once), it ends at that start
at the latest: an offer is no use once its category has begun."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.domain.contest import Contest
from bot.domain.events import ACCEPT, OFFER
from bot.domain.places import WAITING_LIST

__all__ = ["ACCEPT", "OFFER", "WAITING_LIST"]  # its event kinds (bot/domain/events.py)

BUTTON = "offer"  # its buttons' data: offer:yes:N, offer:no:N
OFFER_DEFAULT_HOURS = 24
OFFER_MAX_HOURS = 14 * 24


@dataclass(frozen=True)
class OfferRules:
    """``offer_hours``: how long the next in line has to accept a place offered."""

    offer_hours: int = OFFER_DEFAULT_HOURS

    @property
    def within(self) -> timedelta:
        return timedelta(hours=self.offer_hours)


def rules_of(contest: Contest) -> OfferRules | None:
    """The contest's ``[waiting_list]`` (None: a freed place is taken at once)."""
    found = contest.settings(WAITING_LIST)
    return found if isinstance(found, OfferRules) else None


def deadline(contest: Contest, rules: OfferRules, category: str, told_at: datetime) -> datetime:
    """Until when an offer told at ``told_at`` may be accepted: ``offer_hours`` later, but,
    for a category played once told before its start, never after that start (an offer told
    once it has begun, a late place the organisers freed, keeps ``offer_hours``; a category in
    rounds has a start per heat: its offers keep ``offer_hours``)."""
    until = told_at + rules.within
    cat = contest.category(category)
    start = contest.start_of(cat) if cat is not None and not cat.rounds else None
    if start is not None and told_at < start < until:
        return start
    return until
