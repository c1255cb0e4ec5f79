"""Settings from the environment. A missing or malformed one is one clear line and exit 2."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.support.wallclock import WallClock


class ConfigError(Exception):
    pass


@dataclass(frozen=True)
class Config:
    token: str = field(repr=False)  # never shown in logs or reprs
    contest_file: str
    db_path: str = "puzzlebot.sqlite3"
    base_url: str | None = None
    organisers: frozenset[int] = frozenset()
    volunteer_chat: int | None = None


def _int(name: str, value: str) -> int:
    try:
        return int(value.strip())
    except ValueError:
        raise ConfigError(f"{name} must be a Telegram id (a whole number), not {value!r}") from None


def load_settings(env: Mapping[str, str] | None = None, need_token: bool = True) -> Config:
    env = os.environ if env is None else env
    token = env.get("TELEGRAM_BOT_TOKEN", "").strip()
    if need_token and not token:
        raise ConfigError("TELEGRAM_BOT_TOKEN is not set: get one from @BotFather")
    if need_token and (":" not in token or " " in token):
        raise ConfigError("TELEGRAM_BOT_TOKEN does not look like a bot token (digits:letters)")
    contest = env.get("PUZZLEBOT_CONTEST", "").strip()
    if not contest:
        raise ConfigError("PUZZLEBOT_CONTEST is not set: give the contest file, e.g. "
                          "contests/castrillo-2023.toml")
    organisers_raw = env.get("PUZZLEBOT_ORGANISERS", "").strip()
    organisers = frozenset(
        _int("PUZZLEBOT_ORGANISERS", part) for part in organisers_raw.split(",") if part.strip()
    )
    rehearsal = env.get("PUZZLEBOT_REHEARSAL_CLOCK", "").strip()
    if rehearsal:

        try:
            WallClock.parse(rehearsal)
        except ValueError:
            raise ConfigError("PUZZLEBOT_REHEARSAL_CLOCK must be <ISO instant with offset>@"
                              "<unix time>@<speed> (set by python -m bot demo)") from None
    chat_raw = env.get("PUZZLEBOT_VOLUNTEER_CHAT", "").strip()
    base_url = env.get("TELEGRAM_BASE_URL", "").strip() or None
    if base_url is not None and not base_url.startswith(("http://", "https://")):
        raise ConfigError(f"TELEGRAM_BASE_URL must start with http:// or https://: {base_url!r}")
    return Config(
        token=token,
        contest_file=contest,
        db_path=env.get("PUZZLEBOT_DB", "").strip() or "puzzlebot.sqlite3",
        base_url=base_url,
        organisers=organisers,
        volunteer_chat=_int("PUZZLEBOT_VOLUNTEER_CHAT", chat_raw) if chat_raw else None,
    )


def base_url(url: str | None) -> str:
    """The Bot API address python-telegram-bot appends the token to."""
    if url is None:
        return "https://api.telegram.org/bot"
    if "{token}" in url or url.rstrip("/").endswith("/bot"):
        return url.rstrip("/") if "{token}" not in url else url
    return url.rstrip("/") + "/bot"
