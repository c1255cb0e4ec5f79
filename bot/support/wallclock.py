"""The bot's sense of "now", used only to schedule timers and to ask "which places are held
now?" (events are always stamped with Telegram's message dates, never with this).

Normally it is the real clock. A rehearsal (``python -m bot demo``) runs a whole contest day in
seconds: it sets ``PUZZLEBOT_REHEARSAL_CLOCK=<simulated ISO instant>@<real unix time>@<speed>``
and the bot's clock then shows simulated time running ``speed`` times faster from that real
moment, so a 5-minute cooldown notice comes 5 simulated minutes after the request. An optional
fourth part, ``@<pace>``, scales Telegram's flood limits alone (``pace``, the speed when it is not
given): the rehearsal's registrations run on the real clock, weeks apart in their message dates,
but typed by scripted people far faster than one message a second.

The real part may be ``held``: the clock then stands at the simulated instant until the bot is
ready to work (``release``, by ``bot.chat.app``) and runs from that real moment, which the bot
logs (``bot.chat.skips.CLOCK_LINE``) for the rehearsal to read back. A start that takes five
seconds on a busy machine then costs no simulated time (at 2,250 times real speed, three hours
of the day would be gone before the first message).

A rehearsal also skips the stretches where nobody does anything: ``PUZZLEBOT_REHEARSAL_SKIP``
names a file; the rehearsal writes a simulated moment there and sends SIGUSR1, and the bot's
clock jumps towards it (``skip``) once everything owed is sent, never past its next timer
(``bot/chat/skips.py``). So the day lasts what its work takes, not its simulated length.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

ENV = "PUZZLEBOT_REHEARSAL_CLOCK"
SKIP_ENV = "PUZZLEBOT_REHEARSAL_SKIP"


@dataclass
class WallClock:
    simulated_start: datetime | None = None
    real_start: float | None = 0.0  # None: held at ``simulated_start`` until ``release``
    speed: float = 1.0
    pace_speed: float | None = None  # Telegram's limits are per this many real seconds

    @property
    def pace(self) -> float:
        """How many times faster than Telegram's own the flood limits run (the speed unless
        the rehearsal says otherwise)."""
        return self.speed if self.pace_speed is None else self.pace_speed

    def now(self) -> datetime:
        if self.simulated_start is None:
            return datetime.now(UTC)
        if self.real_start is None:
            return self.simulated_start
        elapsed = (time.time() - self.real_start) * self.speed
        return self.simulated_start + timedelta(seconds=elapsed)

    def seconds_until(self, when: datetime) -> float:
        """Real seconds to wait until the clock shows ``when`` (0 if already past)."""
        return max(0.0, (when - self.now()).total_seconds() / self.speed)

    def skip(self, seconds: float) -> None:
        """Jump ``seconds`` of simulated time ahead at once (a rehearsal's idle stretch); the
        speed and the pace stay. The real clock has no such jump."""
        if self.simulated_start is None:
            raise ValueError("only a rehearsal's clock skips")
        self.simulated_start += timedelta(seconds=seconds)

    @property
    def held(self) -> bool:
        return self.simulated_start is not None and self.real_start is None

    def hold(self) -> None:
        """A rehearsal's clock stops at the moment it shows, until ``release``."""
        if self.simulated_start is not None and self.real_start is not None:
            self.simulated_start = self.now()
            self.real_start = None

    def release(self) -> None:
        """A held clock starts running now (nothing for any other)."""
        if self.held:
            self.real_start = time.time()

    def encode(self) -> str:
        assert self.simulated_start is not None
        real = "held" if self.real_start is None else self.real_start
        text = f"{self.simulated_start.isoformat()}@{real}@{self.speed}"
        return text if self.pace_speed is None else f"{text}@{self.pace_speed}"

    @staticmethod
    def parse(text: str) -> WallClock:
        parts = text.split("@")
        if len(parts) not in (3, 4):
            raise ValueError("three or four parts")
        sim, real, speed = parts[:3]
        start = datetime.fromisoformat(sim)
        if start.tzinfo is None:
            raise ValueError("the simulated start needs a time zone")
        pace = float(parts[3]) if len(parts) == 4 else None
        if float(speed) <= 0 or (pace is not None and pace <= 0):
            raise ValueError("speed must be positive")
        return WallClock(start, None if real == "held" else float(real), float(speed), pace)


def from_env() -> WallClock:
    """The clock the environment asks for (a malformed value is reported by bot.support.config)."""
    raw = os.environ.get(ENV, "").strip()
    try:
        return WallClock.parse(raw) if raw else WallClock()
    except ValueError:
        return WallClock()


CLOCK = from_env()
