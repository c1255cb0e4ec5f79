"""Registration drafts are saved when they change, not at every periodic save."""

from __future__ import annotations

from bot.chat.persistence import SQLitePersistence


class CountingStore:
    def __init__(self) -> None:
        self.rows: dict[int, str] = {7: '{"draft": 1}'}
        self.writes: list[tuple[int, str | None]] = []

    async def all_user_data(self) -> dict[int, str]:
        return dict(self.rows)

    async def set_user_data(self, user_id: int, data: str | None) -> None:
        self.writes.append((user_id, data))
        if data is None:
            self.rows.pop(user_id, None)
        else:
            self.rows[user_id] = data


async def test_unchanged_user_data_is_not_written_again():
    store = CountingStore()

    async def get_store():
        return store

    p = SQLitePersistence(get_store)  # type: ignore[arg-type]
    assert await p.get_user_data() == {7: {"draft": 1}}
    for _ in range(3):  # three periodic saves, nothing changed
        await p.update_user_data(7, {"draft": 1})
        await p.update_user_data(8, {})
    assert store.writes == [(8, None)]  # 8 was never written: once, then known
    await p.update_user_data(7, {"draft": 2})
    await p.update_user_data(7, {"draft": 2})
    assert store.writes[1:] == [(7, '{"draft": 2}')]
    await p.drop_user_data(7)
    await p.update_user_data(7, {})
    assert store.writes[2:] == [(7, None)]
    assert store.rows == {}
