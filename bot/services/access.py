"""Who is who on the contest day: a phone following an entry, and the invitations volunteers
and organisers open. Each operation is one transaction."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import ClassVar

from bot.domain.events import ERASE, PURGE, EventKind
from bot.features.privacy.rules import RETENTION
from bot.services.contest_day import ContestDay
from bot.services.outcomes import Done, Refusal, SharedRefusal, new_code
from bot.storage.store import Entry
from bot.storage.transactions import Transaction


@dataclass(frozen=True)
class BadCode(Refusal):
    code: ClassVar[str] = "bad_code"


@dataclass(frozen=True)
class InviteUsed(Refusal):
    code: ClassVar[str] = "invite_used"


@dataclass(frozen=True)
class OrganiserInviteUsed(Refusal):
    code: ClassVar[str] = "organiser_invite_used"


@dataclass(frozen=True)
class LinksEnded(Refusal):
    """The entry's phones were removed (bot/features/privacy: the contest's retention ran,
    or its data was erased on request): no phone follows it any more."""

    code: ClassVar[str] = "links_ended"


AccessRefusal = BadCode | InviteUsed | OrganiserInviteUsed | LinksEnded


async def links_ended(tx: Transaction, number: int) -> bool:
    """Whether entry ``number``'s phones were removed for good (a ``purge``, or its
    ``erase``): a link to it links nobody."""
    return await tx.has_ref(PURGE, RETENTION) or bool(await tx.events(entry=number,
                                                                      kinds=[ERASE]))


@dataclass(frozen=True)
class Linked(Done):
    """A phone follows ``entry`` (``already``: it did before; nothing was written)."""

    entry: Entry
    already: bool = False
    event_id: int | None = None


@dataclass(frozen=True)
class VolunteerJoined(Done):
    already: bool = False
    event_id: int | None = None


@dataclass(frozen=True)
class OrganiserJoined(Done):
    already: bool = False
    event_id: int | None = None


async def link(
    day: ContestDay, user_id: int, code: str, at: datetime, update_id: int | None
) -> Linked | AccessRefusal | SharedRefusal:
    async with day.store.transaction() as tx:
        entry = await tx.entry_by_code(code)
        if entry is None:
            return BadCode()
        if await links_ended(tx, entry.number):
            return LinksEnded()
        if user_id in await day.linked_users(entry.number):
            return Linked(entry, already=True)
        eid = await tx.add_event(
            at=at, kind=EventKind.LINK, role="participant", actor=user_id, entry=entry.number,
            ref=code, update_id=update_id,
        )
        return Linked(entry, event_id=eid)


async def create_invite(day: ContestDay, organiser: int, at: datetime,
                        update_id: int | None) -> str:
    """A one-time link for a volunteer, made by an organiser in the chat."""
    return await _invite(day, "v", EventKind.VOLUNTEER_INVITE, organiser, at, update_id)


async def _invite(day: ContestDay, prefix: str, kind: str, organiser: int, at: datetime,
                  update_id: int | None) -> str:
    code = new_code(prefix)
    async with day.store.transaction() as tx:
        await tx.add_event(at=at, kind=kind, role="organiser", actor=organiser, ref=code,
                           update_id=update_id)
    return code


async def join_volunteer(
    day: ContestDay, user_id: int, code: str, at: datetime, update_id: int | None
) -> VolunteerJoined | AccessRefusal | SharedRefusal:
    async with day.store.transaction() as tx:
        if not await tx.has_ref(EventKind.VOLUNTEER_INVITE, code):
            return BadCode()
        if await tx.has_ref(EventKind.VOLUNTEER_JOIN, code):
            return InviteUsed()
        if user_id in await day.volunteers():
            return VolunteerJoined(already=True)
        eid = await tx.add_event(
            at=at, kind=EventKind.VOLUNTEER_JOIN, role="volunteer", actor=user_id, ref=code,
            update_id=update_id,
        )
        return VolunteerJoined(event_id=eid)


async def create_organiser_invite(day: ContestDay, organiser: int, at: datetime,
                                  update_id: int | None) -> str:
    """A one-time link for another organiser, made by an organiser in the chat."""
    return await _invite(day, "o", EventKind.ORGANISER_INVITE, organiser, at, update_id)


async def standing_organiser_invite(day: ContestDay, at: datetime, create: bool) -> str | None:
    """The organiser link the bot prints at start (``python -m bot run``, ``setup``): the
    one it made before while nobody has opened it, so every start prints the same link;
    else, with ``create``, a new one (and None without)."""
    async with day.store.transaction() as tx:
        joined = {e.ref for e in await tx.events(kinds=[EventKind.ORGANISER_JOIN])}
        for e in reversed(await tx.events(kinds=[EventKind.ORGANISER_INVITE])):
            if e.role == "system" and e.ref and e.ref not in joined:
                return e.ref
        if not create:
            return None
        code = new_code("o")
        await tx.add_event(at=at, kind=EventKind.ORGANISER_INVITE, role="system", ref=code)
        return code


async def join_organiser(
    day: ContestDay, user_id: int, code: str, at: datetime, update_id: int | None
) -> OrganiserJoined | AccessRefusal | SharedRefusal:
    async with day.store.transaction() as tx:
        if not await tx.has_ref(EventKind.ORGANISER_INVITE, code):
            return BadCode()
        if await tx.has_ref(EventKind.ORGANISER_JOIN, code):
            return OrganiserInviteUsed()
        if user_id in await day.all_organisers():
            return OrganiserJoined(already=True)  # the link stays for someone else
        eid = await tx.add_event(
            at=at, kind=EventKind.ORGANISER_JOIN, role="organiser", actor=user_id, ref=code,
            update_id=update_id,
        )
        return OrganiserJoined(event_id=eid)

