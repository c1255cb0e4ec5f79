"""The contest file's ``timing``: who records the finishes, volunteers at the tables
(``"volunteers"``, the default) or each entry itself at home (``"self"``: ``/listo``, a photo,
a reviewer's confirmation; ``bot.features.selftimed.rules``), for ``contest_file``."""

from __future__ import annotations

from bot.services.contest_ranking import check_unfinished_order, unfinished_order
from bot.services.contest_toml import Table

TIMINGS = ("volunteers", "self")
# where each entry starts each puzzle itself, those not done at the season's end are ordered by
# the puzzles they finished, then by their own time for them (``unfinished_order``'s default)
OWN_ORDER = ("puzzles", "time")


def self_timed(t: Table, default: bool) -> bool:
    """``timing = "self"`` (in ``[contest]``, every category's default, or on a category)."""
    v = t.get("timing", str, None)
    return default if v is None else bool(v == "self")


def own_start(t: Table, default: bool, at_home: bool) -> bool:
    """``own_start = true``: each entry starts each puzzle when it wants (its own start), its
    time the sum of its own puzzles' times; only where entries time themselves."""
    v = t.get("own_start", bool, None)
    if v is None:
        return default and at_home
    if v and not at_home:
        raise t.ctx.error(t.key("own_start"), "needs timing = \"self\" (each entry claims its "
                          "own finishes at home)")
    return bool(v)


def check_self_timed(t: Table, escape: bool, puzzles: bool, own: bool = False) -> None:
    """A self-timed category plays without an escape, and one puzzle unless each entry starts
    each puzzle itself (``own_start``): an escape's stages and a sequence's split times on
    the category clock are confirmed by volunteers at the table."""
    if escape:
        raise t.ctx.error(t.key("timing"), "is \"self\", but an escape category's stages are "
                          "confirmed by volunteers at the table")
    if puzzles and not own:
        raise t.ctx.error(t.key("timing"), "is \"self\", but the split times of puzzles played "
                          "one after the other (puzzles = [...]) are recorded by volunteers; a "
                          "self-timed category plays one puzzle (or one per round), or several "
                          "with own_start = true (each entry starts each puzzle itself)")


def read_timing(t: Table, timed: tuple[bool, bool], escape: bool, in_sequence: bool,
                unfinished: tuple[str, ...]) -> tuple[bool, bool, tuple[str, ...]]:
    """A category's ``timing``, ``own_start`` (defaults: ``[contest]``'s, ``timed``) and
    ``unfinished_order`` (default: the contest's, or, where each entry starts each puzzle
    itself, ``OWN_ORDER``), checked together."""
    at_home = self_timed(t, timed[0])
    own = own_start(t, timed[1], at_home)
    order = unfinished_order(t, OWN_ORDER if own and unfinished == ("pieces",) else unfinished)
    if at_home:
        check_self_timed(t, escape, in_sequence, own)
    if order is not unfinished and order is not OWN_ORDER:
        check_unfinished_order(t, order, in_sequence)
    return at_home, own, order
