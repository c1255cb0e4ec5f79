"""What the organisers' desk reads (/pagado, /inscritos, /exportar, the closing report) and
what people are told when their entry's place changes by itself."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date

from bot.domain.contest import Category, Contest
from bot.domain.places import Place, Status
from bot.features.partners.names import PAIR
from bot.features.registration.day import (
    Card,
    CategorySummary,
    EntryStatus,
    Paid,
    PaidInChatAlready,
)
from bot.features.registration.texts import (
    card_lines,
    displaced_note,
    lost_place_text,
    place_text,
    waiting_move_text,
)
from bot.features.waiting_list.texts import offer_text
from bot.support.commands import typed
from bot.support.i18n import ntr, tr
from bot.texts.common import date_text, labelled, moment_text, names
from bot.texts.names import amount_text


def bad_date_text(lang: str, typed: str) -> str:
    return tr(lang, "I can't use the date {text}: write a past date like 2012-02-15.",
              text=typed[:20])


def no_entry_text(lang: str, number: int) -> str:
    return tr(lang, "There is no entry number {entry}.", entry=number)


def paid_text(lang: str, contest: Contest, out: Paid, day_paid: date) -> str:
    """The organiser's answer to /pagado: the payment, the entry's place, and the entries it
    took the place of."""
    lines = [tr(lang, "Payment of entry #{entry} recorded on {day}.", entry=out.entry,
                day=date_text(lang, day_paid)),
             place_text(lang, contest, out.entry, out.place)]
    for entry, place in out.displaced:
        lines.append(displaced_note(lang, entry.number, entry.names,
                                    place.waiting_position
                                    if place.status is Status.WAITING else None))
    return "\n".join(lines)


def lost_to(entry: int, by: int, day: date) -> Callable[[str], str]:
    """Why entry ``entry`` lost its place, in each reader's language: the payment of entry
    ``by``, dated ``day``, came before it."""
    return lambda lang: lost_place_text(lang, entry, by, date_text(lang, day))


def unknown_category_text(lang: str, contest: Contest) -> str:
    return tr(lang, "Unknown category. Categories: {ids}",
              ids=", ".join(c.name for c in contest.categories))


def shared_places_line(lang: str, taken: int, capacity: int) -> str:
    return tr(lang, "All categories: {taken} of {capacity} places taken.", taken=taken,
              capacity=capacity)


def shared_waiting_lines(lang: str, contest: Contest, line_up: Sequence[EntryStatus]) -> list[str]:
    """One waiting list for every category: in its order, each with its category."""
    if not line_up:
        return []
    return [tr(lang, "Waiting list (all categories):"),
            *(waiting_line(lang, w, contest) for w in line_up)]


def places_line(lang: str, cat: Category, s: CategorySummary) -> str:
    """``Pairs: 3 confirmed, 2 free, 1 pending payment``: a category's places."""
    line = labelled(lang, cat.name, ntr(lang, "{n} confirmed", "{n} confirmed", len(s.taken)))
    if s.free is not None:
        line += ", " + ntr(lang, "{n} free", "{n} free", s.free)
    if s.reserved_left:
        line += " " + tr(lang, "({reserved} of them only for local entries)",
                         reserved=s.reserved_left)
    if s.pending:
        line += ", " + ntr(lang, "{n} pending payment", "{n} pending payment", len(s.pending))
    if s.lapsed:
        line += ", " + tr(lang, "{count} lapsed (not paid in time): {list}",
                          count=len(s.lapsed),
                          list=", ".join(f"#{x.entry.number}" for x in s.lapsed))
    return line


def paid_in_chat_text(lang: str, contest: Contest, out: PaidInChatAlready) -> str:
    """/pagado for an entry paid in the chat: nothing recorded, and why."""
    return tr(lang, "Entry #{entry} was paid in the chat on {moment} ({amount}): nothing "
              "recorded. If it paid at the desk too, give that back.", entry=out.entry,
              moment=moment_text(lang, contest, out.at),
              amount=amount_text(lang, out.amount, contest.currency))


def refund_lines(lang: str, contest: Contest, refunds: Sequence[EntryStatus]) -> list[str]:
    """The refunds still to make: what each entry is owed and why, and, where part of it was
    given back already (bot/features/refunds), how much is left."""
    lines = ["  " + tr(lang, "Refunds due:")]
    for r in refunds:
        amount = amount_text(lang, r.refund, contest.currency)
        if r.extra and r.refund == r.extra:  # only what was paid twice
            line = tr(lang, "#{entry} {names}: {amount} (paid twice in the chat)",
                      entry=r.entry.number, names=names(r.entry.names), amount=amount)
        else:
            line = tr(lang, "#{entry} {names}: {amount} ({percent} % of {paid})",
                      entry=r.entry.number, names=names(r.entry.names), amount=amount,
                      percent=r.place.refund_percent,
                      paid=amount_text(lang, r.fee.total, contest.currency))
            if r.extra:
                line += " + " + tr(lang, "{amount} paid twice in the chat",
                                   amount=amount_text(lang, r.extra, contest.currency))
        if r.refunded:
            line += "; " + tr(lang, "{given} given back, {left} still to give back",
                              given=amount_text(lang, r.refunded, contest.currency),
                              left=amount_text(lang, r.owed_back, contest.currency))
        lines.append("  " + line)
    return lines


def waiting_line(lang: str, w: EntryStatus, contest: Contest | None = None) -> str:
    """``  2. #31 Bea / Ben``, with its category's name on a list shared by all of them."""
    category = contest.category(w.entry.category) if contest is not None else None
    return (f"  {w.place.waiting_position}. #{w.entry.number} {names(w.entry.names)}"
            + (f" ({category.name})" if category is not None else "")
            + (" (" + tr(lang, "local entry") + ")" if w.entry.local else ""))


def export_captions(lang: str) -> tuple[str, str, str]:
    """/exportar's documents: the entries, the results, the spreadsheet (whose entries' sheet
    is named with the first)."""
    return (tr(lang, "Entries"), tr(lang, "Results"),
            tr(lang, "Entries and results (spreadsheet)"))


def export_files(lang: str, stem: str) -> tuple[str, str, str]:
    """/exportar's file names, after the contest's file (``castrillo-2023``): the workbook in
    the reader's language, then the two CSV files, whose names and columns stay the import's."""
    return (f"{stem}-{tr(lang, 'results')}.xlsx", f"{stem}-entries.csv", f"{stem}-results.csv")


def export_notes(lang: str) -> tuple[str, str]:
    """What the workbook is for, and what the CSV files are for (their captions)."""
    return (tr(lang, "To read and print: a ranking to pin on the wall, the entries, and each "
               "category's results."),
            tr(lang, "For the bot itself (python -m bot import reads it back) and for other "
               "programs: columns by their codes, comma-separated. To read it, open the "
               "spreadsheet above."))


def place_change_text(lang: str, contest: Contest, number: int, place: Place,
                      before: str | None, position: int | None, card: Card | None = None) -> str:
    """An entry's place changed by itself: ``before`` the status its people were last told
    (and ``position``, on the waiting list); a place confirmed is followed by its ``card``."""
    if place.offered:
        return offer_text(lang, contest, number, place)
    if place.status is Status.CONFIRMED:
        if before in (Status.PENDING_PAYMENT.value, Status.LAPSED.value):
            first = tr(lang, "Payment received: entry #{entry} has a confirmed place.",
                       entry=number)
        elif before == Status.SEEKING.value:  # a partner joined it: the reason says so
            first = tr(lang, "Entry #{entry} has a confirmed place.", entry=number)
        else:
            first = tr(lang, "Good news: a place freed up and entry #{entry} now has a "
                       "confirmed place.", entry=number)
        return "\n".join([first, *(card_lines(lang, contest, card) if card else ())])
    if place.status is Status.WAITING and before == Status.WAITING.value and \
            position is not None and place.waiting_position is not None:
        return waiting_move_text(lang, number, position, place.waiting_position)
    return place_text(lang, contest, number, place)


def closing_soon_text(lang: str, contest: Contest, waiting: Sequence[EntryStatus],
                      unpaid: Sequence[EntryStatus], unlinked: Sequence[EntryStatus],
                      seeking: Sequence[EntryStatus] = ()) -> str:
    """For each organiser before registrations close (``closing_warning_at``): what the
    closing, which can't be taken back, would leave as it is: entries still waiting for a
    place, entries not paid, entries nobody can be told anything (no phone linked), entries
    still looking for a partner."""
    closes = contest.registration.closes
    lines = [tr(lang, "Registrations close on {when}. Before then, check:",
                when=moment_text(lang, contest, closes) if closes else "-")]

    def listed(found: Sequence[EntryStatus]) -> str:
        return ", ".join(f"#{s.entry.number} {names(s.entry.names)}" for s in found)

    if waiting:
        lines.append(ntr(lang, "Waiting for a place ({count}), left out at the closing unless "
                         "one frees up: {entries}", "Waiting for a place ({count}), left out "
                         "at the closing unless one frees up: {entries}", len(waiting),
                         count=len(waiting), entries=listed(waiting)))
    if unpaid:
        lines.append(ntr(lang, "Not paid yet ({count}): {entries}",
                         "Not paid yet ({count}): {entries}", len(unpaid), count=len(unpaid),
                         entries=listed(unpaid)))
    if unlinked:
        lines.append(ntr(lang, "No phone linked ({count}), so nobody in it hears from the bot: "
                         "{entries}. Give it its link ({command}, the join_code column) or "
                         "its table card.", "No phone linked ({count}), so nobody in them hears "
                         "from the bot: {entries}. Give each its link ({command}, the join_code "
                         "column) or its table card.", len(unlinked), count=len(unlinked),
                         entries=listed(unlinked), command=typed(lang, "exportar")))
    if seeking:
        lines.append(ntr(lang, "Still looking for a partner ({count}), out at the closing "
                         "unless matched ({command} N M): {entries}", "Still looking for a "
                         "partner ({count}), out at the closing unless matched ({command} N "
                         "M): {entries}", len(seeking), count=len(seeking),
                         entries=listed(seeking), command=typed(lang, PAIR)))
    if not (waiting or unpaid or unlinked or seeking):
        lines.append(tr(lang, "Nothing to check: every entry has a place, has paid and has a "
                        "phone linked."))
    return "\n".join(lines)


def seeking_lines(lang: str, found: Sequence[EntryStatus]) -> list[str]:
    """Under a category in /inscritos: its entries looking for a partner, and those out for
    want of one (``[partners]``)."""
    def listed(status: Status) -> str:
        return ", ".join(f"#{s.entry.number} {names(s.entry.names)}" for s in found
                         if s.place.status is status)

    out = []
    looking = [s for s in found if s.place.status is Status.SEEKING]
    if looking:
        out.append("  " + tr(lang, "Looking for a partner ({count}): {entries}",
                             count=len(looking), entries=listed(Status.SEEKING)))
    if len(looking) < len(found):
        out.append("  " + tr(lang, "No partner found ({count}): {entries}",
                             count=len(found) - len(looking), entries=listed(Status.UNMATCHED)))
    return out


def unlinked_line(lang: str, unlinked: Sequence[int]) -> str:
    """Under /inscritos: the entries nobody can be told anything (no phone linked)."""
    return ntr(lang, "No phone linked ({count}), nobody hears from the bot: {entries}",
               "No phone linked ({count}), nobody hears from the bot: {entries}",
               len(unlinked), count=len(unlinked),
               entries=", ".join(f"#{n}" for n in unlinked))


def closing_report_text(lang: str, contest: Contest, left_out: Sequence[EntryStatus],
                        unmatched: Sequence[EntryStatus] = ()) -> str:
    """For each organiser at the closing: the entries left out and owed a refund, and those
    that paid and found no partner (``[partners]``: refunded in full)."""
    lines = [tr(lang, "Registrations are closed. Entries left without a place, to be "
                "refunded ({when}):", when=contest.registration.left_out_refund or "-")]
    for s in left_out:
        lines.append(labelled(lang, f"#{s.entry.number} {names(s.entry.names)}",
                              amount_text(lang, s.fee.total, contest.currency)))
    if not left_out and not unmatched:
        lines.append(tr(lang, "None: every paid entry has a place."))
    elif not left_out:
        lines.append(tr(lang, "None."))
    if unmatched:
        lines.append(tr(lang, "No partner found, to be refunded in full:"))
        lines += [labelled(lang, f"#{s.entry.number} {names(s.entry.names)}",
                           amount_text(lang, s.owed_back, contest.currency)) for s in unmatched]
    return "\n".join(lines)
