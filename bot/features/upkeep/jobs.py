"""The upkeep's timers: the heartbeat (the bot notes that it runs), and the automatic backups,
each scheduled from the newest copy on disk at every start (``start``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from telegram.ext import Application, CallbackContext

from bot.delivery.services import Services
from bot.features.upkeep import backups, operations, rules
from bot.handlers.common import LATE_IS_STILL_OWED, replace_job
from bot.support.wallclock import CLOCK

HEARTBEAT, BACKUP = "upkeep-heartbeat", "upkeep-backup"


async def start(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """At a start: the organisers told of a long time off, the heartbeat every few minutes,
    the next backup when the newest copy on disk says it is due."""
    svc: Services = app.bot_data["services"]
    now = CLOCK.now()
    await operations.back_after(svc, now)
    jq = app.job_queue
    assert jq is not None, "python-telegram-bot[job-queue] is required"
    # at least every 30 real seconds apart: a rehearsal's clock runs weeks in seconds, where
    # the heartbeat's simulated 5 minutes would be a few hundred microseconds
    jq.run_repeating(heartbeat_job,
                     interval=max(rules.HEARTBEAT.total_seconds() / CLOCK.speed, 30.0),
                     name=HEARTBEAT, job_kwargs=LATE_IS_STILL_OWED)
    folder = svc.config.backup_folder
    if folder is None:
        return
    newest = backups.newest(folder)
    days, zone = rules.play_days(svc.contest), ZoneInfo(svc.contest.timezone)
    app.bot_data["backup_state"] = operations.BackupState()
    _schedule(app, rules.first_backup(newest[0] if newest else None, now, days, zone))


def _schedule(app: Application[Any, Any, Any, Any, Any, Any], when: datetime) -> None:
    replace_job(app, BACKUP, backup_job, when, {"when": when.timestamp()})


async def heartbeat_job(context: CallbackContext[Any, Any, Any, Any]) -> None:
    svc: Services = context.application.bot_data["services"]
    await svc.store.beat(CLOCK.now())


async def backup_job(context: CallbackContext[Any, Any, Any, Any]) -> None:
    app = context.application
    svc: Services = app.bot_data["services"]
    now = CLOCK.now()
    try:
        await operations.backup_now(svc, app.bot, now, app.bot_data["backup_state"])
    finally:
        _schedule(app, rules.next_backup(now, rules.play_days(svc.contest),
                                         ZoneInfo(svc.contest.timezone)))


async def stopping(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """A clean stop: the bot notes it ran until now."""
    svc: Services | None = app.bot_data.get("services")
    if svc is not None:
        await svc.store.beat(CLOCK.now())
