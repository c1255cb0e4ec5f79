"""Contests played at home, self-timed: at the start signal each entry gets a code to write on
paper; ``/listo`` claims the finish at that moment; a photo of the finished puzzle beside the
code backs the claim, and the claim counts once a reviewer confirms it (a confirmed claim is a
finish, as a volunteer's is). What a photo is for, and whether a claim still waits,
is decided here from the entry's history."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

# letters and digits nobody confuses when written by hand and read off a photo (no 0/O, 1/I/L,
# 2/Z, 5/S, 8/B, 6/G)
CODE_ALPHABET = "ACDEFHJKMNPRTUVWXY3479"
CODE_LENGTH = 5


def claim_code(seed: str, number: int) -> str:
    """Entry ``number``'s code for the start whose secret is ``seed``: the same code for the
    same start whenever it is worked out (a restart changes nothing), another for each entry,
    unknown before the start (the seed is drawn then)."""
    digest = hmac.new(seed.encode(), f"entry:{number}".encode(), hashlib.sha256).digest()
    value = int.from_bytes(digest[:8], "big")
    out = []
    for _ in range(CODE_LENGTH):
        value, i = divmod(value, len(CODE_ALPHABET))
        out.append(CODE_ALPHABET[i])
    return "".join(out)


class PhotoUse(StrEnum):
    """What a participant's photo is: the evidence of a finish claimed and waiting for review
    (``CLAIM``), the start (the code beside the open box, before any claim: ``START``), or
    where the puzzle stood at time's up, for the reviewers to count the pieces
    (``TIME_UP``)."""

    CLAIM = "claim"
    START = "start"
    TIME_UP = "time_up"


@dataclass(frozen=True)
class PhotoRefused:
    """A photo that can't be used: ``why`` is "not_started" (no start signal yet),
    "finished" (the finish is confirmed already) or "counted" (time is up and the pieces
    are recorded already)."""

    why: str


def photo_use(started: bool, claim_waiting: bool, finished: bool, time_up: bool,
              pieces_counted: bool) -> PhotoUse | PhotoRefused:
    """What a photo sent now is for (see ``PhotoUse``)."""
    if not started:
        return PhotoRefused("not_started")
    if finished:
        return PhotoRefused("finished")
    if claim_waiting:
        return PhotoUse.CLAIM
    if time_up:
        return PhotoRefused("counted") if pieces_counted else PhotoUse.TIME_UP
    return PhotoUse.START


# -- which photos go on to the reviewers -------------------------------------------------------

# A volunteers' group takes 20 messages a minute, and every entry's claims share it: one entry's
# photos go on to the reviewers at most this many in any minute (by the photos' dates). The
# others are kept (recorded, so nothing acknowledged is lost) and not forwarded; the next photo
# of the entry that goes on tells the reviewers how many were held back.
PHOTOS_PER_MINUTE = 3
PHOTO_MINUTE = 60  # seconds


@dataclass(frozen=True)
class KeptPhoto:
    """A photo of the entry kept earlier (its event ``event``): Telegram's ``unique_id`` of its
    file (the same for a photo sent again or forwarded), when it came (``at``, seconds), and
    whether it went on to the reviewers (``forwarded``), or was held back for the budget
    (``held``)."""

    event: int
    unique_id: str
    at: float
    forwarded: bool
    held: bool = False


@dataclass(frozen=True)
class PhotoRoute:
    """Where a photo goes: ``repeat_of`` the earlier photo of the entry it is (sent again or
    forwarded: noted, not forwarded again); else on to the reviewers (``forward``) or kept
    only, the entry's budget spent; ``held``: the entry's photos held back since the last one
    forwarded, which the reviewers are told of with this one."""

    repeat_of: int | None = None
    forward: bool = False
    held: int = 0


def photo_route(unique_id: str, earlier: Sequence[KeptPhoto], at: float, reviewed: bool,
                budget: int = PHOTOS_PER_MINUTE) -> PhotoRoute:
    """Where a photo of an entry sent at ``at`` (seconds) goes, after the entry's ``earlier``
    photos (oldest first). ``reviewed``: what it is for goes to the reviewers (a claim's
    evidence, time's up); a start photo is only kept."""
    repeat = next((p for p in earlier if unique_id and p.unique_id == unique_id), None)
    if repeat is not None:
        return PhotoRoute(repeat_of=repeat.event)
    if not reviewed:
        return PhotoRoute()
    if _spent(earlier, at, budget):
        return PhotoRoute()
    held = 0
    for p in earlier:
        held = 0 if p.forwarded else held + int(p.held)
    return PhotoRoute(forward=True, held=held)


def _spent(earlier: Sequence[KeptPhoto], at: float, budget: int) -> bool:
    """Whether the entry's budget is spent at ``at``: ``budget`` of its photos went on within
    a minute of it."""
    return sum(1 for p in earlier if p.forwarded and abs(at - p.at) < PHOTO_MINUTE) >= budget


# A photo held back is not forgotten: when the entry's budget frees again, the newest photo it
# held back since the last one forwarded goes on by itself (the entry may send nothing more:
# a burst after /listo, or at time's up), telling the reviewers how many others were held. The
# bot records that it went as a notice, ``PHOTOS_NOTICE:ENTRY:PHOTO_EVENT``; from then on that
# photo counts as forwarded at the notice's moment (for the budget, and the count restarts).
PHOTOS_NOTICE = "photos"


def photos_key(entry: int, event: int) -> str:
    """The notice of entry ``entry``'s photo (its event ``event``) forwarded when its budget
    freed; the job that owes it is named ``PHOTOS_NOTICE:ENTRY``."""
    return f"{PHOTOS_NOTICE}:{entry}:{event}"


def photo_of_key(key: str | None) -> int | None:
    """The photo event a ``photos_key`` names (None: another notice)."""
    parts = (key or "").split(":")
    if len(parts) != 3 or parts[0] != PHOTOS_NOTICE or not parts[2].isdigit():
        return None
    return int(parts[2])


@dataclass(frozen=True)
class HeldPhoto:
    """The photo owed to the reviewers: the entry's newest photo held back (event ``event``),
    the ``others`` held back with it since the last one forwarded, and the moment (seconds)
    the entry's budget frees for it (``due``)."""

    event: int
    others: int
    due: float


def still_wanted(use: str, ready_event: object, waiting: int | None, finished: bool,
                 pieces_counted: bool) -> bool:
    """Whether the reviewers still want a photo held back of ``use``: its claim (the /listo
    ``ready_event``) still waits (``waiting``: the /listo waiting now), not confirmed nor
    turned down since; or, taken at time's up, the pieces are still to count."""
    if finished:
        return False
    if use == PhotoUse.CLAIM.value:
        return waiting is not None and waiting == ready_event
    return use == PhotoUse.TIME_UP.value and not pieces_counted


def held_photo(earlier: Sequence[KeptPhoto], budget: int = PHOTOS_PER_MINUTE
               ) -> HeldPhoto | None:
    """What the reviewers are still owed of an entry whose photos are ``earlier`` (oldest
    first): its newest photo held back since the last one forwarded, when the budget frees
    (as ``photo_route`` weighs a photo sent then). None: every photo held back was told of
    since (a photo forwarded after them said how many)."""
    held: list[KeptPhoto] = []
    for p in earlier:
        if p.forwarded:
            held = []
        elif p.held:
            held.append(p)
    if not held:
        return None
    newest = held[-1]
    # the budget frees at the photo's date, or when a photo forwarded leaves the minute
    forwarded = [p.at for p in earlier if p.forwarded]
    moments = sorted({newest.at, *(f + PHOTO_MINUTE for f in forwarded
                                   if f + PHOTO_MINUTE >= newest.at)})
    due = next((m for m in moments if not _spent(earlier, m, budget)),
               max([newest.at, *forwarded]) + PHOTO_MINUTE)
    return HeldPhoto(newest.event, len(held) - 1, due)


# why a reviewer turns a claim down (typed: any text of their own, ``/rechazar N reason``)
REJECT_REASONS = ("not_done", "no_code")


# -- each entry its own start (a league over weeks) ----------------------------------------------


@dataclass(frozen=True)
class StartRefused:
    """Why a puzzle can't be started now: "done" (every puzzle is), "over" (the season's time
    is up), "waiting" (a finish claimed waits for review), "playing" (a puzzle started is not
    claimed yet) or "which" (the puzzle named is not one of ``left``, or none was named
    where several are left)."""

    why: str
    left: tuple[int, ...] = ()


def puzzle_to_start(any_order: bool, count: int, played: int, done: tuple[int, ...],
                    asked: int | None, *, playing: bool, waiting: bool, over: bool
                    ) -> int | StartRefused:
    """The puzzle an entry starts at its own moment (``count`` puzzles listed, ``played`` of
    them to play, ``done`` those confirmed; ``asked`` the one named, if any)."""
    if len(done) >= played:
        return StartRefused("done")
    if over:
        return StartRefused("over")
    if waiting:
        return StartRefused("waiting")
    if playing:
        return StartRefused("playing")
    left = tuple(k for k in range(1, count + 1) if k not in done)
    if not any_order:
        following = len(done) + 1
        return following if asked in (None, following) else StartRefused("which", (following,))
    if asked is None and len(left) == 1:
        return left[0]
    return asked if asked in left else StartRefused("which", left)


def own_total(confirmed: int, start: float, claimed: float) -> int:
    """An entry's own time once a puzzle claimed at ``claimed`` (seconds, any origin) after
    its own start at ``start`` is confirmed: the time it had (``confirmed``, the sum of its
    puzzles confirmed before) plus this puzzle's, whole seconds."""
    return confirmed + max(0, int(claimed - start))


def per_hour(pieces: int, seconds: int) -> float:
    """Pieces placed per hour of an entry's own time (0 without time)."""
    return pieces * 3600 / seconds if seconds > 0 else 0.0


def by_pace(done: list[tuple[int, int, int]]) -> list[tuple[int, int, int, int]]:
    """An interim ranking of a season by pace: (entry, pieces of its puzzles confirmed, its
    own time for them) ranked by pieces per hour, fastest first; equal paces share a place.
    Gives (place, entry, pieces, seconds)."""
    ranked = sorted((d for d in done if d[2] > 0), key=lambda d: (-per_hour(d[1], d[2]), d[0]))
    out: list[tuple[int, int, int, int]] = []
    for i, (entry, pieces, seconds) in enumerate(ranked):
        same = out and per_hour(pieces, seconds) == per_hour(out[-1][2], out[-1][3])
        out.append((out[-1][0] if same else i + 1, entry, pieces, seconds))
    return out
