"""Paper for the hall, from the chat: ``/mesas [CATEGORY]``, the table lists to print, then
whether to tell each entry its table (its button: ``tell_pressed``); ``/imprimir``, the
volunteers' sheet and the day plan."""

from __future__ import annotations

from telegram import InputFile, Update
from telegram.ext import ContextTypes

from bot.delivery.answers import answer_now, recording
from bot.delivery.posting import keyboard_json, organiser_recipients, post_text
from bot.delivery.services import Services
from bot.delivery.work import Asker, Work
from bot.domain.contest import Category
from bot.features.tables import day as tables
from bot.features.tables.operations import TellTables, tell_tables
from bot.features.tables.sheets import category_sheets, tables_pdf
from bot.features.tables.texts import (
    cancel_button,
    moved_text,
    not_told,
    tell_button,
    tell_question,
)
from bot.handlers.common import (
    Caller,
    button_moment,
    buttons,
    named_categories,
    organiser,
    question_choice,
)
from bot.services.handouts import day_plan_pdf, volunteer_sheet_pdf
from bot.storage.store import PRIORITY_COPY
from bot.texts.handouts import plan_title, volunteers_title


async def mesas(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``/mesas [CATEGORY]``: the table lists, as a PDF to print: a page per category played
    in one round (its tables through the hall) and per heat of a round being played."""
    who = await organiser(update, context)
    if who is None:
        return
    contest = who.svc.contest
    chosen = await named_categories(update, who, list(context.args or []))
    if chosen is None:
        return
    sheets = [s for c in chosen for s in await category_sheets(who.svc.day, c, who.lang)]
    pdf = tables_pdf(contest, sheets, who.lang)
    msg = update.effective_message
    assert msg is not None
    stem = chosen[0].id if len(chosen) == 1 else "all"
    caption = sheets[0].title if len(sheets) == 1 else (
        chosen[0].name if len(chosen) == 1 else contest.name)
    await msg.reply_document(InputFile(pdf, filename=f"tables-{stem}.pdf"), caption=caption,
                             do_quote=True)
    await _ask_to_tell(update, who, chosen, len(chosen) == 1)


TELL_BUTTON = "tbl:"  # the question's buttons: tbl:CATEGORY_ID, tbl:* (every one), tbl:-
EVERY = "*"


async def _ask_to_tell(update: Update, who: Caller, chosen: list[Category], named: bool) -> None:
    """Under the lists: whether to tell each entry its table, when some entry with a phone
    was never told it or sits elsewhere now."""
    seats, _ = await tables.to_tell(who.svc.day, None, chosen)
    if not seats:
        return
    people: set[int] = set()
    for seat in seats:
        people.update(await who.svc.day.linked_users(seat.number))
    data = TELL_BUTTON + (chosen[0].id if named else EVERY)
    await answer_now(who.svc, update, tell_question(who.lang, len(seats), len(people)),
                     reply_markup=buttons([[(tell_button(who.lang), data[:64]),
                                            (cancel_button(who.lang), f"{TELL_BUTTON}-")]]))


async def tell_pressed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The question answered: each entry with a phone told its table, once (a second press
    finds nobody new to tell)."""
    chosen = await question_choice(update, context, TELL_BUTTON, not_told)
    if chosen is None:
        return
    choice, who = chosen
    contest = who.svc.contest
    named = contest.category(choice)
    cats = list(contest.categories) if choice == EVERY else [named] if named else None
    at = button_moment(update, context)
    if cats is None or at is None:
        return
    await tell_tables(Work(who.svc, Asker.of(update, who.user_id, who.lang)), who.svc.day,
                      TellTables(who.user_id, cats, at, update.update_id))


async def imprimir(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``/imprimir``: the volunteers' one-page sheet and the day plan, as PDFs in the
    organiser's language."""
    who = await organiser(update, context)
    if who is None:
        return
    contest = who.svc.contest
    msg = update.effective_message
    assert msg is not None
    for stem, pdf, caption in (
            ("volunteers", volunteer_sheet_pdf(contest, who.lang), volunteers_title(who.lang)),
            ("day-plan", day_plan_pdf(contest, who.lang), plan_title(who.lang))):
        await msg.reply_document(InputFile(pdf, filename=f"{stem}-{who.lang}.pdf"),
                                 caption=caption, do_quote=True)


async def warn_moved(svc: Services) -> None:
    """After places changed (a withdrawal, a lapse): when entries told their table sit
    elsewhere now, the organisers are asked whether to tell them again (the lists' question,
    its button), so nobody walks to a table someone else now has."""
    moved = await tables.moved(svc.day)
    if not moved:
        return
    async with recording(svc):
        for organiser_id, lang in await organiser_recipients(svc):
            markup = keyboard_json(lambda lg: [[(tell_button(lg), TELL_BUTTON + EVERY),
                                                (cancel_button(lg), f"{TELL_BUTTON}-")]], lang)
            await post_text(svc, organiser_id, moved_text(lang, moved), PRIORITY_COPY,
                            markup=markup)
