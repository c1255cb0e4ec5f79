"""The contest file's ``[following]`` table (optional): ``first_phone = "organisers"`` (the
default: an organiser allows the first phone that scans the table card of an entry no phone
follows yet) or ``"anyone"`` (that first scan follows the entry at once)."""

from __future__ import annotations

from bot.domain.contest import Contest
from bot.features.following.rules import FIRST_PHONE, ORGANISERS, FollowRules
from bot.services.contest_toml import Table
from bot.support.contest_keys import Key, Section

TABLE = "following"
FEATURE = "following"
KEYS = Section(TABLE, "Table cards: who lets in the first phone that scans the card of an "
               "entry no phone follows yet.", (
    Key("first_phone", "choice", "An organiser, asked with Allow / Refuse, or anyone (that "
        "scan follows the entry at once).", default=ORGANISERS, choices=FIRST_PHONE),
))  # the name its settings are kept under (``Contest.settings``)


def rules_of(contest: Contest) -> FollowRules:
    found = contest.settings(FEATURE)
    return found if isinstance(found, FollowRules) else FollowRules()


def describe(contest: Contest) -> list[str]:
    """What ``check-contest``'s summary says of it (nothing without the table)."""
    found = contest.settings(FEATURE)
    if not isinstance(found, FollowRules):
        return []
    if found.first_phone == ORGANISERS:
        return ["Table cards: an organiser allows an entry's first phone"]
    return ["Table cards: an entry's first phone follows it when it scans the card"]


def read(t: Table) -> FollowRules:
    first = t.get("first_phone", str, ORGANISERS)
    t.done()
    return FollowRules(first)
