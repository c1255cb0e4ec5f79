"""``publish``: the results of the categories chosen made final, in one transaction the
operation owns (``Work``): each entry of them told its place, the organiser what was done."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import partial

from bot.delivery.work import Work
from bot.domain.contest import Category
from bot.features.standings import day as standings
from bot.features.standings.outcomes import Published, worth_saying
from bot.features.standings.rules import ranking_open
from bot.features.standings.texts import published_text, standing_text
from bot.services.contest_day import ContestDay


@dataclass(frozen=True)
class Publish:
    """The results of ``categories`` made final by ``organiser`` at ``at`` (the question's
    button)."""

    organiser: int
    categories: list[Category]
    at: datetime
    update_id: int | None


async def publish(work: Work, day: ContestDay, cmd: Publish) -> Published:
    """What may be made final at the press is (a second press finds nothing new and tells
    nobody)."""
    contest = day.contest
    async with work:
        out = await standings.publish(day, cmd.organiser, cmd.categories, cmd.at, cmd.update_id)
        may_see = ranking_open(contest.participants_see_ranking, True)
        for p in out.categories:
            rows = {r.number: r for r in p.rows}
            for s in p.tell:
                work.tell_entry(s.number, partial(
                    standing_text, contest=contest, category=p.category.name, s=s,
                    row=rows[s.number], again=p.again, may_see=may_see,
                    separate=p.category.separate), skip_asker=False)
        refused = worth_saying(list(out.refused), len(cmd.categories) == 1)
        work.reply(partial(published_text, contest=contest, ready=list(out.categories),
                           refused=refused))
        return out
