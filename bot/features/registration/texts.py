"""What registering people read: places, the summary before confirming, why a member or an
entry is refused, and the moves on the waiting list."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import assert_never
from zoneinfo import ZoneInfo

from babel.dates import get_timezone, get_timezone_location

from bot.domain.contest import Category, Contest, Question, Slot, localized
from bot.domain.places import Place, Status
from bot.domain.rounds import Heat
from bot.features.registration.day import (
    AlreadyEntered,
    Card,
    HeatStarted,
    NotEligible,
    Registered,
    RegistrationRefusal,
    RegistrationShut,
)
from bot.features.registration.rules import (
    MAX_NAME,
    NAME_SEPARATOR,
    Fee,
    Ineligible,
    Member,
    Outing,
    check_members,
    fee,
    fitting_categories,
    name_key,
    open_slots,
)
from bot.features.waiting_list.texts import offer_text
from bot.support.i18n import ntr, tr
from bot.texts.common import date_text, heat_name, labelled, moment_text, names, round_name
from bot.texts.names import amount_text


def already_entered_text(lang: str, out: AlreadyEntered) -> str:
    if out.entry == 0:
        return tr(lang, "Not possible: {name} is in this entry twice.", name=out.name)
    if out.category is not None:
        return tr(lang, "Not possible: {name} is already in entry #{entry} ({category}), and "
                  "this contest allows one entry per person across all its events.",
                  name=out.name, entry=out.entry, category=out.category)
    return tr(lang, "Not possible: {name} is already in entry #{entry} of this category, and "
              "this contest allows one entry per person.", name=out.name, entry=out.entry)


def refusal_text(lang: str, contest: Contest, out: RegistrationRefusal) -> str:
    """Why the entry confirmed was not taken."""
    match out:
        case RegistrationShut(window=window):
            return closed_text(lang, contest, window)
        case HeatStarted():
            return heat_started_text(lang, contest, out)
        case AlreadyEntered():
            return already_entered_text(lang, out)
        case NotEligible(problem=problem):
            return ineligible_text(lang, problem)
        case _:
            assert_never(out)


def place_text(lang: str, contest: Contest, number: int, place: Place) -> str:
    if place.offered:
        return offer_text(lang, contest, number, place)
    if place.status is Status.CONFIRMED and place.held_until is not None:
        return tr(lang, "Entry #{entry}: a place is held for you until {time} while you pay. "
                  "Unpaid by then, it goes to the next in line.", entry=number,
                  time=moment_text(lang, contest, place.held_until))
    if place.status is Status.CONFIRMED:
        return tr(lang, "Entry #{entry}: your place is confirmed.", entry=number)
    if place.status is Status.PENDING_PAYMENT:
        return tr(lang, "Entry #{entry}: registered, pending payment. The place is held only "
                  "once the organisers have your payment.", entry=number)
    if place.status is Status.WAITING:
        return tr(lang, "Entry #{entry}: no place is free; you are number {position} on "
                  "the waiting list. I will tell you if a place frees up.", entry=number,
                  position=place.waiting_position)
    if place.status is Status.LEFT_OUT:
        return tr(lang, "Entry #{entry}: no place is left; you are owed a refund ({when}).",
                  entry=number, when=contest.registration.left_out_refund or "-")
    if place.status is Status.LAPSED:
        delay = contest.registration.pay_within
        return tr(lang, "Entry #{entry} has lapsed: it was not paid within {days} days of "
                  "registering, so it lost its place (or its turn on the waiting list). To take "
                  "part, register again with /inscribir and pay within {days} days.",
                  entry=number, days=delay.days if delay is not None else 0)
    if place.status is Status.SEEKING:
        return tr(lang, "Entry #{entry}: registered, looking for a partner. It holds no place "
                  "until a partner joins it; I will tell you as soon as one does.",
                  entry=number)
    if place.status is Status.UNMATCHED:
        return tr(lang, "Entry #{entry}: no partner was found before registration closed, so "
                  "it is out. Anything paid is refunded in full.", entry=number)
    if place.status is Status.DECLINED:
        return tr(lang, "Entry #{entry}: the place offered to it was not accepted in time, so "
                  "it has gone to the next in line, and the entry has left the waiting list. "
                  "Anything paid is refunded in full.", entry=number)
    return tr(lang, "Entry #{entry}: withdrawn.", entry=number)


# -- the confirmation card --------------------------------------------------------------------


def card_lines(lang: str, contest: Contest, card: Card) -> list[str]:
    """What follows the first line of an entry's place when it is taken or confirmed: the
    contest (and the round it plays first), when, where, what to bring, what it owes and how
    and until when to pay, its table once drawn. Only what the contest file says."""
    out = card.outing
    lines = [card_event(lang, contest, card),
             labelled(lang, tr(lang, "When"), outing_text(lang, contest, card.category, out))]
    if out.venue:
        lines.append(labelled(lang, tr(lang, "Where"), out.venue))
    bring = localized(contest.bring, lang, contest.language)
    if bring:
        lines.append(labelled(lang, tr(lang, "What you need"), bring))
    lines += payment_lines(lang, contest, card)
    if card.table is not None and card.place.status is Status.CONFIRMED:
        lines.append(labelled(lang, tr(lang, "Table"), str(card.table)))
    return lines


def card_event(lang: str, contest: Contest, card: Card) -> str:
    """The contest's name, and in a contest in rounds the round (or heat) the entry plays
    first: "Library Puzzle Masters 2024: Local contest – Fitchburg Library"."""
    heat = card.outing.heat
    if heat is None:
        return contest.name
    first = (heat_name(lang, contest, Heat(card.category, 0, heat)) if heat
             else round_name(lang, contest, card.category, 0))
    return labelled(lang, contest.name, first)


def outing_text(lang: str, contest: Contest, category: Category, out: Outing) -> str:
    """The entry's day and start on the hall's clock; a window to play at home, with the
    contest's time zone named; the first of several heats, when its own is still to come."""
    if out.start is None:
        return date_text(lang, out.day)
    if out.ends is not None:
        return window_text(lang, contest, out.start, out.ends)
    when = moment_text(lang, contest, out.start)
    if out.heat == 0 and category.rounds[0].heats > 1:
        return ntr(lang, "from {when}, in one of {n} heat", "from {when}, in one of {n} heats",
                   category.rounds[0].heats, when=when)
    return when


def window_text(lang: str, contest: Contest, start: datetime, end: datetime) -> str:
    """A window to play at home, on the contest's clock with its zone named (the reader may
    live elsewhere): "14 November 2026 from 19:00 to 21:00 (London time)"."""
    zone = ZoneInfo(contest.timezone)
    first, last = start.astimezone(zone), end.astimezone(zone)
    if first.date() == last.date():
        text = tr(lang, "{day} from {start} to {end}", day=date_text(lang, first.date()),
                  start=first.strftime("%H:%M"), end=last.strftime("%H:%M"))
    else:
        text = tr(lang, "from {start} to {end}", start=moment_text(lang, contest, first),
                  end=moment_text(lang, contest, last))
    city = get_timezone_location(get_timezone(contest.timezone), locale=lang, return_city=True)
    return tr(lang, "{when} ({city} time)", when=text, city=city)


def payment_lines(lang: str, contest: Contest, card: Card) -> list[str]:
    """What the entry owes: nothing said when it is free; paid; or to pay, how (the contest
    file's ``how_to_pay``) and by which day (``pay_within``)."""
    if card.total == 0:
        return []
    amount = amount_text(lang, card.total, contest.currency)
    if card.paid:
        return [tr(lang, "Paid: {amount}", amount=amount)]
    lines = [tr(lang, "To pay: {amount}", amount=amount)]
    how = localized(contest.registration.how_to_pay, lang, contest.language)
    if how:
        lines.append(labelled(lang, tr(lang, "How to pay"), how))
    if card.pay_by is not None:
        lines.append(tr(lang, "Pay by {day} at the latest: an entry not paid by then lapses.",
                        day=date_text(lang, card.pay_by)))
    return lines


def shown_value(lang: str, q: Question, value: str) -> str:
    """An answer as people read it: a choice's label, "Yes"/"No", or the text typed."""
    choice = q.choice(value)
    if choice is not None:
        return choice.shown(lang)
    if q.yes_no:
        return tr(lang, "Yes") if value == "yes" else tr(lang, "No")
    return value


def summary_text(lang: str, contest: Contest, category: Category, members: Sequence[Member],
                 values: Mapping[str, str], meal: tuple[int, int],
                 meal_with: Sequence[Sequence[int]] | None) -> str:
    """The summary before confirming: ``meal`` (adults, children) added with this entry,
    ``meal_with`` the earlier entries the meal was asked with."""
    f = fee(contest, category, members, meal[0], meal[1])
    cur = contest.currency
    lines = [tr(lang, "Please check your registration:"),
             tr(lang, "Category: {category}", category=category.name)]
    for i, m in enumerate(members, 1):
        born = date_text(lang, m.born) if m.born else str(m.year)
        yes = [q for q in contest.questions if q.id in m.answers]
        extra = "".join(f", {q.short(lang)}" for q in yes)
        extra += "".join(", " + labelled(lang, q.label_in(lang), shown_value(lang, q, v))
                         for q in contest.questions if (v := m.value(q.id)) is not None)
        lines.append(f"{i}. {m.name} ({born}{extra})")
    for q in contest.questions:
        if q.id in values:
            lines.append(labelled(lang, q.label_in(lang), shown_value(lang, q, values[q.id])))
    lines.append(tr(lang, "Entry fee: {amount}", amount=amount_text(lang, f.entry, cur)))
    if f.discount:
        lines.append(ntr(lang, "Discounts: -{amount} ({n} member)",
                         "Discounts: -{amount} ({n} members)", f.discounted_members,
                         amount=amount_text(lang, f.discount, cur)))
    if contest.meal is not None:
        lines += meal_lines(lang, contest, f, meal_with)
    lines.append(tr(lang, "Total: {amount}", amount=amount_text(lang, f.total, cur)))
    return "\n".join(lines)


def meal_people(lang: str, adults: int, children: int) -> str:
    """"2 adults, 1 child" (the counts that are not 0)."""
    parts = []
    if adults:
        parts.append(ntr(lang, "{n} adult", "{n} adults", adults))
    if children:
        parts.append(ntr(lang, "{n} child", "{n} children", children))
    return ", ".join(parts)


def meal_lines(lang: str, contest: Contest, f: Fee,
               earlier: Sequence[Sequence[int]] | None) -> list[str]:
    """The meal in the summary. ``earlier``: [number, adults, children] of the entries this
    person registered before (still in): the meal was asked with them, and what they booked
    stays booked there; this entry adds only what is added now."""
    here = amount_text(lang, f.meal, contest.currency)
    if not earlier:
        if f.meal_adults or f.meal_children:
            return [tr(lang, "Meal: {people}: {amount}",
                       people=meal_people(lang, f.meal_adults, f.meal_children), amount=here)]
        return [tr(lang, "Meal: none")]
    booked = meal_people(lang, sum(e[1] for e in earlier), sum(e[2] for e in earlier))
    entries = ", ".join(f"#{e[0]}" for e in earlier)
    if booked:
        line = ntr(lang, "Meal: {people}, already booked with entry {entries}",
                   "Meal: {people}, already booked with entries {entries}", len(earlier),
                   people=booked, entries=entries)
    else:
        line = ntr(lang, "Meal: none, as answered with entry {entries}",
                   "Meal: none, as answered with entries {entries}", len(earlier),
                   entries=entries)
    if f.meal_adults or f.meal_children:
        return [line, tr(lang, "Added to the meal with this entry: {people}: {amount}",
                         people=meal_people(lang, f.meal_adults, f.meal_children),
                         amount=here)]
    return [line]




def closed_text(lang: str, contest: Contest, window: str) -> str:
    rules = contest.registration
    if window in ("not_open_yet", "members_only") and rules.opens is not None:
        when = moment_text(lang, contest, rules.opens)
        if rules.members_open is None:
            return tr(lang, "Registrations open on {when}.", when=when)
        early = moment_text(lang, contest, rules.members_open)
        who = " / ".join(q.asked(lang) for qid in rules.members_if
                         if (q := contest.question(qid)) is not None)
        if window == "members_only":
            return tr(lang, "Not yet: for this entry registrations open on {when}. Until then "
                      "only entries with a member (a yes to \"{question}\") may register: "
                      "members could register from {early}.", when=when, question=who,
                      early=early)
        return tr(lang, "Registrations open on {when}; entries with a member (a yes to "
                  "\"{question}\") may register from {early}.", when=when, question=who,
                  early=early)
    closes = contest.registration.closes
    return tr(lang, "Registrations are closed (since {when}).",
              when=moment_text(lang, contest, closes) if closes else "-")


def heat_started_text(lang: str, contest: Contest, out: HeatStarted) -> str:
    """Why an entry can't be taken: the heat it would play (or chose) has begun; with heats
    still to come (chosen at registration), the invitation to choose one of them."""
    category = contest.category(out.category)
    assert category is not None
    heat = Heat(category, 0, out.begun.heat)
    rnd = category.rounds[0]
    venue = rnd.when(out.begun.heat).venue
    # a round split by number or a draw closes as a whole; a chosen heat is named
    name = (heat_name(lang, contest, heat) if rnd.heats_by is not None
            else round_name(lang, contest, category, 0))
    name += f" ({venue})" if venue and venue not in name else ""
    if rnd.heats_by is not None and not out.open_choices:
        text = tr(lang, "Too late for {category}: every heat of {round} has begun, and their "
                  "entrants are set.", category=category.name,
                  round=round_name(lang, contest, category, 0))
    elif out.begun.deadline:
        text = tr(lang, "Too late for {heat} of {category}: registration for it closed on "
                  "{when}.", heat=name, category=category.name,
                  when=moment_text(lang, contest, out.begun.begins))
    elif out.begun.started and out.started_at is not None:
        text = tr(lang, "Too late for {heat} of {category}: it started on {when}, and its "
                  "entrants are set.", heat=name, category=category.name,
                  when=moment_text(lang, contest, out.started_at))
    elif out.begun.started:
        text = tr(lang, "Too late for {heat} of {category}: it has started, and its entrants "
                  "are set.", heat=name, category=category.name)
    else:
        text = tr(lang, "Too late for {heat} of {category}: it began on {when}, and its "
                  "entrants are set.", heat=name, category=category.name,
                  when=moment_text(lang, contest, out.begun.begins))
    if rnd.heats_by is not None and out.open_choices:
        text += "\n" + tr(lang, "Choose one still to come:")
    return text


def slot_text(lang: str, slot: Slot) -> str:
    own = _own_slot_text(lang, replace(slot, alternatives=()))
    if slot.alternatives:
        return tr(lang, " or ").join([own, *(_own_slot_text(lang, a) for a in slot.alternatives)])
    return own


def _own_slot_text(lang: str, slot: Slot) -> str:
    if slot.with_adult is not None:
        rest = replace(slot, with_adult=None)
        adult = tr(lang, "with a member aged {age} or more", age=slot.with_adult)
        return adult if rest.is_open else f"{_own_slot_text(lang, rest)} {adult}"
    if slot.is_open:
        return tr(lang, "anyone")
    if slot.born_from is not None and slot.born_to is not None:
        return tr(lang, "born {start}-{end}", start=slot.born_from, end=slot.born_to)
    if slot.born_from is not None:
        return tr(lang, "born {year} or later", year=slot.born_from)
    if slot.born_to is not None:
        return tr(lang, "born {year} or earlier", year=slot.born_to)
    if slot.min_age is not None and slot.max_age is not None:
        return tr(lang, "aged {low}-{high} on the contest day", low=slot.min_age,
                  high=slot.max_age)
    if slot.min_age is not None:
        return tr(lang, "aged {age} or more on the contest day", age=slot.min_age)
    return tr(lang, "under {age} on the contest day", age=(slot.max_age or 0) + 1)


def ineligible_text(lang: str, problem: Ineligible, name: str = "") -> str:
    """Why a member cannot be in the category; ``name``: the member's, said where the member
    named is not the one just entered (a place "with an adult")."""
    who = (tr(lang, "born {year}", year=problem.born_year) if problem.age is None
           else tr(lang, "aged {age} on the contest day", age=problem.age))
    if problem.reason == "adult_needed":
        return tr(lang, "Not possible: {name}{who}, so this category needs someone aged "
                  "{adult} or more in the same entry.", name=f"{name}, " if name else "",
                  who=who, adult=problem.adult_age)
    needs = tr(lang, " or ").join(slot_text(lang, s) for s in problem.needs) or "-"
    if name:  # which member it is about (issue 26: a refusal named nobody)
        return tr(lang, "Not possible: {name} ({who}), and this category needs {needs}.",
                  name=name, who=who, needs=needs)
    return tr(lang, "Not possible: {who}, and this category needs {needs}.", who=who,
              needs=needs)


# -- registration: what changed on the waiting list -------------------------------------------


def lost_place_text(lang: str, entry: int, by: int, day: str) -> str:
    """Why an entry lost its place: a payment recorded late (dated ``day``) came before."""
    return tr(lang, "Entry #{entry} has lost its place: the payment of entry #{other}, dated "
              "{day}, came before it.", entry=entry, other=by, day=day)


def waiting_move_text(lang: str, entry: int, before: int, position: int) -> str:
    """An entry's place on the waiting list changed (the list moved up, or an entry that paid
    earlier came in ahead)."""
    return tr(lang, "Entry #{entry}: you are now number {position} on the waiting list (you were "
              "number {before}). I will tell you if a place frees up.", entry=entry,
              position=position, before=before)


def displaced_note(lang: str, entry: int, names_: Sequence[str], position: int | None) -> str:
    """For the organiser who recorded the payment: the entry it took the place of."""
    if position is None:
        return tr(lang, "Entry #{entry} ({names}) loses its place to this payment: no place is "
                  "left for it, and it is owed a refund. Its people are told.", entry=entry,
                  names=names(names_))
    return tr(lang, "Entry #{entry} ({names}) loses its place to this payment: it is now number "
              "{position} on the waiting list. Its people are told.", entry=entry,
              names=names(names_), position=position)


# -- the conversation's questions -------------------------------------------------------------


def name_prompt(lang: str, contest: Contest, category: Category, members: Sequence[Member]) -> str:
    """The next member's name; when the members entered so far leave the next one fewer kinds
    of place than the category has (the first of a pair is a child, and the pair needs an
    adult), what the next member needs, said now rather than at their birth."""
    index = len(members)
    if category.members == 1:
        text = tr(lang, "Name and surname of the participant?")
    elif category.fewest != category.members:
        text = tr(lang, "Name and surname of member {n} (teams of {low} to {high})?", n=index + 1,
                  low=category.fewest, high=category.members)
    else:
        text = tr(lang, "Name and surname of member {n} of {total}?", n=index + 1,
                  total=category.members)
    if members:
        day = contest.date
        left = open_slots(category, members, day)
        if left and not any(slot.is_open for slot in left) and any(
                slot not in left for slot in category.slots):
            text += "\n" + tr(lang, "The place left for member {n} needs {needs}.",
                               n=index + 1,
                               needs=tr(lang, " or ").join(slot_text(lang, s) for s in left))
        alone = check_members(category, members, day, complete=True)
        if alone is not None and alone.reason == "adult_needed":  # a place "with an adult"
            text += "\n" + tr(lang, "{name} needs someone aged {adult} or more in the same "
                               "entry.", name=members[alone.member].name,
                               adult=alone.adult_age)
    return text


def birth_prompt(lang: str, category: Category, name: str) -> str:
    if category.checks_age:
        return tr(lang, "Date of birth of {name}? (for example 2004-06-21 or 21/06/2004)",
                  name=name)
    return tr(lang, "Year of birth of {name}? (for example 2015)", name=name)


def refused_birth_lines(lang: str, contest: Contest, category: Category,
                        candidate: Sequence[Member], problem: Ineligible,
                        fits: Sequence[Category]) -> list[str]:
    """Why the birth does not fit, then what can be done: switch to one of ``fits`` (offered
    as buttons), or, when the member just entered would fit a category on their own, which."""
    lines = [ineligible_text(lang, problem, candidate[problem.member].name)]
    if fits:
        lines.append(tr(lang, "Write the correct birth, or switch to a category where it "
                        "fits (everything you typed is kept):"))
        return lines
    alone = fitting_categories(contest, category, candidate[-1:], contest.date,
                               alone=True) if len(candidate) > 1 else ()
    if alone:
        lines.append(tr(lang, "{name} fits {categories}, in an entry of their own.",
                        name=candidate[-1].name,
                        categories=tr(lang, " or ").join(c.name for c in alone)))
    lines.append(tr(lang, "Write the correct birth, or /cancelar to choose another "
                    "category."))
    return lines


def text_answer_problem(lang: str, q: Question, raw: str, answer: str) -> str | None:
    """Why a text question's typed answer is not taken (None: it is): one line, something
    visible, within its length, and without the separator the organisers' files put between
    members."""
    if "\n" in raw or "\r" in raw:
        return tr(lang, "Please write the answer on one line.")
    if not name_key(answer) or len(answer) > q.max_length:
        return tr(lang, "Please write an answer of 1 to {max} characters.", max=q.max_length)
    if NAME_SEPARATOR in answer:
        return tr(lang, "An answer cannot contain \"{sign}\": the organisers' files use it "
                  "between the members' answers.", sign=NAME_SEPARATOR)
    return None


def meal_prompt(lang: str, contest: Contest, adding: bool) -> tuple[str, str]:
    """How many adults eat, and the button for nobody. ``adding``: people added to a meal
    booked with an earlier entry."""
    meal = contest.meal
    assert meal is not None
    cur = contest.currency
    prices = {"adult": amount_text(lang, meal.adult, cur),
              "child": amount_text(lang, meal.child, cur)}
    if adding:
        return (tr(lang, "People to add to the meal ({adult} per adult, {child} per child). "
                   "How many adults?", **prices), tr(lang, "Add nobody"))
    return (tr(lang, "Meal after the contest ({adult} per adult, {child} per child). "
               "How many adults?", **prices), tr(lang, "No meal"))


# -- the conversation's answers ---------------------------------------------------------------


def stale_button_text(lang: str) -> str:
    return tr(lang, "This button is no longer active. /inscribir to register.")


def all_begun_text(lang: str) -> str:
    return tr(lang, "Too late to register: every category has begun playing.")


def category_label(lang: str, contest: Contest, category: Category) -> str:
    """A category as its button offers it: its name, who may enter (before anyone types a
    name or a birth: ``Infantil A · born 2017-2019 · 10 €``) and its fee."""
    who = who_may_enter(lang, category)
    parts = [category.name, *([who] if who else []),
             amount_text(lang, category.fee, contest.currency)]
    return " · ".join(parts)


def who_may_enter(lang: str, category: Category) -> str:
    """Who may be in an entry of the category, short enough for a button; "" for anyone.
    Members alike are said once, members with rules of their own one by one ("born in or
    before 2010 + anyone"); ages are on the contest day."""
    if all(s.is_open for s in category.slots):
        return ""
    return " + ".join(dict.fromkeys(_short_slot(lang, s) for s in category.slots))


def _short_slot(lang: str, slot: Slot) -> str:
    if slot.alternatives:
        return tr(lang, " or ").join(_short_slot(lang, a) for a in (
            replace(slot, alternatives=()), *slot.alternatives))
    if slot.with_adult is not None:
        rest = replace(slot, with_adult=None)
        adult = tr(lang, "with an adult ({age}+)", age=slot.with_adult)
        return adult if rest.is_open else f"{_short_slot(lang, rest)} {adult}"
    if slot.born_from is not None and slot.born_to is not None:
        return tr(lang, "born {start} to {end}", start=slot.born_from, end=slot.born_to)
    if slot.born_from is not None:
        return tr(lang, "born in or after {year}", year=slot.born_from)
    if slot.born_to is not None:
        return tr(lang, "born in or before {year}", year=slot.born_to)
    if slot.min_age is not None and slot.max_age is not None:
        return tr(lang, "ages {low} to {high}", low=slot.min_age, high=slot.max_age)
    if slot.min_age is not None:
        return tr(lang, "{age} and over", age=slot.min_age)
    if slot.max_age is not None:
        return tr(lang, "under {age}", age=slot.max_age + 1)
    return tr(lang, "anyone")


def which_category_text(lang: str) -> str:
    return tr(lang, "Which category? (/cancelar to stop at any time)")


def bad_name_text(lang: str, longest: int) -> str:
    return tr(lang, "Please write a name of 1 to {max} characters.", max=longest)


def separator_in_name_text(lang: str) -> str:
    return tr(lang, "A name cannot contain \"{sign}\": the organisers' files "
              "use it between the members' names. Please write the name "
              "without it.",
              sign=NAME_SEPARATOR)


def name_problem_text(lang: str, problem: str) -> str:
    """Why a member's name was not taken (``name_problem``), wherever a member is entered."""
    if problem == "separator":
        return separator_in_name_text(lang)
    return bad_name_text(lang, MAX_NAME)


def unreadable_birth_text(lang: str, category: Category) -> str:
    if category.checks_age:
        return tr(lang, "I can't read that: write the date like 2004-06-21.")
    return tr(lang, "I can't read that: write the year with 4 digits, like 2015.")


def switch_label(lang: str, contest: Contest, category: Category) -> str:
    return tr(lang, "Switch to {category}", category=category_label(lang, contest, category))


def category_text(lang: str, category: Category) -> str:
    return tr(lang, "Category: {category}", category=category.name)


def text_answer_hint(lang: str, q: Question) -> str:
    return tr(lang, "(Write the answer: one line, at most {max} characters.)", max=q.max_length)


def yes_no_labels(lang: str) -> tuple[str, str]:
    return tr(lang, "Yes"), tr(lang, "No")


def more_members_prompt(lang: str, category: Category, n: int) -> tuple[str, str, str]:
    """Teams of varying size, ``n`` members so far: the question and its two buttons."""
    return (tr(lang, "Members so far: {n} (this category takes {low} to {high}). "
               "Another member?", n=n, low=category.fewest, high=category.members),
            tr(lang, "Add member {n}", n=n + 1), tr(lang, "That is the whole team"))


def children_prompt(lang: str) -> str:
    return tr(lang, "How many children for the meal?")


def summary_labels(lang: str) -> tuple[str, str, str]:
    """The summary's buttons: confirm, cancel, and add people to a meal booked before."""
    return tr(lang, "Confirm"), tr(lang, "Cancel"), tr(lang, "Add people to the meal")


def registered_text(lang: str, contest: Contest, category: Category, out: Registered,
                    link: str, card: Card | None = None) -> str:
    """The answer to a confirmed registration: its place, with a place taken or held until
    paid its ``card``, the partner's ``link`` for a team, and where to see one's entries."""
    lines = [place_text(lang, contest, out.number, out.place)]
    if card is not None and out.place.status in (Status.CONFIRMED, Status.PENDING_PAYMENT):
        lines += card_lines(lang, contest, card)
    if category.members > 1 and out.place.status is Status.SEEKING:
        lines.append(tr(lang, "Someone else who should follow the entry on their phone (a "
                        "parent) opens this link: {link}", link=link))
    elif category.members > 1:
        lines.append(tr(lang, "Send this link to your partner so they can follow the "
                        "entry on their phone: {link}", link=link))
    lines.append(tr(lang, "Your entries and payments: /mis_inscripciones"))
    return "\n".join(lines)


def alone_label(lang: str) -> str:
    """The button under the next member's name: register alone, matched with a partner later."""
    return tr(lang, "I have no partner: find me one")


def seeking_summary_line(lang: str, listed: bool) -> str:
    """The summary of an entry registered alone; ``listed``: others looking for a partner see
    it and may ask to be matched with it (``[partners] self_service``)."""
    text = tr(lang, "No partner yet: the entry holds no place until the organisers match it "
              "with someone looking for a partner too.")
    if listed:
        text += " " + tr(lang, "Others looking for a partner in this category will see the "
                         "names entered (never the births), and may ask to play with you: "
                         "you say yes or no.")
    return text


def alone_refused_text(lang: str) -> str:
    return tr(lang, "This entry can't look for a partner: send the next member's name.")


def cancelled_text(lang: str) -> str:
    return tr(lang, "Registration cancelled: nothing was recorded.")


def nothing_to_cancel_text(lang: str) -> str:
    return tr(lang, "There is no registration in progress to cancel.")


def timed_out_text(lang: str, minutes: int) -> str:
    return tr(lang, "Registration cancelled after {minutes} minutes "
              "without an answer. Send /inscribir to start again.",
              minutes=minutes)


def use_buttons_text(lang: str) -> str:
    return tr(lang, "Please use the buttons above, or /cancelar.")


def pay_reminder_text(lang: str, contest: Contest, number: int, card: Card) -> str:
    """To an entry registered but not paid, a day before it lapses: what it owes, how and by
    when (the card's payment lines)."""
    return "\n".join([tr(lang, "Reminder: entry #{entry} is not paid yet.", entry=number),
                       *payment_lines(lang, contest, card)])
