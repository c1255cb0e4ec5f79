"""Messages to people other than the one who asked: one chat, the phones of an entry, the
volunteers' line; posted to the outbox in the running ``recording`` operation (or one of their
own), sent once it commits."""

from __future__ import annotations

import logging
from collections.abc import Callable

from telegram.ext import ContextTypes

from bot.delivery.sender import EVERY_VOLUNTEER
from bot.delivery.services import Services, language_of, services
from bot.storage.store import PRIORITY_COPY
from bot.support.i18n import LANGUAGES
from bot.texts.common import message_parts

log = logging.getLogger(__name__)


async def _post(svc: Services, chat_id: int, params: dict[str, object], priority: int,
                grouping: str | None = None) -> None:
    """One message owed: posted in the running ``recording`` operation if there is one (sent
    once it commits), else in an operation of its own."""
    store = svc.store
    tx = store.current()
    if tx is not None:
        tx.post(chat_id, params, priority=priority, grouping=grouping)
        return
    async with store.transaction() as own:
        own.post(chat_id, params, priority=priority, grouping=grouping)


async def send(context: ContextTypes.DEFAULT_TYPE, chat_id: int, text: str,
               priority: int = PRIORITY_COPY) -> bool:
    """A message to one chat, posted to the outbox (see ``_post``); True if there was
    something to say. A person who blocked the bot does not stop the others: the sender
    marks that message refused."""
    return await post_text(services(context), chat_id, text, priority)


async def post_text(svc: Services, chat_id: int, text: str, priority: int,
                    grouping: str | None = None) -> bool:
    """``send`` with only the services at hand (jobs given the application); ``grouping``:
    lines that may go out joined with the next ones to the same chat."""
    posted = False
    for part in message_parts(text):
        if not part.strip():
            continue  # nothing to say (Telegram refuses an empty message)
        await _post(svc, chat_id, {"text": part}, priority, grouping)
        posted = True
    return posted


async def notify_staff(context: ContextTypes.DEFAULT_TYPE, make: Callable[[str], str],
                       priority: int = PRIORITY_COPY) -> int:
    """The volunteers' line: in the volunteer chat, or privately to each volunteer/organiser.
    Posted to the outbox (see ``_post``); lines waiting for the same chat go out joined in
    one message (a volunteers' group takes 20 messages a minute). Returns how many chats it
    was posted for."""
    svc = services(context)

    def write(lang: str) -> str:
        try:
            return make(lang)
        except Exception:  # a line that cannot be written must not undo what it reports
            log.exception("could not write a volunteers' line")
            return ""

    if svc.config.volunteer_chat is not None:
        return int(await post_text(svc, svc.config.volunteer_chat,
                                   write(svc.contest.language), priority, grouping="staff"))
    # one row for every volunteer and organiser, the line in each language: the sender works
    # out who gets it (``staff_recipients``) when it sends it
    texts = {lang: text for lang in LANGUAGES if (text := write(lang)).strip()}
    if not texts:
        return 0
    await _post(svc, EVERY_VOLUNTEER, {"texts": texts}, priority, grouping="staff")
    return 1


async def staff_recipients(svc: Services) -> list[tuple[int, str]]:
    """Who gets the volunteers' lines without a volunteers' group, and in which language:
    every volunteer and organiser who has talked to the bot (Telegram refuses the others)."""
    people = set(await svc.day.volunteers()) | set(await svc.day.all_organisers())
    out = []
    for user_id in sorted(people):
        if await svc.store.person(user_id) is not None:
            out.append((user_id, await language_of(svc, user_id)))
    return out


async def organiser_recipients(svc: Services) -> list[tuple[int, str]]:
    """Every organiser who has talked to the bot, with their language (the sender tells them
    of messages Telegram refused for good)."""
    out = []
    for user_id in sorted(await svc.day.all_organisers()):
        if await svc.store.person(user_id) is not None:
            out.append((user_id, await language_of(svc, user_id)))
    return out


async def chat_name(svc: Services, chat_id: int) -> str | None:
    """How the sender names a chat to the organisers: the person's name, if known."""
    row = await svc.store.person(chat_id)
    return str(row["name"]) if row is not None and row["name"] else None


async def notify_entry(
    context: ContextTypes.DEFAULT_TYPE, number: int, make: Callable[[str], str],
    priority: int = PRIORITY_COPY,
) -> int:
    """To every phone following entry ``number``; returns how many it was posted for."""
    svc = services(context)
    sent = 0
    for user_id in await svc.day.linked_users(number):
        if await send(context, user_id, make(await language_of(svc, user_id)), priority):
            sent += 1
    return sent
