"""python-telegram-bot persistence in our SQLite file: registration conversations and their
drafts survive a restart. Only user_data and conversations are kept; the contest itself lives
in the event history, not here."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from telegram.ext import BasePersistence, PersistenceInput

from bot.storage.store import Store


class SQLitePersistence(BasePersistence[dict[str, Any], dict[str, Any], dict[str, Any]]):
    def __init__(self, get_store: Callable[[], Awaitable[Store]]) -> None:
        super().__init__(
            store_data=PersistenceInput(bot_data=False, chat_data=False, user_data=True,
                                        callback_data=False),
            update_interval=5,
        )
        self._get_store = get_store
        # what the file holds for each user: python-telegram-bot hands every user who wrote
        # anything to update_user_data at each save (every 5 s), changed or not
        self._stored: dict[int, str | None] = {}

    async def get_user_data(self) -> dict[int, dict[str, Any]]:
        store = await self._get_store()
        stored = await store.all_user_data()
        self._stored = dict(stored)
        return {uid: json.loads(raw) for uid, raw in stored.items()}

    async def update_user_data(self, user_id: int, data: dict[str, Any]) -> None:
        raw = json.dumps(data, ensure_ascii=False) if data else None
        if user_id in self._stored and self._stored[user_id] == raw:
            return  # unchanged: no write
        store = await self._get_store()
        await store.set_user_data(user_id, raw)
        self._stored[user_id] = raw

    async def drop_user_data(self, user_id: int) -> None:
        await (await self._get_store()).set_user_data(user_id, None)
        self._stored[user_id] = None

    async def refresh_user_data(self, user_id: int, user_data: dict[str, Any]) -> None:
        return None

    async def get_conversations(self, name: str) -> dict[tuple[int | str, ...], object]:
        store = await self._get_store()
        out: dict[tuple[int | str, ...], object] = {}
        for key, state in (await store.conversations(name)).items():
            out[tuple(json.loads(key))] = json.loads(state)
        return out

    async def update_conversation(
        self, name: str, key: tuple[int | str, ...], new_state: object | None
    ) -> None:
        store = await self._get_store()
        await store.set_conversation(
            name, json.dumps(list(key)), None if new_state is None else json.dumps(new_state)
        )

    # chat data, bot data and callback data are not kept
    async def get_chat_data(self) -> dict[int, dict[str, Any]]:
        return {}

    async def update_chat_data(self, chat_id: int, data: dict[str, Any]) -> None:
        return None

    async def drop_chat_data(self, chat_id: int) -> None:
        return None

    async def refresh_chat_data(self, chat_id: int, chat_data: dict[str, Any]) -> None:
        return None

    async def get_bot_data(self) -> dict[str, Any]:
        return {}

    async def update_bot_data(self, data: dict[str, Any]) -> None:
        return None

    async def refresh_bot_data(self, bot_data: dict[str, Any]) -> None:
        return None

    async def get_callback_data(self) -> None:
        return None

    async def update_callback_data(self, data: Any) -> None:
        return None

    async def flush(self) -> None:
        return None
