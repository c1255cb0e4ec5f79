"""Changing one's answers: the rules, pure.

An entry's people change the answers no rule of the contest reads: a club's name, a size, a
team's name asked as a question. The answers that decide a fee, a local place, a quota, a
choice's places, a separate ranking or a heat stay as registered (as a correction keeps
them): changing them would move money or places after the fact. Each answer that may change
is a *row*, numbered from 1: every member's, in order, then the entry's own."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.domain.contest import Contest, Question
from bot.domain.events import ANSWER_FIX
from bot.features.registration.rules import Member

__all__ = ["ANSWER_FIX"]  # its event kind (bot/domain/events.py)

BUTTON = "ans"  # its buttons' data: ans:N:R (choose), ans:N:R:K (the answer K: y/n or a choice)
YES, NO = "yes", "no"


def fixed_questions(contest: Contest) -> frozenset[str]:
    """The questions whose answers stay as registered: those a rule reads
    (``Contest.rule_questions``)."""
    return contest.rule_questions()


@dataclass(frozen=True)
class Row:
    """One answer that may change: of member ``member`` (0-based; None: the entry's own), to
    question ``question`` (its index in the contest's questions), as it is now (None: not
    answered)."""

    member: int | None
    question: int
    value: str | None


def rows(contest: Contest, category: str, members: Sequence[Member],
         values: Sequence[tuple[str, str]]) -> list[Row]:
    """The entry's answers that may change, in order."""
    fixed = fixed_questions(contest)
    asked = [(i, q) for i, q in enumerate(contest.questions)
             if q.asks(category) and q.id not in fixed]
    out = [Row(m, i, _member_value(q, member)) for m, member in enumerate(members)
           for i, q in asked if not q.per_entry]
    entry = dict(values)
    out += [Row(None, i, entry.get(q.id)) for i, q in asked if q.per_entry]
    return out


def _member_value(q: Question, m: Member) -> str | None:
    if q.yes_no:
        return YES if q.id in m.answers else NO
    return m.value(q.id)


def choice_value(q: Question, key: str) -> str | None:
    """The answer a button gives (``key``: y/n, or a choice's index); None: not one of it."""
    if q.yes_no:
        return {"y": YES, "n": NO}.get(key)
    if q.kind == "choice" and key.isascii() and key.isdigit() and int(key) < len(q.choices):
        return q.choices[int(key)].id
    return None


def row_of(found: Sequence[Row], member: str, question: str) -> int | None:
    """The row (1-based) of a button's member ("e": the entry's own) and question (its
    index), as the rows are now (None: no such row any more: an old button)."""
    for k, r in enumerate(found, 1):
        if str(r.question) == question and (
                "e" if r.member is None else str(r.member)) == member:
            return k
    return None


def typed_choice(q: Question, typed: str, lang: str) -> str | None:
    """The choice a typed answer names (its id or its label, any case); None: none does."""
    key = typed.strip().casefold()
    return next((c.id for c in q.choices
                 if key in (c.id.casefold(), c.shown(lang).casefold())), None)


def with_answer(member: Member, q: Question, value: str) -> Member:
    """``member`` with ``value`` as its answer to ``q``."""
    if q.yes_no:
        answers = member.answers - {q.id} | ({q.id} if value == YES else set())
        return replace(member, answers=frozenset(answers))
    values = dict(member.values)
    values[q.id] = value
    return replace(member, values=tuple((qid, values[qid]) for qid in values))


def entry_with_answer(values: Sequence[tuple[str, str]], q: Question, value: str
                      ) -> tuple[tuple[str, str], ...]:
    out = dict(values)
    out[q.id] = value
    return tuple(out.items())
