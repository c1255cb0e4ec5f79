"""Claiming a volunteers' line ("I'm going"): which line a claim is about. A line asks a
volunteer to walk to a table (a hint or solution to hand over, a puzzle said to be finished);
the first volunteer to claim it takes it, and the others see who did. A claim changes no result:
it is the volunteers' way of not walking, two of them, to the same table."""

from __future__ import annotations

from bot.domain.numbers import parse_whole

CLAIM_PREFIX = "take:"  # a claim reads "take:<entry>:<event id>" (the event the line reports)


def claim_ref(entry: int, event_id: int) -> str:
    """The claim of the line about event ``event_id`` of entry ``entry``: its button's
    callback data, and the ref of the claim event (the first one with it took the line)."""
    return f"{CLAIM_PREFIX}{entry}:{event_id}"


def parse_claim(data: str) -> tuple[int, int] | None:
    """(entry, event id) of a claim, or None if ``data`` is not one."""
    if not data.startswith(CLAIM_PREFIX):
        return None
    parts = data.removeprefix(CLAIM_PREFIX).split(":")
    if len(parts) != 2:
        return None
    entry, event = parse_whole(parts[0]), parse_whole(parts[1])
    if entry is None or event is None or entry <= 0 or event <= 0:
        return None
    return entry, event
