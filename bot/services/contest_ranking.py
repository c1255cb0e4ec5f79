"""The contest file's ranking settings: equal results (``tie_break``, ``shared_prizes``) and
the order of the entries that did not finish (``unfinished_order``), for ``contest_file``."""

from __future__ import annotations

from typing import NamedTuple

from bot.domain.ranking import UNFINISHED_KEYS
from bot.services.contest_toml import Table, kind_of

PLAIN = ("pieces",)


class RankingRules(NamedTuple):
    tie_break: str = "shared"
    shared_prizes: str = "each"
    unfinished_order: tuple[str, ...] = PLAIN


def ranking_rules(c: Table) -> RankingRules:
    """``[contest]``'s ``tie_break``, ``shared_prizes`` and ``unfinished_order``."""
    tie_break = c.get("tie_break", str, "shared")
    shared_prizes = c.get("shared_prizes", str, "each")
    return RankingRules(tie_break, shared_prizes, unfinished_order(c, PLAIN))


def unfinished_order(t: Table, default: tuple[str, ...]) -> tuple[str, ...]:
    """``unfinished_order = ["pieces", "time"]``: what orders the entries that did not finish,
    first key first; entries equal on every key share a place."""
    v = t.get("unfinished_order", (list, str), None)
    if v is None:
        return default
    items = [v] if isinstance(v, str) else v
    where = t.key("unfinished_order")
    if not items:
        raise t.ctx.error(where, f"needs one or more of {', '.join(UNFINISHED_KEYS)}")
    seen: list[str] = []
    for i, item in enumerate(items):
        if not isinstance(item, str):
            raise t.ctx.error(f"{where}[{i}]", f"must be text, not {kind_of(item)}")
        if item not in UNFINISHED_KEYS:
            raise t.ctx.error(f"{where}[{i}]", f"must be one of {', '.join(UNFINISHED_KEYS)} "
                              f"(pieces placed, puzzles finished, the time the last of them "
                              f"was finished), not {item!r}")
        if item in seen:
            raise t.ctx.error(f"{where}[{i}]", f"says {item!r} twice")
        seen.append(item)
    return tuple(seen)


def check_unfinished_order(t: Table, order: tuple[str, ...], in_sequence: bool,
                           who: str = "this category plays") -> None:
    """"puzzles" and "time" count the puzzles finished of those played one after the other:
    refused for a category whose every round plays one puzzle (``in_sequence`` False), or
    a contest where every category does."""
    needs = [k for k in order if k != "pieces"]
    if needs and not in_sequence:
        raise t.ctx.error(t.key("unfinished_order"), f"orders by {needs[0]!r}, which counts "
                          "the puzzles finished of several played one after the other "
                          f"(puzzles = [...]), and {who} one puzzle at a time")
