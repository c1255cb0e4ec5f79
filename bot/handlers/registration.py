"""Registration in the chat: the /inscribir conversation, /mis_inscripciones, /baja, and the
organisers' /pagado, /inscritos, /exportar.

The conversation is a python-telegram-bot ConversationHandler whose state and draft are kept by
``bot.chat.persistence.SQLitePersistence`` and flushed after every step, so a restart resumes it.
"""

from __future__ import annotations

import io
import tempfile
import warnings
from collections.abc import Callable, Mapping
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, InputFile, MessageEntity, Update
from telegram.ext import (
    Application,
    BaseHandler,
    CallbackContext,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    ConversationHandler,
    MessageHandler,
    filters,
)
from telegram.warnings import PTBUserWarning

from bot.domain.contest import Category, Contest, Question
from bot.domain.numbers import YEARS, ascii_digits, parse_year
from bot.domain.registration import (
    NAME_SEPARATOR,
    Fee,
    Ineligible,
    Member,
    Place,
    Status,
    check_members,
    clean_name,
    fee,
    fitting_categories,
    name_key,
    open_slots,
    registration_window,
)
from bot.domain.rounds import Heat
from bot.handlers.commands import names_for
from bot.handlers.common import (
    Caller,
    Services,
    button_moment,
    caller,
    language_of,
    organiser,
    parse_int,
    post_text,
    recorder,
    recording,
    refuse_role,
    remember,
    replace_job,
    reply,
    send,
    services,
    show_usage,
)
from bot.handlers.menus import refresh_menu
from bot.services.exports import (
    Printable,
    entry_rows,
    export_entries,
    export_results,
    results_by_category,
    xlsx,
)
from bot.services.registrations import (
    AlreadyEntered,
    AlreadyLapsed,
    EntryStatus,
    HeatStarted,
    Paid,
    Registered,
    Registrations,
    RegistrationShut,
    Withdrawn,
)
from bot.services.summary import money
from bot.storage.store import PRIORITY_BULK, PRIORITY_COPY, Entry
from bot.support.i18n import ntr, tr
from bot.support.wallclock import CLOCK
from bot.texts.common import (
    date_text,
    displaced_note,
    heat_name,
    ineligible_text,
    labelled,
    lost_place_text,
    moment_text,
    names,
    round_name,
    slot_text,
    waiting_move_text,
)

CATEGORY, NAME, BIRTH, QUESTION, MORE, MEAL_ADULTS, MEAL_CHILDREN, CONFIRM = (
    "category", "name", "birth", "question", "more", "meal_adults", "meal_children", "confirm",
)
TEXT_ANSWER = "text_answer"  # a text question waits for the typed answer
CHOICES_PER_ROW = 3

TIMEOUT_SECONDS = 15 * 60
MAX_NAME = 100  # real names run long: 'María de los Ángeles Fernández-Villaverde y ...'
MEAL_CHOICES = 9  # 0..8 people


def registrations(context: ContextTypes.DEFAULT_TYPE) -> Registrations:
    regs: Registrations = context.bot_data["registrations"]
    return regs


# -- describing things -----------------------------------------------------------------------


def already_entered_text(lang: str, out: AlreadyEntered) -> str:
    if out.entry == 0:
        return tr(lang, "Not possible: {name} is in this entry twice.", name=out.name)
    return tr(lang, "Not possible: {name} is already in entry #{entry} of this category, and "
              "this contest allows one entry per person.", name=out.name, entry=out.entry)


def place_text(lang: str, contest: Contest, number: int, place: Place) -> str:
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
    return tr(lang, "Entry #{entry}: withdrawn.", entry=number)


def draft_members(draft: dict[str, Any]) -> list[Member]:
    return [member_from(m) for m in draft.get("members", [])]


def member_from(m: dict[str, Any]) -> Member:
    return Member(
        name=m["name"],
        born=date.fromisoformat(m["born"]) if m.get("born") else None,
        born_year=m.get("born_year"),
        answers=frozenset(m.get("answers", [])),
        values=tuple(m.get("values", {}).items()),
    )


def shown_value(lang: str, q: Question, value: str) -> str:
    """An answer as people read it: a choice's label, "Yes"/"No", or the text typed."""
    choice = q.choice(value)
    if choice is not None:
        return choice.shown(lang)
    if q.yes_no:
        return tr(lang, "Yes") if value == "yes" else tr(lang, "No")
    return value


def summary_text(lang: str, contest: Contest, category: Category, draft: dict[str, Any]) -> str:
    members = draft_members(draft)

    f = fee(contest, category, members, draft.get("meal_adults", 0),
            draft.get("meal_children", 0))
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
    values: dict[str, str] = draft.get("values", {})
    for q in contest.questions:
        if q.id in values:
            lines.append(labelled(lang, q.label_in(lang), shown_value(lang, q, values[q.id])))
    lines.append(tr(lang, "Entry fee: {amount}", amount=money(f.entry, cur)))
    if f.discount:
        lines.append(ntr(lang, "Discounts: -{amount} ({n} member)",
                         "Discounts: -{amount} ({n} members)", f.discounted_members,
                         amount=money(f.discount, cur)))
    if contest.meal is not None:
        lines += meal_lines(lang, contest, f, draft.get("meal_with"))
    lines.append(tr(lang, "Total: {amount}", amount=money(f.total, cur)))
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
               earlier: list[list[int]] | None) -> list[str]:
    """The meal in the summary. ``earlier``: [number, adults, children] of the entries this
    person registered before (still in): the meal was asked with them, and what they booked
    stays booked there; this entry adds only what is added now."""
    here = money(f.meal, contest.currency)
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


def contest_day_before(contest: Contest) -> date:
    """A date to show in examples: a week before the registrations close (or the contest)."""
    closes = contest.registration.closes
    day = closes.date() if closes is not None else contest.date
    return day - timedelta(days=7)


# -- the conversation ------------------------------------------------------------------------


def _save_after(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Ask for the conversation and its draft to be written as soon as this update is handled
    (``save_now`` runs after the ConversationHandler has recorded the new state)."""
    user = update.effective_user if isinstance(update, Update) else None
    if user is not None:
        context.application.bot_data.setdefault("flush_users", set()).add(user.id)


async def save_now(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Runs after an update that took a registration step (handler group 1, ``SaveNow``):
    persist it immediately, so a crash loses no answer, rather than at the next periodic
    save."""
    pending: set[int] = context.application.bot_data.get("flush_users", set())
    user = update.effective_user if isinstance(update, Update) else None
    if user is not None and user.id in pending:
        pending.discard(user.id)
        await context.application.update_persistence()


class SaveNow(BaseHandler[Update, Any, None]):
    """``save_now`` for the updates that took a registration step, and only those: the others
    (nearly all, on the day) don't pay for a callback context and a call."""

    def __init__(self, pending: set[int]) -> None:
        super().__init__(save_now)
        self.pending = pending

    def check_update(self, update: object) -> bool:
        user = update.effective_user if isinstance(update, Update) else None
        return user is not None and user.id in self.pending


async def _pressed(update: Update,
                   context: ContextTypes.DEFAULT_TYPE) -> tuple[str, Caller | None]:
    """A button of the conversation: answered at once (Telegram stops the spinner), its data
    and who pressed it (None: nobody the bot can serve)."""
    query = update.callback_query
    assert query is not None and query.data is not None
    await query.answer()
    return query.data, await caller(update, context)


async def stale_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A registration button from a step that is over: answer it, so the phone stops waiting."""
    query = update.callback_query
    assert query is not None
    who = await caller(update, context)
    lang = who.lang if who is not None else "es"
    await query.answer(tr(lang, "This button is no longer active. /inscribir to register."))


def _buttons(rows: list[list[tuple[str, str]]]) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(text, callback_data=data) for text, data in row] for row in rows]
    )


async def inscribir(update: Update, context: ContextTypes.DEFAULT_TYPE) -> str | int:
    who = await caller(update, context)
    if who is None:
        return ConversationHandler.END
    contest = who.svc.contest

    window = registration_window(contest, who.at)
    if window is not None:
        await reply(update, closed_text(who.lang, contest, window))
        return ConversationHandler.END
    assert context.user_data is not None
    # a category whose first round has begun (every heat, where heats are chosen) takes no
    # more entries: it is not offered
    regs = registrations(context)
    joinable = [c for c in contest.categories if await regs.too_late(c, who.at) is None]
    if not joinable:
        await reply(update, tr(who.lang, "Too late to register: every category has begun "
                               "playing."))
        return ConversationHandler.END
    context.user_data["draft"] = {"members": [], "started": int(who.at.timestamp())}
    rows = [[(f"{c.name} ({money(c.fee, contest.currency)})", f"reg:cat:{c.id}")]
            for c in joinable]
    await reply(update, tr(who.lang, "Which category? (/cancelar to stop at any time)"),
                reply_markup=_buttons(rows))
    _save_after(update, context)
    return CATEGORY


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
            else round_name(lang, contest, category, 0)) + (f" ({venue})" if venue else "")
    if rnd.heats_by is not None and not out.open_choices:
        text = tr(lang, "Too late for {category}: every heat of {round} has begun, and their "
                  "entrants are set.", category=category.name,
                  round=round_name(lang, contest, category, 0))
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


def _draft(context: ContextTypes.DEFAULT_TYPE) -> dict[str, Any]:
    assert context.user_data is not None
    draft: dict[str, Any] = context.user_data.setdefault("draft", {"members": []})
    return draft


async def _ask_name(update: Update, who: Caller, category: Category,
                    members: list[Member]) -> None:
    """The next member's name; when the members entered so far leave the next one fewer kinds
    of place than the category has (the first of a pair is a child, and the pair needs an
    adult), what the next member needs, said now rather than at their birth."""
    lang, index = who.lang, len(members)
    if category.members == 1:
        text = tr(lang, "Name and surname of the participant?")
    elif category.fewest != category.members:
        text = tr(lang, "Name and surname of member {n} (teams of {low} to {high})?", n=index + 1,
                  low=category.fewest, high=category.members)
    else:
        text = tr(lang, "Name and surname of member {n} of {total}?", n=index + 1,
                  total=category.members)
    if members:
        day = who.svc.contest.date
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
    await reply(update, text)


async def pick_category(update: Update, context: ContextTypes.DEFAULT_TYPE) -> str | int:
    data, who = await _pressed(update, context)
    if who is None:
        return ConversationHandler.END
    category = who.svc.contest.category(data.split(":", 2)[2])
    if category is None:
        return CATEGORY
    late = await registrations(context).too_late(
        category, button_moment(update, context) or who.at)
    if late is not None:  # a list shown before its first round began
        await reply(update, heat_started_text(who.lang, who.svc.contest, late))
        return CATEGORY
    draft = _draft(context)
    draft.update({"category": category.id, "members": [], "current": {}})
    await _ask_name(update, who, category, [])
    _save_after(update, context)
    return NAME


async def got_name(update: Update, context: ContextTypes.DEFAULT_TYPE) -> str | int:
    who = await caller(update, context)
    msg = update.effective_message
    if who is None or msg is None:
        return ConversationHandler.END
    name = clean_name(msg.text or "")
    if not name_key(name) or len(name) > MAX_NAME:  # nothing visible, or too long
        await reply(update, tr(who.lang, "Please write a name of 1 to {max} characters.",
                               max=MAX_NAME))
        return NAME
    if NAME_SEPARATOR in name:
        await reply(update, tr(who.lang, "A name cannot contain \"{sign}\": the organisers' files "
                               "use it between the members' names. Please write the name "
                               "without it.",
                               sign=NAME_SEPARATOR))
        return NAME
    draft = _draft(context)
    draft["current"] = {"name": name, "answers": []}
    category = who.svc.contest.category(draft["category"])
    assert category is not None
    if category.checks_age:
        text = tr(who.lang, "Date of birth of {name}? (for example 2004-06-21 or 21/06/2004)",
                  name=name)
    else:
        text = tr(who.lang, "Year of birth of {name}? (for example 2015)", name=name)
    await reply(update, text)
    _save_after(update, context)
    return BIRTH


def parse_birth(text: str, full_date: bool) -> tuple[date | None, int | None] | None:
    t = ascii_digits(text.strip())
    year = parse_year(t)
    if not full_date and year is not None:
        return None, year
    for fmt in ("%Y-%m-%d", "%d/%m/%Y", "%d-%m-%Y", "%d.%m.%Y"):
        try:
            d = datetime.strptime(t, fmt).date()
        except ValueError:
            continue
        return d, d.year
    return None


async def got_birth(update: Update, context: ContextTypes.DEFAULT_TYPE) -> str | int:
    who = await caller(update, context)
    msg = update.effective_message
    if who is None or msg is None:
        return ConversationHandler.END
    contest = who.svc.contest
    draft = _draft(context)
    category = contest.category(draft["category"])
    assert category is not None
    parsed = parse_birth(msg.text or "", category.checks_age)
    if parsed is None or not 1900 <= (parsed[1] or 0) <= contest.date.year:
        await reply(update, tr(who.lang, "I can't read that: write the date like 2004-06-21.")
                    if category.checks_age else
                    tr(who.lang, "I can't read that: write the year with 4 digits, like 2015."))
        return BIRTH
    born, year = parsed
    current = dict(draft.get("current", {}))
    current.update({"born": born.isoformat() if born else None, "born_year": year})
    candidate = draft_members(draft) + [member_from(current)]
    problem = check_members(category, candidate, contest.date,
                            complete=len(candidate) == category.members)
    if problem is not None:
        draft["refused"] = current  # kept for a switch of category
        await _refuse_birth(update, who, category, candidate, problem)
        return BIRTH
    draft.pop("refused", None)
    return await _member_entered(update, context, who, current)


async def _member_entered(update: Update, context: ContextTypes.DEFAULT_TYPE, who: Caller,
                          current: dict[str, Any]) -> str | int:
    """The member being entered has a birth that fits: their questions next."""
    draft = _draft(context)
    draft["current"] = current
    draft["question"] = 0
    draft["phase"] = "member"
    return await _next_question(update, context, who)


async def _refuse_birth(update: Update, who: Caller, category: Category,
                        candidate: list[Member], problem: Ineligible) -> None:
    """Why the birth does not fit, and the categories where everything typed fits, each a
    button (a switch keeps it all); else, when the member just entered would fit a category
    on their own, which."""
    lang, contest = who.lang, who.svc.contest
    lines = [ineligible_text(lang, problem, candidate[problem.member].name)]
    fits = fitting_categories(contest, category, candidate, contest.date)
    markup = None
    if fits:
        lines.append(tr(lang, "Write the correct birth, or switch to a category where it "
                        "fits (everything you typed is kept):"))
        markup = _buttons([[(tr(lang, "Switch to {category}", category=f"{c.name} ("
                                f"{money(c.fee, contest.currency)})"), f"reg:sw:{c.id}")]
                           for c in fits])
    else:
        alone = fitting_categories(contest, category, candidate[-1:], contest.date,
                                   alone=True) if len(candidate) > 1 else ()
        if alone:
            lines.append(tr(lang, "{name} fits {categories}, in an entry of their own.",
                            name=candidate[-1].name,
                            categories=tr(lang, " or ").join(c.name for c in alone)))
        lines.append(tr(lang, "Write the correct birth, or /cancelar to choose another "
                        "category."))
    await reply(update, "\n".join(lines), reply_markup=markup)


async def switch_category(update: Update, context: ContextTypes.DEFAULT_TYPE) -> str | int:
    """``reg:sw:{category}`` after a refused birth: the entry goes on in that category with
    everything typed (the members, their answers, the birth refused)."""
    data, who = await _pressed(update, context)
    if who is None:
        return ConversationHandler.END
    contest = who.svc.contest
    draft = _draft(context)
    category = contest.category(str(draft.get("category", "")))
    target = contest.category(data.split(":", 2)[2])
    refused = draft.get("refused")
    if category is None or target is None or not isinstance(refused, dict):
        return BIRTH  # an old button
    candidate = draft_members(draft) + [member_from(refused)]
    if target.id not in {c.id for c in fitting_categories(contest, category, candidate,
                                                           contest.date)}:
        return BIRTH  # not one offered for what is typed now
    draft["category"] = target.id
    draft.pop("refused")
    await reply(update, tr(who.lang, "Category: {category}", category=target.name))
    return await _member_entered(update, context, who, refused)


def _for_entry(draft: dict[str, Any]) -> bool:
    """Whether the questions being asked are the entry's (after its members), not a member's."""
    return draft.get("phase") == "entry"


def _heats_question(contest: Contest, draft: dict[str, Any], q: Question) -> Category | None:
    """The draft's category when ``q`` is the question its first round's heats go by."""
    category = contest.category(str(draft.get("category", "")))
    if category is not None and category.rounds and category.rounds[0].heats_by == q.id:
        return category
    return None


async def _ask(update: Update, context: ContextTypes.DEFAULT_TYPE, who: Caller, index: int,
               q: Question, at: datetime | None = None) -> str | int:
    """Question ``index``: yes/no or choice buttons, or a typed answer for a text question.
    The question a first round's heats go by offers only the heats still to come at ``at``
    (default: when the person wrote)."""
    draft = _draft(context)
    text = q.asked(who.lang)
    if not _for_entry(draft):
        text = labelled(who.lang, draft["current"]["name"], text)
    if q.kind == "choice":
        offered = list(enumerate(q.choices))
        category = _heats_question(who.svc.contest, draft, q)
        if category is not None:
            regs = registrations(context)
            moment = at or who.at
            still = set(await regs.open_choices(category, moment))
            offered = [(k, c) for k, c in offered if c.id in still]
            late = await regs.too_late(category, moment) if not offered else None
            if late is not None:
                await reply(update, heat_started_text(who.lang, who.svc.contest, late))
                _clear(context)
                _save_after(update, context)
                return ConversationHandler.END
        buttons = [(c.shown(who.lang), f"reg:c:{index}:{k}") for k, c in offered]
        markup = _buttons([buttons[i:i + CHOICES_PER_ROW]
                           for i in range(0, len(buttons), CHOICES_PER_ROW)])
    elif q.kind == "text":
        await reply(update, text + "\n" + tr(who.lang, "(Write the answer: one line, at most "
                                               "{max} characters.)", max=q.max_length))
        _save_after(update, context)
        return TEXT_ANSWER
    else:
        markup = _buttons([[(tr(who.lang, "Yes"), f"reg:q:{index}:y"),
                            (tr(who.lang, "No"), f"reg:q:{index}:n")]])
    await reply(update, text, reply_markup=markup)
    _save_after(update, context)
    return QUESTION


async def _next_question(update: Update, context: ContextTypes.DEFAULT_TYPE,
                         who: Caller) -> str | int:
    """The next question of the member being entered (or of the entry, once its members are
    all in); when there is none, the next step."""
    contest = who.svc.contest
    draft = _draft(context)
    for_entry = _for_entry(draft)
    index = int(draft.get("question", 0))
    category_id = str(draft.get("category", ""))
    while index < len(contest.questions) and (
            contest.questions[index].per_entry != for_entry
            or not contest.questions[index].asks(category_id)):
        index += 1  # a question of the other kind, or not asked in this category
    draft["question"] = index
    if index < len(contest.questions):
        return await _ask(update, context, who, index, contest.questions[index])
    if for_entry:
        return await _after_questions(update, context, who)
    draft["members"] = list(draft.get("members", [])) + [draft["current"]]
    draft["current"] = {}
    category = contest.category(draft["category"])
    assert category is not None
    if len(draft["members"]) < category.fewest:
        await _ask_name(update, who, category, draft_members(draft))
        _save_after(update, context)
        return NAME
    if len(draft["members"]) < category.members:
        return await _ask_more(update, context, who, category)
    return await _after_members(update, context, who)


async def _ask_more(update: Update, context: ContextTypes.DEFAULT_TYPE, who: Caller,
                    category: Category) -> str:
    """Teams of varying size: another member, or that is the team."""
    n = len(_draft(context)["members"])
    await reply(update, tr(who.lang, "Members so far: {n} (this category takes {low} to {high}). "
                           "Another member?", n=n, low=category.fewest, high=category.members),
                reply_markup=_buttons([[(tr(who.lang, "Add member {n}", n=n + 1), "reg:more:y"),
                                        (tr(who.lang, "That is the whole team"),
                                         "reg:more:n")]]))
    _save_after(update, context)
    return MORE


async def more_members(update: Update, context: ContextTypes.DEFAULT_TYPE) -> str | int:
    data, who = await _pressed(update, context)
    if who is None:
        return ConversationHandler.END
    contest = who.svc.contest
    draft = _draft(context)
    category = contest.category(draft["category"])
    assert category is not None
    members = draft_members(draft)
    if data == "reg:more:y" and len(members) < category.members:
        await _ask_name(update, who, category, members)
        _save_after(update, context)
        return NAME
    # the team as it is: complete, so places "with an adult" are decided now
    problem = check_members(category, members, contest.date, complete=True)
    if problem is not None:
        await reply(update, ineligible_text(who.lang, problem, members[problem.member].name))
        return await _ask_more(update, context, who, category)
    return await _after_members(update, context, who)


async def _after_members(update: Update, context: ContextTypes.DEFAULT_TYPE,
                         who: Caller) -> str | int:
    """The members are all in: the questions asked once for the entry, then the meal. Before
    ``opens``, only an entry with a member (``members_if``) goes on."""
    draft = _draft(context)
    window = registration_window(who.svc.contest, who.at, draft_members(draft))
    if window is not None:
        await reply(update, closed_text(who.lang, who.svc.contest, window))
        _clear(context)
        _save_after(update, context)
        return ConversationHandler.END
    draft.update({"phase": "entry", "question": 0, "values": {}})
    return await _next_question(update, context, who)


async def _after_questions(update: Update, context: ContextTypes.DEFAULT_TYPE,
                           who: Caller) -> str | int:
    """The meal, asked once per person: someone who registered an entry before (still in)
    answered it then, and goes straight to the summary, which shows that answer and offers to
    add people."""
    contest = who.svc.contest
    if contest.meal is not None:
        earlier = await registrations(context).meal_asked_with(who.user_id, who.at)
        if not earlier:
            return await _ask_meal(update, context, who, adding=False)
        _draft(context)["meal_with"] = [[e.number, e.meal_adults, e.meal_children]
                                        for e in earlier]
    return await _show_summary(update, context, who)


async def _ask_meal(update: Update, context: ContextTypes.DEFAULT_TYPE, who: Caller,
                    adding: bool) -> str:
    """How many adults eat (0 to 8), or no meal at all in one tap. ``adding``: people added
    to a meal booked with an earlier entry."""
    meal = who.svc.contest.meal
    assert meal is not None
    cur = who.svc.contest.currency
    prices = {"adult": money(meal.adult, cur), "child": money(meal.child, cur)}
    if adding:
        text = tr(who.lang, "People to add to the meal ({adult} per adult, {child} per child). "
                  "How many adults?", **prices)
        none = tr(who.lang, "Add nobody")
    else:
        text = tr(who.lang, "Meal after the contest ({adult} per adult, {child} per child). "
                  "How many adults?", **prices)
        none = tr(who.lang, "No meal")
    keys = _count_buttons("ma")
    rows = [list(row) for row in keys.inline_keyboard]
    rows.append([InlineKeyboardButton(none, callback_data="reg:meal:no")])
    await reply(update, text, reply_markup=InlineKeyboardMarkup(rows))
    _save_after(update, context)
    return MEAL_ADULTS


async def no_meal(update: Update, context: ContextTypes.DEFAULT_TYPE) -> str | int:
    """"No meal" (or "Add nobody"): nobody from this entry eats, in one tap."""
    _, who = await _pressed(update, context)
    if who is None:
        return ConversationHandler.END
    _draft(context).update({"meal_adults": 0, "meal_children": 0})
    return await _show_summary(update, context, who)


async def add_to_meal(update: Update, context: ContextTypes.DEFAULT_TYPE) -> str | int:
    """The summary's "Add people to the meal", for a meal booked with an earlier entry."""
    _, who = await _pressed(update, context)
    if who is None:
        return ConversationHandler.END
    if who.svc.contest.meal is None or not _draft(context).get("meal_with"):
        return CONFIRM  # not a button this summary had
    return await _ask_meal(update, context, who, adding=True)


def _count_buttons(prefix: str) -> InlineKeyboardMarkup:
    numbers = [(str(n), f"reg:{prefix}:{n}") for n in range(MEAL_CHOICES)]
    return _buttons([numbers[:5], numbers[5:]])


async def _question_button(update: Update, context: ContextTypes.DEFAULT_TYPE
                           ) -> tuple[Caller | None, dict[str, Any], int | None, str]:
    """A question's button ``reg:X:{question}:{answer}``: who pressed, the draft, the
    question's index (None: an old button, or not one of ours) and the answer part."""
    data, who = await _pressed(update, context)
    draft = _draft(context) if who is not None else {}
    parts = data.split(":")
    index = parse_int(parts[2]) if len(parts) == 4 else None
    if index is not None and index != int(draft.get("question", 0)):
        index = None
    return who, draft, index, parts[3] if len(parts) == 4 else ""


async def answer_question(update: Update, context: ContextTypes.DEFAULT_TYPE) -> str | int:
    who, draft, index, yes = await _question_button(update, context)
    if who is None:
        return ConversationHandler.END
    if index is None:
        return QUESTION  # an old button (or not one of ours)
    q = who.svc.contest.questions[index]
    if not q.yes_no:
        return QUESTION
    if _for_entry(draft):
        draft.setdefault("values", {})[q.id] = "yes" if yes == "y" else "no"
    else:
        answers = [a for a in draft["current"].get("answers", []) if a != q.id]
        if yes == "y":
            answers.append(q.id)
        draft["current"]["answers"] = answers
    draft["question"] = index + 1
    return await _next_question(update, context, who)


def _keep(draft: dict[str, Any], q: Question, value: str) -> None:
    """A choice or text answer, the entry's or the member's being entered."""
    held = draft if _for_entry(draft) else draft["current"]
    held.setdefault("values", {})[q.id] = value


async def answer_choice(update: Update, context: ContextTypes.DEFAULT_TYPE) -> str | int:
    """A choice question's button: ``reg:c:{question}:{choice}`` (indices)."""
    who, draft, index, choice = await _question_button(update, context)
    if who is None:
        return ConversationHandler.END
    k = parse_int(choice)
    if index is None or k is None:
        return QUESTION  # an old button (or not one of ours)
    q = who.svc.contest.questions[index]
    if not 0 <= k < len(q.choices):
        return QUESTION
    category = _heats_question(who.svc.contest, draft, q)
    if category is not None:  # a heat's button shown before it began: refused, others offered
        at = button_moment(update, context) or who.at
        late = await registrations(context).too_late(category, at, {q.id: q.choices[k].id})
        if late is not None:
            await reply(update, heat_started_text(who.lang, who.svc.contest, late))
            if late.open_choices:
                return await _ask(update, context, who, index, q, at)
            _clear(context)
            _save_after(update, context)
            return ConversationHandler.END
    _keep(draft, q, q.choices[k].id)
    if draft.pop("resume", False):  # a heat chosen again after a refused confirmation
        return await _show_summary(update, context, who)
    draft["question"] = index + 1
    return await _next_question(update, context, who)


async def got_text_answer(update: Update, context: ContextTypes.DEFAULT_TYPE) -> str | int:
    """A text question's typed answer: one line, something visible, within its length, and
    without the separator the organisers' files put between members."""
    who = await caller(update, context)
    msg = update.effective_message
    if who is None or msg is None:
        return ConversationHandler.END
    draft = _draft(context)
    index = int(draft.get("question", 0))
    contest = who.svc.contest
    if index >= len(contest.questions) or contest.questions[index].kind != "text":
        return TEXT_ANSWER
    q = contest.questions[index]
    raw = (msg.text or "").strip()
    answer = clean_name(raw)
    if "\n" in raw or "\r" in raw:
        why = tr(who.lang, "Please write the answer on one line.")
    elif not name_key(answer) or len(answer) > q.max_length:
        why = tr(who.lang, "Please write an answer of 1 to {max} characters.", max=q.max_length)
    elif NAME_SEPARATOR in answer:
        why = tr(who.lang, "An answer cannot contain \"{sign}\": the organisers' files use it "
                 "between the members' answers.", sign=NAME_SEPARATOR)
    else:
        _keep(draft, q, answer)
        draft["question"] = index + 1
        return await _next_question(update, context, who)
    await reply(update, why + "\n" + q.asked(who.lang))
    return TEXT_ANSWER


async def meal_count(update: Update, context: ContextTypes.DEFAULT_TYPE) -> str | int:
    data, who = await _pressed(update, context)
    if who is None:
        return ConversationHandler.END
    parts = data.split(":")
    n = parse_int(parts[2]) if len(parts) == 3 else None
    if n is None or not 0 <= n < MEAL_CHOICES:
        # not one of the buttons offered: the question stands
        return MEAL_ADULTS if parts[1] == "ma" else MEAL_CHILDREN
    which = parts[1]
    draft = _draft(context)
    if which == "ma":
        draft["meal_adults"] = n
        await reply(update, tr(who.lang, "How many children for the meal?"),
                    reply_markup=_count_buttons("mc"))
        _save_after(update, context)
        return MEAL_CHILDREN
    draft["meal_children"] = n
    return await _show_summary(update, context, who)


async def _show_summary(update: Update, context: ContextTypes.DEFAULT_TYPE,
                        who: Caller) -> str | int:
    contest = who.svc.contest
    draft = _draft(context)
    category = contest.category(draft["category"])
    assert category is not None
    rows = [[(tr(who.lang, "Confirm"), "reg:ok"), (tr(who.lang, "Cancel"), "reg:no")]]
    if contest.meal is not None and draft.get("meal_with"):
        rows.append([(tr(who.lang, "Add people to the meal"), "reg:meal:add")])
    await reply(update, summary_text(who.lang, contest, category, draft),
                reply_markup=_buttons(rows))
    _save_after(update, context)
    return CONFIRM


async def confirm(update: Update, context: ContextTypes.DEFAULT_TYPE) -> str | int:
    data, who = await _pressed(update, context)
    if who is None:
        return ConversationHandler.END
    if data == "reg:no":
        return await cancelar(update, context)
    contest = who.svc.contest
    draft = _draft(context)
    category = contest.category(draft["category"])
    assert category is not None
    # The button press carries no date: stamped as every press is (common.button_moment), so
    # a summary kept open cannot register anyone after registration has closed.
    at = button_moment(update, context) or who.at
    async with recording(who.svc):
        out = await registrations(context).register(
            who.user_id, category, draft_members(draft), int(draft.get("meal_adults", 0)),
            int(draft.get("meal_children", 0)), at, None,
            values=tuple(draft.get("values", {}).items()),
        )
        if not isinstance(out, Registered):
            if isinstance(out, RegistrationShut):
                await reply(update, closed_text(who.lang, contest, out.window))
            elif isinstance(out, HeatStarted):
                await reply(update, heat_started_text(who.lang, contest, out))
            elif isinstance(out, AlreadyEntered):
                await reply(update, already_entered_text(who.lang, out))
            else:
                await reply(update, ineligible_text(who.lang, out.problem))
        else:
            await remember(update, context)
            await reply(update, await _registered_text(context, who, category, out))
            await schedule_lapse(context.application, out.number)
    if isinstance(out, HeatStarted) and out.open_choices:
        # the heat chosen began while the summary was open: choose a later one, then confirm
        by = category.rounds[0].heats_by
        index = next(i for i, q in enumerate(contest.questions) if q.id == by)
        draft.update({"phase": "entry", "question": index, "resume": True})
        return await _ask(update, context, who, index, contest.questions[index], at)
    _clear(context)
    _save_after(update, context)
    if not isinstance(out, Registered):
        return ConversationHandler.END
    _save_after(update, context)

    await refresh_menu(context, who.user_id)
    return ConversationHandler.END


async def _registered_text(context: ContextTypes.DEFAULT_TYPE, who: Caller, category: Category,
                           out: Registered) -> str:
    contest = who.svc.contest
    entry = await who.svc.store.entry(out.number)
    assert entry is not None
    lines = [place_text(who.lang, contest, out.number, out.place)]
    if category.members > 1:
        link = f"https://t.me/{context.bot.username}?start={entry.join_code}"
        lines.append(tr(who.lang, "Send this link to your partner so they can follow the "
                        "entry on their phone: {link}", link=link))
    lines.append(tr(who.lang, "Your entries and payments: /mis_inscripciones"))
    return "\n".join(lines)


def _clear(context: ContextTypes.DEFAULT_TYPE) -> None:
    if context.user_data is not None:
        context.user_data.pop("draft", None)


async def cancelar(update: Update, context: ContextTypes.DEFAULT_TYPE) -> int:
    who = await caller(update, context)
    _clear(context)
    if update.callback_query is not None and update.callback_query.data != "reg:no":
        await update.callback_query.answer()
    if who is not None:
        await reply(update, tr(who.lang, "Registration cancelled: nothing was recorded."))
    _save_after(update, context)
    return ConversationHandler.END


async def nothing_to_cancel(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await caller(update, context)
    if who is not None:
        await reply(update, tr(who.lang, "There is no registration in progress to cancel."))


async def timed_out(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    _clear(context)
    user = update.effective_user if isinstance(update, Update) else None
    if user is not None:
        svc = services(context)
        lang = await language_of(svc, user.id)
        await send(context, user.id, tr(lang, "Registration cancelled after {minutes} minutes "
                                        "without an answer. Send /inscribir to start again.",
                                        minutes=TIMEOUT_SECONDS // 60))


async def not_understood(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await caller(update, context)
    if who is not None:
        await reply(update, tr(who.lang, "Please use the buttons above, or /cancelar."))


def conversation() -> ConversationHandler[Any]:
    cancel = CommandHandler(names_for("cancelar"), cancelar)
    buttons_only = MessageHandler(filters.TEXT & ~filters.COMMAND, not_understood)
    with warnings.catch_warnings():
        # per_message=False is what we want (text answers and buttons in one conversation);
        # PTB warns that buttons are then tracked per chat, which is the point.
        warnings.simplefilter("ignore", PTBUserWarning)
        return _conversation(cancel, buttons_only)


class RegistrationConversation(ConversationHandler[Any]):
    """The registration conversation, asked about an update only when it could take it.

    Every update passes here first, and nearly all of them, on the day, are commands such as
    /pista or /fin. The only commands the conversation takes are its entry point and its
    fallback (its steps take button presses and plain text), so any other command is let
    through without looking the conversation up."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.commands = frozenset(names_for("inscribir")) | frozenset(names_for("cancelar"))

    def check_update(self, update: object) -> Any:
        msg = update.message if isinstance(update, Update) else None
        if msg is not None and msg.text and msg.entities:
            first = msg.entities[0]
            if first.type == MessageEntity.BOT_COMMAND and first.offset == 0:
                command = msg.text[1:first.length].split("@")[0].lower()
                if command not in self.commands:
                    return None
        return super().check_update(update)


def _conversation(cancel: CommandHandler[Any, Any],
                  buttons_only: MessageHandler[Any, Any]) -> ConversationHandler[Any]:
    return RegistrationConversation(
        entry_points=[CommandHandler(names_for("inscribir"), inscribir)],
        states={
            CATEGORY: [CallbackQueryHandler(pick_category, pattern=r"^reg:cat:"), buttons_only],
            NAME: [MessageHandler(filters.TEXT & ~filters.COMMAND, got_name)],
            BIRTH: [MessageHandler(filters.TEXT & ~filters.COMMAND, got_birth),
                    CallbackQueryHandler(switch_category, pattern=r"^reg:sw:[\w-]+\Z")],
            QUESTION: [CallbackQueryHandler(answer_question, pattern=r"^reg:q:"),
                       CallbackQueryHandler(answer_choice, pattern=r"^reg:c:\d+:\d+\Z"),
                       buttons_only],
            TEXT_ANSWER: [MessageHandler(filters.TEXT & ~filters.COMMAND, got_text_answer)],
            MORE: [CallbackQueryHandler(more_members, pattern=r"^reg:more:[yn]\Z"), buttons_only],
            MEAL_ADULTS: [CallbackQueryHandler(meal_count, pattern=r"^reg:ma:"),
                          CallbackQueryHandler(no_meal, pattern=r"^reg:meal:no\Z"), buttons_only],
            MEAL_CHILDREN: [CallbackQueryHandler(meal_count, pattern=r"^reg:mc:"),
                            buttons_only],
            CONFIRM: [CallbackQueryHandler(confirm, pattern=r"^reg:(ok|no)\Z"),
                      CallbackQueryHandler(add_to_meal, pattern=r"^reg:meal:add\Z"),
                      buttons_only],
            ConversationHandler.TIMEOUT: [MessageHandler(filters.ALL, timed_out),
                                          CallbackQueryHandler(timed_out)],
        },
        fallbacks=[cancel],
        allow_reentry=True,
        conversation_timeout=TIMEOUT_SECONDS,
        name="registration",
        persistent=True,
    )


# -- after registering -----------------------------------------------------------------------


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
    }[place.status]
    category = contest.category(entry.category)
    pay = tr(lang, "paid") if paid else tr(lang, "not paid")
    return labelled(lang, f"#{entry.number} {category.name if category else entry.category}",
                    f"{names(entry.names)} - {status} - {money(total, contest.currency)} ({pay})")


async def mis_inscripciones(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await caller(update, context)
    if who is None:
        return
    numbers = [e.number for e in who.roles.entries]
    if not numbers:
        await reply(update, tr(who.lang, "You have no entries yet. Register with /inscribir."))
        return
    contest = who.svc.contest
    lines = []
    for s in await registrations(context).statuses(who.at, numbers):
        lines.append(status_line(who.lang, contest, s.entry, s.place, s.fee.total,
                                 s.paid_at is not None))
        if s.place.status not in (Status.WITHDRAWN, Status.LAPSED) and \
                s.entry.source == "chat":
            category = contest.category(s.entry.category)
            if category is not None and category.members > 1:
                lines.append(tr(who.lang, "  partner's link: {link}",
                                link=f"https://t.me/{context.bot.username}?start="
                                     f"{s.entry.join_code}"))
    await reply(update, "\n".join(lines))


async def baja(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await caller(update, context)
    if who is None:
        return
    entries = list(who.roles.entries)
    if not entries:
        await refuse_role(update, who, "participant")
        return
    args = list(context.args or [])
    if args:
        number = parse_int(args[0])
        entry = next((e for e in entries if e.number == number), None)
        if entry is None:
            await reply(update, tr(who.lang, "You don't follow entry {entry}. Your entries: "
                                   "{list}.", entry=args[0][:12],
                                   list=", ".join(f"#{e.number}" for e in entries)))
            return
    elif len(entries) == 1:
        entry = entries[0]
    else:
        await reply(update, tr(who.lang, "Which entry? /baja N, with N one of {list}.",
                               list=", ".join(f"#{e.number}" for e in entries)))
        return
    stamp = int(who.at.timestamp())
    await reply(update, tr(who.lang, "Withdraw entry #{entry} ({names})? This can't be undone.",
                           entry=entry.number, names=names(entry.names)),
                reply_markup=_buttons([[
                    (tr(who.lang, "Yes, withdraw"), f"baja:y:{entry.number}:{stamp}"),
                    (tr(who.lang, "No"), f"baja:n:{entry.number}:{stamp}"),
                ]]))


async def baja_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    data, who = await _pressed(update, context)
    if who is None:
        return
    parts = data.split(":")
    number = parse_int(parts[2]) if len(parts) == 4 else None
    if number is None:
        return  # not a button of ours
    yes = parts[1]
    if number not in {e.number for e in who.roles.entries}:
        await refuse_role(update, who, "participant")
        return
    if yes != "y":
        await reply(update, tr(who.lang, "Nothing changed: entry #{entry} stays registered.",
                               entry=number))
        return
    # Stamped with the moment the question was shown (Telegram's date of that message: /baja
    # was just sent), never with data from the button itself.
    at = button_moment(update, context, await who.svc.day.linked_users(number))
    if at is None:
        return
    async with recording(who.svc):
        out = await registrations(context).withdraw(who.user_id, "participant", number, at,
                                                    None)
        if isinstance(out, AlreadyLapsed):
            await reply(update, place_text(who.lang, who.svc.contest, number,
                                           Place(number, Status.LAPSED)))
            return
        if not isinstance(out, Withdrawn):
            await reply(update, tr(who.lang, "Entry #{entry} was already withdrawn.",
                                   entry=number))
            return
        place = out.place
        if who.svc.contest.registration.refunds:
            refund = refund_text(who.lang, who.svc.contest, out)
        elif place.refundable and out.paid:
            refund = tr(who.lang, "What you paid will be refunded.")
        elif place.refundable:
            refund = tr(who.lang, "A refund is due under the contest's rules for anything you "
                        "paid.")
        else:
            refund = tr(who.lang, "Under the contest's rules, this withdrawal is not refunded.")
        await reply(update, tr(who.lang, "Entry #{entry} is withdrawn.", entry=number) + " "
                    + refund)
        await announce_changes(context.application, at)


def refund_text(lang: str, contest: Contest, out: Withdrawn) -> str:
    """What a withdrawal gets back under refunds that decrease as the contest approaches."""
    percent = out.place.refund_percent
    if percent == 0:
        return tr(lang, "Under the contest's rules, this withdrawal is not refunded.")
    if out.paid:
        return tr(lang, "Under the contest's rules you get back {percent} % of what you paid: "
                  "{amount}.", percent=percent, amount=money(out.refund, contest.currency))
    return tr(lang, "No payment is recorded for entry #{entry}: if you paid, {percent} % of it "
              "is refunded under the contest's rules.", entry=out.entry, percent=percent)


# -- organisers ------------------------------------------------------------------------------


def parse_day(text: str, contest: Contest) -> datetime | None:
    for fmt in ("%Y-%m-%d", "%d/%m/%Y", "%d-%m-%Y"):
        try:
            d = datetime.strptime(ascii_digits(text.strip()), fmt).date()
        except ValueError:
            continue
        if d.year not in YEARS:
            return None
        return datetime.combine(d, time(0), ZoneInfo(contest.timezone))
    return None


async def pagado(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await recorder(update, context, "organiser")
    if who is None:
        return
    contest = who.svc.contest
    args = list(context.args or [])
    number = parse_int(args[0]) if args else None
    if number is None or len(args) > 2:
        example = (contest_day_before(who.svc.contest)).isoformat()
        await show_usage(update, who, f"/pagado N [{example}]")
        return
    paid_at = who.at
    if len(args) == 2:
        day = parse_day(args[1], contest)
        if day is None or day > who.at:
            await reply(update, tr(who.lang, "I can't use the date {text}: write a past date "
                                   "like 2012-02-15.", text=args[1][:20]))
            return
        paid_at = day
    async with recording(who.svc):
        out = await registrations(context).pay(who.user_id, number, paid_at, who.at,
                                               update.update_id)
        if not isinstance(out, Paid):
            await reply(update, tr(who.lang, "There is no entry number {entry}.",
                                   entry=number))
            return
        day_paid = paid_at.astimezone(ZoneInfo(contest.timezone)).date()
        lines = [tr(who.lang, "Payment of entry #{entry} recorded on {day}.", entry=number,
                    day=date_text(who.lang, day_paid)),
                 place_text(who.lang, contest, number, out.place)]
        for entry, place in out.displaced:
            lines.append(displaced_note(who.lang, entry.number, entry.names,
                                        place.waiting_position
                                        if place.status is Status.WAITING else None))
        await reply(update, "\n".join(lines))
        # the entries it took the place of are told why, with their new place
        why = {entry.number: _lost_to(entry.number, number, day_paid)
               for entry, _ in out.displaced}
        await announce_changes(context.application, who.at, why)


def _lost_to(entry: int, by: int, day: date) -> Callable[[str], str]:
    return lambda lang: lost_place_text(lang, entry, by, date_text(lang, day))


async def inscritos(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await organiser(update, context)
    if who is None:
        return
    contest = who.svc.contest
    args = list(context.args or [])
    cats = list(contest.categories)
    if args:
        cat = contest.category(args[0].lower())
        if cat is None:
            await reply(update, tr(who.lang, "Unknown category. Categories: {ids}",
                                   ids=", ".join(c.id for c in contest.categories)))
            return
        cats = [cat]
    regs = registrations(context)
    lines = []
    shared = contest.registration.shared_capacity
    if shared is not None:
        places = await regs.places(who.at)
        confirmed = sum(1 for p in places.values() if p.status is Status.CONFIRMED)
        lines.append(tr(who.lang, "All categories: {taken} of {capacity} places taken.",
                        taken=confirmed, capacity=shared))
    for cat in cats:
        s = await regs.category_summary(cat, who.at)
        taken = s["taken"]
        assert isinstance(taken, list)
        line = labelled(who.lang, cat.name,
                        ntr(who.lang, "{n} confirmed", "{n} confirmed", len(taken)))
        free = s["free"]
        if isinstance(free, int):
            line += ", " + ntr(who.lang, "{n} free", "{n} free", free)
        if s["reserved_left"]:
            line += " " + tr(who.lang, "({reserved} of them only for local entries)",
                             reserved=s["reserved_left"])
        pending = s["pending"]
        assert isinstance(pending, list)
        if pending:
            line += ", " + ntr(who.lang, "{n} pending payment", "{n} pending payment",
                                   len(pending))
        lapsed = s["lapsed"]
        assert isinstance(lapsed, list)
        if lapsed:
            line += ", " + tr(who.lang, "{count} lapsed (not paid in time): {list}",
                              count=len(lapsed),
                              list=", ".join(f"#{x.entry.number}" for x in lapsed))
        lines.append(line)
        waiting = s["waiting"]
        assert isinstance(waiting, list)
        if shared is None:  # the category's own waiting list
            lines += [_waiting_line(who.lang, w) for w in waiting]
        refunds = s["refunds"]
        assert isinstance(refunds, list)
        if refunds and contest.registration.refunds:
            lines.append("  " + tr(who.lang, "Refunds due:"))
            for r in refunds:
                lines.append("  " + tr(who.lang, "#{entry} {names}: {amount} ({percent} % of "
                                       "{paid})", entry=r.entry.number,
                                       names=names(r.entry.names),
                                       amount=money(r.refund, contest.currency),
                                       percent=r.place.refund_percent,
                                       paid=money(r.fee.total, contest.currency)))
    if shared is not None:
        # one waiting list for every category: once, in its order, each with its category
        line_up = sorted((s for s in await regs.statuses(who.at)
                          if s.place.status in (Status.WAITING, Status.LEFT_OUT)),
                         key=lambda s: s.place.waiting_position or 0)
        if line_up:
            lines.append(tr(who.lang, "Waiting list (all categories):"))
            lines += [_waiting_line(who.lang, w, contest) for w in line_up]
    await reply(update, "\n".join(lines))


def _waiting_line(lang: str, w: EntryStatus, contest: Contest | None = None) -> str:
    """``  2. #31 Bea / Ben``, with its category's name on a list shared by all of them."""
    category = contest.category(w.entry.category) if contest is not None else None
    return (f"  {w.place.waiting_position}. #{w.entry.number} {names(w.entry.names)}"
            + (f" ({category.name})" if category is not None else "")
            + (" (" + tr(lang, "local entry") + ")" if w.entry.local else ""))


async def exportar(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await organiser(update, context)
    if who is None:
        return

    contest = who.svc.contest
    msg = update.effective_message
    assert msg is not None
    buf = io.StringIO()
    await export_entries(contest, who.svc.store, buf, registrations(context), who.at)
    await msg.reply_document(InputFile(io.BytesIO(buf.getvalue().encode("utf-8")),
                                       filename="entries.csv"),
                             caption=tr(who.lang, "Entries"), do_quote=True)
    buf = io.StringIO()
    await export_results(contest, who.svc.day, buf, at=who.at)
    await msg.reply_document(InputFile(io.BytesIO(buf.getvalue().encode("utf-8")),
                                       filename="results.csv"),
                             caption=tr(who.lang, "Results"), do_quote=True)

    book = xlsx({  # the entries, then one sheet per category's results
        tr(who.lang, "Entries"): await entry_rows(contest, who.svc.store,
                                                  registrations(context), who.at),
        **await results_by_category(contest, who.svc.day, who.at),
    }, Printable(contest, who.lang))  # a sheet to print: in the organiser's language
    await msg.reply_document(InputFile(book, filename="puzzlebot.xlsx"),
                             caption=tr(who.lang, "Entries and results (spreadsheet)"),
                             do_quote=True)


async def copia(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """An organiser's backup of the database, taken while the bot runs, sent as a document."""
    who = await organiser(update, context)
    if who is None:
        return
    msg = update.effective_message
    assert msg is not None
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "backup.sqlite3"
        await who.svc.store.backup_to(path)
        stamp = who.at.astimezone(ZoneInfo(who.svc.contest.timezone)).strftime("%Y%m%d-%H%M")
        await msg.reply_document(InputFile(path.read_bytes(),
                                           filename=f"puzzlebot-{stamp}.sqlite3"),
                                 caption=tr(who.lang, "Backup of the database ({when}).",
                                            when=moment_text(who.lang, who.svc.contest,
                                                             who.at)), do_quote=True)


# -- announcements ---------------------------------------------------------------------------


async def registration_job(context: CallbackContext[Any, Any, Any, Any]) -> None:
    """A reserved quota is released, registrations close or an entry lapses for want of
    payment: places may change by themselves."""

    job = context.job
    assert job is not None and isinstance(job.data, dict)
    moment = datetime.fromtimestamp(job.data["when"], UTC)
    await announce_changes(context.application, moment)
    if job.data["name"] == "closing":
        await closing_report(context.application, moment)


def _lapse_job(app: Application[Any, Any, Any, Any, Any, Any], number: int,
               moment: datetime) -> None:
    name = f"lapse:{number}"
    replace_job(app, name, registration_job, moment, {"name": name, "when": moment.timestamp()})


async def schedule_lapse(app: Application[Any, Any, Any, Any, Any, Any], number: int) -> None:
    """The moment entry ``number`` lapses unless paid (``pay_within``), as a job."""
    regs: Registrations = app.bot_data["registrations"]
    moment = await regs.lapse_of(number)
    if moment is not None:
        _lapse_job(app, number, moment)


async def schedule_lapses(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """Every lapse still to come is a job at its moment. Those already past (the bot was off)
    are announced once, now: run at their own moments, one after the other, they would tell
    people places they have had since, out of order."""
    regs: Registrations | None = app.bot_data.get("registrations")
    if regs is None:
        return
    now = CLOCK.now()
    past = False
    for number, moment in await regs.lapse_moments():
        if moment > now:
            _lapse_job(app, number, moment)
        else:
            past = True
    if past:
        replace_job(app, "lapses", registration_job, now,
                    {"name": "lapses", "when": now.timestamp()})


async def announce_changes(app: Any, now: datetime,
                           why: Mapping[int, Callable[[str], str]] | None = None) -> None:
    """Tell people whose place changed (promoted from the waiting list, left out at closing,
    moved on the waiting list): one message per entry and change. ``why``: per entry, the
    reason to give first (in the person's language), e.g. the payment it lost its place to."""
    regs: Registrations = app.bot_data["registrations"]
    svc = app.bot_data["services"]
    contest = svc.contest
    # each status change recorded with the messages telling it (in the caller's operation
    # when there is one: a withdrawal and the place it frees commit together)
    async with recording(svc):
        told = await regs.announced()
        for entry, place in await regs.changes(now):
            before, position = regs.told_place(told.get(entry.number))
            reason = (why or {}).get(entry.number)
            for user_id in await regs.recipients(entry.number):
                lang = await language_of(svc, user_id)
                if place.status is Status.CONFIRMED and \
                        before in (Status.PENDING_PAYMENT.value, Status.LAPSED.value):
                    text = tr(lang, "Payment received: entry #{entry} has a confirmed place.",
                              entry=entry.number)
                elif place.status is Status.CONFIRMED:
                    text = tr(lang, "Good news: a place freed up and entry #{entry} now has a "
                              "confirmed place.", entry=entry.number)
                elif place.status is Status.WAITING and before == Status.WAITING.value and \
                        position is not None and place.waiting_position is not None:
                    text = waiting_move_text(lang, entry.number, position,
                                             place.waiting_position)
                else:
                    text = place_text(lang, contest, entry.number, place)
                if reason is not None:
                    text = reason(lang) + "\n" + text
                await post_text(app.bot, user_id, text, PRIORITY_BULK)
            await regs.record_status(entry.number, place, now)


async def closing_report(app: Any, now: datetime) -> None:
    """At the closing time: the organisers get the entries left out and owed a refund."""
    regs: Registrations = app.bot_data["registrations"]
    svc = app.bot_data["services"]
    async with recording(svc) as tx:
        if await tx.has_ref("closing_report", "closing"):
            return
        await _closing_report(app, svc, regs, now)
        await tx.add_event(at=now, kind="closing_report", role="system", ref="closing")


async def _closing_report(app: Any, svc: Services, regs: Registrations, now: datetime) -> None:
    left_out = [s for s in await regs.statuses(now) if s.place.status is Status.LEFT_OUT]
    contest = svc.contest
    for organiser_id in sorted(await svc.day.all_organisers()):
        if await svc.store.person(organiser_id) is None:
            continue
        lang = await language_of(svc, organiser_id)
        lines = [tr(lang, "Registrations are closed. Entries left without a place, to be "
                    "refunded ({when}):", when=contest.registration.left_out_refund or "-")]
        for s in left_out:
            lines.append(labelled(lang, f"#{s.entry.number} {names(s.entry.names)}",
                                  money(s.fee.total, contest.currency)))
        if not left_out:
            lines.append(tr(lang, "None: every paid entry has a place."))
        await post_text(app.bot, organiser_id, "\n".join(lines), PRIORITY_COPY)
