"""A table card scanned (``ask_to_follow``) and a request decided (``decide``): each one
transaction the operation owns (``Work``), with what each person is told. A decision closes
every copy of the request's line in its transaction (``bot/delivery/claims.py``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import partial

from bot.delivery.claims import post_edits
from bot.delivery.posting import claim_note, organiser_recipients
from bot.delivery.work import Work
from bot.domain.events import EventKind
from bot.features.following.outcomes import (
    AlreadyDecided,
    AlreadyFollowing,
    Asked,
    Decided,
    DecisionOutcome,
    FollowedAtOnce,
    NotTheirs,
    RefusedBefore,
    ScanOutcome,
    StillAsking,
    UnknownRequest,
    allow_label,
    decided_notice,
    decision_answer,
    refuse_label,
    request_line,
    scan_answer,
)
from bot.features.following.rules import (
    ALLOWED,
    REFUSED,
    REQUEST,
    asks,
    button,
    card_code,
    line,
)
from bot.features.following.settings import rules_of
from bot.services.access import LinksEnded, links_ended
from bot.services.contest_day import ContestDay
from bot.storage.store import Entry, Transaction


async def entry_of_card(day: ContestDay, code: str) -> Entry | None:
    """The entry whose table card carries ``code`` (None: no card's)."""
    return next((e for e in await day.store.entries() if e.join_code
                 and card_code(e.join_code) == code), None)


@dataclass(frozen=True)
class AskToFollow:
    """``user_id`` (named ``name``) scanned the table card of ``entry`` at ``at`` (Telegram's
    date of the message)."""

    entry: Entry
    user_id: int
    name: str
    at: datetime
    update_id: int | None


def _buttons(lang: str, request: int) -> list[list[tuple[str, str]]]:
    return [[(allow_label(lang), button(request, True)),
             (refuse_label(lang), button(request, False))]]


async def ask_to_follow(work: Work, day: ContestDay, cmd: AskToFollow) -> ScanOutcome:
    """The request recorded and put to the entry's phones and the organisers (or, where the
    contest lets the first phone in, that phone following at once)."""
    async with work as tx:
        out = await _ask(day, tx, cmd)
        work.reply(partial(scan_answer, out=out, contest=day.contest))
        if isinstance(out, Asked):
            keyboard = partial(_buttons, request=out.request)
            linked = await day.linked_users(out.entry.number)
            work.tell_entry(out.entry.number, partial(request_line, out=out, organisers=False),
                            keyboard=keyboard)
            for organiser, _ in await organiser_recipients(work.svc):
                if organiser not in linked and organiser != cmd.user_id:
                    work.tell(organiser, partial(request_line, out=out, organisers=True),
                              keyboard=keyboard)
        return out


async def _ask(day: ContestDay, tx: Transaction, cmd: AskToFollow) -> ScanOutcome:
    entry = cmd.entry
    if await links_ended(tx, entry.number):
        return LinksEnded()
    linked = await day.linked_users(entry.number)
    if cmd.user_id in linked:
        return AlreadyFollowing(entry)
    mine = [e for e in await tx.events(entry=entry.number, kinds=[REQUEST])
            if e.actor == cmd.user_id]
    for request in mine:
        ref = line(request.id)
        if tx.refs_taken(REFUSED, [ref]):
            return RefusedBefore(entry)
        if not tx.refs_taken(ALLOWED, [ref]):
            return StillAsking(entry)
    if not asks(len(linked), rules_of(day.contest)):
        await tx.add_event(at=cmd.at, kind=EventKind.LINK, role="participant",
                           actor=cmd.user_id, entry=entry.number, ref=card_code(entry.join_code),
                           update_id=cmd.update_id)
        return FollowedAtOnce(entry)
    eid = await tx.add_event(at=cmd.at, kind=REQUEST, role="participant", actor=cmd.user_id,
                             entry=entry.number, data={"name": cmd.name},
                             update_id=cmd.update_id)
    return Asked(entry, eid, cmd.name, phones=bool(linked))


@dataclass(frozen=True)
class Decide:
    """``user_id`` (named ``name``; ``organiser``: one of them) pressed Allow (``allow``) or
    Refuse under request ``request``, at ``at`` (the press's moment)."""

    request: int
    allow: bool
    user_id: int
    name: str
    organiser: bool
    at: datetime
    update_id: int | None


async def decide(work: Work, day: ContestDay, cmd: Decide) -> DecisionOutcome:
    """The first answer to a request counts: recorded (with the phone's link when allowed),
    every copy of the line closed saying who decided, the person who asked told."""
    async with work as tx:
        out = await _decide(day, tx, cmd)
        if isinstance(out, Decided):
            choice = button(out.request, True)
            data = {"by": out.by, "kind": ALLOWED if out.allowed else REFUSED}
            await post_edits(tx, await tx.copies_of(choice), choice, data,
                             partial(claim_note, work.svc))
            work.tell(out.requester, partial(decided_notice, out=out, contest=day.contest))
        else:
            work.reply(partial(decision_answer, out=out))
        return out


async def _decide(day: ContestDay, tx: Transaction, cmd: Decide) -> DecisionOutcome:
    request = await tx.event(cmd.request)
    entry = await tx.entry(request.entry) if request is not None and request.entry else None
    if request is None or request.kind != REQUEST or entry is None or request.actor is None:
        return UnknownRequest()
    linked = await day.linked_users(entry.number)
    if not cmd.organiser and cmd.user_id not in linked:
        return NotTheirs(entry.number)
    ref = line(request.id)
    for kind in (ALLOWED, REFUSED):
        taken = tx.refs_taken(kind, [ref]).get(ref)
        if taken is not None:
            return AlreadyDecided(entry.number, kind == ALLOWED, str(taken.get("by") or "?"))
    role = "participant" if cmd.user_id in linked else "organiser"
    await tx.add_event(at=cmd.at, kind=ALLOWED if cmd.allow else REFUSED, role=role,
                       actor=cmd.user_id, entry=entry.number, ref=ref,
                       data={"by": cmd.name, "user": request.actor},
                       update_id=cmd.update_id)
    if cmd.allow and request.actor not in linked:
        await tx.add_event(at=cmd.at, kind=EventKind.LINK, role="participant",
                           actor=request.actor, entry=entry.number, ref=ref)
    return Decided(entry, request.id, request.actor, str(request.data.get("name") or "?"),
                   cmd.allow, cmd.name)
