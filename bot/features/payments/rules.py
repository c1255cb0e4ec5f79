"""Paying in the chat: the rules, pure.

An invoice carries a payload of ours, ``pay:<entry>:<amount in cents>``, which Telegram gives
back with the pre-checkout query and the successful payment. Before charging, the checkout goes
on only while the entry still owes exactly that amount (a member changed since may change the
fee; the currency is the contest's) and still has a place to pay for: not withdrawn, lapsed or
left out, not paid already, and, once registration has closed, holding its place."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta
from enum import StrEnum

from bot.domain.contest import Contest
from bot.domain.events import HOLD
from bot.domain.places import Place, Status

__all__ = ["HOLD"]  # the event of a place held while paying (bot/domain/events.py)

PAYMENTS = "payments"  # the contest file's table, and the name its settings are kept under
HOLD_MAX_MINUTES = 24 * 60
HOLD_DEFAULT_MINUTES = 30
# Telegram's limits on an invoice (sendInvoice)
TITLE_MAX = 32
DESCRIPTION_MAX = 255
# a payment in the chat: its charge's ids (Telegram's, and the provider's) in the event's data
CHARGE = "charge"
PROVIDER_CHARGE = "provider_charge"
EXTRA = "extra"  # the ref of a payment beyond the entry's payment (paid twice: owed back)
GONE = "gone"  # the ref of a payment that came for a place gone (withdrawn...): owed back
OWED_BACK = (EXTRA, GONE)  # payments that pay for no place: given back in full
# ISO 4217 currencies whose smallest unit is not the hundredth (Telegram's currencies.json,
# "exp"): an invoice's amounts are in the smallest unit, the contest's in hundredths
EXPONENTS = {**dict.fromkeys(("BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG",
                              "RWF", "UGX", "VND", "VUV", "XAF", "XOF", "XPF"), 0),
             **dict.fromkeys(("BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"), 3)}
_PAYLOAD = re.compile(r"pay:(\d{1,9}):(\d{1,12})")


@dataclass(frozen=True)
class PaymentRules:
    """``hold_minutes``: where a place is held only once paid, how long a place free at
    registration is held while its people pay in the chat (0: not held)."""

    hold_minutes: int = HOLD_DEFAULT_MINUTES

    @property
    def hold(self) -> timedelta | None:
        return timedelta(minutes=self.hold_minutes) if self.hold_minutes else None


def hold_of(contest: Contest) -> timedelta | None:
    """How long a place free at registration is held while its people pay in the chat: the
    contest's ``[payments] hold_minutes`` where a place is held only once paid
    (``payment_required``); None: not held."""
    rules = contest.settings(PAYMENTS)
    if not isinstance(rules, PaymentRules) or not contest.registration.payment_required:
        return None
    return rules.hold


def payload(number: int, amount: int) -> str:
    """The invoice's payload: the entry and what it is asked (cents)."""
    return f"pay:{number}:{amount}"


def read_payload(text: str) -> tuple[int, int] | None:
    """(entry, amount) of one of our payloads; None: not one."""
    found = _PAYLOAD.fullmatch(text or "")
    return (int(found[1]), int(found[2])) if found else None


class Problem(StrEnum):
    """Why a checkout may not go on (Telegram shows the person our reason and charges nothing)."""

    UNKNOWN = "unknown"  # not an invoice of ours, or an entry that does not exist
    PAID = "paid"  # the entry is paid already
    GONE = "gone"  # withdrawn, lapsed or left out: no place to pay for
    CLOSED = "closed"  # registration closed and the entry holds no place
    CHANGED = "changed"  # what it owes is no longer the invoice's amount (or currency)
    FREE = "free"  # it owes nothing
    SEEKING = "seeking"  # looking for a partner: paid once one joins it


def checkout_problem(place: Place | None, paid: bool, due: int, amount: int,
                     currency_ok: bool, closed: bool) -> Problem | None:
    """Whether a checkout for ``amount`` may go on, for an entry at ``place`` (None: no such
    entry) that owes ``due`` cents, ``paid`` already or not, registration ``closed`` or not."""
    if place is None:
        return Problem.UNKNOWN
    if paid:
        return Problem.PAID
    if place.status in (Status.WITHDRAWN, Status.LAPSED, Status.LEFT_OUT, Status.DECLINED,
                        Status.UNMATCHED):
        return Problem.GONE
    if place.status is Status.SEEKING:
        return Problem.SEEKING
    if closed and place.status is not Status.CONFIRMED:
        return Problem.CLOSED
    if due <= 0:
        return Problem.FREE
    if amount != due or not currency_ok:
        return Problem.CHANGED
    return None


def minor_units(cents: int, currency: str) -> int:
    """An amount of the contest's (hundredths) in the currency's smallest unit, as Telegram
    counts it: 1400 for 14 € (cents), 14 for 14 ¥ (no smaller unit), 14000 for 14 KWD."""
    exp = EXPONENTS.get(currency, 2)
    factor = int(10 ** abs(exp - 2))
    return cents * factor if exp >= 2 else cents // factor


def cents_from(minor: int, currency: str) -> int:
    """An amount Telegram gives (the currency's smallest unit) in hundredths."""
    exp = EXPONENTS.get(currency, 2)
    factor = int(10 ** abs(exp - 2))
    return minor * factor if exp <= 2 else minor // factor


def clipped(text: str, most: int) -> str:
    """``text`` within ``most`` characters (an ellipsis where it was cut); never empty."""
    text = " ".join(text.split()) or "-"
    return text if len(text) <= most else text[:most - 1].rstrip() + "…"
