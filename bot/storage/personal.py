"""A transaction's removal of personal data (``bot/features/privacy``): what a contest's
retention or a person's erasure takes away. The only writes that change rows already written,
events included: each goes through the store's hook (``_wrote``), so whatever was derived from
them is read again."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from bot.storage.db import TransactionCore
from bot.storage.records import values_json

# events whose details hold a member as typed (bot/features/members/rules.py ``member_data``)
_MEMBER_DATA_KINDS = ("member_change", "member_fix")


def _marks(numbers: Sequence[object]) -> str:
    return ",".join("?" * len(numbers))


def _without_births(data: object) -> object:
    """A change's details with every member's birth taken out."""
    if isinstance(data, dict):
        return {k: (None if k in ("born", "year") else _without_births(v))
                for k, v in data.items()}
    return data


class PersonalWrites(TransactionCore):
    """Personal data taken away, entry by entry."""

    __slots__ = ()

    async def forget_entry(self, number: int, values: Iterable[tuple[str, str]]) -> None:
        """Entry ``number`` keeps only the answers ``values`` and forgets who registered it
        (the phone's Telegram id)."""
        s = self._owned()
        s._raw.execute("UPDATE entries SET answer_values = ?, registered_by = NULL "
                       "WHERE number = ?", (values_json(values), number))
        s._wrote("entries")
        s.forget_entry_rows()

    async def unlink_phones(self, numbers: Sequence[int]) -> int:
        """The phones of entries ``numbers`` no longer tied to them: every event a participant
        recorded for them keeps its kind, moment and entry, but not who sent it. Returns how
        many events were changed."""
        if not numbers:
            return 0
        s = self._owned()
        cur = s._raw.execute(
            f"UPDATE events SET actor = NULL WHERE role = 'participant' AND actor IS NOT NULL "
            f"AND entry IN ({_marks(numbers)})", tuple(numbers))
        s._wrote("events")
        return int(cur.rowcount)

    async def forget_change_births(self, numbers: Sequence[int]) -> None:
        """The births in the details of entries ``numbers``' member changes and corrections
        taken out (the members themselves are rewritten by ``set_members``)."""
        if not numbers:
            return
        s = self._owned()
        rows = s._raw.execute(
            f"SELECT id, data FROM events WHERE kind IN ({_marks(_MEMBER_DATA_KINDS)}) "
            f"AND entry IN ({_marks(numbers)})", (*_MEMBER_DATA_KINDS, *numbers)).fetchall()
        for event_id, data in rows:
            if data:
                clean = json.dumps(_without_births(json.loads(data)), ensure_ascii=False,
                                   separators=(",", ":"))
                s._raw.execute("UPDATE events SET data = ? WHERE id = ?", (clean, event_id))
        s._wrote("events")

    async def forget_names_in(self, numbers: Sequence[int], kinds: Sequence[str],
                              blank: dict[str, object]) -> None:
        """In the details of entries ``numbers``' events of ``kinds``, the keys of ``blank``
        (who asked, who decided) replaced by its values (the details keep their shape)."""
        if not numbers or not kinds:
            return
        s = self._owned()
        rows = s._raw.execute(
            f"SELECT id, data FROM events WHERE kind IN ({_marks(kinds)}) "
            f"AND entry IN ({_marks(numbers)})", (*kinds, *numbers)).fetchall()
        for event_id, data in rows:
            details = json.loads(data) if data else None
            if isinstance(details, dict) and blank.keys() & details.keys():
                clean = {k: (blank[k] if k in blank else v) for k, v in details.items()}
                s._raw.execute("UPDATE events SET data = ? WHERE id = ?",
                               (json.dumps(clean, ensure_ascii=False, separators=(",", ":")),
                                event_id))
        s._wrote("events")

    async def drop_member_history(self, number: int) -> None:
        """Entry ``number``'s member changes and corrections deleted, names and all (an entry
        erased on request that never played: its members are no one's any more)."""
        s = self._owned()
        s._raw.execute(f"DELETE FROM events WHERE entry = ? AND kind IN "
                       f"({_marks(_MEMBER_DATA_KINDS)})", (number, *_MEMBER_DATA_KINDS))
        s._wrote("events")

    async def forget_people(self, staff: Iterable[int], only: Iterable[int] | None = None
                            ) -> int:
        """What the bot keeps of the people who are not ``staff`` (volunteers, organisers):
        their name and language, their conversation, and the texts of the messages sent to
        them (``only``: just these people). Returns how many people were forgotten."""
        s = self._owned()
        kept = set(staff)
        rows = s._raw.execute("SELECT user_id FROM people").fetchall()
        chosen = None if only is None else set(only)
        gone = [r[0] for r in rows if r[0] not in kept and (chosen is None or r[0] in chosen)]
        if chosen is not None:  # someone asked for who never wrote (no row): still their data
            gone = sorted(set(gone) | (chosen - kept))
        else:  # and whoever left a registration half done without a role (no row either)
            drafts = {int(r[0]) for r in s._raw.execute("SELECT user_id FROM user_data")}
            for (key,) in s._raw.execute("SELECT key FROM conversations").fetchall():
                ids = json.loads(key)
                if isinstance(ids, list) and ids and isinstance(ids[-1], int):
                    drafts.add(ids[-1])
            gone = sorted(set(gone) | (drafts - kept))
        for user_id in gone:
            s._raw.execute("DELETE FROM people WHERE user_id = ?", (user_id,))
            s._raw.execute("DELETE FROM user_data WHERE user_id = ?", (user_id,))
            # a private chat's conversation (python-telegram-bot's key: [chat id, user id])
            s._raw.execute("DELETE FROM conversations WHERE key = ?",
                           (json.dumps([user_id, user_id]),))
            s._raw.execute("UPDATE outbox SET params = '{}' WHERE chat_id = ? "
                           "AND done_at IS NOT NULL", (user_id,))
        s._wrote("people")
        return len(gone)
