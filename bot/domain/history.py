"""Corrections in an append-only history.

An event may supersede an older one (a corrected finish time, an undo). The effective events are
those not superseded by an effective event: undoing a correction brings the old value back.
"""

from __future__ import annotations

from collections.abc import Iterable


def effective_ids(events: Iterable[tuple[int, int | None]]) -> set[int]:
    """Ids of the events still in force, from ``(id, supersedes)`` pairs (ids grow with time)."""
    killed: set[int] = set()
    alive: set[int] = set()
    supersedes_by_id = dict(events)
    for event_id in sorted(supersedes_by_id, reverse=True):
        supersedes = supersedes_by_id[event_id]
        if event_id in killed:
            continue
        alive.add(event_id)
        if supersedes is not None:
            killed.add(supersedes)
    return alive
