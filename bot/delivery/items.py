"""What waits in a chat's queue: one message owed (``Item``), and the volunteers' lines that go
out joined in one message (``take``)."""

from __future__ import annotations

import asyncio
import json
from collections import deque
from functools import lru_cache
from typing import Any

from bot.storage.store import OutboxMessage
from bot.texts.common import message_parts

INVOICE_METHOD = "sendInvoice"  # an invoice owed (its provider's token added as it is sent)
MESSAGE_LIMIT = 4096  # Telegram's longest message: joined lines stay under it


class Item:
    __slots__ = ("ambiguous", "answered", "message", "row")

    def __init__(self, message: OutboxMessage, answered: asyncio.Future[str] | None = None,
                 row: int | None = None) -> None:
        self.message = message
        self.answered = answered  # an answer not stored: its handler waits on this
        self.ambiguous = 0  # failures that may have delivered it
        self.row = message.id if row is None else row  # the outbox row it comes from


BUTTONS = "reply_markup"
# an outbox message's file of the contest's own, sent from this machine: [field, local path]
# (the sender reads it, or sends the id Telegram gave it the first time)
UPLOAD = "upload"
# buttons under one joined message at most (Telegram takes up to 100 under a message; each
# button of a volunteers' line names its entry)
MOST_BUTTONS = 100


def line_params(text: str, markup: str | None = None) -> list[dict[str, object]]:
    """A line's messages: one per part Telegram takes (``message_parts``; an empty one is
    refused, so left out), its buttons (``markup``, JSON) under the last."""
    parts = [part for part in message_parts(text) if part.strip()]
    return [{"text": part, **({BUTTONS: markup} if markup is not None and i == len(parts) - 1
                              else {})} for i, part in enumerate(parts)]


def take(queue: deque[Item]) -> list[Item]:
    """The chat's next message, joined with the lines of the same kind waiting after it (the
    buttons of the lines joined go under it, in the lines' order: ``buttons_of``)."""
    first = queue.popleft()
    items = [first]
    m = first.message
    if m.grouping is None or first.row is None or m.method != "sendMessage":
        return items
    length = len(str(m.params.get("text", "")))
    with_buttons = button_count(m.params.get(BUTTONS))
    rest = _rest_of(m.params)
    while queue:
        n = queue[0].message
        if n.grouping != m.grouping or n.method != m.method or _rest_of(n.params) != rest:
            break
        extra = len(str(n.params.get("text", ""))) + 1
        more = button_count(n.params.get(BUTTONS))
        if length + extra > MESSAGE_LIMIT or with_buttons + more > MOST_BUTTONS:
            break
        items.append(queue.popleft())
        length += extra
        with_buttons += more
    return items


def _rest_of(params: dict[str, object]) -> dict[str, object]:
    """A line's parameters but its text and buttons: lines join only where these are equal."""
    return {k: v for k, v in params.items() if k != "text" and k != BUTTONS}


def buttons_of(items: list[Item]) -> str | None:
    """The keyboard of a joined message (JSON): every joined line's buttons, in order."""
    markups = tuple(str(i.message.params[BUTTONS]) for i in items if BUTTONS in i.message.params)
    if len(markups) <= 1:
        return markups[0] if markups else None
    return _joined(markups)


@lru_cache(maxsize=256)
def _joined(markups: tuple[str, ...]) -> str:
    """Keyboards joined (every volunteer reading one language gets the same lines joined: the
    JSON is written once for all of them)."""
    rows = [row for markup in markups for row in keyboard_rows(markup)]
    return json.dumps({"inline_keyboard": rows}, ensure_ascii=False, separators=(",", ":"))


def button_count(markup: object) -> int:
    """How many buttons a line's ``reply_markup`` (JSON) holds."""
    return _button_count(markup) if isinstance(markup, str) else 0


@lru_cache(maxsize=512)
def _button_count(markup: str) -> int:
    return sum(len(row) for row in keyboard_rows(markup))


@lru_cache(maxsize=512)
def keyboard_rows(markup: str) -> tuple[Any, ...]:
    """A keyboard's rows, read once per keyboard (every volunteer's copy of a line carries
    the same one): a pure function of its JSON, never changed by its callers."""
    return tuple(json.loads(markup)["inline_keyboard"])
