"""Contests played at home (``timing = "self"``): the codes given at the start signal, the
participants' photos, the reviewers' requests for another photo and their rejections, and the
claims still waiting for review. A claim is the entry's ``/listo`` (``bot.services.escape.
ready``); confirming it is a finish at that moment (``results.finish``, the review's button or
``/fin N``); rejecting it is "not finished" with the reviewer's reason. Each operation is one
transaction; the rules are ``bot.domain.selftimed``'s."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import ClassVar

from bot.domain.clock import within_limit
from bot.domain.contest import Category
from bot.domain.events import EventKind
from bot.domain.selftimed import PhotoRefused, PhotoUse, claim_code, photo_use
from bot.services import results
from bot.services.contest_day import ContestDay, RoundClosed
from bot.services.outcomes import AlreadyFinished, Done, Refusal, SharedRefusal
from bot.services.results import NotFinishedNoted, ReadyLineOutdated, ResultsRefusal
from bot.services.state import EntryState
from bot.storage.store import Event

# -- what the operations give back -------------------------------------------------------------


@dataclass(frozen=True)
class NotSelfTimed(Refusal):
    """Entry ``entry`` plays where volunteers record the finishes: no photo, no review."""

    code: ClassVar[str] = "not_self_timed"
    entry: int


@dataclass(frozen=True)
class ClaimWaiting(Refusal):
    """Entry ``entry`` said /listo again while its finish claimed at contest time ``time`` still
    waits for review (a second claim would only be later)."""

    code: ClassVar[str] = "claim_waiting"
    entry: int
    time: int


@dataclass(frozen=True)
class NoClaim(Refusal):
    """Nothing of entry ``entry`` waits for review (no /listo since its last decision)."""

    code: ClassVar[str] = "no_claim"
    entry: int


@dataclass(frozen=True)
class PhotoAskedAlready(Refusal):
    """Another photo was asked of entry ``entry`` already, and none came since."""

    code: ClassVar[str] = "photo_asked_already"
    entry: int


@dataclass(frozen=True)
class PiecesCounted(Refusal):
    """Entry ``entry``'s time is up and its pieces are recorded: a photo changes nothing."""

    code: ClassVar[str] = "pieces_counted"
    entry: int


SelfTimedRefusal = NotSelfTimed | ClaimWaiting | NoClaim | PhotoAskedAlready | PiecesCounted


@dataclass(frozen=True)
class PhotoKept(Done):
    """Entry ``entry``'s photo, kept as ``use``: the claim at contest time ``time`` (its /listo,
    event ``ready_event``), the start, or time's up (``time``: the contest time it came)."""

    entry: int
    use: PhotoUse
    time: int
    code: str
    file_id: str
    ready_event: int | None = None
    event_id: int | None = None


@dataclass(frozen=True)
class RetakeAsked(Done):
    """A reviewer asked entry ``entry`` for another photo of its claim at ``time``."""

    entry: int
    time: int
    code: str
    event_id: int | None = None


@dataclass(frozen=True)
class Claim:
    """A finish claimed and waiting for review: entry ``entry`` at contest time ``time``, with
    ``photos`` photos sent since."""

    entry: int
    time: int
    photos: int


# -- the codes ---------------------------------------------------------------------------------


def start_data(category: Category | None) -> dict[str, object]:
    """What a clock start stores for a self-timed category: the secret its codes are worked
    out from, drawn at the start (nobody can know an entry's code before it)."""
    return {"seed": secrets.token_hex(16)} if category is not None and category.self_timed \
        else {}


def _seed(start: Event) -> str:
    seed = start.data.get("seed")
    # a clock started before its category was made self-timed: its event stands in
    return seed if isinstance(seed, str) else f"start:{start.id}:{start.at.isoformat()}"


async def _start_of(day: ContestDay, unit_id: str) -> Event | None:
    starts = [e for e in await day.store.events(kinds=[EventKind.CLOCK_START])
              if e.category == unit_id]
    return min(starts, key=lambda e: (e.at, e.id)) if starts else None


async def code_of(day: ContestDay, state: EntryState) -> str:
    """The entry's code for its heat's (or category's) start; empty before the start."""
    start = await _start_of(day, state.unit or state.entry.category)
    return claim_code(_seed(start), state.entry.number) if start is not None else ""


async def start_codes(day: ContestDay, unit_id: str) -> list[tuple[int, str]]:
    """The entries a self-timed start sends off, each with its code (none for another)."""
    heat = day.heats.get(unit_id)
    category = heat.play if heat is not None else day.contest.category(unit_id)
    start = await _start_of(day, unit_id)
    if category is None or not category.self_timed or start is None:
        return []
    seed = _seed(start)
    return [(s.entry.number, claim_code(seed, s.entry.number))
            for s in await day.states(category) if s.outcome is None]


# -- photos, reviews ---------------------------------------------------------------------------


async def photo(
    day: ContestDay, user_id: int, number: int, file_id: str, unique_id: str, at: datetime,
    update_id: int | None,
) -> PhotoKept | SelfTimedRefusal | SharedRefusal | RoundClosed:
    """Entry ``number``'s photo, sent at ``at``: kept for what it is (``photo_use``)."""
    async with day.store.transaction() as tx:
        running = await day.running(number, at)
        if isinstance(running, Refusal):
            return running
        state, t = running
        if not state.category.self_timed:
            return NotSelfTimed(number)
        use = photo_use(True, state.ready is not None, state.finish is not None,
                        not within_limit(t, state.category.time_limit,
                                         day.contest.limit_inclusive),
                        state.pieces_event is not None)
        if isinstance(use, PhotoRefused):
            return AlreadyFinished(number) if use.why == "finished" else PiecesCounted(number)
        ready = state.ready.id if use is PhotoUse.CLAIM and state.ready is not None else None
        eid = await tx.add_event(
            at=at, kind=EventKind.PHOTO, role="participant", actor=user_id, entry=number,
            data={"file_id": file_id, "unique_id": unique_id, "use": use.value,
                  "ready_event": ready}, category=state.unit, update_id=update_id,
        )
        claimed = state.clock.elapsed(state.ready.at) if ready is not None and \
            state.ready is not None else t
        return PhotoKept(number, use, claimed or 0, await code_of(day, state), file_id, ready,
                         eid)


async def retake(
    day: ContestDay, actor: int, role: str, number: int, line: int, at: datetime,
    update_id: int | None,
) -> RetakeAsked | SelfTimedRefusal | ResultsRefusal | SharedRefusal | RoundClosed:
    """A reviewer asks entry ``number`` for another photo of its claim (the /listo ``line``):
    the claim keeps its moment and waits for the next photo."""
    async with day.store.transaction() as tx:
        running = await day.running(number, at)
        if isinstance(running, Refusal):
            return running
        state, _ = running
        if state.ready is None or state.ready.id != line:
            return ReadyLineOutdated(number) if state.ready is not None or \
                state.finish is not None else NoClaim(number)
        since = [e for e in await tx.events(entry=number,
                                            kinds=[EventKind.PHOTO, EventKind.RETAKE])
                 if e.id > line]
        if since and since[-1].kind == EventKind.RETAKE:
            return PhotoAskedAlready(number)
        eid = await tx.add_event(
            at=at, kind=EventKind.RETAKE, role=role, actor=actor, entry=number,
            data={"ready_event": line}, category=state.unit, update_id=update_id,
        )
        return RetakeAsked(number, state.clock.elapsed(state.ready.at) or 0,
                           await code_of(day, state), eid)


async def reject(
    day: ContestDay, actor: int, role: str, number: int, reason: str, at: datetime,
    update_id: int | None, line: int | None = None,
) -> NotFinishedNoted | SelfTimedRefusal | ResultsRefusal | SharedRefusal | RoundClosed:
    """A reviewer turns entry ``number``'s claim down (``reason``: a code of
    ``REJECT_REASONS`` or their own words): "not finished", the entry plays on. ``line``:
    the /listo the review's button was about (None: typed, the claim waiting now)."""
    state = await day.state(number)
    if state is not None and not state.category.self_timed:
        return NotSelfTimed(number)
    if line is None:
        if state is not None and state.ready is None:
            return NoClaim(number)
        line = state.ready.id if state is not None and state.ready is not None else 0
    return await results.not_finished(day, actor, role, number, line, at, update_id,
                                      reason=reason)


async def waiting(day: ContestDay, category: Category) -> list[Claim]:
    """The finishes claimed and waiting for review in ``category`` (a heat: ``Heat.play``;
    with rounds, the latest round reached), first claimed first."""
    if not category.self_timed:
        return []
    out = [Claim(s.entry.number, s.clock.elapsed(s.ready.at) or 0, s.claim_photos)
           for s in await day.states(category) if s.ready is not None and s.finish is None]
    return sorted(out, key=lambda c: (c.time, c.entry))
