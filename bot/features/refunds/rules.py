"""An amount given back, as an organiser types it ("14", "14.50", "14,50", "0.5"): its cents,
pure."""

from __future__ import annotations

import re

from bot.domain.events import REFUND
from bot.domain.numbers import ascii_digits

__all__ = ["REFUND"]  # its event kind (bot/domain/events.py)

_AMOUNT = re.compile(r"(\d{1,7})(?:[.,](\d{1,2}))?")


def parse_cents(text: str) -> int | None:
    """The cents of an amount in the contest's currency, a whole part and at most two
    decimals (None: not an amount, or nothing)."""
    found = _AMOUNT.fullmatch(ascii_digits(text.strip().rstrip("€$£").strip()))
    if found is None:
        return None
    cents = int(found.group(1)) * 100 + int((found.group(2) or "0").ljust(2, "0"))
    return cents or None
