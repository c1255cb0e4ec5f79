"""Rounds: confirming a round final, and what is read of heats and tables (the heats that
have a clock, an entry's table, a round's ranking, the separate rankings).

The queries the day's state and rankings need (lineups, heat_of, heat_ranking,
classification...) stay in ``ContestDay``, which never imports a feature.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import ClassVar

from bot.domain.contest import Category, SeparateRanking
from bot.domain.events import EventKind
from bot.domain.ranking import Row
from bot.domain.rounds import (
    AllConfirmed,
    Confirmable,
    Heat,
    NobodyThrough,
    NotPlayed,
    PlayedHeat,
    StillPlayed,
    capped,
    confirm_verdict,
    in_line,
    merged,
    table_number,
)
from bot.features.invitations.day import Invited, invite_qualifiers
from bot.features.selftimed.day import waiting as claims_waiting
from bot.services.contest_day import (
    ContestDay,
    RoundClosed,
    answer_to,
    round_ref,
    separate_of,
)
from bot.services.outcomes import Done, Refusal, SharedRefusal
from bot.storage.transactions import Transaction

# -- what the rounds' operations give back -----------------------------------------------------


@dataclass(frozen=True)
class RoundNotOver(Refusal):
    """A heat still running, with entries that have no result yet."""

    code: ClassVar[str] = "round_not_over"
    heat: str
    waiting: tuple[int, ...]


@dataclass(frozen=True)
class HeatNotStarted(Refusal):
    """A round can't be confirmed before each of its heats was played."""

    code: ClassVar[str] = "heat_not_started"
    heat: str


@dataclass(frozen=True)
class NoQualifiers(Refusal):
    """The round's advancement rule lets nobody through: the next round would be empty."""

    code: ClassVar[str] = "no_qualifiers"
    heat: str


@dataclass(frozen=True)
class QualifiersWithoutHeat(Refusal):
    """Qualifiers whose answer to the question splitting the next round is none of its
    choices (``entries``): they would play in no heat, so nothing is confirmed."""

    code: ClassVar[str] = "qualifiers_without_heat"
    heat: str
    question: str
    entries: tuple[int, ...]


@dataclass(frozen=True)
class RoundsOver(Refusal):
    """Every round of the category is already confirmed."""

    code: ClassVar[str] = "rounds_over"
    category: str


@dataclass(frozen=True)
class RoundQuestionOutdated(Refusal):
    """"Confirm anyway" pressed under a question about a round that is no longer the one being
    played (confirmed since): it would confirm another round without asking."""

    code: ClassVar[str] = "round_question_outdated"
    category: str


# NotYet, HeatRunning and NotReached (starting a heat) and RoundClosed (recording in a
# confirmed round) stay in contest_day.py while ContestDay gives them back.
@dataclass(frozen=True)
class RoundClaimsToReview(Refusal):
    """Played at home: finishes claimed in heat ``heat`` (``waiting``) still wait for a
    reviewer; the round can't be final before each is confirmed or turned down."""

    code: ClassVar[str] = "round_claims_to_review"
    heat: str
    waiting: tuple[int, ...]


RoundsRefusal = (RoundClaimsToReview | RoundNotOver | HeatNotStarted | NoQualifiers
                 | QualifiersWithoutHeat | RoundsOver | RoundQuestionOutdated | RoundClosed)


@dataclass(frozen=True)
class RoundConfirmed(Done):
    """A round confirmed final: ``qualifiers`` (best first) make up the next round's
    ``heats`` (empty after the last round)."""

    category: Category
    round_index: int
    qualifiers: tuple[int, ...]
    ranking: tuple[Row, ...]
    heats: tuple[list[int], ...]
    event_id: int | None = None
    # entries placed well enough but left out by the contest's cap per group (``max_per``
    # with ``by``: at most K of one country), each with its group's answer
    capped: tuple[tuple[int, str], ...] = ()
    # with several heats, each entry's heat and place in it (None: no result there)
    heat_places: tuple[tuple[int, int, int | None], ...] = ()
    # advancement as an invitation: the qualifiers invited (they play once they accept), and
    # the others the rule may take, each with its number in line for a place that comes free
    invited: tuple[Invited, ...] = ()
    in_line: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class RoundGaps(Done):
    """The round could be confirmed now, but entries of it have no result (no finish, no
    pieces, no outcome): confirmed, they would be ranked nowhere in it (``missing``); or, the
    next round by invitation, qualifiers no phone follows: their invitation would reach nobody
    and lapse (``unreachable``). Nothing recorded: the organiser is asked first."""

    category: Category
    round_index: int
    missing: tuple[tuple[int, str], ...]
    unreachable: tuple[tuple[int, str], ...] = ()


def no_result(row: Row) -> bool:
    """Nothing recorded for the entry in the round: no finish, no pieces, no outcome."""
    c = row.competitor
    return row.position is None and c.outcome is None and c.finish is None and c.pieces is None


# -- confirming a round ------------------------------------------------------------------------


async def confirm_round(day: ContestDay, organiser: int, category: Category, at: datetime,
                        update_id: int | None, *, anyway: int | None = None
                        ) -> RoundConfirmed | RoundGaps | RoundsRefusal | SharedRefusal:
    """The organiser says the category's current round is final: its qualifiers are
    recorded (best first), and they make up the next round's heats. A round with entries
    that have no result is not confirmed (``RoundGaps`` says which) unless ``anyway``, the
    index of the round the organiser was asked about, is still the one being played."""
    async with day.store.transaction() as tx:
        lineup = await day.lineups(category)
        index = len(lineup) - 1
        if anyway is not None and anyway != index:
            return RoundQuestionOutdated(category.name)
        confirmed = await tx.has_ref(EventKind.ROUND_FINAL, round_ref(category, index))
        heats, ranking = ([], []) if confirmed else await round_ranking(day, category, index)
        played = await _played(day, category, index, heats, at)
        split_by, group_of, heat_answer = await _answers(day, category, index, confirmed)
        reviews = await _claims_in_round(day, category, index) if not confirmed else None
        if reviews is not None:
            return reviews
        match confirm_verdict(category, index, confirmed, played, ranking, group_of,
                              heat_answer):
            case AllConfirmed():
                return RoundsOver(category.id)
            case NotPlayed(heat=h):
                return HeatNotStarted(Heat(category, index, h).id)
            case StillPlayed(heat=h, waiting=waiting):
                return RoundNotOver(Heat(category, index, h).id, waiting)
            case NobodyThrough():
                return NoQualifiers(Heat(category, index, 1).id)
            case Confirmable(qualifiers=chosen, heats=seated):
                nowhere = tuple(n for n in chosen if not any(n in h for h in seated))
                if nowhere and split_by is not None:
                    return QualifiersWithoutHeat(Heat(category, index, 1).id, split_by, nowhere)
                if anyway is None:
                    gaps = await _gaps(day, category, index, ranking, chosen)
                    if gaps is not None:
                        return gaps
                invited = await _record(tx, day, category, index, chosen, seated, ranking,
                                        at, organiser, update_id)
                return _confirmed(category, index, chosen, seated, heats, played, ranking,
                                  group_of, invited)


def _confirmed(category: Category, index: int, chosen: tuple[int, ...],
               seated: tuple[list[int], ...], heats: list[list[Row]], played: list[PlayedHeat],
               ranking: list[Row], group_of: Callable[[int], str | None],
               invited: tuple[Invited, ...]) -> RoundConfirmed:
    """What a round confirmed gives: who was left out by a cap per group, each entry's place
    in its heat and, the next round by invitation, the others' numbers in line."""
    rule = category.rounds[index].advance
    left_out = capped(rule, ranking, chosen, group_of) if rule is not None else {}
    line = in_line(rule, [p.rows for p in played], ranking, group_of, chosen) \
        if rule is not None and invited else {}
    return RoundConfirmed(category, index, chosen, tuple(ranking), seated,
                          capped=tuple(sorted(left_out.items())),
                          heat_places=_heat_places(heats), invited=invited,
                          in_line=tuple(sorted(line.items())))


async def _answers(day: ContestDay, category: Category, index: int, confirmed: bool
                   ) -> tuple[str | None, Callable[[int], str | None],
                              Callable[[int], str | None]]:
    """The question that splits the next round (if any), and each entry's answers to the one
    that caps qualifiers per group (``by``) and to that one."""
    rule = category.rounds[index].advance
    entries = {e.number: e for e in await day.store.entries(category.id)} \
        if rule is not None and not confirmed else {}
    by = rule.by if rule is not None else None
    split_by = category.rounds[index + 1].heats_by if rule is not None else None
    return split_by, answer_to(entries, by), answer_to(entries, split_by)


async def _gaps(day: ContestDay, category: Category, index: int, ranking: list[Row],
                chosen: tuple[int, ...]) -> RoundGaps | None:
    """What a careful organiser checks before a round is final: the entries with no result,
    and (the next round by invitation) the qualifiers no phone follows."""
    names = {r.number: " / ".join(r.competitor.names) for r in ranking}
    missing = tuple((r.number, names[r.number]) for r in ranking if no_result(r))
    rule = category.rounds[index].advance
    unreachable: tuple[tuple[int, str], ...] = ()
    if rule is not None and rule.invite is not None:
        unreachable = tuple([(n, names.get(n, "")) for n in chosen
                             if not await day.linked_users(n)])
    return RoundGaps(category, index, missing, unreachable) if missing or unreachable else None


async def _record(tx: Transaction, day: ContestDay, category: Category, index: int,
                  chosen: tuple[int, ...], seated: tuple[list[int], ...], ranking: list[Row],
                  at: datetime, organiser: int, update_id: int | None) -> tuple[Invited, ...]:
    """The round confirmed, with its qualifiers; when it invites them, their invitations
    (they play once they accept, seated in the round's order: ``order``)."""
    rule = category.rounds[index].advance
    invites = rule is not None and rule.invite is not None
    data: dict[str, object] = {"qualifiers": list(chosen)}
    if invites:
        data.update(invite=True, order=[r.number for r in ranking if r.position is not None])
    await tx.add_event(at=at, kind=EventKind.ROUND_FINAL, role="organiser", actor=organiser,
                       ref=round_ref(category, index), data=data, update_id=update_id)
    if not invites:
        return ()
    return await invite_qualifiers(tx, category, index, seated, at, organiser, update_id,
                                   day.contest.timezone)


async def _claims_in_round(day: ContestDay, category: Category, index: int
                           ) -> RoundClaimsToReview | None:
    """The first heat of round ``index`` with finishes claimed at home still to review."""
    for h in range(1, category.rounds[index].heats + 1):
        claims = await claims_waiting(day, Heat(category, index, h).play)
        if claims:
            return RoundClaimsToReview(Heat(category, index, h).id,
                                       tuple(c.entry for c in claims))
    return None


def _heat_places(heats: list[list[Row]]) -> tuple[tuple[int, int, int | None], ...]:
    """With several heats, each entry's (number, heat, place in it)."""
    if len(heats) < 2:
        return ()
    return tuple((r.number, h, r.position) for h, rows in enumerate(heats, 1) for r in rows)


async def _played(day: ContestDay, category: Category, index: int, heats: list[list[Row]],
                  at: datetime) -> list[PlayedHeat]:
    """Each heat of the round: its ranking, whether its clock started, its time now."""
    played = []
    for h, rows in enumerate(heats, 1):
        clock = await day.clock(Heat(category, index, h).id)
        played.append(PlayedHeat(rows, clock.started is not None, clock.elapsed(at)))
    return played


# -- heats, tables and rankings ----------------------------------------------------------------


async def round_ranking(day: ContestDay, category: Category, round_index: int
                        ) -> tuple[list[list[Row]], list[Row]]:
    """A round's ranking in each heat, and over all its heats."""
    contest = day.contest
    heats = [await day.heat_ranking(Heat(category, round_index, h))
             for h in range(1, category.rounds[round_index].heats + 1)]
    return heats, merged(category, round_index, heats, contest.limit_inclusive,
                         contest.penalised_finish_counts, contest.tie_break)


async def table_of(day: ContestDay, number: int, heat: Heat) -> int | None:
    """The entry's table in its heat (1: the front, where the best seed sits)."""
    lineup = await day.lineups(heat.category)
    numbers = lineup[heat.round_index][heat.number - 1]
    return table_number(numbers.index(number), heat.round.per_table) \
        if number in numbers else None


async def units(day: ContestDay, latest_only: bool = False) -> list[Category]:
    """What has a clock: each category without rounds, and each heat of a round reached
    (as a category of its own: its pieces and limit); ``latest_only``: only the heats of
    the latest round each category reached (what the projector shows)."""
    out: list[Category] = []
    for c in day.contest.categories:
        if not c.rounds:
            out.append(c)
            continue
        lineup = await day.lineups(c)
        first = len(lineup) - 1 if latest_only else 0
        for r in range(first, len(lineup)):
            out.extend(Heat(c, r, h).play for h in range(1, len(lineup[r]) + 1))
    return out


async def current_units(day: ContestDay) -> list[Category]:
    return await units(day, latest_only=True)


async def unit(day: ContestDay, unit_id: str) -> Category | None:
    """A category without rounds, or a heat, by id."""
    heat = day.heats.get(unit_id)
    if heat is not None:
        return heat.play
    category = day.contest.category(unit_id)
    return category if category is not None and not category.rounds else None


async def separate_rankings(day: ContestDay, category: Category,
                            rows: Sequence[Row] | None = None
                            ) -> list[tuple[SeparateRanking, list[Row]]]:
    """The category's rankings of their own (under 18s, residents): its ranking (its
    classification, with rounds; or ``rows``, the ranking at a moment) among the entries each
    one takes."""
    if not category.separate:
        return []
    if rows is None:
        rows = await day.ranking(category)
    entries = {e.number: e for e in await day.store.entries(category.id)}
    return separate_of(day.contest, category, rows, entries)
