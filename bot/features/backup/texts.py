"""What the backup's document says: a backup of the database, and when it was taken."""

from __future__ import annotations

from datetime import datetime

from bot.domain.contest import Contest
from bot.support.i18n import tr
from bot.texts.common import moment_text


def backup_caption(lang: str, contest: Contest, at: datetime) -> str:
    return tr(lang, "Backup of the database ({when}).", when=moment_text(lang, contest, at))
