"""Keeping the bot up, as operations: at a start, the organisers told what a long time off may
have lost (recorded with what it owes them, once); the automatic backup taken, and the day's
copy sent to the organisers."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from telegram import Bot, InputFile
from telegram.error import TelegramError

from bot.delivery.services import Services, language_of
from bot.delivery.work import Work
from bot.domain.events import EventKind
from bot.features.upkeep import backups, rules, texts
from bot.storage.db import StoreError

log = logging.getLogger(__name__)

OFFLINE = "offline:"  # the ref of the alert that told the organisers of a time off
TELEGRAM_MOST = 49 << 20  # the largest file a bot may send (50 MB), with room to spare


async def back_after(svc: Services, now: datetime) -> rules.Offline | None:
    """A start: if the bot was off long enough that Telegram may have dropped messages, the
    organisers are told what may be lost and how to get it back, with the alert recorded in
    the same transaction (told once, also if the bot stops again at once); then the bot notes
    that it runs."""
    gap = rules.offline(await svc.store.last_beat(), now)
    if gap is not None:
        ref = OFFLINE + str(int(gap.since.timestamp()))
        zone = ZoneInfo(svc.contest.timezone)
        organisers = sorted(await svc.day.all_organisers())
        work = Work(svc)
        async with work as tx:
            if not await tx.has_ref(EventKind.ALERT, ref):
                await tx.add_event(at=now, kind=EventKind.ALERT, role="system", ref=ref)
                for user_id in organisers:
                    work.tell(user_id, lambda lang: texts.offline_notice(lang, gap, zone))
        if not organisers:
            log.warning("the bot was off since %s: messages sent before %s may be lost "
                        "(no organiser to tell)", gap.since, gap.lost_before)
    await svc.store.beat(now)
    return gap


@dataclass
class BackupState:
    """What the backups remember between runs: a failure already told (told once until a
    copy succeeds again)."""

    failing: bool = False


async def backup_now(svc: Services, bot: Bot, now: datetime, state: BackupState) -> None:
    """The automatic copy: taken into the backup folder, the old ones thinned out; once a day
    the copy goes to the organisers. A failure is logged and told to the organisers once (a
    full disk may refuse the database any write, so it is sent directly, not recorded)."""
    folder = svc.config.backup_folder
    if folder is None:
        return
    zone = ZoneInfo(svc.contest.timezone)
    try:
        taken = await backups.take(svc.store, folder, now, zone)
    except (StoreError, OSError) as exc:
        log.error("error: the automatic backup into %s failed: %s", folder, exc)
        if not state.failing:
            state.failing = True
            problem = str(exc)
            await _tell(svc, bot, lambda lang: texts.backup_failed(lang, problem))
        return
    state.failing = False
    log.info("backup %s taken (%d events; %d old copies removed)", taken.path.name,
             taken.events, len(taken.removed))
    if rules.send_due(backups.last_sent(folder), now, zone):
        if await _send_copy(svc, bot, taken):
            backups.note_sent(folder, now.astimezone(zone).date())


async def _send_copy(svc: Services, bot: Bot, taken: backups.Taken) -> bool:
    """The copy to every organiser, compressed; too big for Telegram, where it is instead.
    False when it could not be sent to anyone (tried again with the next copy)."""
    data = backups.packed(taken.path)
    name = taken.path.name + ".gz"
    sent = False
    for user_id in sorted(await svc.day.all_organisers()):
        lang = await language_of(svc, user_id)
        try:
            if len(data) > TELEGRAM_MOST:
                await bot.send_message(user_id, texts.too_big_for_telegram(
                    lang, str(taken.path.resolve()), len(data) >> 20))
            else:
                await bot.send_document(user_id, InputFile(data, filename=name),
                                        caption=texts.daily_copy_caption(lang, name,
                                                                         taken.events))
            sent = True
        except TelegramError as exc:
            log.warning("the day's backup could not be sent to organiser %s: %s", user_id, exc)
    return sent


async def _tell(svc: Services, bot: Bot, text: texts.Text) -> None:
    for user_id in sorted(await svc.day.all_organisers()):
        try:
            await bot.send_message(user_id, text(await language_of(svc, user_id)))
        except TelegramError as exc:
            log.warning("organiser %s could not be told: %s", user_id, exc)
