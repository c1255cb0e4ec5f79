"""Registration in the chat: the /inscribir conversation.

The conversation is a python-telegram-bot ConversationHandler whose state and draft are kept by
``bot.chat.persistence.SQLitePersistence``; every step is wrapped by ``draft.step``,
which writes the draft back and has it flushed after the step, so a restart resumes it.
"""

from __future__ import annotations

import warnings
from dataclasses import replace
from typing import Any

from telegram import MessageEntity, Update
from telegram.ext import (
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    ConversationHandler,
    MessageHandler,
    filters,
)
from telegram.warnings import PTBUserWarning

from bot.delivery.answers import answer, answer_now, recording
from bot.delivery.posting import send
from bot.delivery.services import language_of, services
from bot.domain.contest import Category
from bot.features.payments.handlers import schedule_hold
from bot.features.payments.operations import in_chat, owe_invoice
from bot.features.payments.rules import hold_of
from bot.features.registration.card import entry_card
from bot.features.registration.day import HeatStarted, Registered
from bot.features.registration.draft import Draft, MemberDraft, step
from bot.features.registration.names import CANCEL, REGISTER, REGISTER_BUTTON
from bot.features.registration.prompts import (
    ALONE,
    BIRTH,
    CATEGORY,
    CONFIRM,
    MEAL_ADULTS,
    MEAL_CHILDREN,
    MEAL_CHOICES,
    MORE,
    NAME,
    QUESTION,
    TEXT_ANSWER,
    ask,
    ask_meal,
    ask_more,
    ask_name,
    category_of,
    count_buttons,
    heats_question,
    may_seek,
    show_summary,
)
from bot.features.registration.rules import (
    Ineligible,
    Member,
    birth_in_range,
    check_members,
    clean_name,
    fitting_categories,
    name_problem,
    parse_birth,
    registration_window,
)
from bot.features.registration.texts import (
    all_begun_text,
    alone_refused_text,
    birth_prompt,
    cancelled_text,
    category_label,
    category_text,
    children_prompt,
    closed_text,
    heat_started_text,
    ineligible_text,
    name_problem_text,
    nothing_to_cancel_text,
    refusal_text,
    refused_birth_lines,
    registered_text,
    stale_button_text,
    switch_label,
    text_answer_problem,
    timed_out_text,
    unreadable_birth_text,
    use_buttons_text,
    which_category_text,
)
from bot.handlers.commands import names_for
from bot.handlers.common import (
    Caller,
    button_moment,
    buttons,
    caller,
    parse_int,
    pressed,
    registrations,
    remember,
)
from bot.handlers.jobs import schedule_lapse
from bot.handlers.menus import refresh_menu

TIMEOUT_SECONDS = 15 * 60


async def stale_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A registration button from a step that is over: answer it, so the phone stops waiting."""
    query = update.callback_query
    assert query is not None
    who = await caller(update, context)
    lang = who.lang if who is not None else "es"
    await query.answer(stale_button_text(lang))


async def inscribir(update: Update, context: ContextTypes.DEFAULT_TYPE,
                    draft: Draft) -> str | int:
    who = await caller(update, context)
    if who is None:
        return ConversationHandler.END
    if update.callback_query is not None:  # /start's Register button: when it was pressed
        await update.callback_query.answer()
        who = replace(who, at=button_moment(update, context) or who.at)
    contest = who.svc.contest

    window = registration_window(contest, who.at)
    if window is not None:
        await answer_now(who.svc, update, closed_text(who.lang, contest, window))
        return ConversationHandler.END
    # a category whose first round has begun (every heat, where heats are chosen) takes no
    # more entries: it is not offered
    regs = registrations(context)
    joinable = [c for c in contest.categories if await regs.too_late(c, who.at) is None]
    if not joinable:
        await answer_now(who.svc, update, all_begun_text(who.lang))
        return ConversationHandler.END
    draft.restart(int(who.at.timestamp()))
    rows = [[(category_label(who.lang, contest, c), f"reg:cat:{c.id}")] for c in joinable]
    await answer_now(who.svc, update, which_category_text(who.lang), reply_markup=buttons(rows))
    return CATEGORY


async def pick_category(update: Update, context: ContextTypes.DEFAULT_TYPE,
                        draft: Draft) -> str | int:
    data, who = await pressed(update, context)
    if who is None:
        return ConversationHandler.END
    category = who.svc.contest.category(data.split(":", 2)[2])
    if category is None:
        return CATEGORY
    late = await registrations(context).too_late(
        category, button_moment(update, context) or who.at)
    if late is not None:  # a list shown before its first round began
        await answer_now(who.svc, update, heat_started_text(who.lang, who.svc.contest, late))
        return CATEGORY
    draft.category, draft.members, draft.current = category.id, [], None
    return await ask_name(update, who, category, [])


async def got_name(update: Update, context: ContextTypes.DEFAULT_TYPE,
                   draft: Draft) -> str | int:
    who = await caller(update, context)
    msg = update.effective_message
    if who is None or msg is None:
        return ConversationHandler.END
    name = clean_name(msg.text or "")
    problem = name_problem(name)
    if problem is not None:
        await answer_now(who.svc, update, name_problem_text(who.lang, problem))
        return NAME
    draft.current = MemberDraft(name)
    await answer_now(who.svc, update, birth_prompt(who.lang, category_of(who.svc.contest, draft),
                                                   name))
    return BIRTH


async def got_birth(update: Update, context: ContextTypes.DEFAULT_TYPE,
                    draft: Draft) -> str | int:
    who = await caller(update, context)
    msg = update.effective_message
    if who is None or msg is None:
        return ConversationHandler.END
    contest = who.svc.contest
    category = category_of(contest, draft)
    parsed = parse_birth(msg.text or "", category.checks_age)
    if parsed is None or not birth_in_range(parsed[1], contest.date):
        await answer_now(who.svc, update, unreadable_birth_text(who.lang, category))
        return BIRTH
    current = draft.current or MemberDraft("")
    current = MemberDraft(current.name, list(current.answers), parsed[0], parsed[1],
                          dict(current.values))
    candidate = draft.member_list() + [current.member()]
    problem = check_members(category, candidate, contest.date,
                            complete=len(candidate) == category.members)
    if problem is not None:
        draft.refused = current  # kept for a switch of category
        await _refuse_birth(update, who, category, candidate, problem)
        return BIRTH
    draft.refused = None
    return await _member_entered(update, context, who, draft, current)


async def _member_entered(update: Update, context: ContextTypes.DEFAULT_TYPE, who: Caller,
                          draft: Draft, current: MemberDraft) -> str | int:
    """The member being entered has a birth that fits: their questions next."""
    draft.current, draft.question, draft.phase = current, 0, "member"
    return await _next_question(update, context, who, draft)


async def _refuse_birth(update: Update, who: Caller, category: Category,
                        candidate: list[Member], problem: Ineligible) -> None:
    """Why the birth does not fit, and the categories where everything typed fits, each a
    button (a switch keeps it all)."""
    lang, contest = who.lang, who.svc.contest
    fits = fitting_categories(contest, category, candidate, contest.date)
    lines = refused_birth_lines(lang, contest, category, candidate, problem, fits)
    markup = buttons([[(switch_label(lang, contest, c), f"reg:sw:{c.id}")]
                      for c in fits]) if fits else None
    await answer_now(who.svc, update, "\n".join(lines), reply_markup=markup)


async def switch_category(update: Update, context: ContextTypes.DEFAULT_TYPE,
                          draft: Draft) -> str | int:
    """``reg:sw:{category}`` after a refused birth: the entry goes on in that category with
    everything typed (the members, their answers, the birth refused)."""
    data, who = await pressed(update, context)
    if who is None:
        return ConversationHandler.END
    contest = who.svc.contest
    category = contest.category(draft.category or "")
    target = contest.category(data.split(":", 2)[2])
    refused = draft.refused
    if category is None or target is None or refused is None:
        return BIRTH  # an old button
    candidate = draft.member_list() + [refused.member()]
    if target.id not in {c.id for c in fitting_categories(contest, category, candidate,
                                                           contest.date)}:
        return BIRTH  # not one offered for what is typed now
    draft.category, draft.refused = target.id, None
    await answer_now(who.svc, update, category_text(who.lang, target))
    return await _member_entered(update, context, who, draft, refused)


async def _next_question(update: Update, context: ContextTypes.DEFAULT_TYPE, who: Caller,
                         draft: Draft) -> str | int:
    """The next question of the member being entered (or of the entry, once its members are
    all in); when there is none, the next step."""
    contest = who.svc.contest
    index = draft.question
    category_id = draft.category or ""
    while index < len(contest.questions) and (
            contest.questions[index].per_entry != draft.for_entry
            or not contest.questions[index].asks(category_id)):
        index += 1  # a question of the other kind, or not asked in this category
    draft.question = index
    if index < len(contest.questions):
        return await ask(update, context, who, draft, index, contest.questions[index])
    if draft.for_entry:
        return await _after_questions(update, context, who, draft)
    assert draft.current is not None
    draft.members.append(draft.current)
    draft.current = None
    category = category_of(contest, draft)
    if len(draft.members) < category.fewest:
        return await ask_name(update, who, category, draft.member_list())
    if len(draft.members) < category.members:
        return await ask_more(update, who, draft, category)
    return await _after_members(update, context, who, draft)


async def more_members(update: Update, context: ContextTypes.DEFAULT_TYPE,
                       draft: Draft) -> str | int:
    data, who = await pressed(update, context)
    if who is None:
        return ConversationHandler.END
    contest = who.svc.contest
    category = category_of(contest, draft)
    members = draft.member_list()
    if data == "reg:more:y" and len(members) < category.members:
        return await ask_name(update, who, category, members)
    # the team as it is: complete, so places "with an adult" are decided now
    problem = check_members(category, members, contest.date, complete=True)
    if problem is not None:
        await answer_now(who.svc, update, ineligible_text(who.lang, problem,
                                                          members[problem.member].name))
        return await ask_more(update, who, draft, category)
    return await _after_members(update, context, who, draft)


async def alone(update: Update, context: ContextTypes.DEFAULT_TYPE, draft: Draft) -> str | int:
    """"I have no partner: find me one" under the next member's name (``[partners]``): the
    entry goes on with the members entered so far, registered looking for a partner."""
    _, who = await pressed(update, context)
    if who is None:
        return ConversationHandler.END
    contest = who.svc.contest
    category = category_of(contest, draft)
    if draft.for_entry or draft.current is not None or not may_seek(
            contest, category, draft.member_list()):
        await answer_now(who.svc, update, alone_refused_text(who.lang))
        return NAME
    draft.seeking = True
    return await _after_members(update, context, who, draft)


async def _after_members(update: Update, context: ContextTypes.DEFAULT_TYPE, who: Caller,
                         draft: Draft) -> str | int:
    """The members are all in: the questions asked once for the entry, then the meal. Before
    ``opens``, only an entry with a member (``members_if``) goes on."""
    window = registration_window(who.svc.contest, who.at, draft.member_list())
    if window is not None:
        await answer_now(who.svc, update, closed_text(who.lang, who.svc.contest, window))
        draft.discard()
        return ConversationHandler.END
    draft.phase, draft.question, draft.values = "entry", 0, {}
    return await _next_question(update, context, who, draft)


async def _after_questions(update: Update, context: ContextTypes.DEFAULT_TYPE, who: Caller,
                           draft: Draft) -> str | int:
    """The meal, asked once per person: someone who registered an entry before (still in)
    answered it then, and goes straight to the summary, which shows that answer and offers to
    add people."""
    contest = who.svc.contest
    if contest.meal is not None:
        earlier = await registrations(context).meal_asked_with(who.user_id, who.at)
        if not earlier:
            return await ask_meal(update, who, adding=False)
        draft.meal_with = [[e.number, e.meal_adults, e.meal_children] for e in earlier]
    return await show_summary(update, who, draft)


async def no_meal(update: Update, context: ContextTypes.DEFAULT_TYPE, draft: Draft) -> str | int:
    """"No meal" (or "Add nobody"): nobody from this entry eats, in one tap."""
    _, who = await pressed(update, context)
    if who is None:
        return ConversationHandler.END
    draft.meal_adults, draft.meal_children = 0, 0
    return await show_summary(update, who, draft)


async def add_to_meal(update: Update, context: ContextTypes.DEFAULT_TYPE,
                      draft: Draft) -> str | int:
    """The summary's "Add people to the meal", for a meal booked with an earlier entry."""
    _, who = await pressed(update, context)
    if who is None:
        return ConversationHandler.END
    if who.svc.contest.meal is None or not draft.meal_with:
        return CONFIRM  # not a button this summary had
    return await ask_meal(update, who, adding=True)


async def _question_button(update: Update, context: ContextTypes.DEFAULT_TYPE, draft: Draft
                           ) -> tuple[Caller | None, int | None, str]:
    """A question's button ``reg:X:{question}:{answer}``: who pressed, the question's index
    (None: an old button, or not one of ours) and the answer part."""
    data, who = await pressed(update, context)
    parts = data.split(":")
    index = parse_int(parts[2]) if len(parts) == 4 else None
    if index is not None and index != draft.question:
        index = None
    return who, index, parts[3] if len(parts) == 4 else ""


async def answer_question(update: Update, context: ContextTypes.DEFAULT_TYPE,
                          draft: Draft) -> str | int:
    who, index, yes = await _question_button(update, context, draft)
    if who is None:
        return ConversationHandler.END
    if index is None:
        return QUESTION  # an old button (or not one of ours)
    q = who.svc.contest.questions[index]
    if not q.yes_no:
        return QUESTION
    if draft.for_entry:
        draft.answers()[q.id] = "yes" if yes == "y" else "no"
    else:
        assert draft.current is not None
        answers = [a for a in draft.current.answers if a != q.id]
        if yes == "y":
            answers.append(q.id)
        draft.current.answers = answers
    draft.question = index + 1
    return await _next_question(update, context, who, draft)


async def answer_choice(update: Update, context: ContextTypes.DEFAULT_TYPE,
                        draft: Draft) -> str | int:
    """A choice question's button: ``reg:c:{question}:{choice}`` (indices)."""
    who, index, choice = await _question_button(update, context, draft)
    if who is None:
        return ConversationHandler.END
    k = parse_int(choice)
    if index is None or k is None:
        return QUESTION  # an old button (or not one of ours)
    q = who.svc.contest.questions[index]
    if not 0 <= k < len(q.choices):
        return QUESTION
    category = heats_question(who.svc.contest, draft, q)
    if category is not None:  # a heat's button shown before it began: refused, others offered
        at = button_moment(update, context) or who.at
        late = await registrations(context).too_late(category, at, {q.id: q.choices[k].id})
        if late is not None:
            await answer_now(who.svc, update, heat_started_text(who.lang, who.svc.contest, late))
            if late.open_choices:
                return await ask(update, context, who, draft, index, q, at)
            draft.discard()
            return ConversationHandler.END
    draft.answers()[q.id] = q.choices[k].id
    if draft.resume:  # a heat chosen again after a refused confirmation
        draft.resume = False
        return await show_summary(update, who, draft)
    draft.question = index + 1
    return await _next_question(update, context, who, draft)


async def got_text_answer(update: Update, context: ContextTypes.DEFAULT_TYPE,
                          draft: Draft) -> str | int:
    """A text question's typed answer (``text_answer_problem`` says what is taken)."""
    who = await caller(update, context)
    msg = update.effective_message
    if who is None or msg is None:
        return ConversationHandler.END
    index = draft.question
    contest = who.svc.contest
    if index >= len(contest.questions) or contest.questions[index].kind != "text":
        return TEXT_ANSWER
    q = contest.questions[index]
    raw = (msg.text or "").strip()
    answer = clean_name(raw)
    why = text_answer_problem(who.lang, q, raw, answer)
    if why is None:
        draft.answers()[q.id] = answer
        draft.question = index + 1
        return await _next_question(update, context, who, draft)
    await answer_now(who.svc, update, why + "\n" + q.asked(who.lang))
    return TEXT_ANSWER


async def meal_count(update: Update, context: ContextTypes.DEFAULT_TYPE,
                     draft: Draft) -> str | int:
    data, who = await pressed(update, context)
    if who is None:
        return ConversationHandler.END
    parts = data.split(":")
    n = parse_int(parts[2]) if len(parts) == 3 else None
    if n is None or not 0 <= n < MEAL_CHOICES:
        # not one of the buttons offered: the question stands
        return MEAL_ADULTS if parts[1] == "ma" else MEAL_CHILDREN
    if parts[1] == "ma":
        draft.meal_adults = n
        await answer_now(who.svc, update, children_prompt(who.lang),
                         reply_markup=count_buttons("mc"))
        return MEAL_CHILDREN
    draft.meal_children = n
    return await show_summary(update, who, draft)


async def confirm(update: Update, context: ContextTypes.DEFAULT_TYPE, draft: Draft) -> str | int:
    data, who = await pressed(update, context)
    if who is None:
        return ConversationHandler.END
    if data == "reg:no":
        return await cancelar(update, context, draft)
    contest = who.svc.contest
    category = category_of(contest, draft)
    # The button press carries no date: stamped as every press is (common.button_moment), so
    # a summary kept open cannot register anyone after registration has closed.
    at = button_moment(update, context) or who.at
    async with recording(who.svc):
        out = await registrations(context).register(
            who.user_id, category, draft.member_list(), draft.meal_adults or 0,
            draft.meal_children or 0, at, None, values=tuple((draft.values or {}).items()),
            hold=hold_of(contest) if in_chat(who.svc) is not None else None,
            seeking=draft.seeking,
        )
        if not isinstance(out, Registered):
            await answer_now(who.svc, update, refusal_text(who.lang, contest, out))
        else:
            await remember(update, context)
            await answer(who.svc, update, registered_text(
                who.lang, contest, category, out, await _partner_link(context, who, out),
                await entry_card(who.svc.day, out.number, at)))
            if in_chat(who.svc) is not None and not draft.seeking:
                # what it owes, as an invoice to pay at once (looking for a partner: once one
                # has joined it, in the chat as any entry pays later)
                await owe_invoice(who.svc, registrations(context), who.user_id, out.number, at)
            await schedule_lapse(context.application, out.number)
            await schedule_hold(context.application, out.number)
    if isinstance(out, HeatStarted) and out.open_choices:
        # the heat chosen began while the summary was open: choose a later one, then confirm
        by = category.rounds[0].heats_by
        index = next(i for i, q in enumerate(contest.questions) if q.id == by)
        draft.phase, draft.question, draft.resume = "entry", index, True
        return await ask(update, context, who, draft, index, contest.questions[index], at)
    draft.discard()
    if isinstance(out, Registered):
        await refresh_menu(context, who.user_id)
    return ConversationHandler.END


async def _partner_link(context: ContextTypes.DEFAULT_TYPE, who: Caller,
                        out: Registered) -> str:
    """The link a partner opens to follow the entry just registered."""
    entry = await who.svc.store.entry(out.number)
    assert entry is not None
    return f"https://t.me/{context.bot.username}?start={entry.join_code}"


async def cancelar(update: Update, context: ContextTypes.DEFAULT_TYPE, draft: Draft) -> int:
    who = await caller(update, context)
    draft.discard()
    if update.callback_query is not None and update.callback_query.data != "reg:no":
        await update.callback_query.answer()
    if who is not None:
        await answer_now(who.svc, update, cancelled_text(who.lang))
    return ConversationHandler.END


async def nothing_to_cancel(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await caller(update, context)
    if who is not None:
        await answer_now(who.svc, update, nothing_to_cancel_text(who.lang))


async def timed_out(update: Update, context: ContextTypes.DEFAULT_TYPE, draft: Draft) -> None:
    draft.discard()
    user = update.effective_user if isinstance(update, Update) else None
    if user is not None:
        svc = services(context)
        lang = await language_of(svc, user.id)
        await send(context, user.id, timed_out_text(lang, TIMEOUT_SECONDS // 60))


async def not_understood(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await caller(update, context)
    if who is not None:
        await answer_now(who.svc, update, use_buttons_text(who.lang))


def conversation() -> ConversationHandler[Any]:
    with warnings.catch_warnings():
        # per_message=False is what we want (text answers and buttons in one conversation);
        # PTB warns that buttons are then tracked per chat, which is the point.
        warnings.simplefilter("ignore", PTBUserWarning)
        return _conversation()


class RegistrationConversation(ConversationHandler[Any]):
    """The registration conversation, asked about an update only when it could take it.

    Every update passes here first, and nearly all of them, on the day, are volunteers' commands
    recording results. The only commands the conversation takes are its entry point and its
    fallback (its steps take button presses and plain text), so any other command is let
    through without looking the conversation up."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.commands = frozenset(names_for(REGISTER)) | frozenset(names_for(CANCEL))

    def check_update(self, update: object) -> Any:
        msg = update.message if isinstance(update, Update) else None
        if msg is not None and msg.text and msg.entities:
            first = msg.entities[0]
            if first.type == MessageEntity.BOT_COMMAND and first.offset == 0:
                command = msg.text[1:first.length].split("@")[0].lower()
                if command not in self.commands:
                    return None
        return super().check_update(update)


def _conversation() -> ConversationHandler[Any]:
    """Every handler of the conversation goes through ``step``: the draft is saved after it."""
    text = filters.TEXT & ~filters.COMMAND
    buttons_only = MessageHandler(text, not_understood)
    return RegistrationConversation(
        entry_points=[CommandHandler(names_for(REGISTER), step(inscribir)),
                      CallbackQueryHandler(step(inscribir), pattern=rf"^{REGISTER_BUTTON}\Z")],
        states={
            CATEGORY: [CallbackQueryHandler(step(pick_category), pattern=r"^reg:cat:"),
                       buttons_only],
            NAME: [MessageHandler(text, step(got_name)),
                   CallbackQueryHandler(step(alone), pattern=rf"^{ALONE}\Z")],
            BIRTH: [MessageHandler(text, step(got_birth)),
                    CallbackQueryHandler(step(switch_category), pattern=r"^reg:sw:[\w-]+\Z")],
            QUESTION: [CallbackQueryHandler(step(answer_question), pattern=r"^reg:q:"),
                       CallbackQueryHandler(step(answer_choice), pattern=r"^reg:c:\d+:\d+\Z"),
                       buttons_only],
            TEXT_ANSWER: [MessageHandler(text, step(got_text_answer))],
            MORE: [CallbackQueryHandler(step(more_members), pattern=r"^reg:more:[yn]\Z"),
                   buttons_only],
            MEAL_ADULTS: [CallbackQueryHandler(step(meal_count), pattern=r"^reg:ma:"),
                          CallbackQueryHandler(step(no_meal), pattern=r"^reg:meal:no\Z"),
                          buttons_only],
            MEAL_CHILDREN: [CallbackQueryHandler(step(meal_count), pattern=r"^reg:mc:"),
                            buttons_only],
            CONFIRM: [CallbackQueryHandler(step(confirm), pattern=r"^reg:(ok|no)\Z"),
                      CallbackQueryHandler(step(add_to_meal), pattern=r"^reg:meal:add\Z"),
                      buttons_only],
            ConversationHandler.TIMEOUT: [MessageHandler(filters.ALL, step(timed_out)),
                                          CallbackQueryHandler(step(timed_out))],
        },
        fallbacks=[CommandHandler(names_for(CANCEL), step(cancelar))],
        allow_reentry=True,
        conversation_timeout=TIMEOUT_SECONDS,
        name="registration",
        persistent=True,
    )
