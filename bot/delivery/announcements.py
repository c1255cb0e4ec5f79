"""An organiser's announcement, owed: posted once in the announcements channel
(``PUZZLEBOT_ANNOUNCE_CHAT``) when there is one, else once to each linked participant, in the
running ``recording`` operation (the event and its messages in one transaction).

Nothing but announcements goes to that channel: a person's own news stays private. A post the
channel refuses for good (the bot not an administrator, the chat gone) is not lost: the sender
hands it to ``fall_back``, whose messages (the post to each linked participant, and a line to
each organiser saying why) are written in the transaction that marks the post refused."""

from __future__ import annotations

import logging

from bot.delivery.marks import DROPPED
from bot.delivery.posting import organiser_recipients, post_text
from bot.delivery.services import Services
from bot.storage.store import PRIORITY_BULK
from bot.texts import clocks as texts

log = logging.getLogger(__name__)

# a message owed instead of a refused post: (chat, text, grouping)
Owed = tuple[int, str, str | None]


async def post_announcement(svc: Services, text: str, participants: list[int]) -> bool:
    """The announcement ``text`` owed: in the announcements channel (True), or to each of
    ``participants`` (False)."""
    post = texts.announcement(text)
    channel = svc.config.announce_chat
    if channel is not None:
        await post_text(svc, channel, post, PRIORITY_BULK)
        return True
    for user_id in participants:
        await post_text(svc, user_id, post, PRIORITY_BULK)
    return False


async def fall_back(svc: Services, refused: list[tuple[int, str, str]]) -> list[Owed]:
    """What is owed instead of the posts the channel refused (``refused``: chat, the post's
    text, Telegram's words): the post to each linked participant, and to each organiser the
    line saying so (never about a line about a line: ``DROPPED``)."""
    if not refused:
        return []
    participants = await svc.day.participants()
    organisers = await organiser_recipients(svc)
    owed: list[Owed] = []
    for chat, post, detail in refused:
        log.error("the announcements channel %s refused an announcement (%s): it goes to "
                  "each of the %d linked participants instead; check PUZZLEBOT_ANNOUNCE_CHAT "
                  "(the bot must be an administrator of the channel, or a member of the group)",
                  chat, detail, len(participants))
        owed += [(user_id, post, None) for user_id in participants]
        owed += [(to, texts.channel_refused(lang, detail, len(participants)), DROPPED)
                 for to, lang in organisers]
    return owed


__all__ = ["Owed", "fall_back", "post_announcement"]
