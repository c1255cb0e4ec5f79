"""An entry's titles: its places in its category's separate rankings (a national title within
an open category, the best under 18s), as the entry is told them when results are final."""

from __future__ import annotations

from collections.abc import Sequence

from bot.domain.contest import Contest, SeparateRanking, localized
from bot.domain.ranking import Title
from bot.support.i18n import tr


def title_lines(lang: str, contest: Contest, rankings: Sequence[SeparateRanking],
                titles: Sequence[Title]) -> list[str]:
    """An entry's places in its category's separate rankings (``rankings``), a line each,
    with the ranking's name ("Deutsche Meisterschaft: Platz 1 von 4. Preis: ...")."""
    names = {sr.id: localized(sr.name, lang, contest.language) or sr.id for sr in rankings}
    lines = []
    for t in titles:
        name = names.get(t.ranking, t.ranking)
        lines.append(tr(lang, "{ranking}: place {position} of {of}. Prize: {prize}.",
                        ranking=name, position=t.position, of=t.of, prize=t.prize)
                     if t.prize else
                     tr(lang, "{ranking}: place {position} of {of}.", ranking=name,
                        position=t.position, of=t.of))
    return lines
