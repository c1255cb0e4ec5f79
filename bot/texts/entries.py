"""What a participant reads of their entries after registering: /mis_inscripciones' lines and
/baja's question, refusals and answer (with what the withdrawal gets back)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.domain.contest import Contest
from bot.domain.places import Place, Status
from bot.features.registration.day import Withdrawn
from bot.features.registration.names import REGISTER
from bot.features.waiting_list.texts import offered_status
from bot.storage.store import Entry
from bot.support.commands import typed
from bot.support.i18n import tr
from bot.texts.common import labelled, names
from bot.texts.names import amount_text


def status_line(lang: str, contest: Contest, entry: Entry, place: Place, total: int,
                paid: bool) -> str:
    status = {
        Status.CONFIRMED: tr(lang, "confirmed"),
        Status.PENDING_PAYMENT: tr(lang, "pending payment"),
        Status.WAITING: tr(lang, "waiting list, number {position}",
                           position=place.waiting_position),
        Status.LEFT_OUT: tr(lang, "no place: refund due"),
        Status.WITHDRAWN: tr(lang, "withdrawn"),
        Status.LAPSED: tr(lang, "lapsed: not paid in time"),
        Status.DECLINED: tr(lang, "the place offered was not accepted in time"),
        Status.SEEKING: tr(lang, "looking for a partner"),
        Status.UNMATCHED: tr(lang, "no partner found"),
    }[place.status]
    if place.offered:
        status = offered_status(lang, contest, place)
    category = contest.category(entry.category)
    pay = tr(lang, "paid") if paid else tr(lang, "not paid")
    return labelled(lang, f"#{entry.number} {category.name if category else entry.category}",
                    f"{names(entry.names)} - {status} - "
                    f"{amount_text(lang, total, contest.currency)} ({pay})")


def no_entries_text(lang: str) -> str:
    return tr(lang, "You have no entries yet. Register with {register}.",
              register=typed(lang, REGISTER))


def partner_link_line(lang: str, bot_username: str | None, join_code: str) -> str:
    return tr(lang, "  partner's link: {link}",
              link=f"https://t.me/{bot_username}?start={join_code}")


def _numbers(entries: Sequence[Entry]) -> str:
    return ", ".join(f"#{e.number}" for e in entries)


def not_followed_text(lang: str, typed: str, entries: Sequence[Entry]) -> str:
    """/baja N for an entry this person does not follow (``typed``: what they wrote)."""
    return tr(lang, "You don't follow entry {entry}. Your entries: {list}.", entry=typed[:12],
              list=_numbers(entries))


def which_entry_text(lang: str, entries: Sequence[Entry]) -> str:
    return tr(lang, "Which entry? /baja N, with N one of {list}.", list=_numbers(entries))


def withdraw_question(lang: str, entry: Entry, refund: tuple[int, int] | None = None,
                      currency: str = "EUR") -> tuple[str, str, str]:
    """/baja's question and its two buttons (yes, no); ``refund``: what a withdrawal now gets
    back of what was paid (cents), said first (None: nothing was paid)."""
    question = tr(lang, "Withdraw entry #{entry} ({names})? This can't be undone.",
                  entry=entry.number, names=names(entry.names))
    if refund is not None:
        back, paid = (amount_text(lang, c, currency) for c in refund)
        question += "\n" + (tr(lang, "Under the contest's rules, withdrawing now gives you back "
                               "{amount} of the {paid} paid.", amount=back, paid=paid)
                            if refund[0] else
                            tr(lang, "Under the contest's rules, withdrawing now gives nothing "
                               "back of the {paid} paid.", paid=paid))
    return question, tr(lang, "Yes, withdraw"), tr(lang, "No")


def kept_text(lang: str, number: int) -> str:
    return tr(lang, "Nothing changed: entry #{entry} stays registered.", entry=number)


def already_withdrawn_text(lang: str, number: int) -> str:
    return tr(lang, "Entry #{entry} was already withdrawn.", entry=number)


def withdrawn_text(lang: str, contest: Contest, out: Withdrawn) -> str:
    """The withdrawal's answer: withdrawn, and what is refunded."""
    place = out.place
    if contest.registration.refunds:
        refund = refund_text(lang, contest, out)
    elif place.refundable and out.paid:
        refund = tr(lang, "What you paid will be refunded.")
    elif place.refundable:
        refund = tr(lang, "A refund is due under the contest's rules for anything you "
                    "paid.")
    else:
        refund = tr(lang, "Under the contest's rules, this withdrawal is not refunded.")
    return tr(lang, "Entry #{entry} is withdrawn.", entry=out.entry) + " " + refund


def refund_text(lang: str, contest: Contest, out: Withdrawn) -> str:
    """What a withdrawal gets back under refunds that decrease as the contest approaches."""
    percent = out.place.refund_percent
    if percent == 0:
        return tr(lang, "Under the contest's rules, this withdrawal is not refunded.")
    if out.paid:
        return tr(lang, "Under the contest's rules you get back {percent} % of what you paid: "
                  "{amount}.", percent=percent,
                  amount=amount_text(lang, out.refund, contest.currency))
    return tr(lang, "No payment is recorded for entry #{entry}: if you paid, {percent} % of it "
              "is refunded under the contest's rules.", entry=out.entry, percent=percent)
