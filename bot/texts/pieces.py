"""The words for the pieces an entry is ranked by (rankings, their picture, /historial)."""

from __future__ import annotations

from bot.domain.ranking import Competitor
from bot.support.i18n import ntr, tr


def pieces_result(lang: str, c: Competitor) -> str:
    """The pieces an entry is ranked by: "850 pieces"; with a marathon's joker, how the count
    is made ("9150 pieces (8900 placed + 250 joker bonus)", "9000 pieces (1 joker used)")."""
    text = tr(lang, "{pieces} pieces", pieces=c.counted)
    if c.bonus:
        text += " " + tr(lang, "({placed} placed + {bonus} joker bonus)", placed=c.pieces,
                         bonus=c.bonus)
    if c.jokers:
        text += " " + ntr(lang, "({n} joker used)", "({n} jokers used)", c.jokers)
    return text
