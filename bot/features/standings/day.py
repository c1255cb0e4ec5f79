"""Final results (rules.py): the organiser makes a category's results final
(/publicar) once nobody plays in it; each entry is then told its place. Categories played in
rounds are made final round by round (/confirmar_ronda, bot/services/rounds.py)."""

from __future__ import annotations

from datetime import datetime

from bot.domain.clock import wall_clock_limit
from bot.domain.contest import Category
from bot.domain.events import EventKind
from bot.domain.ranking import titles
from bot.domain.rounds import heat_over
from bot.features.selftimed.day import waiting
from bot.features.standings.outcomes import (
    ClaimsToReview,
    InRounds,
    NoEntries,
    NothingNew,
    NotStarted,
    Publishable,
    Published,
    StandingsRefusal,
    StillPlaying,
)
from bot.features.standings.rules import (
    published_record,
    ranking_open,
    standings,
    to_tell,
    told_before,
)
from bot.services.contest_day import ContestDay
from bot.services.rounds import separate_rankings
from bot.storage.store import Event, Transaction


async def last_published(tx: Transaction | ContestDay, category_id: str) -> Event | None:
    """The category's latest publication, if any (read from the history: the question and
    the publication itself)."""
    store = tx.store if isinstance(tx, ContestDay) else tx
    found = [e for e in await store.events(kinds=[EventKind.RESULTS_FINAL])
             if e.ref == category_id]
    return found[-1] if found else None


async def published(day: ContestDay) -> frozenset[str]:
    """The categories whose results were made final, from the read model (a result recorded
    asks it at every finish and pieces count: read from the file only after a publication)."""
    cache = day.read.projection("published", (EventKind.RESULTS_FINAL,))
    if "ids" not in cache:
        cache["ids"] = frozenset(
            e.ref for e in await day.store.events(kinds=[EventKind.RESULTS_FINAL]) if e.ref)
    ids: frozenset[str] = cache["ids"]
    return ids


async def publishable(day: ContestDay, tx: Transaction, category: Category, at: datetime
                      ) -> Publishable | StandingsRefusal:
    """Whether ``category``'s results may be made final at ``at``, and whom that tells."""
    if category.rounds:
        return InRounds(category.name)
    clock = await day.clock(category.id)
    elapsed = clock.elapsed(at)
    if elapsed is None:
        return NotStarted(category.name)
    rows = await day.ranking(category, at)
    if not rows:
        return NoEntries(category.name)
    limit = wall_clock_limit(category.time_limit, clock, day.contest.timezone)
    if not heat_over(rows, elapsed, limit):
        playing = sum(1 for r in rows if r.position is None and r.competitor.outcome is None)
        return StillPlaying(category.name, playing, max(0, limit - elapsed))
    claims = await waiting(day, category)
    if claims:
        return ClaimsToReview(category.name, tuple(c.entry for c in claims))
    now = standings(category, rows, titles(await separate_rankings(day, category, rows)))
    last = await last_published(tx, category.id)
    tell = to_tell(now, told_before(last.data) if last is not None else None)
    if last is not None and not tell:
        return NothingNew(category.name, last.at)
    return Publishable(category, tuple(rows), tuple(now), tuple(tell), last is not None)


async def preview(day: ContestDay, categories: list[Category], at: datetime
                  ) -> tuple[list[Publishable], list[StandingsRefusal]]:
    """What ``publish`` would do now (the question /publicar asks first)."""
    async with day.store.transaction() as tx:
        return await _split(day, tx, categories, at)


async def _split(day: ContestDay, tx: Transaction, categories: list[Category], at: datetime
                 ) -> tuple[list[Publishable], list[StandingsRefusal]]:
    ready: list[Publishable] = []
    refused: list[StandingsRefusal] = []
    for category in categories:
        out = await publishable(day, tx, category, at)
        (ready if isinstance(out, Publishable) else refused).append(out)  # type: ignore[arg-type]
    return ready, refused


async def publish(day: ContestDay, organiser: int, categories: list[Category], at: datetime,
                  update_id: int | None) -> Published:
    """Makes final the results of every category of ``categories`` that may be now (each
    publication records what every entry of it is told), in one transaction."""
    async with day.store.transaction() as tx:
        ready, refused = await _split(day, tx, categories, at)
        for p in ready:
            await tx.add_event(at=at, kind=EventKind.RESULTS_FINAL, role="organiser",
                               actor=organiser, category=p.category.id, ref=p.category.id,
                               data=published_record(p.now), update_id=update_id)
        return Published(tuple(ready), tuple(refused))


async def final_category(day: ContestDay, number: int | None) -> Category | None:
    """The category of entry ``number`` if its results are final (a change to it then is a
    correction after publication: the answer says so)."""
    entry = await day.store.entry(number) if number is not None else None
    category = day.contest.category(entry.category) if entry is not None else None
    if category is None or category.rounds:
        return None
    return category if category.id in await published(day) else None


async def is_final(day: ContestDay, category: Category) -> bool:
    """Whether the category's results are final: published, or (played in rounds) every
    round confirmed."""
    if category.rounds:
        return await day.confirmed_rounds(category) >= len(category.rounds)
    return category.id in await published(day)


async def may_see(day: ContestDay, category: Category) -> bool:
    """Whether the entries' people may read ``category``'s ranking now (the contest file's
    ``participants_see_ranking``)."""
    visibility = day.contest.participants_see_ranking
    if visibility != "final":
        return ranking_open(visibility, False)
    return ranking_open(visibility, await is_final(day, category))
