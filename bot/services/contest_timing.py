"""The contest file's ``timing``: who records the finishes, volunteers at the tables
(``"volunteers"``, the default) or each entry itself at home (``"self"``: ``/listo``, a photo,
a reviewer's confirmation; ``bot.domain.selftimed``), for ``contest_file``."""

from __future__ import annotations

from bot.services.contest_toml import Table

TIMINGS = ("volunteers", "self")


def self_timed(t: Table, default: bool) -> bool:
    """``timing = "self"`` (in ``[contest]``, every category's default, or on a category)."""
    v = t.get("timing", str, None)
    if v is None:
        return default
    if v not in TIMINGS:
        raise t.ctx.error(t.key("timing"), f"must be one of {', '.join(TIMINGS)} (volunteers "
                          "record the finishes at the tables, or each entry claims its own "
                          f"at home with /listo and a photo), not {v!r}")
    return bool(v == "self")


def check_self_timed(t: Table, escape: bool, puzzles: bool) -> None:
    """A self-timed category plays one puzzle without an escape: an escape's stages and a
    sequence's split times are confirmed by volunteers at the table."""
    if escape:
        raise t.ctx.error(t.key("timing"), "is \"self\", but an escape category's stages are "
                          "confirmed by volunteers at the table")
    if puzzles:
        raise t.ctx.error(t.key("timing"), "is \"self\", but the split times of puzzles played "
                          "one after the other (puzzles = [...]) are recorded by volunteers; a "
                          "self-timed category plays one puzzle (or one per round)")
