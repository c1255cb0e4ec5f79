"""The contest file's ``[partners]`` table (optional): someone alone may register in a
category of pairs or teams, looking for a partner, and be matched with another."""

from __future__ import annotations

from bot.domain.contest import Contest
from bot.features.partners.rules import PARTNERS, PartnerRules, rules_of
from bot.services.contest_toml import Table
from bot.support.contest_keys import Key, Section

TABLE = PARTNERS
KEYS = Section(TABLE, "Finding a partner. Optional: without it, an entry of a category of "
               "pairs or teams registers with all its members. With it, someone alone may "
               "register looking for a partner: the entry holds no place until it is matched "
               "with another such entry of its category (by the organisers, or by both asking "
               "for each other), then takes a free place or joins the end of the waiting list. "
               "Still alone when registration closes, it is out and refunded in full.", (
                   Key("self_service", "bool", "Whether people looking for a partner see each "
                       "other's names (never births) and are matched when both ask for each "
                       "other; false: only the organisers match them.", default=True,
                       example="true"),
               ))


def describe(contest: Contest) -> list[str]:
    """What ``check-contest``'s summary says of it (nothing without the table)."""
    rules = rules_of(contest)
    if rules is None:
        return []
    who = "organisers, or both entries asking" if rules.self_service else "organisers"
    return [f"Partners: someone alone may register in pairs or teams, matched by the {who}"]


def read(t: Table) -> PartnerRules:
    self_service = bool(t.get("self_service", bool, True))
    t.done()
    return PartnerRules(self_service)
