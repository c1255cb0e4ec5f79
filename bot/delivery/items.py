"""What waits in a chat's queue: one message owed (``Item``), and the volunteers' lines that go
out joined in one message (``take``)."""

from __future__ import annotations

import asyncio
from collections import deque

from bot.storage.store import OutboxMessage

MESSAGE_LIMIT = 4096  # Telegram's longest message: joined lines stay under it


class Item:
    __slots__ = ("ambiguous", "answered", "message", "row")

    def __init__(self, message: OutboxMessage, answered: asyncio.Future[str] | None = None,
                 row: int | None = None) -> None:
        self.message = message
        self.answered = answered  # an answer not stored: its handler waits on this
        self.ambiguous = 0  # failures that may have delivered it
        self.row = message.id if row is None else row  # the outbox row it comes from


def take(queue: deque[Item]) -> list[Item]:
    """The chat's next message, joined with the lines of the same kind waiting after it."""
    first = queue.popleft()
    items = [first]
    m = first.message
    if m.grouping is None or first.row is None or m.method != "sendMessage":
        return items
    length = len(str(m.params.get("text", "")))
    while queue:
        n = queue[0].message
        same = {k: v for k, v in n.params.items() if k != "text"} == {
            k: v for k, v in m.params.items() if k != "text"}
        extra = len(str(n.params.get("text", ""))) + 1
        if n.grouping != m.grouping or n.method != m.method or not same or (
                length + extra > MESSAGE_LIMIT):
            break
        items.append(queue.popleft())
        length += extra
    return items
