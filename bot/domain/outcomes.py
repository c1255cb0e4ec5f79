"""``Refusal``: the base of every reason an operation refuses (nothing recorded), pure, so that
a feature's rules (``bot/features/*/rules.py``) declare their reasons once and the operations
give them back as they are. The day's shared reasons are in bot/services/outcomes.py."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True)
class Refusal:
    """Why nothing was recorded. ``code`` names the reason (the domain's reason codes)."""

    code: ClassVar[str] = ""

    @property
    def ok(self) -> bool:
        return False

    @property
    def reason(self) -> str:
        return self.code
