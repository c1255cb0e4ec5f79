"""The registration conversation's questions: each posts one (with its buttons) and returns
the state that waits for its answer; ``bot.handlers.registration`` takes the answers."""

from __future__ import annotations

from datetime import datetime

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import ContextTypes, ConversationHandler

from bot.domain.contest import Category, Contest, Question
from bot.domain.registration import Member
from bot.handlers.common import Caller, buttons, registrations, reply
from bot.handlers.draft import Draft
from bot.support.i18n import tr
from bot.texts.common import labelled
from bot.texts.registration import heat_started_text, meal_prompt, name_prompt, summary_text

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


async def ask_name(update: Update, who: Caller, category: Category,
                   members: list[Member]) -> str:
    await reply(update, name_prompt(who.lang, who.svc.contest, category, members))
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
        await reply(update, text + "\n" + tr(who.lang, "(Write the answer: one line, at most "
                                               "{max} characters.)", max=q.max_length))
        return TEXT_ANSWER
    if q.kind != "choice":
        await reply(update, text, reply_markup=buttons([[(tr(who.lang, "Yes"), f"reg:q:{index}:y"),
                                                         (tr(who.lang, "No"),
                                                          f"reg:q:{index}:n")]]))
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
            await reply(update, heat_started_text(who.lang, who.svc.contest, late))
            draft.discard()
            return ConversationHandler.END
    choices = [(c.shown(who.lang), f"reg:c:{index}:{k}") for k, c in offered]
    await reply(update, text, reply_markup=buttons([choices[i:i + CHOICES_PER_ROW]
                                                    for i in range(0, len(choices),
                                                                   CHOICES_PER_ROW)]))
    return QUESTION


async def ask_more(update: Update, who: Caller, draft: Draft, category: Category) -> str:
    """Teams of varying size: another member, or that is the team."""
    n = len(draft.members)
    await reply(update, tr(who.lang, "Members so far: {n} (this category takes {low} to {high}). "
                           "Another member?", n=n, low=category.fewest, high=category.members),
                reply_markup=buttons([[(tr(who.lang, "Add member {n}", n=n + 1), "reg:more:y"),
                                       (tr(who.lang, "That is the whole team"),
                                        "reg:more:n")]]))
    return MORE


async def ask_meal(update: Update, who: Caller, adding: bool) -> str:
    """How many adults eat (0 to 8), or no meal at all in one tap."""
    text, none = meal_prompt(who.lang, who.svc.contest, adding)
    keys = count_buttons("ma")
    rows = [list(row) for row in keys.inline_keyboard]
    rows.append([InlineKeyboardButton(none, callback_data="reg:meal:no")])
    await reply(update, text, reply_markup=InlineKeyboardMarkup(rows))
    return MEAL_ADULTS


def count_buttons(prefix: str) -> InlineKeyboardMarkup:
    numbers = [(str(n), f"reg:{prefix}:{n}") for n in range(MEAL_CHOICES)]
    return buttons([numbers[:5], numbers[5:]])


async def show_summary(update: Update, who: Caller, draft: Draft) -> str:
    contest = who.svc.contest
    rows = [[(tr(who.lang, "Confirm"), "reg:ok"), (tr(who.lang, "Cancel"), "reg:no")]]
    if contest.meal is not None and draft.meal_with:
        rows.append([(tr(who.lang, "Add people to the meal"), "reg:meal:add")])
    await reply(update, summary_text(who.lang, contest, category_of(contest, draft),
                                     draft.member_list(), draft.values or {},
                                     (draft.meal_adults or 0, draft.meal_children or 0),
                                     draft.meal_with),
                reply_markup=buttons(rows))
    return CONFIRM
