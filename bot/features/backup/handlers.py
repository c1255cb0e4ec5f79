"""An organiser's backup of the database, as a document."""

from __future__ import annotations

import tempfile
from pathlib import Path
from zoneinfo import ZoneInfo

from telegram import InputFile, Update
from telegram.ext import ContextTypes

from bot.features.backup.texts import backup_caption
from bot.handlers.common import organiser


async def copia(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """An organiser's backup of the database, taken while the bot runs, sent as a document."""
    who = await organiser(update, context)
    if who is None:
        return
    msg = update.effective_message
    assert msg is not None
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "backup.sqlite3"
        await who.svc.store.backup_to(path)
        stamp = who.at.astimezone(ZoneInfo(who.svc.contest.timezone)).strftime("%Y%m%d-%H%M")
        await msg.reply_document(InputFile(path.read_bytes(),
                                           filename=f"puzzlebot-{stamp}.sqlite3"),
                                 caption=backup_caption(who.lang, who.svc.contest, who.at),
                                 do_quote=True)
