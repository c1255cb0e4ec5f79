"""Paper for the hall, from the chat: ``/mesas [CATEGORY]``, the table lists to print;
``/imprimir``, the volunteers' sheet and the day plan."""

from __future__ import annotations

from telegram import InputFile, Update
from telegram.ext import ContextTypes

from bot.features.tables.sheets import category_sheets, tables_pdf
from bot.handlers.common import named_categories, organiser
from bot.services.handouts import day_plan_pdf, volunteer_sheet_pdf
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
