"""What a correction gives back, each outcome declared here once, and what people read of it:
the answer to whoever corrected (``answer``, exhaustive: mypy proves every outcome has its
line), the entry's other phones' notice."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, assert_never

from bot.domain.contest import Contest
from bot.features.members.outcomes import AlreadyPlaying, NotAMember, NothingToChange
from bot.features.members.outcomes import answer as members_answer
from bot.features.registration.day import AlreadyEntered
from bot.features.registration.day import NotEligible as Ineligible
from bot.features.registration.rules import Member
from bot.features.registration.texts import unreadable_birth_text
from bot.services.outcomes import Done, Refusal, UnknownEntry
from bot.storage.store import Entry
from bot.support.i18n import tr
from bot.texts.names import names


@dataclass(frozen=True)
class MemberFixed(Done):
    """Member ``member`` (1-based) of ``entry`` is now ``new`` (was ``old``); its team now
    ``members``."""

    entry: Entry
    member: int
    old: Member
    new: Member
    members: tuple[Member, ...]


@dataclass(frozen=True)
class RegistrationClosed(Refusal):
    """Registration is closed (or not open): a participant's entry is the organisers' to
    correct now."""

    code: ClassVar[str] = "fix_registration_closed"
    entry: int


@dataclass(frozen=True)
class BirthUnreadable(Refusal):
    """The birth typed is not one registration takes for the entry's category."""

    code: ClassVar[str] = "fix_birth_unreadable"
    entry: int
    category: str


@dataclass(frozen=True)
class AnotherPerson(Refusal):
    """The name typed is another person's, not member ``member``'s (entered as ``entered``)
    written right: the organisers' to change."""

    code: ClassVar[str] = "fix_another_person"
    entry: int
    member: int
    entered: str


Outcome = (MemberFixed | RegistrationClosed | BirthUnreadable | AnotherPerson | NotAMember
           | NothingToChange | AlreadyPlaying | Ineligible | AlreadyEntered | UnknownEntry)


def born_text(m: Member) -> str:
    return m.born.isoformat() if m.born is not None else str(m.year or "?")


def fixed_text(lang: str, out: MemberFixed) -> str:
    return tr(lang, "Entry #{entry}, member {member}: {old} ({old_birth}) is now {new} "
              "({new_birth}). The entry: {members}.", entry=out.entry.number,
              member=out.member, old=out.old.name, old_birth=born_text(out.old),
              new=out.new.name, new_birth=born_text(out.new),
              members=names(tuple(m.name for m in out.members)))


def notice(lang: str, out: MemberFixed, by: str) -> str:
    """The entry's other phones."""
    return tr(lang, "{name} corrected member {member} of entry #{entry}: {old} ({old_birth}) "
              "is now {new} ({new_birth}).", name=by, member=out.member,
              entry=out.entry.number, old=out.old.name, old_birth=born_text(out.old),
              new=out.new.name, new_birth=born_text(out.new))


def answer(lang: str, out: Outcome, contest: Contest) -> str:
    match out:
        case MemberFixed():
            return fixed_text(lang, out)
        case RegistrationClosed(entry=entry):
            return tr(lang, "Registration is closed, so entry #{entry} can no longer be "
                      "corrected here: ask the organisers.", entry=entry)
        case AnotherPerson(entry=entry, member=member, entered=entered):
            return tr(lang, "That is not {name} written right but someone else: a correction "
                      "fixes a name's letters or completes it. To change member {member} of "
                      "entry #{entry} for another person, ask the organisers.", name=entered,
                      member=member, entry=entry)
        case BirthUnreadable(category=category_id):
            category = contest.category(category_id)
            if category is None:
                return refusal_unknown(lang, out.entry, contest)
            return unreadable_birth_text(lang, category)
        case (NotAMember() | NothingToChange() | AlreadyPlaying() | Ineligible()
              | AlreadyEntered() | UnknownEntry()):
            return members_answer(lang, out, contest)
        case _:
            assert_never(out)


def refusal_unknown(lang: str, number: int, contest: Contest) -> str:
    return members_answer(lang, UnknownEntry(number), contest)
