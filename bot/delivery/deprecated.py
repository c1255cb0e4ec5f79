"""Deprecated: the calls of handlers not yet converted (handlers/staff.py, participant.py,
registration.py), which reach the services through the bot. Delete this module once they call
``answer``/``answer_now``, ``svc.sender`` and ``post_text(svc, ...)``."""

from __future__ import annotations

from telegram import Bot, Update

from bot.delivery.answers import _unstored, answer, recorded_transaction
from bot.delivery.posting import post_text
from bot.delivery.sender import Sender
from bot.delivery.services import Services

_BY_BOT: dict[int, Services] = {}  # id(bot) -> its services (``reply`` only has the update)


def attach_bot(bot: Bot, svc: Services | None) -> None:
    """The services of the messages ``bot`` sends (None: forget them)."""
    if svc is None:
        _BY_BOT.pop(id(bot), None)
    else:
        _BY_BOT[id(bot)] = svc


def _services_of(bot: Bot) -> Services:
    svc = _BY_BOT.get(id(bot))
    if svc is None:
        raise RuntimeError("no outbox sender: the application's post_init attaches it")
    return svc


def sender_for(bot: Bot) -> Sender:
    """Deprecated: ``svc.sender``."""
    return _services_of(bot).sender


async def reply(update: Update, text: str, *, admitted: bool = False,
                **kwargs: object) -> None:
    """Deprecated: ``answer`` inside a ``recording`` that has recorded something, else
    ``answer_now`` (the old silent switch)."""
    msg = update.effective_message
    assert msg is not None
    svc = _services_of(msg.get_bot())
    if recorded_transaction(svc) is not None:
        await answer(svc, update, text, **kwargs)
    else:
        await _unstored(svc, update, text, admitted, kwargs)


async def post_text_by_bot(bot: Bot, chat_id: int, text: str, priority: int,
                           grouping: str | None = None) -> bool:
    """Deprecated: ``post_text(svc, ...)``."""
    return await post_text(_services_of(bot), chat_id, text, priority, grouping)
