"""The contest file's ``[privacy]`` table (optional): how long the bot keeps personal data
after the contest."""

from __future__ import annotations

from bot.domain.contest import Contest
from bot.features.privacy.rules import MOST_DAYS, PRIVACY, PrivacyRules, removal_at, rules_of
from bot.services.contest_toml import Table
from bot.support.contest_keys import Key, Section

TABLE = PRIVACY
KEYS = Section(TABLE, "How long personal data is kept. Optional: without it the bot removes "
               "nothing by itself (the organisers delete the database when they are done). "
               "With it, keep_days after the contest day the bot removes members' births "
               "(unless a category ranks by age, or the entry's people agreed to keep them for "
               "ratings), the answers no rule reads any more, and the phones: who registered "
               "or follows each entry, their names, languages and the texts sent to them. "
               "Names, results, payments and refunds stay.", (
                   Key("keep_days", "int", "Days after the contest day the data is kept.",
                       minimum=1, maximum=MOST_DAYS, example="60"),
               ))


def describe(contest: Contest) -> list[str]:
    """What ``check-contest``'s summary says of it (nothing without the table)."""
    rules = rules_of(contest)
    if rules is None:
        return []
    when = removal_at(contest, rules)
    return [f"Privacy: births, answers no rule needs and phone links removed on "
            f"{when:%Y-%m-%d %H:%M} ({rules.keep_days} days after the contest)"]


def read(t: Table) -> PrivacyRules:
    days = t.int("keep_days")
    t.done()
    return PrivacyRules(days)
