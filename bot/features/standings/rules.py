"""Final results (docs/rules.md, "Final results"): when a category's results are final, what
each entry is told (its place, of how many, its time and prizes), what changed since they were
last told, and who may read the category's ranking.

A category's results are made final by the organiser (``/publicar``), once nobody is playing
in it any more. They may still be corrected afterwards; publishing again tells only the entries
whose place, time or prizes moved.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.domain.contest import Category
from bot.domain.ranking import Row, Title, ranking_time

# who may read a category's ranking with /clasificacion besides the organisers (the contest
# file's ``participants_see_ranking``): the entries' people once its results are final (the
# default), at any moment, or never
RANKING_VISIBILITY = ("final", "always", "never")


@dataclass(frozen=True)
class Standing:
    """What one entry is told when its category's results are final."""

    number: int
    position: int | None  # None: no place (did not start, disqualified, no result)
    of: int  # entries placed in the category
    time: int | None  # its ranking time (escape pairs: the adjusted total), if finished
    pieces: int | None  # pieces placed, when not finished
    outcome: str | None  # "dns", "dsq" or "oc"
    prizes: tuple[str, ...]  # its position prize first, then the extra ones
    titles: tuple[Title, ...] = ()  # its places in the category's separate rankings

    def key(self) -> list[Any]:
        """What the entry was told, as the published record keeps it (its titles, where it
        holds some: a record made before titles were told reads the same for the others)."""
        told: list[Any] = [self.position, self.of, self.time, self.pieces, self.outcome,
                           list(self.prizes)]
        if self.titles:
            told.append([[t.ranking, t.position, t.of, t.prize] for t in self.titles])
        return told


def standings(category: Category, rows: Sequence[Row],
              titles: Mapping[int, tuple[Title, ...]] | None = None) -> list[Standing]:
    """Each entry of a category's final ranking, in the ranking's order; an extra prize is
    named with what it is for ("Mejor pareja local: Dos trofeos..."); ``titles``: each
    entry's places in the category's separate rankings (``bot.domain.ranking.titles``)."""
    placed = sum(1 for r in rows if r.position is not None)
    extras = {e.id: f"{e.name}: {e.prize}" for e in category.extra_prizes}
    out = []
    for r in rows:
        c = r.competitor
        prizes = ((r.prize,) if r.prize else ()) + tuple(extras.get(x, x)
                                                         for x in r.extra_prizes)
        out.append(Standing(
            number=r.number, position=r.position, of=placed,
            time=ranking_time(c) if r.finished else None,
            pieces=None if r.finished else c.counted, outcome=c.outcome, prizes=prizes,
            titles=(titles or {}).get(r.number, ())))
    return out


def published_record(told: Iterable[Standing]) -> dict[str, Any]:
    """The data of the event that makes results final: what each entry was told."""
    return {"told": {str(s.number): s.key() for s in told}}


def told_before(data: Mapping[str, Any]) -> dict[int, list[Any]]:
    """What each entry was told by an earlier publication (``published_record``)."""
    return {int(n): list(v) for n, v in dict(data.get("told", {})).items()}


def to_tell(now: Sequence[Standing], before: Mapping[int, list[Any]] | None
            ) -> list[Standing]:
    """The entries to tell: all of them the first time (``before`` None), then only those
    whose place, time, pieces, outcome or prizes are not what they were told."""
    if before is None:
        return list(now)
    return [s for s in now if before.get(s.number) != s.key()]


def ranking_open(visibility: str, final: bool) -> bool:
    """Whether an entry's people may read its category's ranking (``visibility``: the contest
    file's setting; ``final``: its results are published)."""
    return visibility == "always" or (visibility == "final" and final)
