"""What ``/mis_datos`` says: everything the bot keeps about the person asking and the entries
they follow, in their language, and who sees it."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from zoneinfo import ZoneInfo

from bot.domain.contest import Contest
from bot.domain.events import REFUND
from bot.features.corrections.names import CORRECT
from bot.features.payments.rules import OWED_BACK
from bot.features.privacy.names import ERASE_DATA, KEEP_DATA
from bot.features.registration.day import EntryStatus
from bot.features.registration.texts import meal_people, shown_value
from bot.services.contest_day import Roles
from bot.storage.records import Event
from bot.support.commands import typed
from bot.support.i18n import tr
from bot.texts.access import LANGUAGE_NAMES
from bot.texts.common import date_text, labelled, moment_text
from bot.texts.names import amount_text, names, usage_text


def _you(lang: str, name: str, chosen: str | None, telegram: str | None,
         roles: Roles) -> list[str]:
    lines = [tr(lang, "What I keep about you:"),
             "• " + tr(lang, "your name as Telegram gives it: {name}", name=name or "-")]
    if chosen:
        lines.append("• " + tr(lang, "your language, chosen with /idioma: {language}",
                               language=LANGUAGE_NAMES.get(chosen, chosen)))
    elif telegram:
        lines.append("• " + tr(lang, "your phone's language: {language}",
                               language=LANGUAGE_NAMES.get(telegram.split("-")[0], telegram)))
    if roles.organiser:
        lines.append("• " + tr(lang, "that you are an organiser"))
    elif roles.volunteer:
        lines.append("• " + tr(lang, "that you are a volunteer"))
    if roles.entries:
        lines.append("• " + tr(lang, "that your phone follows entries {entries}",
                               entries=", ".join(f"#{e.number}" for e in roles.entries)))
    return lines


def _entry(lang: str, contest: Contest, s: EntryStatus, mine: bool,
           payments: Sequence[Event]) -> list[str]:
    entry = s.entry
    category = contest.category(entry.category)
    when = date_text(lang, entry.registered_at.astimezone(ZoneInfo(contest.timezone)).date())
    lines = ["", tr(lang, "Entry #{entry} ({category}):", entry=entry.number,
                    category=category.name if category is not None else entry.category)]
    lines.append("  " + (tr(lang, "registered by you in the chat on {day}", day=when) if mine
                         else tr(lang, "registered on {day}", day=when)))
    for m in entry.members:
        facts = [m.name]
        if m.born is not None:
            facts.append(tr(lang, "born {day}", day=date_text(lang, m.born)))
        elif m.born_year is not None:
            facts.append(tr(lang, "born in {year}", year=m.born_year))
        for q in contest.questions:
            value = ("yes" if q.id in m.answers else None) if q.yes_no else m.value(q.id)
            if value is not None:
                facts.append(f"{q.label_in(lang)}: {shown_value(lang, q, value)}")
        lines.append("  - " + "; ".join(facts))
    for qid, value in entry.values:
        asked = contest.question(qid)
        if asked is not None:
            lines.append(f"  {asked.label_in(lang)}: {shown_value(lang, asked, value)}")
    if entry.meal_adults or entry.meal_children:
        lines.append("  " + labelled(lang, tr(lang, "Meals"),
                                     meal_people(lang, entry.meal_adults, entry.meal_children)))
    for p in payments:
        amount = p.data.get("amount")
        paid = amount_text(lang, int(amount), contest.currency) if isinstance(amount, int) \
            else amount_text(lang, s.fee.total, contest.currency)
        via = (tr(lang, "paid in the chat") if p.data.get("charge") else
               tr(lang, "recorded by the organisers"))
        if p.kind == REFUND:
            lines.append("  " + tr(lang, "Given back by the organisers: {amount} on {moment}",
                                   amount=amount_text(lang, p.value or 0, contest.currency),
                                   moment=moment_text(lang, contest, p.at)))
            continue
        if p.ref in OWED_BACK:  # paid twice, or for a place gone
            via += "; " + tr(lang, "to be given back")
        lines.append("  " + tr(lang, "Payment: {amount} on {moment} ({how})", amount=paid,
                               moment=moment_text(lang, contest, p.at), how=via))
    return lines


def my_data_text(lang: str, contest: Contest, name: str, chosen: str | None,
                 telegram: str | None, roles: Roles,
                 entries: Sequence[tuple[EntryStatus, bool, Sequence[Event]]],
                 removal: str = "") -> str:
    """The person's data: about them, then each entry they follow (``mine``: they registered
    it), then who sees it and how to have it removed (``removal``: when the contest's
    retention removes it)."""
    lines = _you(lang, name, chosen, telegram, roles)
    for status, mine, payments in entries:
        lines += _entry(lang, contest, status, mine, payments)
    lines += ["", tr(lang, "Who sees it: the organisers see all of it (to run the contest and "
                     "its payments); volunteers see each entry's number and names; rankings, "
                     "the projector and the published results show the names (and the answers "
                     "the contest shows). Births and other answers are never published."),
              tr(lang, "It is kept for the contest ({day}) and its results. A name or a birth "
                 "typed wrong: {correct} (while registration is open). To have it removed, ask "
                 "the organisers; /baja withdraws an entry.",
                 day=date_text(lang, contest.date), correct=typed(lang, CORRECT))
              if entries else tr(lang, "To have it removed, ask the organisers.")]
    if removal:
        lines.append(removal)
    return "\n".join(lines)


def erase_usage(lang: str) -> str:
    command = typed(lang, ERASE_DATA)
    return usage_text(lang, f"{command} N") + "\n" + tr(
        lang, "For example {example}: someone asked for entry 12's data to be erased.",
        example=f"{command} 12")


def erase_question(lang: str, number: int, names_: Sequence[str], played: bool
                   ) -> tuple[str, str, str]:
    """What erasing entry ``number`` takes away and keeps, asked before; its two buttons."""
    text = tr(lang, "Erase entry #{entry}'s data ({names})? Its births, its answers no rule "
              "reads and its phones (who registered or follows it) go, for good.",
              entry=number, names=names(names_))
    if played:
        text += " " + tr(lang, "Its names and results stay: the rankings show them.")
    else:
        text += " " + tr(lang, "It has no result, so its names go too.")
    return text, tr(lang, "Erase"), tr(lang, "Keep")


def erase_kept(lang: str, number: int) -> str:
    return tr(lang, "Nothing erased: entry #{entry} stays as it is.", entry=number)


def keep_usage(lang: str) -> str:
    command = typed(lang, KEEP_DATA)
    return usage_text(lang, f"{command} [N] [no]") + "\n" + tr(
        lang, "{example} keeps your entry's births for the ratings across contests when the "
        "rest of your data is removed; {no} takes it back.", example=command,
        no=f"{command} no")


def no_retention(lang: str) -> str:
    return tr(lang, "This contest removes nothing by itself: there is nothing to keep. To have "
              "your data removed, ask the organisers.")


def removal_line(lang: str, contest: Contest, when: datetime, kept: Sequence[int]) -> str:
    """``/mis_datos``: when the contest's retention removes the data, and the entries whose
    births are kept for the ratings."""
    text = tr(lang, "On {day} births, answers no rule reads and phone links are removed (names, "
              "results and payments stay).", day=date_text(
                  lang, when.astimezone(ZoneInfo(contest.timezone)).date()))
    if kept:
        return text + " " + tr(lang, "Births kept for the ratings: {entries}.",
                               entries=", ".join(f"#{n}" for n in kept))
    return text + " " + tr(lang, "To keep your entry's births for the ratings across contests: "
                           "{command}.", command=typed(lang, KEEP_DATA))


def erase_name(lang: str) -> str:
    return tr(lang, "data erased on request")


def purge_name(lang: str) -> str:
    return tr(lang, "personal data removed")


def consent_name(lang: str) -> str:
    return tr(lang, "births kept for the ratings (or not)")
