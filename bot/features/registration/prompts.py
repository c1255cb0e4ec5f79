"""The registration conversation's questions: each posts one (with its buttons) and returns
the state that waits for its answer; ``bot.features.registration.handlers`` takes the answers."""

from __future__ import annotations

from datetime import datetime

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import ContextTypes, ConversationHandler

from bot.delivery.answers import answer_now
from bot.domain.contest import Category, Contest, Question
from bot.domain.places import PARTNERS
from bot.features.partners.rules import rules_of
from bot.features.registration.draft import Draft
from bot.features.registration.rules import Member
from bot.features.registration.texts import (
    alone_label,
    heat_started_text,
    meal_prompt,
    more_members_prompt,
    name_prompt,
    seeking_summary_line,
    summary_labels,
    summary_text,
    text_answer_hint,
    yes_no_labels,
)
from bot.handlers.common import Caller, buttons, registrations
from bot.texts.common import labelled

CATEGORY, NAME, BIRTH, QUESTION, MORE, MEAL_ADULTS, MEAL_CHILDREN, CONFIRM = (
    "category", "name", "birth", "question", "more", "meal_adults", "meal_children", "confirm",
)
TEXT_ANSWER = "text_answer"  # a text question waits for the typed answer
CHOICES_PER_ROW = 3

MEAL_CHOICES = 9  # 0..8 people


def category_of(contest: Contest, draft: Draft) -> Category:
    category = contest.category(draft.category or "")
    assert category is not None
    return category


ALONE = "reg:alone"  # the button: no partner yet, find me one (``bot/features/partners``)


def may_seek(contest: Contest, category: Category, members: list[Member]) -> bool:
    """Whether the person entering ``members`` may stop here and ask to be matched with a
    partner: the contest matches partners (``[partners]``) and the entry has some of its
    members but fewer than the category takes."""
    return (contest.settings(PARTNERS) is not None
            and 1 <= len(members) < category.fewest)


async def ask_name(update: Update, who: Caller, category: Category,
                   members: list[Member]) -> str:
    """The next member's name; with ``[partners]``, from the second on, a button to register
    the entry alone and be matched with a partner."""
    contest = who.svc.contest
    markup = (buttons([[(alone_label(who.lang), ALONE)]])
              if may_seek(contest, category, members) else None)
    await answer_now(who.svc, update, name_prompt(who.lang, contest, category, members),
                     reply_markup=markup)
    return NAME


def heats_question(contest: Contest, draft: Draft, q: Question) -> Category | None:
    """The draft's category when ``q`` is the question its first round's heats go by."""
    category = contest.category(draft.category or "")
    if category is not None and category.rounds and category.rounds[0].heats_by == q.id:
        return category
    return None


async def ask(update: Update, context: ContextTypes.DEFAULT_TYPE, who: Caller, draft: Draft,
              index: int, q: Question, at: datetime | None = None) -> str | int:
    """Question ``index``: yes/no or choice buttons, or a typed answer for a text question.
    The question a first round's heats go by offers only the heats still to come at ``at``
    (default: when the person wrote)."""
    text = q.asked(who.lang)
    if not draft.for_entry:
        assert draft.current is not None
        text = labelled(who.lang, draft.current.name, text)
    if q.kind == "text":
        await answer_now(who.svc, update, text + "\n" + text_answer_hint(who.lang, q))
        return TEXT_ANSWER
    if q.kind != "choice":
        yes, no = yes_no_labels(who.lang)
        await answer_now(who.svc, update, text, reply_markup=buttons(
            [[(yes, f"reg:q:{index}:y"), (no, f"reg:q:{index}:n")]]))
        return QUESTION
    offered = list(enumerate(q.choices))
    category = heats_question(who.svc.contest, draft, q)
    if category is not None:
        regs = registrations(context)
        moment = at or who.at
        still = set(await regs.open_choices(category, moment))
        offered = [(k, c) for k, c in offered if c.id in still]
        late = await regs.too_late(category, moment) if not offered else None
        if late is not None:
            await answer_now(who.svc, update, heat_started_text(who.lang, who.svc.contest, late))
            draft.discard()
            return ConversationHandler.END
    choices = [(c.shown(who.lang), f"reg:c:{index}:{k}") for k, c in offered]
    await answer_now(who.svc, update, text, reply_markup=buttons(
        [choices[i:i + CHOICES_PER_ROW] for i in range(0, len(choices), CHOICES_PER_ROW)]))
    return QUESTION


async def ask_more(update: Update, who: Caller, draft: Draft, category: Category) -> str:
    """Teams of varying size: another member, or that is the team."""
    n = len(draft.members)
    question, more, whole = more_members_prompt(who.lang, category, n)
    await answer_now(who.svc, update, question,
                     reply_markup=buttons([[(more, "reg:more:y"), (whole, "reg:more:n")]]))
    return MORE


async def ask_meal(update: Update, who: Caller, adding: bool) -> str:
    """How many adults eat (0 to 8), or no meal at all in one tap."""
    text, none = meal_prompt(who.lang, who.svc.contest, adding)
    keys = count_buttons("ma")
    rows = [list(row) for row in keys.inline_keyboard]
    rows.append([InlineKeyboardButton(none, callback_data="reg:meal:no")])
    await answer_now(who.svc, update, text, reply_markup=InlineKeyboardMarkup(rows))
    return MEAL_ADULTS


def count_buttons(prefix: str) -> InlineKeyboardMarkup:
    numbers = [(str(n), f"reg:{prefix}:{n}") for n in range(MEAL_CHOICES)]
    return buttons([numbers[:5], numbers[5:]])


async def show_summary(update: Update, who: Caller, draft: Draft) -> str:
    contest = who.svc.contest
    ok, cancel, add = summary_labels(who.lang)
    rows = [[(ok, "reg:ok"), (cancel, "reg:no")]]
    if contest.meal is not None and draft.meal_with:
        rows.append([(add, "reg:meal:add")])
    text = summary_text(who.lang, contest, category_of(contest, draft), draft.member_list(),
                        draft.values or {}, (draft.meal_adults or 0, draft.meal_children or 0),
                        draft.meal_with)
    if draft.seeking:
        rules = rules_of(contest)
        text += "\n" + seeking_summary_line(who.lang, rules is not None and rules.self_service)
    await answer_now(who.svc, update, text, reply_markup=buttons(rows))
    return CONFIRM
