"""Contests played at home (``timing = "self"``): the codes given at the start signal, the
participants' photos, the reviewers' requests for another photo and their rejections, and the
claims still waiting for review. A claim is the entry's ``/listo`` (``bot.services.ready.
ready``); confirming it is a finish at that moment (``results.finish``, the review's button or
the results' finish typed without a time); rejecting it is "not finished" with the reviewer's
reason. Where each entry starts each puzzle itself (``own_start``, a league over weeks),
``begin`` is its ``/empiezo`` and ``confirm`` adds the puzzle's own time to the entry's (a split
time, or its finish); ``paces`` is the season's interim ranking by pieces per hour. Each
operation is one transaction; the rules are ``bot.features.selftimed.rules``'s."""

from __future__ import annotations

import secrets
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import ClassVar

from bot.domain.clock import within_limit
from bot.domain.contest import Category
from bot.domain.events import EventKind
from bot.features.results import day as results
from bot.features.results.outcomes import (
    FinishRecorded,
    FinishToConfirm,
    NotFinishedNoted,
    ReadyLineOutdated,
    ResultsRefusal,
    SplitRecorded,
)
from bot.features.selftimed.rules import (
    HeldPhoto,
    KeptPhoto,
    PhotoRefused,
    PhotoUse,
    StartRefused,
    by_pace,
    claim_code,
    held_photo,
    own_total,
    photo_of_key,
    photo_route,
    photo_use,
    photos_key,
    puzzle_to_start,
    still_wanted,
)
from bot.services.contest_day import ContestDay, RoundClosed
from bot.services.outcomes import AlreadyFinished, Done, Refusal, SharedRefusal, UnknownEntry
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


@dataclass(frozen=True)
class NotOwnStart(Refusal):
    """Entry ``entry``'s puzzles start for everyone at once: there is nothing to start."""

    code: ClassVar[str] = "not_own_start"
    entry: int


@dataclass(frozen=True)
class NoPuzzleStarted(Refusal):
    """Entry ``entry`` starts each puzzle itself and has not started one (``/empiezo``)."""

    code: ClassVar[str] = "no_puzzle_started"
    entry: int


@dataclass(frozen=True)
class StillPlaying(Refusal):
    """Entry ``entry`` started a puzzle and has not claimed it yet: one at a time."""

    code: ClassVar[str] = "own_still_playing"
    entry: int


@dataclass(frozen=True)
class WhichToStart(Refusal):
    """The puzzle to start is not named where several are left, or is not one of ``left``."""

    code: ClassVar[str] = "which_to_start"
    entry: int
    left: tuple[int, ...]


@dataclass(frozen=True)
class AllPuzzlesDone(Refusal):
    code: ClassVar[str] = "all_puzzles_done"
    entry: int


@dataclass(frozen=True)
class SeasonOver(Refusal):
    """The time to play (``limit``, from the category's start) is up for entry ``entry``;
    ``until``: a photo of its puzzle as it stood at time's up came after this moment, the
    end of the contest's ``time_up_photo`` grace."""

    code: ClassVar[str] = "season_over"
    entry: int
    limit: int
    until: datetime | None = None


SelfTimedRefusal = (NotSelfTimed | ClaimWaiting | NoClaim | PhotoAskedAlready | PiecesCounted
                    | NotOwnStart | NoPuzzleStarted | StillPlaying | AllPuzzlesDone
                    | SeasonOver | WhichToStart)


@dataclass(frozen=True)
class OwnStarted(Done):
    """Entry ``entry`` started puzzle ``puzzle`` (of the ``puzzles`` it plays; ``pieces``
    pieces) at its own moment; its code for it is ``code``."""

    entry: int
    puzzle: int
    puzzles: int
    pieces: int
    code: str
    event_id: int | None = None


@dataclass(frozen=True)
class PhotoKept(Done):
    """Entry ``entry``'s photo, kept as ``use``: the claim at contest time ``time`` (its /listo,
    event ``ready_event``), the start, or time's up (``time``: the contest time it came).
    ``forwarded``: it goes on to the reviewers (a claim's or time's up's, within the entry's
    ``PHOTOS_PER_MINUTE``), with ``held`` photos of the entry held back since the last one;
    ``repeat_of``: the event of the same photo kept before (sent again or forwarded: noted,
    not forwarded again); ``due``: held back, the moment the entry's budget frees and it goes
    on by itself unless another photo goes first (``forward_held``); ``kept_since``: a photo
    held back and forwarded now, sent at that moment."""

    entry: int
    use: PhotoUse
    time: int
    code: str
    file_id: str
    ready_event: int | None = None
    event_id: int | None = None
    forwarded: bool = False
    held: int = 0
    repeat_of: int | None = None
    due: datetime | None = None
    kept_since: datetime | None = None

    @property
    def held_back(self) -> bool:
        """Kept only: it would go to the reviewers, but the entry's budget is spent."""
        return self.use is not PhotoUse.START and not self.forwarded and self.repeat_of is None


@dataclass(frozen=True)
class HeldPhotoLater:
    """Entry ``entry``'s photo held back still waits for its budget: it goes on at ``due``."""

    entry: int
    due: datetime


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


@dataclass(frozen=True)
class Pace:
    """An entry's place by pace so far: ``pieces`` of its puzzles confirmed in ``seconds`` of
    its own time."""

    place: int
    entry: int
    pieces: int
    seconds: int


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


async def session_of(day: ContestDay, state: EntryState) -> Event | None:
    """Where each entry starts each puzzle itself: the puzzle it started and has not had
    confirmed yet (its ``/empiezo``), if any."""
    if not state.category.own_start:
        return None
    starts = [e for e in await day.store.events(entry=state.entry.number,
                                                kinds=[EventKind.OWN_START])
              if e.category == state.unit]
    if not starts:
        return None
    last = starts[-1]
    finished = state.finish_event is not None and state.finish_event.id > last.id
    return None if finished or last.stage in {k for k, _ in state.split_puzzles} else last


async def claim_time(day: ContestDay, state: EntryState) -> int:
    """The time the entry's claim waiting says (0 without one): on its category's clock, or,
    where it started the puzzle itself, that puzzle's own time."""
    if state.ready is None:
        return 0
    if state.category.own_start:
        session = await session_of(day, state)
        return own_total(0, session.at.timestamp(), state.ready.at.timestamp()) \
            if session is not None else 0
    return state.clock.elapsed(state.ready.at) or 0


async def code_of(day: ContestDay, state: EntryState) -> str:
    """The entry's code for its heat's (or category's) start, or for the puzzle it started
    itself; empty before the start."""
    start = await session_of(day, state) if state.category.own_start else \
        await _start_of(day, state.unit or state.entry.category)
    return claim_code(_seed(start), state.entry.number) if start is not None else ""


async def start_codes(day: ContestDay, unit_id: str) -> list[tuple[int, str]]:
    """The entries a self-timed start sends off, each with its code (empty where each entry
    starts each puzzle itself: its codes come then; none for a category in the hall)."""
    heat = day.heats.get(unit_id)
    category = heat.play if heat is not None else day.contest.category(unit_id)
    start = await _start_of(day, unit_id)
    if category is None or not category.self_timed or start is None:
        return []
    seed = _seed(start)
    return [(s.entry.number, "" if category.own_start else claim_code(seed, s.entry.number))
            for s in await day.states(category) if s.outcome is None]


# -- each entry its own start ------------------------------------------------------------------


async def begin(
    day: ContestDay, user_id: int, number: int, asked: int | None, at: datetime,
    update_id: int | None,
) -> OwnStarted | SelfTimedRefusal | ResultsRefusal | SharedRefusal | RoundClosed:
    """Entry ``number`` starts a puzzle at its own moment (``asked``, or the one left): its
    code for it is drawn now."""
    async with day.store.transaction() as tx:
        running = await day.running(number, at)
        if isinstance(running, Refusal):
            return running
        state, t = running
        category = state.category
        if not category.own_start:
            return NotOwnStart(number)
        done = tuple(k for k, _ in state.split_puzzles)
        playing = await session_of(day, state) is not None
        # the finish is the last puzzle's: finished, every puzzle is done
        chosen = puzzle_to_start(
            category.puzzle_order == "any", len(category.puzzles) or 1,
            category.puzzles_played, done + ((0,) if state.finish is not None else ()), asked,
            playing=playing and state.ready is None, waiting=state.ready is not None,
            over=not within_limit(t, state.limit, day.contest.limit_inclusive))
        if isinstance(chosen, StartRefused):
            return _start_refusal(number, chosen, category, await claim_time(day, state))
        seed = secrets.token_hex(16)
        eid = await tx.add_event(
            at=at, kind=EventKind.OWN_START, role="participant", actor=user_id, entry=number,
            stage=chosen, data={"seed": seed}, category=state.unit, update_id=update_id)
        pieces = category.puzzles[chosen - 1] if category.puzzles else category.pieces
        return OwnStarted(number, chosen, category.puzzles_played, pieces,
                          claim_code(seed, number), eid)


def _start_refusal(number: int, refused: StartRefused, category: Category, claimed: int
                   ) -> SelfTimedRefusal | ResultsRefusal:
    match refused.why:
        case "done":
            return AllPuzzlesDone(number)
        case "over":
            return SeasonOver(number, category.time_limit)
        case "waiting":
            return ClaimWaiting(number, claimed)
        case "playing":
            return StillPlaying(number)
        case _:
            return WhichToStart(number, refused.left)


async def confirm(
    day: ContestDay, actor: int, role: str, number: int, line: int | None, at: datetime,
    update_id: int | None,
) -> FinishRecorded | FinishToConfirm | SplitRecorded | SelfTimedRefusal | ResultsRefusal \
        | SharedRefusal | RoundClosed:
    """A reviewer confirms the claim of an entry that started the puzzle itself (``line``:
    the /listo the review's button was about; None: the claim waiting now): that puzzle's
    own time is added to the entry's, as a split time, or as its finish when it is its
    last puzzle. Run inside the handler's ``recording``: the check and the record are one
    transaction."""
    state = await day.state(number)
    if state is None or state.ready is None or (line is not None and state.ready.id != line):
        if state is not None and line is not None and (state.ready is not None
                                                       or state.finish is not None):
            return ReadyLineOutdated(number)
        return NoClaim(number) if state is not None else UnknownEntry(number)
    session = await session_of(day, state)
    if session is None:
        return NoClaim(number)
    own = own_total(state.splits[-1] if state.splits else 0, session.at.timestamp(),
                    state.ready.at.timestamp())
    if len(state.split_puzzles) + 1 >= state.category.puzzles_played:
        return await results.finish(day, actor, role, number, own, at, update_id,
                                    confirmed=True, basis=0, own=True)
    return await results.split(day, actor, role, number, own, at, update_id,
                               puzzle=session.stage, own=True)


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
        category = state.category
        if not category.self_timed:
            return NotSelfTimed(number)
        over = not within_limit(t, state.limit, day.contest.limit_inclusive)
        late = _time_up_photo_late(day, state, t)
        if category.own_start and state.ready is None and state.finish is None and (
                late is not None or await session_of(day, state) is None):
            return SeasonOver(number, category.time_limit, late) if over else \
                NoPuzzleStarted(number)
        use = photo_use(True, state.ready is not None, state.finish is not None, over,
                        state.pieces_event is not None)
        if isinstance(use, PhotoRefused):
            return AlreadyFinished(number) if use.why == "finished" else PiecesCounted(number)
        if use is PhotoUse.TIME_UP and late is not None:
            return SeasonOver(number, category.time_limit, late)
        ready = state.ready.id if use is PhotoUse.CLAIM and state.ready is not None else None
        earlier = kept_photos(await tx.events(entry=number,
                                              kinds=[EventKind.PHOTO, EventKind.NOTICE]))
        route = photo_route(unique_id, earlier, at.timestamp(), use is not PhotoUse.START)
        data: dict[str, object] = {"file_id": file_id, "unique_id": unique_id,
                                   "use": use.value, "ready_event": ready,
                                   "forwarded": route.forward}
        if route.repeat_of is not None:
            data["repeat_of"] = route.repeat_of
        eid = await tx.add_event(
            at=at, kind=EventKind.PHOTO, role="participant", actor=user_id, entry=number,
            data=data, category=state.unit, update_id=update_id,
        )
        # a claim's photo backs its /listo; time's up's shows the puzzle as it stood then
        claimed = await claim_time(day, state) if ready is not None else \
            min(t, state.limit) if use is PhotoUse.TIME_UP else t
        kept = PhotoKept(number, use, claimed, await code_of(day, state), file_id, ready, eid,
                         forwarded=route.forward, held=route.held, repeat_of=route.repeat_of)
        if kept.held_back:  # it goes on by itself when the budget frees (``forward_held``)
            owed = held_photo([*earlier, KeptPhoto(eid, unique_id, at.timestamp(), False,
                                                   held=True)])
            kept = replace(kept, due=None if owed is None else
                           datetime.fromtimestamp(owed.due, UTC))
        return kept


def _time_up_photo_late(day: ContestDay, state: EntryState, t: int) -> datetime | None:
    """Past time's up by more than the contest's ``time_up_photo`` grace at contest time
    ``t``: the moment the grace ended (None: time is not up, or the grace still runs)."""
    limit = state.limit
    if t <= limit + day.contest.time_up_photo:
        return None
    until = state.clock.instant_at(limit + day.contest.time_up_photo)
    return until if until is not None else datetime.fromtimestamp(0, UTC)


def kept_photos(events: Sequence[Event]) -> list[KeptPhoto]:
    """An entry's photo events as ``photo_route`` weighs them, oldest first; of its notices
    (``events`` may hold them), one of a photo held back and forwarded later (``photos_key``)
    makes it one forwarded at the notice's moment."""
    late = {e: n.at.timestamp() for n in events
            if n.kind == EventKind.NOTICE and (e := photo_of_key(n.ref)) is not None}
    return [kept_photo(e, late.get(e.id)) for e in events if e.kind == EventKind.PHOTO]


def kept_photo(event: Event, forwarded_at: float | None = None) -> KeptPhoto:
    """A photo event as ``photo_route`` weighs it (one kept before the budget: forwarded
    unless it was a start photo); ``forwarded_at``: held back, then forwarded then."""
    data = event.data
    unique_id = str(data.get("unique_id") or "")
    if forwarded_at is not None:
        return KeptPhoto(event.id, unique_id, forwarded_at, True)
    reviewed = data.get("use") != PhotoUse.START.value
    forwarded = bool(data.get("forwarded", reviewed))
    return KeptPhoto(event.id, unique_id, event.at.timestamp(),
                     forwarded, held=reviewed and not forwarded and not data.get("repeat_of"))


async def _held_of(day: ContestDay, state: EntryState, events: Sequence[Event]
                   ) -> tuple[HeldPhoto, Event] | None:
    """The photo held back owed to the reviewers (``held_photo``) of an entry whose photos and
    notices are ``events``, while they still want it (``still_wanted``)."""
    owed = held_photo(kept_photos(events))
    photo = next((e for e in events if owed is not None and e.id == owed.event), None)
    if owed is None or photo is None or await day.closed(state) is not None:
        return None
    return (owed, photo) if still_wanted(
        str(photo.data.get("use")), photo.data.get("ready_event"),
        state.ready.id if state.ready is not None else None, state.finish is not None,
        state.pieces_event is not None) else None


async def photos_owed(day: ContestDay) -> list[tuple[int, datetime]]:
    """The entries owed a photo held back (``forward_held``), each with the moment its budget
    frees (past: the bot was off then)."""
    events: dict[int, list[Event]] = defaultdict(list)
    for e in await day.store.events(kinds=[EventKind.PHOTO, EventKind.NOTICE]):
        if e.entry is not None:
            events[e.entry].append(e)
    out = []
    for number, history in sorted(events.items()):
        if all(e.data.get("forwarded", True) for e in history):
            continue  # none held back, ever
        state = await day.state(number)
        found = await _held_of(day, state, history) if state is not None else None
        if found is not None:
            out.append((number, datetime.fromtimestamp(found[0].due, UTC)))
    return out


async def forward_held(day: ContestDay, number: int, when: datetime
                       ) -> PhotoKept | HeldPhotoLater | None:
    """Entry ``number``'s budget freed at ``when``: its newest photo held back since the last
    one forwarded goes on now (a ``PhotoKept`` forwarded, the others held back counted),
    recorded as the notice ``photos_key`` at ``when``. None: nothing owed (a photo forwarded
    since told the reviewers, it went already, its claim was decided); ``HeldPhotoLater``:
    the budget frees later. Run inside the job's ``recording`` (one transaction)."""
    async with day.store.transaction() as tx:
        state = await day.state(number)
        found = None if state is None else await _held_of(day, state, await tx.events(
            entry=number, kinds=[EventKind.PHOTO, EventKind.NOTICE]))
        if state is None or found is None:
            return None
        owed, photo_event = found
        if owed.due > when.timestamp():
            return HeldPhotoLater(number, datetime.fromtimestamp(owed.due, UTC))
        await tx.add_event(at=when, kind=EventKind.NOTICE, role="system", entry=number,
                           ref=photos_key(number, photo_event.id))
        data, ready = photo_event.data, photo_event.data.get("ready_event")
        use = PhotoUse(str(data.get("use")))
        time = await claim_time(day, state) if use is PhotoUse.CLAIM else \
            min(state.clock.elapsed(photo_event.at) or 0, state.limit)
        return PhotoKept(number, use, time, await code_of(day, state), str(data["file_id"]),
                         ready if isinstance(ready, int) else None, photo_event.id,
                         forwarded=True, held=owed.others, kept_since=photo_event.at)


def is_repeat(event: Event) -> bool:
    """A photo event that is a photo kept before, sent again or forwarded."""
    return event.kind == EventKind.PHOTO and bool(event.data.get("repeat_of"))


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
                 if e.id > line and not is_repeat(e)]  # the same photo again is none new
        if since and since[-1].kind == EventKind.RETAKE:
            return PhotoAskedAlready(number)
        eid = await tx.add_event(
            at=at, kind=EventKind.RETAKE, role=role, actor=actor, entry=number,
            data={"ready_event": line}, category=state.unit, update_id=update_id,
        )
        return RetakeAsked(number, await claim_time(day, state), await code_of(day, state),
                           eid)


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
    out = await results.not_finished(day, actor, role, number, line, at, update_id,
                                     reason=reason)
    if isinstance(out, NotFinishedNoted) and state is not None and state.category.own_start:
        out = replace(out, time=await claim_time(day, state))  # the puzzle's own time
    return out


async def waiting(day: ContestDay, category: Category) -> list[Claim]:
    """The finishes claimed and waiting for review in ``category`` (a heat: ``Heat.play``;
    with rounds, the latest round reached), first claimed first."""
    if not category.self_timed:
        return []
    out = [Claim(s.entry.number, await claim_time(day, s), s.claim_photos)
           for s in await day.states(category) if s.ready is not None and s.finish is None]
    return sorted(out, key=lambda c: (c.time, c.entry))


async def paces(day: ContestDay, category: Category) -> list[Pace]:
    """Where each entry starts each puzzle itself: the season so far by pieces per hour of
    the puzzles confirmed (``by_pace``), for an interim ranking."""
    if not category.own_start:
        return []
    done: list[tuple[int, int, int]] = []
    for state in await day.states(category):
        if state.outcome is not None:
            continue
        puzzles = [k for k, _ in state.split_puzzles]
        seconds = state.splits[-1] if state.splits else 0
        if state.finish is not None and state.finish_event is not None:
            last = [e for e in await day.store.events(entry=state.entry.number,
                                                      kinds=[EventKind.OWN_START])
                    if e.category == state.unit and e.id < state.finish_event.id]
            puzzles += [last[-1].stage] if last and last[-1].stage is not None else []
            seconds = state.finish
        pieces = sum(category.puzzles[k - 1] if category.puzzles else category.pieces
                     for k in puzzles)
        done.append((state.entry.number, pieces, seconds))
    return [Pace(*row) for row in by_pace(done)]
