"""What people read about a team's members changed (``/sustituir``): the organiser's answer,
the team's notice, and why a change was refused."""

from __future__ import annotations

from typing import assert_never

from bot.domain.contest import Contest
from bot.services.members import (
    AlreadyPlaying,
    MembersChanged,
    MembersFixed,
    MembersRefusal,
    NotAMember,
    NothingToChange,
    OriginalsLeave,
    TeamFull,
    TeamTooSmall,
)
from bot.support.i18n import ntr, tr
from bot.texts.names import heat_by_id, names


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


def members_refusal(lang: str, refused: MembersRefusal, contest: Contest) -> str:
    match refused:
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
        case _:
            assert_never(refused)
