"""The services a handler works with (configuration, contest, store, the day and the sender),
and the language a person reads."""

from __future__ import annotations

from dataclasses import dataclass, field

from telegram.ext import ContextTypes

from bot.delivery.sender import Sender
from bot.domain.contest import Contest
from bot.services.contest_day import ContestDay
from bot.storage.store import Store
from bot.support.config import Config
from bot.support.i18n import pick_language


@dataclass
class Services:
    config: Config
    contest: Contest
    store: Store
    day: ContestDay
    _sender: Sender | None = field(default=None, init=False, repr=False)

    @property
    def sender(self) -> Sender:
        """The outbox's sender (set by the application's post_init)."""
        if self._sender is None:
            raise RuntimeError("no outbox sender: the application's post_init attaches it")
        return self._sender

    def attach_sender(self, sender: Sender | None) -> None:
        """The sender of the messages these services post (None: forget it)."""
        self._sender = sender


def services(context: ContextTypes.DEFAULT_TYPE) -> Services:
    svc: Services = context.bot_data["services"]
    return svc


async def language_of(svc: Services, user_id: int, telegram_code: str | None = None) -> str:
    row = await svc.store.person(user_id)
    chosen = row["language"] if row is not None else None
    stored = row["tg_language"] if row is not None else None
    return pick_language(chosen, telegram_code or stored, svc.contest.language)


async def person_name(svc: Services, user_id: int) -> str:
    """How a person is named to others: their Telegram name as last seen."""
    row = await svc.store.person(user_id)
    name = str(row["name"]) if row is not None and row["name"] else ""
    return name or f"#{user_id}"
