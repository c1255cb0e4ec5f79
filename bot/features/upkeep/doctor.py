"""The doctor: whether the bot can run and keeps its data safe, one finding per check — the
token, Telegram answering, the database whole, room on the disk, the newest backup, the clock,
the contest file, the bot running — each judged by ``rules`` and worded by ``texts``. The
command line (``puzzlebot doctor``) and the organisers' command in the chat ask the same."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import httpx
from telegram import Bot
from telegram.error import TelegramError

from bot.domain.contest import Contest
from bot.features.payments.settings import NO_TOKEN, problems
from bot.features.privacy.rules import PURGE, removal_at
from bot.features.privacy.rules import rules_of as privacy_rules
from bot.features.upkeep import backups, rules
from bot.features.upkeep.rules import Finding, Status
from bot.services.contest_file import ContestFileError, load_contest
from bot.support.config import Config, base_url

Clock = Callable[[], datetime]


def _now() -> datetime:
    return datetime.now(UTC)


async def telegram(config: Config, now: Clock = _now,
                   timeout: float = 10.0) -> tuple[Finding, Finding, float | None]:
    """The token, Telegram answering, and our clock minus Telegram's (None: unknown), from a
    getMe and a getWebhookInfo of our own (the ``Date`` of Telegram's answer)."""
    root = base_url(config.base_url)
    root = root.format(token=config.token) if "{token}" in root else root + config.token
    try:
        async with httpx.AsyncClient(timeout=timeout) as client:
            sent = time.monotonic()
            me = await client.get(f"{root}/getMe")
            rtt = time.monotonic() - sent
            offset = _offset(me.headers.get("date"), now(), rtt)
            if me.status_code in (401, 404):
                return (Finding("token", Status.FAIL, "", "new_token"),
                        Finding("telegram", Status.OK, f"{rtt * 1000:.0f}"), offset)
            body = me.json()
            if not body.get("ok"):
                raise httpx.HTTPError(str(body.get("description", me.status_code)))
            hook = (await client.get(f"{root}/getWebhookInfo")).json().get("result") or {}
    except (httpx.HTTPError, ValueError) as exc:
        reason = str(exc) or type(exc).__name__
        return (Finding("token", Status.WARN, "", None),
                Finding("telegram", Status.FAIL, reason, "check_network"), None)
    username = str(body.get("result", {}).get("username", ""))
    token = Finding("token", Status.OK, username)
    url = str(hook.get("url") or "") if isinstance(hook, dict) else ""
    if url:
        return token, Finding("telegram", Status.FAIL, url, "delete_webhook"), offset
    return token, Finding("telegram", Status.OK, f"{rtt * 1000:.0f}"), offset


async def telegram_from_chat(bot: Bot, dated: datetime, now: Clock = _now
                             ) -> tuple[Finding, Finding, float | None]:
    """The same findings from the running bot, through its own connection to Telegram: the
    token works (the message came), getMe's round trip, no webhook; the clock from the date
    Telegram gave the organiser's message (``dated``, whole seconds): a clock behind shows as
    a message from the future, one ahead as a message that took long to come (a minute is
    allowed for the updates queued before it)."""
    try:
        sent = time.monotonic()
        me = await bot.get_me()
        rtt = time.monotonic() - sent
        hook = await bot.get_webhook_info()
    except TelegramError as exc:
        return (Finding("token", Status.WARN, "", None),
                Finding("telegram", Status.FAIL, str(exc), "check_network"), None)
    waited = (now() - dated).total_seconds() - 1  # its date is truncated to the second
    token = Finding("token", Status.OK, me.username or "")
    if hook.url:
        return token, Finding("telegram", Status.FAIL, hook.url, "delete_webhook"), waited
    return (token, Finding("telegram", Status.OK, f"{rtt * 1000:.0f}"),
            waited if waited < 0 or waited > QUEUED else 0.0)


QUEUED = 60.0  # seconds an organiser's message may wait behind others before it is read


def _offset(date_header: str | None, ours: datetime, rtt: float) -> float | None:
    """Our clock minus Telegram's, from its answer's ``Date`` (whole seconds: half a second of
    rounding, and half the round trip, are allowed for by ``rules.CLOCK_OFF``)."""
    if not date_header:
        return None
    try:
        theirs = parsedate_to_datetime(date_header)
    except (TypeError, ValueError):
        return None
    return (ours - theirs).total_seconds() - rtt / 2


def database(path: Path) -> Finding:
    """The database file whole (SQLite's quick check, from a read-only connection of its own:
    the running bot is not disturbed)."""
    if not path.exists():
        return Finding("database", Status.WARN, str(path), "run_setup")
    try:
        con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=5)
        try:
            check = [str(r[0]) for r in con.execute("PRAGMA quick_check")]
            events = int(con.execute("SELECT COUNT(*) FROM events").fetchone()[0]) \
                if check == ["ok"] else 0
        finally:
            con.close()
    except sqlite3.Error as exc:
        return Finding("database", Status.FAIL, str(exc), "restore")
    if check != ["ok"]:
        return Finding("database", Status.FAIL, "; ".join(check[:2]), "restore")
    return Finding("database", Status.OK, f"{events}")


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in (path, Path(f"{path}-wal")) if p.exists())


def disk(path: Path, usage: Callable[[Path], Any] = shutil.disk_usage) -> Finding:
    """Room on the disk holding the database (and, by default, its backups)."""
    where = path.resolve().parent
    while not where.exists() and where != where.parent:
        where = where.parent
    return rules.disk(int(usage(where).free), _size(path) if path.exists() else 0)


def backup(config: Config, contest: Contest | None, now: datetime) -> Finding:
    folder = config.backup_folder
    zone = ZoneInfo(contest.timezone if contest is not None else "UTC")
    days = rules.play_days(contest) if contest is not None else frozenset()
    found = backups.newest(folder) if folder is not None else None
    return rules.backup_age(found[0] if found else None, now, days, zone,
                            enabled=folder is not None)


def payments(contest: Contest, token_set: bool) -> list[Finding]:
    """Paying in the chat, a line only when a setting is there for nothing: a provider's token
    without ``[payments]``, a hold where places are taken at registration (``found``: the
    problems' codes, comma-separated). ``[payments]`` without a token is how a contest file
    says "in the chat where the bot can take payments": not a problem."""
    found = [p for p in problems(contest, token_set) if p != NO_TOKEN]
    if not found:
        return []
    return [Finding("payments", Status.WARN, ",".join(found), "payments_settings")]


def privacy(contest: Contest, db: Path, now: datetime) -> list[Finding]:
    """With ``[privacy]``: a line once its removal is due and not done (the bot was not
    running then: it removes the data as soon as it starts)."""
    rules = privacy_rules(contest)
    if rules is None or not db.exists():
        return []
    due = removal_at(contest, rules)
    if now < due:
        return []
    try:
        con = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True, timeout=5)
        try:
            done = con.execute("SELECT 1 FROM events WHERE kind = ? LIMIT 1",
                               (PURGE,)).fetchone() is not None
        finally:
            con.close()
    except sqlite3.Error:
        return []  # the database's own line says why
    if done:
        return []
    return [Finding("privacy", Status.WARN, due.date().isoformat(), "start_bot")]


def contest_file(path: str) -> tuple[Finding, Contest | None]:
    try:
        contest = load_contest(path)
    except ContestFileError as exc:
        return Finding("contest", Status.FAIL, str(exc), "check_contest"), None
    return Finding("contest", Status.OK, contest.name), contest


async def examine(config: Config, running: int | None | bool, now: Clock = _now,
                  usage: Callable[[Path], Any] = shutil.disk_usage,
                  asked: Callable[[], Awaitable[tuple[Finding, Finding, float | None]]]
                  | None = None) -> list[Finding]:
    """Every check, in the order the doctor says them. ``running``: the process running the
    bot (its pid; True: this one; None: none). ``asked``: Telegram's checks as the running
    bot makes them (``telegram_from_chat``); None: a connection of the doctor's own."""
    contest_found, contest = contest_file(config.contest_file)
    if asked is not None:
        token, answers, offset = await asked()
    elif config.token:
        token, answers, offset = await telegram(config, now)
    else:
        token = Finding("token", Status.FAIL, "", "run_setup")
        answers, offset = Finding("telegram", Status.WARN, "no token", "run_setup"), None
    db = Path(config.db_path)
    checked = await asyncio.to_thread(database, db)
    out = [token, answers, rules.clock(offset), checked, disk(db, usage),
           backup(config, contest, now()), contest_found]
    if contest is not None:
        out += payments(contest, bool(config.payment_token))
        out += await asyncio.to_thread(privacy, contest, db, now())
    if running is not True:
        out.append(Finding("running", Status.OK, str(running), None) if running is not None
                   else Finding("running", Status.WARN, "", "start_bot"))
    return out
