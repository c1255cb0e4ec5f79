"""Personal data removed, each removal in one transaction the operation owns (``Work``): the
contest's retention (``purge``, once), one entry's erasure on request (``erase``), and an
entry's people agreeing to keep its births for the ratings (``consent``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import partial

from bot.delivery.work import Work
from bot.domain.events import ENTRY_KINDS
from bot.domain.places import Status
from bot.features.following.rules import ALLOWED, REFUSED, REQUEST
from bot.features.privacy.outcomes import (
    Consent,
    Erased,
    ErasedAlready,
    Outcome,
    Removed,
    RemovedAlready,
    StillIn,
    answer,
    removed_text,
)
from bot.features.privacy.rules import (
    CONSENT,
    ERASE,
    PURGE,
    RETENTION,
    births_needed,
    consented,
    erased_names,
    forgotten,
    kept_questions,
    kept_values,
    rules_of,
)
from bot.features.registration.rules import Member
from bot.services.contest_day import ContestDay
from bot.services.outcomes import UnknownEntry
from bot.storage.records import Entry
from bot.storage.transactions import Transaction

FOLLOWING_KINDS = (REQUEST, ALLOWED, REFUSED)

# an entry in the line for a place, or holding one: it still takes part
_TAKING_PART = (Status.CONFIRMED, Status.PENDING_PAYMENT, Status.WAITING, Status.SEEKING)


async def _staff(day: ContestDay) -> set[int]:
    return set(await day.volunteers()) | set(await day.all_organisers())


async def _scrub(tx: Transaction, day: ContestDay, entry: Entry, births: bool,
                 members: list[Member] | None = None) -> int:
    """Entry ``entry`` keeps only what a rule reads (its births if ``births``; ``members``:
    its members' names replaced). Returns how many births were removed."""
    keep = kept_questions(day.contest)
    after = [forgotten(m, keep, births) for m in (members or entry.members)]
    if after != list(entry.members):
        await tx.set_members(entry.number, after)
    await tx.forget_entry(entry.number, kept_values(entry.values, keep))
    if not births:
        await tx.forget_change_births([entry.number])
    return 0 if births else sum(1 for m in entry.members if m.year is not None)


async def _unlink(tx: Transaction, numbers: list[int]) -> None:
    """Entries ``numbers``' phones unlinked: who sent what, and who asked to follow them by
    their table card or decided it (bot/features/following), named nowhere any more."""
    await tx.unlink_phones(numbers)
    await tx.forget_names_in(numbers, FOLLOWING_KINDS, {"name": "", "by": "", "user": 0})


async def purge(work: Work, day: ContestDay, at: datetime) -> Outcome:
    """The contest's retention (``[privacy] keep_days``), once: every entry scrubbed, every
    participant's phone unlinked and forgotten; the organisers told what went."""
    rules = rules_of(day.contest)
    async with work as tx:
        out: Outcome
        if rules is None or await tx.has_ref(PURGE, RETENTION):
            out = RemovedAlready()
        else:
            agreed = consented([(e.entry, e.value or 0) for e in await tx.events(kinds=[CONSENT])
                                if e.entry is not None])
            removed = kept = 0
            entries = await day.store.entries()
            for entry in entries:
                births = births_needed(day.contest, entry.category) or entry.number in agreed
                removed += await _scrub(tx, day, entry, births)
                if births:
                    kept += sum(1 for m in entry.members if m.year is not None)
            await _unlink(tx, [e.number for e in entries])
            phones = await tx.forget_people(await _staff(day))
            await tx.add_event(at=at, kind=PURGE, role="system", ref=RETENTION,
                               value=rules.keep_days,
                               data={"births": removed, "kept": kept, "phones": phones})
            out = Removed(removed, kept, phones)
        if isinstance(out, Removed):
            for organiser in sorted(await day.all_organisers()):
                work.tell(organiser, partial(removed_text, out=out))
        work.reply(partial(answer, out=out, contest=day.contest))
        return out


@dataclass(frozen=True)
class Erase:
    """Entry ``number``'s data erased on request, by organiser ``actor`` at ``at``."""

    number: int
    actor: int
    at: datetime
    update_id: int | None


async def erase(work: Work, day: ContestDay, cmd: Erase) -> Outcome:
    async with work as tx:
        out = await _erase(day, tx, cmd)
        work.reply(partial(answer, out=out, contest=day.contest))
        return out


async def _erase(day: ContestDay, tx: Transaction, cmd: Erase) -> Outcome:
    entry = await tx.entry(cmd.number)
    if entry is None:
        return UnknownEntry(cmd.number)
    if await tx.events(entry=cmd.number, kinds=[ERASE]):
        return ErasedAlready(cmd.number)
    played = bool(await tx.events(entry=cmd.number, kinds=ENTRY_KINDS))
    place = (await day.registrations.places(cmd.at))[cmd.number]
    if not played and place.status in _TAKING_PART:
        return StillIn(cmd.number, place)
    members = list(entry.members)
    if not played:  # its names and their history go too
        members = [Member(name) for name in erased_names(cmd.number, len(members))]
        await tx.drop_member_history(cmd.number)
    await _scrub(tx, day, entry, played and births_needed(day.contest, entry.category),
                 members)
    # its phones that follow no other entry are forgotten; the others keep their name
    phones = set(await day.registrations.recipients(cmd.number))
    others = {u for e in await day.store.entries() if e.number != cmd.number
              for u in await day.linked_users(e.number)}
    await _unlink(tx, [cmd.number])
    forgot = await tx.forget_people(await _staff(day), only=phones - others)
    await tx.add_event(at=cmd.at, kind=ERASE, role="organiser", actor=cmd.actor,
                       entry=cmd.number, data={"named": played}, update_id=cmd.update_id)
    return Erased(cmd.number, tuple(m.name for m in members), played, forgot)


@dataclass(frozen=True)
class KeepBirths:
    """Entry ``number``'s people agree (``keep``) to keep its births for the ratings, or no."""

    number: int
    keep: bool
    actor: int
    at: datetime
    update_id: int | None


async def consent(work: Work, day: ContestDay, cmd: KeepBirths) -> Outcome:
    async with work as tx:
        await tx.add_event(at=cmd.at, kind=CONSENT, role="participant", actor=cmd.actor,
                           entry=cmd.number, value=int(cmd.keep), update_id=cmd.update_id)
        out = Consent(cmd.number, cmd.keep)
        work.reply(partial(answer, out=out, contest=day.contest))
        return out
