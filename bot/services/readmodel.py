"""The read model: every projection of the day kept in memory, with one stamp idiom.

A projection says which kinds of event it is derived from (``projection(name, kinds)``); it is
valid while none of them, nor a correction, has been written. The stamp is the store's counters
(``Store.versions``, ``Store.entry_versions``, ``Store.writes``), which change only in the
store's one write hook (``_wrote``) and after an undo (``_forget_derived``), so there is no other
invalidation path. The database stays the source of truth: a stale projection is read again."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.domain.events import CORRECTION, UNDONE
from bot.storage.store import Store

Stamp = tuple[int, ...] | tuple[tuple[str, int], ...]


class ReadModel:
    """The projections derived from one store's history (owned by ``ContestDay``, handed to
    its ``Registrations``)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._projections: dict[str, tuple[Stamp, dict[Any, Any], int]] = {}

    def projection(self, name: str, kinds: Iterable[str] | None) -> dict[Any, Any]:
        """The data of projection ``name``, emptied when an event of ``kinds`` (None: of any
        kind) or a correction was written since it was stamped. Take it before reading what it
        derives from: a write that lands during the read then leaves it stale, never wrongly
        fresh."""
        held = self._projections.get(name)
        writes = self.store.writes
        if held is not None and held[2] == writes:
            return held[1]  # nothing at all written since it was stamped
        stamp = self.stamp(kinds)
        data = held[1] if held is not None and held[0] == stamp else {}
        self._projections[name] = (stamp, data, writes)
        return data

    def stamp(self, kinds: Iterable[str] | None) -> Stamp:
        """What was written of ``kinds`` so far, with the corrections and the undos (an undo
        may take away a kind never counted here: a row written by hand); None: of every kind."""
        versions = self.store.versions
        if kinds is None:
            return tuple(sorted(versions.items()))
        return (*[versions.get(k, 0) for k in kinds], versions.get(CORRECTION, 0),
                versions.get(UNDONE, 0))

    def entry_stamp(self, number: int) -> int:
        """What was written of one entry's events so far: a projection kept per entry (its
        state) holds this with each item, taken before the entry's history is read."""
        return self.store.entry_versions.get(number, 0)
