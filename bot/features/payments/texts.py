"""What people read of payments in the chat: the invoice (its title, description and lines),
why Telegram charged nothing (the pre-checkout's refusal, which Telegram shows the person), the
answer to a payment, ``/pagar``'s answers. Its menu line is in feature.py."""

from __future__ import annotations

from bot.domain.contest import Contest
from bot.domain.places import Status
from bot.features.payments.rules import DESCRIPTION_MAX, TITLE_MAX, Problem, clipped
from bot.features.registration.day import EntryStatus, PaidInChat
from bot.features.registration.texts import place_text
from bot.support.i18n import tr
from bot.texts.names import amount_text, names


def invoice_title(lang: str, contest: Contest, number: int) -> str:
    """"Entry #12 · Castrillo 2023", within Telegram's 32 characters."""
    return clipped(tr(lang, "Entry #{entry}", entry=number) + " · " + contest.name, TITLE_MAX)


def invoice_description(lang: str, contest: Contest, s: EntryStatus) -> str:
    category = contest.category(s.entry.category)
    what = category.name if category is not None else s.entry.category
    return clipped(tr(lang, "{contest}: {category}, {names}", contest=contest.name,
                      category=what, names=names(s.entry.names)), DESCRIPTION_MAX)


def hold_name(lang: str) -> str:
    """The event of a place held while paying, in a history."""
    return tr(lang, "place held while paying")


def fee_label(lang: str) -> str:
    return tr(lang, "Entry fee")


def meal_label(lang: str) -> str:
    return tr(lang, "Meals")


def checkout_refused(lang: str, problem: Problem, number: int) -> str:
    """Why Telegram charged nothing (it shows this to the person paying): what ``/pagar``
    would say of the entry, and that nothing was charged."""
    match problem:
        case Problem.UNKNOWN:
            return tr(lang, "This invoice is not one of this contest's entries: nothing was "
                      "charged.")
        case Problem.CHANGED:
            return tr(lang, "What entry #{entry} owes has changed: nothing was charged. Send "
                      "/pagar {entry} for a new invoice.", entry=number)
        case _:
            return cannot_pay(lang, problem, number) + " " + tr(lang, "Nothing was charged.")


def paid_text(lang: str, contest: Contest, out: PaidInChat, s: EntryStatus) -> str:
    """The answer to a payment Telegram took: received, or owed back (paid twice, or for a
    place that is gone)."""
    amount = amount_text(lang, out.amount, contest.currency)
    if out.extra:
        return tr(lang, "Entry #{entry} was paid already, so the {amount} you just paid will be "
                  "given back to you: it is on the organisers' list of refunds.",
                  entry=out.entry, amount=amount)
    lines = [tr(lang, "Payment received for entry #{entry}: {amount}. Thank you!",
                entry=out.entry, amount=amount)]
    if out.gone:
        lines.append(place_text(lang, contest, out.entry, s.place))
        lines.append(tr(lang, "It no longer has a place, so {amount} will be given back to you: "
                        "it is on the organisers' list of refunds.", amount=amount))
    elif s.place.status is Status.WAITING:
        lines.append(place_text(lang, contest, out.entry, s.place))
    return "\n".join(lines)


def invoice_sent(lang: str, number: int) -> str:
    return tr(lang, "Here is the invoice for entry #{entry}: pay with its button.", entry=number)


def nothing_to_pay(lang: str) -> str:
    return tr(lang, "None of your entries has anything to pay in the chat.")


def pay_which(lang: str, numbers: list[int]) -> str:
    return tr(lang, "Which entry? Send /pagar N with one of: {entries}.",
              entries=", ".join(f"#{n}" for n in numbers))


def cannot_pay(lang: str, problem: Problem, number: int) -> str:
    """``/pagar N`` for an entry that can't be paid now: why, as the checkout would say."""
    match problem:
        case Problem.UNKNOWN:
            return tr(lang, "There is no entry #{entry}.", entry=number)
        case Problem.PAID:
            return tr(lang, "Entry #{entry} is paid already.", entry=number)
        case Problem.GONE:
            return tr(lang, "Entry #{entry} no longer has a place to pay for (withdrawn, lapsed "
                      "or left out).", entry=number)
        case Problem.CLOSED:
            return tr(lang, "Registration has closed and entry #{entry} holds no place.",
                      entry=number)
        case Problem.SEEKING:
            return tr(lang, "Entry #{entry} is still looking for a partner: it is paid once "
                      "a partner has joined it.", entry=number)
        case Problem.CHANGED | Problem.FREE:
            return tr(lang, "Entry #{entry} owes nothing.", entry=number)


def not_in_chat(lang: str) -> str:
    return tr(lang, "Payments are not taken in the chat for this contest: pay as the "
              "organisers say (/mis_inscripciones shows what you owe).")


def hold_let_go(lang: str, number: int) -> str:
    """To an entry whose place, held while it paid, was let go unpaid."""
    return tr(lang, "Entry #{entry} was not paid in time, so the place held for it was let go. "
              "You may still pay with /pagar {entry}: the entry then takes a free place, or "
              "waits for one.", entry=number)

