"""The rows the store hands out (events, entries, messages owed) and the mapping of their
columns; no SQL here, no connection."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cached_property
from typing import Any

from bot.features.registration.rules import Member, entry_value


def to_ts(dt: datetime) -> int:
    return int(dt.timestamp())


def from_ts(ts: int) -> datetime:
    return datetime.fromtimestamp(ts, UTC)


@dataclass(frozen=True)
class Event:
    id: int
    at: datetime
    actor: int | None
    role: str
    kind: str
    entry: int | None
    category: str | None
    stage: int | None
    value: int | None
    ref: str | None
    data: dict[str, Any]
    supersedes: int | None
    recorded_at: datetime


@dataclass(frozen=True)
class Entry:
    number: int
    category: str
    join_code: str
    local: bool
    registered_at: datetime
    members: tuple[Member, ...]
    source: str = "import"
    registered_by: int | None = None
    meal_adults: int = 0
    meal_children: int = 0
    # answers to the questions asked once per entry: (question id, answer)
    values: tuple[tuple[str, str], ...] = ()

    @cached_property
    def names(self) -> tuple[str, ...]:
        return tuple(m.name for m in self.members)

    def answer(self, question_id: str) -> str | None:
        """The entry's answer to a question: for a per-entry question, its answer ("yes"/"no"
        for a yes/no one); for a per-member choice or text question, the answer when all the
        members who answered gave the same one, else the distinct answers joined with "/"
        ("ES/FR", sorted). None when nobody answered (or for a per-member yes/no question:
        see ``Member.answers``)."""
        own = next((v for q, v in self.values if q == question_id), None)
        return own if own is not None else entry_value(self.members, question_id)


def values_json(values: Iterable[tuple[str, str]]) -> str:
    """Answers as stored (``answer_values``): a JSON object, question id -> answer."""
    return json.dumps(dict(values), ensure_ascii=False, separators=(",", ":"))


def values_from(text: str | None) -> tuple[tuple[str, str], ...]:
    if not text or text == "{}":  # most entries and members: no answer kept (no JSON to read)
        return ()
    stored = json.loads(text)
    return tuple((str(k), str(v)) for k, v in stored.items())


def event_from_tuple(row: Sequence[Any]) -> Event:
    """An event from a row of ``EVENT_COLUMNS`` (bot/storage/events.py), in that order (the
    fields of ``Event``): the one mapping for every event read, and for a new one read back by
    ``RETURNING``."""
    (id_, at, actor, role, kind, entry, category, stage, value, ref, data, supersedes,
     recorded_at) = row
    return Event(id_, from_ts(at), actor, role, kind, entry, category, stage, value, ref,
                 json.loads(data) if data else {}, supersedes, from_ts(recorded_at))


@dataclass(frozen=True)
class OutboxMessage:
    """A message the bot owes someone (a row of ``outbox``): ``method`` called with
    ``params`` and ``chat_id``. ``priority`` 0 is the answer to who asked, 1 partners' copies
    and volunteers' lines, 2 bulk notices; ``grouping`` names lines that may go out joined
    with the next ones to the same chat. ``id`` is None for an answer that is not stored (it
    reports nothing recorded)."""

    id: int | None
    chat_id: int
    priority: int
    method: str
    params: dict[str, Any]
    grouping: str | None = None


PRIORITY_ANSWER, PRIORITY_COPY, PRIORITY_BULK = 0, 1, 2
OUTBOX_KEEP_SECONDS = 3600  # rows done this long ago are pruned (nothing reads them after)
# the copies of claimable lines (``Copy``) are kept longer: a line may be claimed a while after
# it went out, and the claim edits every copy still known
COPIES_KEEP_SECONDS = 6 * 3600


@dataclass(frozen=True)
class Copy:
    """One message Telegram holds in a chat (``message_id``) with lines a volunteer may claim:
    its lines (``parts``, joined with a new line) and buttons as they are now, and the claim
    of each claimable line with its place in ``parts``. ``caption``: a photo, its one line
    the caption (edited as a caption)."""

    chat_id: int
    message_id: int
    parts: tuple[str, ...]
    markup: str | None
    claims: tuple[tuple[str, int], ...] = ()
    caption: bool = False

    @property
    def text(self) -> str:
        return "\n".join(self.parts)
