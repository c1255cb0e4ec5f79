"""What the bot keeps of people, and for how long: the rules, pure.

With ``[privacy] keep_days``, ``keep_days`` after the contest day the bot removes what no rule
of the contest needs any more: members' births, the answers no rule reads, and the phones
(who registered an entry, who follows it, who sent what; their names and languages, their
conversations, the texts sent to them). Kept: names and results (the rankings), payments and
refunds (the accounts), and whatever a rule of the contest reads once the day is over (the
answers that give a discount, make an entry local, hold a quota, rank it separately or are
published; births where a category ranks by age). An entry whose people agreed to keep its
births for the ratings across contests (``consent``) keeps them.

Erasure on request takes the same away from one entry at once, and its names as well unless
it has a result the rankings show (the rules need a result under a name)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from bot.domain.contest import Contest
from bot.domain.events import CONSENT, ERASE, PURGE
from bot.features.registration.rules import Member

__all__ = ["CONSENT", "ERASE", "PURGE"]  # its event kinds (bot/domain/events.py)

PRIVACY = "privacy"
RETENTION = "retention"  # the ref of the one ``purge`` event
MOST_DAYS = 3650
BUTTON = "erase"  # the erasure's question: erase:y:N, erase:n:N


@dataclass(frozen=True)
class PrivacyRules:
    """``keep_days``: how many days after the contest day personal data is kept."""

    keep_days: int


def rules_of(contest: Contest) -> PrivacyRules | None:
    """The contest's ``[privacy]`` (None: the bot removes nothing by itself)."""
    found = contest.settings(PRIVACY)
    return found if isinstance(found, PrivacyRules) else None


def last_day(contest: Contest) -> date:
    """The contest's last day: its date, or the latest day one of its rounds or heats is
    played (a championship's final, a series' last heat)."""
    days = [contest.date]
    for cat in contest.categories:
        for r in cat.rounds:
            days.append(r.date)
            days += [h.date for h in r.schedule]
    return max(days)


def removal_at(contest: Contest, rules: PrivacyRules) -> datetime:
    """When the data is removed: the end of the contest's last day (midnight after it, in
    the contest's time zone) plus ``keep_days``."""
    day_after = last_day(contest) + timedelta(days=1 + rules.keep_days)
    return datetime.combine(day_after, time(0), tzinfo=ZoneInfo(contest.timezone))


def kept_questions(contest: Contest) -> frozenset[str]:
    """The questions whose answers stay once the day is over: those a rule reads
    (``Contest.rule_questions``: every round's heats and qualifiers' counts among them), and
    those published or shown in the rankings."""
    shown = {q.id for q in contest.questions if q.public or q.show}
    return contest.rule_questions() | shown


def births_needed(contest: Contest, category: str) -> bool:
    """Whether a rule still reads the births of the category's members after the day: it
    ranks some of them separately by age."""
    cat = contest.category(category)
    return cat is not None and any(s.min_age is not None or s.max_age is not None
                                   for s in cat.separate)


def forgotten(member: Member, keep: frozenset[str], births: bool) -> Member:
    """A member with only what is kept: the answers in ``keep``, and the birth if ``births``."""
    out = replace(member, answers=frozenset(a for a in member.answers if a in keep),
                  values=tuple((q, v) for q, v in member.values if q in keep))
    return out if births else replace(out, born=None, born_year=None)


def kept_values(values: Iterable[tuple[str, str]], keep: frozenset[str]
                ) -> tuple[tuple[str, str], ...]:
    return tuple((q, v) for q, v in values if q in keep)


def erased_names(number: int, count: int) -> list[str]:
    """The names an entry erased on request is listed under (it has no result): "#12.1"..."""
    return [f"#{number}.{k}" for k in range(1, count + 1)]


def consented(events: Sequence[tuple[int, int]]) -> frozenset[int]:
    """The entries whose people agreed to keep their births for the ratings, from their
    consent events in order, (entry, 1 agreed / 0 taken back): the last one counts."""
    last: dict[int, int] = {}
    for entry, value in events:
        last[entry] = value
    return frozenset(n for n, v in last.items() if v)
