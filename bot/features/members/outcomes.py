"""What a change of a team's members gives back, each outcome declared here once, and what
people read of it: the organiser's answer (``answer``, exhaustive: mypy proves every outcome has
its line), the team's notice."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, assert_never

from bot.domain.contest import Contest
from bot.features.partners.names import PAIR
from bot.features.registration.day import AlreadyEntered
from bot.features.registration.day import NotEligible as Ineligible
from bot.features.registration.rules import Member
from bot.features.registration.texts import refusal_text
from bot.services.outcomes import Done, Refusal, UnknownEntry
from bot.storage.store import Entry
from bot.support.commands import typed
from bot.support.i18n import ntr, tr
from bot.texts.common import refusal
from bot.texts.names import heat_by_id, names


@dataclass(frozen=True)
class MembersFixed(Refusal):
    """The category takes no member changes (its ``keep_originals`` is not set)."""

    code: ClassVar[str] = "members_fixed"
    category: str


@dataclass(frozen=True)
class NotAMember(Refusal):
    """There is no member ``member`` (1-based) in the entry: it has ``count``."""

    code: ClassVar[str] = "not_a_member"
    entry: int
    member: int
    count: int


@dataclass(frozen=True)
class NothingToChange(Refusal):
    """Member ``member`` (1-based) of the entry replaced by the same person (``name``, as the
    organiser typed them): nothing recorded."""

    code: ClassVar[str] = "nothing_to_change"
    entry: int
    member: int
    name: str


@dataclass(frozen=True)
class TeamFull(Refusal):
    code: ClassVar[str] = "team_full"
    entry: int
    most: int


@dataclass(frozen=True)
class TeamTooSmall(Refusal):
    code: ClassVar[str] = "team_too_small"
    entry: int
    fewest: int


@dataclass(frozen=True)
class OriginalsLeave(Refusal):
    """The change would leave fewer than ``needed`` of the members the team registered with."""

    code: ClassVar[str] = "originals_leave"
    entry: int
    needed: int


@dataclass(frozen=True)
class AlreadyPlaying(Refusal):
    """The entry's heat (or its category's clock) has started: its members are as they
    played."""

    code: ClassVar[str] = "already_playing"
    entry: int
    category: str  # the unit whose clock started: a category or a heat id


@dataclass(frozen=True)
class StillLooking(Refusal):
    """The entry was registered alone and looks for a partner (``[partners]``): its partner
    comes by a match, which withdraws the partner's own entry."""

    code: ClassVar[str] = "still_looking"
    entry: int


MembersRefusal = (MembersFixed | NotAMember | NothingToChange | TeamFull | TeamTooSmall
                  | OriginalsLeave | AlreadyPlaying | StillLooking)


@dataclass(frozen=True)
class MembersChanged(Done):
    """Entry ``entry`` now has ``members``: ``old`` left (None: a member added), ``new``
    came (None: a member removed)."""

    entry: Entry
    members: tuple[Member, ...]
    old: Member | None
    new: Member | None

Outcome = MembersChanged | MembersRefusal | UnknownEntry | Ineligible | AlreadyEntered


def changed_text(lang: str, out: MembersChanged) -> str:
    """To the organiser: who left, who came, and the team now."""
    number, now = out.entry.number, names(tuple(m.name for m in out.members))
    if out.old is None and out.new is not None:
        return tr(lang, "Entry #{entry}: {new} joins the team. Its members now: {members}.",
                  entry=number, new=out.new.name, members=now)
    if out.new is None and out.old is not None:
        return tr(lang, "Entry #{entry}: {old} leaves the team. Its members now: {members}.",
                  entry=number, old=out.old.name, members=now)
    assert out.old is not None and out.new is not None
    return tr(lang, "Entry #{entry}: {new} replaces {old}. Its members now: {members}.",
              entry=number, new=out.new.name, old=out.old.name, members=now)


def team_notice(lang: str, out: MembersChanged) -> str:
    """To the team's phones."""
    return tr(lang, "The organisers changed your team's members: {members}.",
              members=names(tuple(m.name for m in out.members)))


def answer(lang: str, out: Outcome, contest: Contest) -> str:
    """The organiser's answer: the change, or why not (registration's words for a member
    registration would not take). Every outcome has its line (mypy: ``assert_never``)."""
    match out:
        case MembersChanged():
            return changed_text(lang, out)
        case Ineligible() | AlreadyEntered():
            return refusal_text(lang, contest, out)
        case UnknownEntry():
            return refusal(lang, out, contest)
        case MembersFixed(category=category):
            found = contest.category(category)
            return tr(lang, "The members of a team in {category} can't be changed: the contest "
                      "file does not allow it (keep_originals).",
                      category=found.name if found else category)
        case NotAMember(entry=entry, member=member, count=count):
            return ntr(lang, "Entry #{entry} has no member {member}: it has {n} member.",
                       "Entry #{entry} has no member {member}: it has {n} members.", count,
                       entry=entry, member=member)
        case NothingToChange(entry=entry, member=member, name=name):
            return tr(lang, "Nothing to change: {name} is already member {member} of entry "
                      "#{entry}.", name=name, member=member, entry=entry)
        case TeamFull(entry=entry, most=most):
            return ntr(lang, "Entry #{entry} is full: a team here has at most {n} member.",
                       "Entry #{entry} is full: a team here has at most {n} members.", most,
                       entry=entry)
        case TeamTooSmall(entry=entry, fewest=fewest):
            return ntr(lang, "Entry #{entry} can't lose a member: a team here has at least {n} "
                       "member.", "Entry #{entry} can't lose a member: a team here has at least "
                       "{n} members.", fewest, entry=entry)
        case OriginalsLeave(entry=entry, needed=needed):
            return ntr(lang, "Not changed: entry #{entry} must keep at least {n} of the members "
                       "it registered with.", "Not changed: entry #{entry} must keep at least "
                       "{n} of the members it registered with.", needed, entry=entry)
        case AlreadyPlaying(entry=entry, category=unit):
            plain = contest.category(unit)
            return tr(lang, "Entry #{entry} plays in {unit}, whose clock has started: its "
                      "members stay as they are.", entry=entry,
                      unit=plain.name if plain is not None else heat_by_id(lang, contest, unit))
        case StillLooking(entry=entry):
            return tr(lang, "Entry #{entry} is looking for a partner: match it with another "
                      "entry looking for one ({command} {entry} M).", entry=entry,
                      command=typed(lang, PAIR))
        case _:
            assert_never(out)
