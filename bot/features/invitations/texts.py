"""What people read about invitations to a next round: the invitation with its buttons, the
answers, the places declined or lapsed and who takes them, and why an answer was refused."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import assert_never
from zoneinfo import ZoneInfo

from bot.domain.contest import Category, Contest
from bot.domain.rounds import Heat
from bot.features.invitations.day import (
    InvitationAccepted,
    InvitationDeclined,
    InvitationLapsed,
    InvitationRefusal,
    InvitationTooLate,
    Invited,
    NoInvitation,
    Reminder,
    Replied,
)
from bot.features.invitations.rules import Invitation
from bot.support.i18n import ntr, tr
from bot.texts.names import day_text, heat_name, names, round_name
from bot.texts.rounds import when_text

Keyboard = list[list[tuple[str, str]]]


def moment_text(lang: str, contest: Contest, moment: datetime) -> str:
    """"Friday 1 November at 18:00" on the contest's clock: a deadline days away."""
    local = moment.astimezone(ZoneInfo(contest.timezone))
    return tr(lang, "{day} at {time}", day=day_text(lang, local.date()),
              time=local.strftime("%H:%M"))


def _round(lang: str, contest: Contest, heat: Heat) -> str:
    return tr(lang, "{round} ({category})", round=heat_name(lang, contest, heat),
              category=heat.category.name)


def invitation_text(lang: str, contest: Contest, invited: Invited, later: bool = False) -> str:
    """To an entry invited (``later``: to a place another entry declined or let lapse)."""
    text = tr(lang, "Entry #{entry} has earned a place in {round}: {when}.",
              entry=invited.entry, round=_round(lang, contest, invited.heat),
              when=when_text(lang, contest, invited.heat))
    if later:
        text = tr(lang, "A place has come free and it is yours: entry #{entry} may play "
                  "{round}: {when}.", entry=invited.entry,
                  round=_round(lang, contest, invited.heat),
                  when=when_text(lang, contest, invited.heat))
    return text + "\n" + tr(
        lang, "Will you play? Answer by {deadline} with the buttons below (or /acepto {entry} "
        "or /renuncio {entry}). Without an answer by then, the place goes to the next in "
        "line.", deadline=moment_text(lang, contest, invited.deadline), entry=invited.entry)


def in_line_text(lang: str, contest: Contest, number: int, category: Category, index: int,
                 position: int | str, place: int, deadline: datetime,
                 in_heat: tuple[Heat, int] | None = None) -> str:
    """To an entry of a round that invites, placed ``position`` (``in_heat``: its heat and
    place there, said instead) but not invited: its number in line (``place``) for a place
    that comes free, and until when the invited answer: it is told at once if a place comes
    to it (never "not enough", then "a place is free")."""
    name = round_name(lang, contest, category, index)
    if in_heat is not None:
        heat, heat_place = in_heat
        position = tr(lang, "{place} in {heat}", place=heat_place,
                      heat=heat_name(lang, contest, heat))
    if place == 1:
        text = tr(lang, "Entry #{entry}: {round} of {category} is over. Place {position}: not "
                  "invited for now, but you are first in line. If an invited entry gives up "
                  "its place or does not answer by {deadline}, the place is yours and I will "
                  "tell you here.", entry=number, round=name, category=category.name,
                  position=position, deadline=moment_text(lang, contest, deadline))
    else:
        text = tr(lang, "Entry #{entry}: {round} of {category} is over. Place {position}: not "
                  "invited for now; you are number {place} in line for a place that comes "
                  "free (the invited answer by {deadline}). If one comes to you, I will tell "
                  "you here.", entry=number, round=name, category=category.name,
                  position=position, place=place,
                  deadline=moment_text(lang, contest, deadline))
    return text


def reminder_text(lang: str, contest: Contest, reminder: Reminder) -> str:
    """To an entry that has not answered its invitation, before its deadline."""
    return tr(lang, "Reminder: entry #{entry} is invited to {round}: {when}, and has not "
              "answered yet. Will you play? Answer by {deadline} with the buttons below (or "
              "/acepto {entry} or /renuncio {entry}); without an answer by then, the place "
              "goes to the next in line.", entry=reminder.entry,
              round=_round(lang, contest, reminder.heat),
              when=when_text(lang, contest, reminder.heat),
              deadline=moment_text(lang, contest, reminder.deadline))


def unfollowed_text(lang: str, contest: Contest, invited: Sequence[Invited | Reminder],
                    who: Mapping[int, Sequence[str]]) -> str:
    """To the organisers: invitations no phone can read (nobody follows the entry), each
    lapsing at its deadline unless someone acts. Empty when every one is followed."""
    if not invited:
        return ""
    return ntr(lang, "No phone follows {entries}: its invitation reaches nobody and lapses "
               "at its deadline. Give it its link, or answer for it (/acepto N or /renuncio "
               "N).", "No phone follows {entries}: their invitations reach nobody and lapse "
               "at their deadlines. Give them their link, or answer for them (/acepto N or "
               "/renuncio N).", len(invited), entries=", ".join(
                   _answers_by(lang, contest, i, who) for i in invited))


def invitation_buttons(lang: str, number: int) -> Keyboard:
    return [[(tr(lang, "✅ We'll play"), f"invite:yes:{number}"),
             (tr(lang, "❌ We can't"), f"invite:no:{number}")]]


def decline_question(lang: str, contest: Contest, number: int, heat: Heat) -> str:
    return tr(lang, "Give up entry #{entry}'s place in {round}? It goes to the next in line "
              "and can't be taken back.", entry=number, round=_round(lang, contest, heat))


def decline_buttons(lang: str, number: int) -> Keyboard:
    return [[(tr(lang, "Yes, give it up"), f"invite:no!:{number}"),
             (tr(lang, "No, keep it"), f"invite:keep:{number}")]]


def kept_text(lang: str, number: int) -> str:
    return tr(lang, "Nothing changed: entry #{entry} keeps its invitation.", entry=number)


def replied_text(lang: str, contest: Contest, out: Replied) -> str:
    """To whoever answered for the entry."""
    if out.yes:
        return tr(lang, "Entry #{entry} plays {round}: {when}. See you there! /series shows "
                  "your table once everyone has answered.", entry=out.entry,
                  round=_round(lang, contest, out.heat), when=when_text(lang, contest, out.heat))
    if not out.invited:  # nobody else can take it (no time left, or nobody through)
        return tr(lang, "Entry #{entry} has given up its place in {round}. Thank you for "
                  "telling us.", entry=out.entry, round=_round(lang, contest, out.heat))
    return tr(lang, "Entry #{entry} has given up its place in {round}. Thank you for telling "
              "us: it goes to the next in line.", entry=out.entry,
              round=_round(lang, contest, out.heat))


def invited_status(lang: str, contest: Contest, number: int, heat: Heat,
                   invitation: Invitation, at: datetime) -> str:
    """/series for an entry invited that is not in the round: waiting for its answer, or out."""
    if invitation.pending(at):
        return tr(lang, "Entry #{entry} is invited to {round}: {when}. It plays once it "
                  "accepts: /acepto {entry} by {deadline}.", entry=number,
                  round=_round(lang, contest, heat), when=when_text(lang, contest, heat),
                  deadline=moment_text(lang, contest, invitation.deadline))
    return tr(lang, "Entry #{entry} does not play {round}: its place went to the next in "
              "line.", entry=number, round=_round(lang, contest, heat))


def lapsed_text(lang: str, contest: Contest, number: int, heat: Heat) -> str:
    """To an entry whose invitation lapsed."""
    return tr(lang, "Entry #{entry} did not answer its invitation to {round} in time, so its "
              "place is no longer kept for it.", entry=number, round=_round(lang, contest, heat))


def _answers_by(lang: str, contest: Contest, invited: Invited | Reminder,
                who: Mapping[int, Sequence[str]]) -> str:
    return tr(lang, "#{entry} {names} (answers by {deadline})", entry=invited.entry,
              names=names(who.get(invited.entry, ())),
              deadline=moment_text(lang, contest, invited.deadline))


def _instead(lang: str, contest: Contest, invited: Sequence[Invited],
             who: Mapping[int, Sequence[str]], unfilled: bool) -> str:
    if invited:
        return tr(lang, "Invited instead: {entries}.", entries=", ".join(
            _answers_by(lang, contest, i, who) for i in invited))
    if unfilled:
        return tr(lang, "Nobody takes the place: no time is left to answer (the deadline the "
                  "contest file sets has passed, or the heat is about to begin).")
    return tr(lang, "Nobody else goes through by the contest file's rule.")


def staff_declined_text(lang: str, contest: Contest, out: Replied,
                        who: Mapping[int, Sequence[str]]) -> str:
    """To the organisers: a place given up, and who was invited to it."""
    return tr(lang, "#{entry} {names} gave up its place in {round}.", entry=out.entry,
              names=names(who.get(out.entry, ())), round=_round(lang, contest, out.heat)
              ) + " " + _instead(lang, contest, out.invited, who, out.unfilled)


def staff_lapsed_text(lang: str, contest: Contest, lapsed: Sequence[tuple[int, Heat]],
                      invited: Sequence[Invited], who: Mapping[int, Sequence[str]],
                      unfilled: bool = False) -> str:
    """To the organisers: invitations not answered in time (a line per heat), and who was
    invited instead."""
    heats = {h.id: h for _, h in lapsed}
    lines = [tr(lang, "No answer in time to the invitation to {round} from {entries}.",
                round=_round(lang, contest, heat), entries=", ".join(
                    f"#{n} {names(who.get(n, ()))}" for n, h in lapsed if h.id == heat.id))
             for heat in sorted(heats.values(), key=lambda h: h.number)]
    return "\n".join(lines) + " " + _instead(lang, contest, invited, who, unfilled)


def invited_confirmed_text(lang: str, contest: Contest, category: Category, index: int,
                           invited: Sequence[Invited], who: Mapping[int, Sequence[str]]) -> str:
    """The organiser's confirmation of a round that invites: who is invited to which heat,
    and by when."""
    lines = [tr(lang, "{category}: {round} confirmed. {count} are invited to {next}; each "
                "plays once it accepts:", category=category.name,
                round=round_name(lang, contest, category, index), count=len(invited),
                next=round_name(lang, contest, category, index + 1))]
    for heat in sorted({i.heat.id: i.heat for i in invited}.values(), key=lambda h: h.number):
        lines.append(tr(lang, "{heat} ({when}):", heat=heat_name(lang, contest, heat),
                        when=when_text(lang, contest, heat)))
        lines += ["  " + _answers_by(lang, contest, i, who)
                  for i in invited if i.heat.id == heat.id]
    return "\n".join(lines)


def status_lines(lang: str, contest: Contest, invitations: Mapping[int, Invitation],
                 who: Mapping[int, Sequence[str]], at: datetime) -> list[str]:
    """/series for the organisers while a round invites: each invitation and its answer."""
    lines = [tr(lang, "Invitations:")]
    for n, inv in invitations.items():
        match inv.answer:
            case None if at < inv.deadline:
                state = tr(lang, "waiting, answers by {deadline}",
                           deadline=moment_text(lang, contest, inv.deadline))
            case None | "lapsed":
                state = tr(lang, "no answer in time")
            case "yes":
                state = tr(lang, "accepted")
            case _:
                state = tr(lang, "gave up its place")
        lines.append(f"  #{n} {names(who.get(n, ()))}: {state}")
    return lines


def invitation_refusal(lang: str, refused: InvitationRefusal, contest: Contest) -> str:
    match refused:
        case NoInvitation(entry=n):
            return tr(lang, "Entry #{entry} has no invitation to answer.", entry=n)
        case InvitationLapsed(entry=n, moment=moment):
            return tr(lang, "Too late: entry #{entry}'s invitation had to be answered by "
                      "{deadline}, and its place went to the next in line.", entry=n,
                      deadline=moment_text(lang, contest, moment))
        case InvitationDeclined(entry=n):
            return tr(lang, "Entry #{entry} gave up its place already: it went to the next in "
                      "line and can't be taken back.", entry=n)
        case InvitationAccepted(entry=n):
            return tr(lang, "Entry #{entry} has accepted already: nothing changed.", entry=n)
        case InvitationTooLate(entry=n):
            return tr(lang, "Entry #{entry}'s heat has begun: answers are no longer taken.",
                      entry=n)
        case _:
            assert_never(refused)

