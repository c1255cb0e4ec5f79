"""The bot's sense of "now", used only to schedule timers and to ask "which places are held
now?" (events are always stamped with Telegram's message dates, never with this).

Normally it is the real clock. A rehearsal (``python -m bot demo``) runs a whole contest day in
seconds: it sets ``PUZZLEBOT_REHEARSAL_CLOCK=<simulated ISO instant>@<real unix time>@<speed>``
and the bot's clock then shows simulated time running ``speed`` times faster from that real
moment, so a 5-minute cooldown notice comes 5 simulated minutes after the request.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

ENV = "PUZZLEBOT_REHEARSAL_CLOCK"


@dataclass(frozen=True)
class WallClock:
    simulated_start: datetime | None = None
    real_start: float = 0.0
    speed: float = 1.0

    def now(self) -> datetime:
        if self.simulated_start is None:
            return datetime.now(UTC)
        elapsed = (time.time() - self.real_start) * self.speed
        return self.simulated_start + timedelta(seconds=elapsed)

    def seconds_until(self, when: datetime) -> float:
        """Real seconds to wait until the clock shows ``when`` (0 if already past)."""
        return max(0.0, (when - self.now()).total_seconds() / self.speed)

    def encode(self) -> str:
        assert self.simulated_start is not None
        return f"{self.simulated_start.isoformat()}@{self.real_start}@{self.speed}"

    @staticmethod
    def parse(text: str) -> WallClock:
        sim, real, speed = text.split("@")
        start = datetime.fromisoformat(sim)
        if start.tzinfo is None:
            raise ValueError("the simulated start needs a time zone")
        if float(speed) <= 0:
            raise ValueError("speed must be positive")
        return WallClock(start, float(real), float(speed))


def from_env() -> WallClock:
    """The clock the environment asks for (a malformed value is reported by bot.services.config)."""
    raw = os.environ.get(ENV, "").strip()
    try:
        return WallClock.parse(raw) if raw else WallClock()
    except ValueError:
        return WallClock()


CLOCK = from_env()
