"""Results: volunteers record finishes (/fin and its confirming buttons), split times
(/parcial), pieces, penalties, did-not-start or disqualified (/estado); organisers read the
ranking (/clasificacion). Taking them back (/deshacer) and an entry's history (/historial) are
bot/handlers/history.py's."""

from __future__ import annotations

from functools import partial

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, InputFile, Update
from telegram.ext import ContextTypes

from bot.delivery.answers import answer, answer_now, recording
from bot.delivery.posting import notify_entry, send
from bot.delivery.services import language_of, services
from bot.domain.clock import hours_reading
from bot.domain.contest import Category
from bot.domain.ranking import Row
from bot.domain.rounds import Heat
from bot.handlers.common import (
    Callback,
    Caller,
    button_moment,
    organiser,
    parse_int,
    person_name,
    recorder,
    show_usage,
)
from bot.handlers.volunteers import number_and_time, refuse, role
from bot.services import results
from bot.services import rounds as round_ops
from bot.services.outcomes import Refusal
from bot.services.picture import ranking_png
from bot.services.results import FinishRecorded, FinishToConfirm
from bot.texts.common import DayRefusal
from bot.texts.result_lines import (
    no_entries,
    ranking_lines,
    ranking_title,
    rankings_text,
    round_of_heats_text,
    round_ranking_lines,
    separate_lines,
    unknown_category,
)
from bot.texts.results import (
    confirm_question,
    finish_answer,
    finish_notice,
    finish_replaced_notice,
    keep_button,
    nothing_changed,
    outcome_answer,
    outcome_notice,
    penalty_answer,
    penalty_notice,
    pieces_answer,
    record_button,
    split_answer,
    split_notice,
)

MAX_PENALTIES = 99  # penalties recorded by one /penalizacion


async def fin(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await recorder(update, context, "volunteer")
    if who is None:
        return
    args = list(context.args or [])
    parsed = await number_and_time(update, who, args, "/fin N [h:mm:ss]")
    if parsed is None:
        return
    number, typed = parsed
    other = hours_reading(args[1]) if len(args) == 2 else None
    async with recording(who.svc):
        out = await results.finish(
            who.svc.day, who.user_id, role(who), number, typed, who.at, update.update_id,
            other=other)
        await _finish_answer(update, context, who, out)


FINISH_BUTTON = "fin:"


def _confirm_buttons(lang: str, asked: FinishToConfirm) -> InlineKeyboardMarkup:
    """One button per time the volunteer may have meant, and one that changes nothing."""
    # each button names the finish it was asked on: pressed after that changed, it is refused
    rows = [[InlineKeyboardButton(record_button(lang, t),
                                  callback_data=f"{FINISH_BUTTON}{asked.entry}:{t}:{asked.basis}")]
            for t in (asked.time, asked.other) if t is not None]
    rows.append([InlineKeyboardButton(
        keep_button(lang, asked), callback_data=f"{FINISH_BUTTON}{asked.entry}:-:{asked.basis}")])
    return InlineKeyboardMarkup(rows)


async def _finish_answer(update: Update, context: ContextTypes.DEFAULT_TYPE, who: Caller,
                         out: FinishRecorded | FinishToConfirm | DayRefusal) -> None:
    """The answer to a /fin (or to its confirming button), inside its recording transaction."""
    if isinstance(out, Refusal):
        await refuse(update, who, out)
        return
    if isinstance(out, FinishToConfirm):  # a question: nothing recorded yet
        await answer_now(who.svc, update, confirm_question(who.lang, out),
                         reply_markup=_confirm_buttons(who.lang, out))
        return
    first = None
    if out.corrected and out.old_actor not in (None, who.user_id):
        # another volunteer's time replaced (two at the same table, or a correction):
        # both see what is recorded, and the first one is told by whom
        assert out.old_actor is not None
        first = await person_name(who.svc, out.old_actor)
        by = await person_name(who.svc, who.user_id)
        lang = await language_of(who.svc, out.old_actor)
        await send(context, out.old_actor, finish_replaced_notice(lang, out, by))
    await answer(who.svc, update, finish_answer(who.lang, out, first))
    await notify_entry(context, out.entry, partial(finish_notice, out=out))


async def fin_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The volunteer's choice after a /fin that asked first: the time chosen is recorded at
    the moment the question was shown (or later: see ``button_moment``), nothing else asked."""
    query = update.callback_query
    assert query is not None and query.data is not None
    await query.answer()
    parts = query.data.removeprefix(FINISH_BUTTON).split(":")
    number = parse_int(parts[0]) if len(parts) == 3 else None
    chosen = parse_int(parts[1]) if len(parts) == 3 and parts[1] != "-" else None
    basis = parse_int(parts[2]) if len(parts) == 3 else None
    if number is None or basis is None or (chosen is None and parts[1] != "-"):
        return  # not a button of ours
    who = await recorder(update, context, "volunteer")
    if who is None:
        return
    if chosen is None:
        await answer_now(who.svc, update, nothing_changed(who.lang, number))
        return
    at = button_moment(update, context)
    message = query.message
    asked_at = message.date if message is not None else None  # Telegram's: not forgeable
    if at is None:
        return
    async with recording(who.svc):
        out = await results.finish(who.svc.day, who.user_id, role(who), number, chosen, at,
                                   update.update_id, confirmed=True, basis=basis,
                                   asked_at=asked_at)
        await _finish_answer(update, context, who, out)


async def piezas(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await recorder(update, context, "volunteer")
    if who is None:
        return
    args = list(context.args or [])
    number = parse_int(args[0]) if len(args) == 2 else None
    count = parse_int(args[1]) if len(args) == 2 else None
    if count is None and len(args) == 2 and args[1].startswith("-") and (
            parse_int(args[1][1:]) is not None):
        count = -1  # a negative count: the service answers with the range it must be in
    if number is None or count is None:
        await show_usage(update, who, "/piezas N P")
        return
    async with recording(who.svc):
        out = await results.pieces(
            who.svc.day, who.user_id, role(who), number, count, who.at, update.update_id
        )
        if isinstance(out, Refusal):
            await refuse(update, who, out)
            return
        await answer(who.svc, update, pieces_answer(who.lang, out))


OUTCOME_WORDS = {"dns": "dns", "np": "dns", "abs": "dns", "dsq": "dsq", "dq": "dsq",
                 "oc": "oc", "fc": "oc", "hc": "oc"}
MAX_REASON = 200


async def estado(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``/estado N dns|dsq|oc [REASON]``: entry N did not start, is disqualified (a reason is
    needed) or plays out of competition: it is not placed and never advances. /deshacer
    takes it back."""
    who = await recorder(update, context, "volunteer")
    if who is None:
        return
    msg = update.effective_message
    words = ((msg.text or "") if msg is not None else "").split(maxsplit=3)[1:]
    number = parse_int(words[0]) if words else None
    outcome = OUTCOME_WORDS.get(words[1].lower()) if len(words) >= 2 else None
    if number is None or outcome is None:
        await show_usage(update, who, "/estado N dns|dsq|oc [REASON]")
        return
    reason = " ".join(words[2].split())[:MAX_REASON] if len(words) == 3 else ""
    async with recording(who.svc):
        out = await results.outcome(who.svc.day, who.user_id, role(who), number, outcome,
                                    reason, who.at, update.update_id)
        if isinstance(out, Refusal):
            await refuse(update, who, out)
            return
        await answer(who.svc, update, outcome_answer(who.lang, out))
        await notify_entry(context, number, partial(outcome_notice, out=out))


async def penalizacion(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``/penalizacion N KIND [COUNT]``: COUNT (1 if not given) penalties of KIND for entry N,
    added to its ranking time as the contest file says; /deshacer takes the last one back."""
    who = await recorder(update, context, "volunteer")
    if who is None:
        return
    args = list(context.args or [])
    kinds = who.svc.contest.penalties
    number = parse_int(args[0]) if 2 <= len(args) <= 3 else None
    count = parse_int(args[2]) if len(args) == 3 else 1
    if number is None or count is None or not 1 <= count <= MAX_PENALTIES:
        usage = "/penalizacion N " + ("|".join(k.id for k in kinds) or "KIND") + " [1-99]"
        await show_usage(update, who, usage)
        return
    async with recording(who.svc):
        out = await results.penalty(who.svc.day, who.user_id, role(who), number,
                                    args[1].lower(), count, who.at, update.update_id)
        if isinstance(out, Refusal):
            await refuse(update, who, out)
            return
        contest = who.svc.contest
        await answer(who.svc, update, penalty_answer(who.lang, contest, out))
        await notify_entry(context, number, partial(penalty_notice, contest=contest, out=out))


async def parcial(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``/parcial N [h:mm:ss]``: entry N finished its next puzzle (a split time); the last
    puzzle's finish is /fin."""
    who = await recorder(update, context, "volunteer")
    if who is None:
        return
    args = list(context.args or [])
    puzzle = None
    if len(args) >= 2 and ":" not in args[1]:  # /parcial N P [h:mm:ss]: which puzzle
        puzzle = parse_int(args[1])
        if puzzle is None or len(args) > 3:
            await show_usage(update, who, "/parcial N [PUZZLE] [h:mm:ss]")
            return
        args = args[:1] + args[2:]
    parsed = await number_and_time(update, who, args, "/parcial N [PUZZLE] [h:mm:ss]")
    if parsed is None:
        return
    number, typed = parsed
    async with recording(who.svc):
        out = await results.split(who.svc.day, who.user_id, role(who), number, typed, who.at,
                                  update.update_id, puzzle)
        if isinstance(out, Refusal):
            await refuse(update, who, out)
            return
        await answer(who.svc, update, split_answer(who.lang, out))
        await notify_entry(context, number, partial(split_notice, out=out))


def _lines_of(context: ContextTypes.DEFAULT_TYPE, lang: str, cat: Category,
              rows: list[Row]) -> list[str]:
    """A category's ranking lines, written again only when its rows changed (the day's
    ranking gives back the same list while none of the category's entries changed)."""
    written: dict[tuple[str, str], tuple[list[Row], list[str]]] = context.bot_data.setdefault(
        "ranking_lines", {})
    hit = written.get((lang, cat.id))
    if hit is None or hit[0] is not rows:
        hit = written[(lang, cat.id)] = (rows, ranking_lines(
            lang, services(context).contest, cat, rows))
    return hit[1]


async def clasificacion(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await organiser(update, context)
    if who is None:
        return
    args = list(context.args or [])
    picture = bool(args) and args[-1].lower() in PICTURE_WORDS
    if picture:
        args = args[:-1]
    if args and args[0].lower() in who.svc.day.rounds and len(args) == 1 and not picture:
        await answer_now(who.svc, update, await _round_of_heats(who, args[0].lower()))
        return
    cats = await _categories(update, who, args)
    if cats is None:
        return
    if picture:
        await _pictures(update, who, cats, bool(args))
        return
    lines: list[str] = []
    for cat in cats:
        if cat.rounds:
            if lines:
                lines.append("")
            lines.extend(await _round_ranking_lines(who, cat))
            lines.extend(await _separate_lines(who, cat))
            continue
        rows = await who.svc.day.ranking(cat, who.at)
        if not rows and not args:
            continue
        if lines:
            lines.append("")
        lines.extend(_lines_of(context, who.lang, cat, rows))
        lines.extend(await _separate_lines(who, cat))
    await answer_now(who.svc, update, rankings_text(who.lang, lines))


async def _round_of_heats(who: Caller, name: str) -> str:
    """The ranking over all the heats of a round of several ("pairs-heats")."""
    category, index = who.svc.day.rounds[name]
    _, rows = await round_ops.round_ranking(who.svc.day, category, index)
    return round_of_heats_text(who.lang, who.svc.contest, category, index, rows)


async def _categories(update: Update, who: Caller, args: list[str]) -> list[Category] | None:
    """The category (or heat) named, or every category; None once answered."""
    contest = who.svc.contest
    if not args:
        return list(contest.categories)
    cat = await round_ops.unit(who.svc.day, args[0].lower()) or contest.category(args[0].lower())
    if cat is None or len(args) > 1:
        await answer_now(who.svc, update, unknown_category(
            who.lang, [c.id for c in contest.categories] + list(who.svc.day.rounds)
            + list(who.svc.day.heats)))
        return None
    return [cat]


async def _pictures(update: Update, who: Caller, cats: list[Category], named: bool) -> None:
    """/clasificacion foto: each ranking as a picture (a category's ranking in rounds too)."""
    contest = who.svc.contest
    pictures: list[tuple[str, bytes]] = []
    for cat in cats:
        rows = await who.svc.day.ranking(cat, who.at)
        if not rows and not named:
            continue
        title = ranking_title(who.lang, cat.name)
        pictures.append((title, ranking_png(who.lang, contest, cat, rows, title)))
    if not pictures:
        await answer_now(who.svc, update, no_entries(who.lang))
        return
    msg = update.effective_message
    assert msg is not None
    for title, png in pictures:
        await msg.reply_photo(InputFile(png, filename="ranking.png"), caption=title[:1024],
                              do_quote=True)


async def _separate_lines(who: Caller, category: Category) -> list[str]:
    """The category's rankings of their own (under 18s...), each after a blank line."""
    separate = await round_ops.separate_rankings(who.svc.day, category)
    return separate_lines(who.lang, who.svc.contest, category, separate)


async def _round_ranking_lines(who: Caller, category: Category) -> list[str]:
    """A category played in rounds: the heats of the round being played (while it is not
    confirmed), then the classification over the rounds so far."""
    day = who.svc.day
    lineup = await day.lineups(category)
    index = len(lineup) - 1
    heats: list[tuple[Heat, list[Row]]] = []
    if await day.confirmed_rounds(category) <= index:
        for h in range(1, len(lineup[index]) + 1):
            heat = Heat(category, index, h)
            heats.append((heat, await day.ranking(heat.play)))
    return round_ranking_lines(who.lang, who.svc.contest, category, heats,
                               await day.classification(category))


PICTURE_WORDS = {"foto", "imagen", "image", "photo", "picture", "img"}


# the commands this feature answers (bot/chat/app.py registers every feature's)
COMMANDS: dict[str, Callback] = {
    "fin": fin,
    "piezas": piezas,
    "penalizacion": penalizacion,
    "estado": estado,
    "clasificacion": clasificacion,
    "parcial": parcial,
}
