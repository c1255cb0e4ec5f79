"""What the services' operations give back: a ``Done`` (something was recorded) or a
``Refusal`` (nothing was, and why: one class per reason, with what its message needs).

The contest day's own reasons are in bot/services/contest_day.py, the registration desk's in
bot/features/registration/day.py; both build on these."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import ClassVar

from bot.domain.outcomes import Refusal as Refusal  # the base, re-exported


def new_code(prefix: str = "") -> str:
    """A join or invite code for a deep link: [A-Za-z0-9_-], 128 bits, not guessable."""
    return prefix + secrets.token_urlsafe(16)


@dataclass(frozen=True)
class UnknownEntry(Refusal):
    code: ClassVar[str] = "unknown_entry"
    entry: int


@dataclass(frozen=True)
class ClockNotStarted(Refusal):
    code: ClassVar[str] = "clock_not_started"
    entry: int

@dataclass(frozen=True)
class NotEscape(Refusal):
    code: ClassVar[str] = "not_escape"
    entry: int

@dataclass(frozen=True)
class PastLimit(Refusal):
    code: ClassVar[str] = "past_limit"
    time: int
    limit: int

@dataclass(frozen=True)
class InTheFuture(Refusal):
    code: ClassVar[str] = "in_the_future"
    time: int
    now: int  # what the clock showed

@dataclass(frozen=True)
class AlreadyRecorded(Refusal):
    code: ClassVar[str] = "already_recorded"
    entry: int
    time: int

@dataclass(frozen=True)
class AlreadyFinished(Refusal):
    code: ClassVar[str] = "already_finished"
    entry: int

@dataclass(frozen=True)
class EscapeNotOver(Refusal):
    code: ClassVar[str] = "escape_not_over"
    entry: int


@dataclass(frozen=True)
class Done:
    """Something was recorded (or already was): the base of what the operations give back."""

    @property
    def ok(self) -> bool:
        return True


@dataclass(frozen=True)
class NoTime(Refusal):
    """0:00:00 typed as a finish: nobody finishes as the clock starts (a typo)."""

    code: ClassVar[str] = "no_time"


# the refusals several features give (each feature's own are its module's union)
SharedRefusal = (UnknownEntry | ClockNotStarted | NotEscape | PastLimit | InTheFuture
                 | AlreadyRecorded | AlreadyFinished | EscapeNotOver | NoTime)


@dataclass(frozen=True)
class OwnTimes(Refusal):
    """Entry ``entry`` starts each puzzle itself: its times are its own, taken from its
    claims (a reviewer confirms one: the review's button or a finish typed without a time)."""

    code: ClassVar[str] = "own_times"
    entry: int


@dataclass(frozen=True)
class NothingClaimed(Refusal):
    """A finish typed without a time for entry ``entry``, played at home, with no claim waiting:
    there is no moment of the entry's own to record (a reviewer's own time would be a guess;
    a time typed is recorded as typed)."""

    code: ClassVar[str] = "nothing_claimed"
    entry: int
