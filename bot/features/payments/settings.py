"""The contest file's ``[payments]`` table (optional): paying in the chat. With it, and a payment
provider's token in the settings (``PUZZLEBOT_PAYMENT_TOKEN``), people are sent an invoice for
what their entry owes; without the token the bot says how to pay (``how_to_pay``) as before."""

from __future__ import annotations

from bot.domain.contest import Contest
from bot.features.payments.rules import (
    HOLD_DEFAULT_MINUTES,
    HOLD_MAX_MINUTES,
    PAYMENTS,
    PaymentRules,
)
from bot.services.contest_toml import Table
from bot.support.contest_keys import Key, Section

TABLE = PAYMENTS
FEATURE = PAYMENTS  # the name its settings are kept under (``Contest.settings``)
KEYS = Section(TABLE, "Paying in the chat (Telegram Payments, with PUZZLEBOT_PAYMENT_TOKEN). "
               "Optional: without it, people pay as how_to_pay says and organisers record "
               "each payment with /pagado.", (
                   Key("hold_minutes", "int", "Where a place is held only once paid "
                       "(payment_required): minutes a place free at registration is held while "
                       "its people pay in the chat (0: not held).",
                       default=HOLD_DEFAULT_MINUTES, minimum=0, maximum=HOLD_MAX_MINUTES,
                       example="30"),
               ))


def rules_of(contest: Contest) -> PaymentRules | None:
    """The contest's ``[payments]`` (None: it takes no payment in the chat)."""
    found = contest.settings(FEATURE)
    return found if isinstance(found, PaymentRules) else None


def describe(contest: Contest) -> list[str]:
    """What ``check-contest``'s summary says of it (nothing without the table)."""
    rules = rules_of(contest)
    if rules is None:
        return []
    line = f"Payments in the chat (with PUZZLEBOT_PAYMENT_TOKEN), in {contest.currency}"
    if contest.registration.payment_required and rules.hold_minutes:
        line += f"; a free place is held {rules.hold_minutes} min while paying"
    return [line]


NO_TABLE = "no_table"  # a provider's token, but no [payments] in the contest file
NO_TOKEN = "no_token"  # [payments], but no provider's token
HOLD_UNUSED = "hold_unused"  # hold_minutes where places are taken at registration


def problems(contest: Contest, token_set: bool) -> list[str]:
    """What of the payments' settings the bot cannot use as they are (``NO_TABLE``,
    ``NO_TOKEN``, ``HOLD_UNUSED``): said at every start in the log, and by the doctor."""
    rules = rules_of(contest)
    if rules is None:
        return [NO_TABLE] if token_set else []
    out = [] if token_set else [NO_TOKEN]
    if rules.hold_minutes and not contest.registration.payment_required:
        out.append(HOLD_UNUSED)
    return out


def unused(contest: Contest, token_set: bool) -> list[str]:
    """``problems``, each as the log says it at start (nothing is silently ignored)."""
    rules = rules_of(contest)
    hold = rules.hold_minutes if rules is not None else 0
    lines = {
        NO_TABLE: "PUZZLEBOT_PAYMENT_TOKEN is set, but the contest file has no [payments] "
                  "table: nobody is sent an invoice",
        NO_TOKEN: "the contest file has [payments], but PUZZLEBOT_PAYMENT_TOKEN is not set: "
                  "nobody is sent an invoice; people pay as how_to_pay says",
        HOLD_UNUSED: f"[payments] hold_minutes = {hold} holds nothing: a place is held while "
                     "paying only where payment_required = true (places here are taken at "
                     "registration)",
    }
    return [lines[p] for p in problems(contest, token_set)]


def read(t: Table) -> PaymentRules:
    hold = t.int("hold_minutes", HOLD_DEFAULT_MINUTES)
    t.done()
    return PaymentRules(hold)
