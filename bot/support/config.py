"""Settings from the environment and from the settings file beside the database (the
environment wins). A missing or malformed one is one clear line and exit 2.

The settings file (``puzzlebot.toml`` beside ``puzzlebot.sqlite3``: the database's name with
``.toml``) takes the environment variables' names as keys, each with a text value (a whole number
or a list of them where the variable takes ids). ``python -m bot setup`` writes it, readable by
its owner only: it holds the bot's token."""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from bot.support.files import create_private
from bot.support.program import name
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
    # the announcements channel or group (PUZZLEBOT_ANNOUNCE_CHAT): /anuncio posts there once,
    # instead of once to each participant; nothing else goes there
    announce_chat: int | None = None
    # seconds a call to Telegram may wait for its answer (python-telegram-bot's default); the
    # tests of a slow answer set PUZZLEBOT_READ_TIMEOUT lower so as not to wait 5 s each time
    read_timeout: float = 5.0
    # the folder of the automatic backups (PUZZLEBOT_BACKUPS; "": beside the database, its
    # name with -backups; "off": none taken). Settings read from the environment and the
    # settings file take them by default; a Config made in code (tests, the benchmark) does not
    backups: str = "off"
    # the payment provider's token from @BotFather (PUZZLEBOT_PAYMENT_TOKEN): invoices in the
    # chat where the contest file has ``[payments]``; never shown, never stored in the database
    payment_token: str = field(default="", repr=False)

    @property
    def backup_folder(self) -> Path | None:
        """Where the automatic backups go (None: they are off)."""
        if self.backups.lower() == "off":
            return None
        if self.backups:
            return Path(self.backups)
        db = Path(self.db_path)
        return db.with_name(db.stem + "-backups")


def _int(name: str, value: str) -> int:
    try:
        return int(value.strip())
    except ValueError:
        raise ConfigError(f"{name} must be a Telegram id (a whole number), not {value!r}") from None


def _group(name: str, value: str) -> int | None:
    """A channel's or group's chat id (None: unset): a negative number, never a person's."""
    if not value.strip():
        return None
    chat = _int(name, value)
    if chat >= 0:
        raise ConfigError(f"{name} must be a channel's or group's chat id (a negative number, "
                          f"such as -1001234567890), not {value!r}")
    return chat


def _seconds(name: str, value: str) -> float | None:
    """A positive number of seconds (None: unset)."""
    if not value.strip():
        return None
    try:
        seconds = float(value.strip())
    except ValueError:
        seconds = 0.0
    if not seconds > 0 or seconds == float("inf"):
        raise ConfigError(f"{name} must be a number of seconds above 0, not {value!r}")
    return seconds


DEFAULT_DB = "puzzlebot.sqlite3"
# what the settings file may set: every setting but the database, which says where the file is
FILE_KEYS = ("TELEGRAM_BOT_TOKEN", "PUZZLEBOT_CONTEST", "PUZZLEBOT_ORGANISERS",
             "PUZZLEBOT_VOLUNTEER_CHAT", "TELEGRAM_BASE_URL", "PUZZLEBOT_WEB_PORT",
             "PUZZLEBOT_WEB_HOST", "PUZZLEBOT_BOT_USERNAME", "PUZZLEBOT_BACKUPS",
             "PUZZLEBOT_ANNOUNCE_CHAT", "PUZZLEBOT_PAYMENT_TOKEN")


def database_path(env: Mapping[str, str] | None = None) -> str:
    env = os.environ if env is None else env
    return env.get("PUZZLEBOT_DB", "").strip() or DEFAULT_DB


def settings_path(db_path: str) -> Path:
    """The settings file of a database: beside it, its name with ``.toml``."""
    return Path(db_path).with_suffix(".toml")


def _setting(path: Path, key: str, value: object) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, list) and all(isinstance(v, (int, str)) and not isinstance(v, bool)
                                       for v in value):
        return ",".join(str(v) for v in value)
    raise ConfigError(f"{path}: {key} must be a text (in quotes), not {value!r}")


def read_settings_file(path: Path) -> dict[str, str]:
    """The settings the file sets ({} when there is no file)."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
        # a byte-order mark, as Windows' Notepad may save it, is not part of the settings
        data = tomllib.loads(raw.removeprefix(b"\xef\xbb\xbf").decode("utf-8"))
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not a valid settings file ({exc})") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not a valid settings file (not UTF-8 text)") from None
    if isinstance(data.get("contest"), dict):
        raise ConfigError(f"{path} is a contest file, where the database's settings file goes "
                          "(the database's name with .toml): give the database another name, "
                          f"such as {path.stem}-bot.sqlite3")
    for key in data:
        if key not in FILE_KEYS:
            raise ConfigError(f"{path}: unknown setting {key!r} (known: {', '.join(FILE_KEYS)})")
    return {key: _setting(path, key, value) for key, value in data.items()}


def settings_file_warning(path: Path) -> str | None:
    """A word when others may read the settings file (it holds the token)."""
    if os.name != "posix" or not path.is_file():
        return None
    if path.stat().st_mode & 0o077:
        return f"{path} holds the bot's token and others may read it: chmod 600 {path}"
    return None


def _toml_text(value: str) -> str:
    """A TOML basic string: quotes, backslashes and control characters escaped."""
    out = []
    for ch in value:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch < " " or ch == "\x7f":
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def write_settings_file(path: Path, values: Mapping[str, str]) -> None:
    """Write the settings file, readable and writable by its owner only (0600), in one step: a
    new file beside it, then renamed over the old one. Only the settings of ``FILE_KEYS``."""
    lines = [f"# puzzlebot's settings, written by `{name()} setup`. An environment variable",
             "# of the same name wins over a line here. This file holds the bot's token: keep it",
             "# private (only its owner may read it).", ""]
    for key in FILE_KEYS:
        if values.get(key):
            lines.append(f"{key} = {_toml_text(values[key])}")
    text = "\n".join(lines) + "\n"
    if tomllib.loads(text) != {k: values[k] for k in FILE_KEYS if values.get(k)}:
        raise ConfigError(f"{path}: these settings cannot be written as TOML")
    fresh = path.with_name(f".{path.name}.new")
    try:
        fresh.unlink(missing_ok=True)
        with os.fdopen(create_private(fresh), "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(fresh, path)
    except OSError as exc:
        fresh.unlink(missing_ok=True)
        raise ConfigError(f"{path}: cannot be written ({exc.strerror or exc})") from None


def environment(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """The settings: the environment's, and the settings file's where the environment sets
    nothing (an empty variable counts as unset)."""
    env = os.environ if env is None else env
    path = settings_path(database_path(env))
    contest = env.get("PUZZLEBOT_CONTEST", "").strip()
    # the contest file itself (castrillo.toml beside castrillo.sqlite3): no settings file
    mine = not contest or Path(contest).resolve() != path.resolve()
    merged = read_settings_file(path) if mine else {}
    merged.update({k: v for k, v in env.items() if v.strip() or k not in merged})
    return merged


BOT_TOKEN = re.compile(r"[0-9]+:[A-Za-z0-9_-]+")  # as @BotFather gives them


def check_token(token: str) -> None:
    if not token:
        raise ConfigError("TELEGRAM_BOT_TOKEN is not set: get one from @BotFather "
                          f"(or run {name()} setup)")
    if not BOT_TOKEN.fullmatch(token):  # nothing else may go into the API's address
        raise ConfigError("TELEGRAM_BOT_TOKEN does not look like a bot token (digits:letters)")


def check_base_url(url: str | None) -> None:
    if url is not None and not url.startswith(("http://", "https://")):
        raise ConfigError(f"TELEGRAM_BASE_URL must start with http:// or https://: {url!r}")


def load_settings(env: Mapping[str, str] | None = None, need_token: bool = True) -> Config:
    """The settings: the environment's, then the settings file's."""
    return parse_settings(environment(env), need_token)


def parse_settings(env: Mapping[str, str], need_token: bool = True) -> Config:
    """The settings of these variables (ConfigError: the first one missing or malformed)."""
    token = env.get("TELEGRAM_BOT_TOKEN", "").strip()
    if need_token:
        check_token(token)
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
                              "<unix time>@<speed>[@<pace>] (set by python -m bot demo)") from None
    chat_raw = env.get("PUZZLEBOT_VOLUNTEER_CHAT", "").strip()
    base_url = env.get("TELEGRAM_BASE_URL", "").strip() or None
    check_base_url(base_url)
    read_timeout = _seconds("PUZZLEBOT_READ_TIMEOUT", env.get("PUZZLEBOT_READ_TIMEOUT", ""))
    volunteer_chat = _int("PUZZLEBOT_VOLUNTEER_CHAT", chat_raw) if chat_raw else None
    announce_chat = _group("PUZZLEBOT_ANNOUNCE_CHAT", env.get("PUZZLEBOT_ANNOUNCE_CHAT", ""))
    if announce_chat is not None and announce_chat == volunteer_chat:
        # the volunteers' group reads every request: the hall must not
        raise ConfigError("PUZZLEBOT_ANNOUNCE_CHAT must be another chat than "
                          "PUZZLEBOT_VOLUNTEER_CHAT (the volunteers' group reads every request)")
    return Config(
        token=token,
        contest_file=contest,
        db_path=database_path(env),
        base_url=base_url,
        organisers=organisers,
        volunteer_chat=volunteer_chat,
        announce_chat=announce_chat,
        read_timeout=read_timeout if read_timeout is not None else 5.0,
        backups=env.get("PUZZLEBOT_BACKUPS", "").strip(),
        payment_token=env.get("PUZZLEBOT_PAYMENT_TOKEN", "").strip(),
    )


def base_url(url: str | None) -> str:
    """The Bot API address python-telegram-bot appends the token to."""
    if url is None:
        return "https://api.telegram.org/bot"
    if "{token}" in url or url.rstrip("/").endswith("/bot"):
        return url.rstrip("/") if "{token}" not in url else url
    return url.rstrip("/") + "/bot"
