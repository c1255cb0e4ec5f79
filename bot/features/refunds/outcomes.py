"""What recording a refund gives back, each outcome declared once, and what people read of it
(``answer``: exhaustive, mypy proves every outcome has its line)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, assert_never

from bot.domain.contest import Contest
from bot.services.outcomes import Done, Refusal, UnknownEntry
from bot.support.i18n import tr
from bot.texts.common import refusal
from bot.texts.names import amount_text


@dataclass(frozen=True)
class Refunded(Done):
    """``amount`` cents given back to entry ``entry``; ``left`` still to give back."""

    entry: int
    amount: int
    left: int


@dataclass(frozen=True)
class NothingOwed(Refusal):
    """Entry ``entry`` is owed nothing back (``refunded``: cents given back already)."""

    code: ClassVar[str] = "nothing_owed"
    entry: int
    refunded: int


@dataclass(frozen=True)
class MoreThanOwed(Refusal):
    """``amount`` is more than the ``owed`` cents still to give back."""

    code: ClassVar[str] = "more_than_owed"
    entry: int
    amount: int
    owed: int


Outcome = Refunded | NothingOwed | MoreThanOwed | UnknownEntry


def answer(lang: str, out: Outcome, contest: Contest) -> str:
    money = contest.currency
    match out:
        case Refunded(entry=entry, amount=amount, left=left):
            done = tr(lang, "Recorded: {amount} given back to entry #{entry}.", entry=entry,
                      amount=amount_text(lang, amount, money))
            if left:
                return done + " " + tr(lang, "Still to give back: {left}.",
                                       left=amount_text(lang, left, money))
            return done + " " + tr(lang, "Nothing more is owed to it.")
        case NothingOwed(entry=entry, refunded=refunded):
            if refunded:
                return tr(lang, "Entry #{entry} is owed nothing more: {amount} was given back "
                          "already.", entry=entry, amount=amount_text(lang, refunded, money))
            return tr(lang, "Entry #{entry} is owed nothing back.", entry=entry)
        case MoreThanOwed(entry=entry, amount=amount, owed=owed):
            return tr(lang, "Not recorded: entry #{entry} is owed {owed} back, not {amount}.",
                      entry=entry, owed=amount_text(lang, owed, money),
                      amount=amount_text(lang, amount, money))
        case UnknownEntry():
            return refusal(lang, out, contest)
        case _:
            assert_never(out)


def notice(lang: str, out: Refunded, contest: Contest) -> str:
    """The entry's phones."""
    return tr(lang, "The organisers have given back {amount} for entry #{entry}.",
              amount=amount_text(lang, out.amount, contest.currency), entry=out.entry)
