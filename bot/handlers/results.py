"""Results: volunteers record finishes (/fin and its confirming buttons), split times
(/parcial), pieces, penalties, did-not-start or disqualified (/estado); organisers read the
ranking (/clasificacion). Taking them back (/deshacer) and an entry's history (/historial) are
bot/handlers/history.py's."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from functools import partial

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, InputFile, Update
from telegram.ext import ContextTypes

import bot.features.selftimed.day as selftimed
from bot.delivery.answers import answer, answer_now, recording
from bot.delivery.posting import notify_entry, send
from bot.delivery.services import language_of, services
from bot.domain.clock import hours_reading
from bot.domain.contest import Category
from bot.domain.ranking import Competitor, Row
from bot.domain.rounds import Heat
from bot.features.selftimed.texts import pace_lines, rejected_answer, rejected_notice, waiting_line
from bot.handlers.claims import claim_row
from bot.handlers.common import (
    OUTCOME_BUTTON,
    Callback,
    Caller,
    button_moment,
    buttons,
    caller,
    choice_buttons,
    named_unit,
    parse_int,
    person_name,
    pressed,
    recorder,
    refuse_role,
    show_usage,
)
from bot.handlers.standings import noting_final
from bot.handlers.volunteers import number_and_time, refuse, role
from bot.services import results, standings
from bot.services import rounds as round_ops
from bot.services.outcomes import Refusal, UnknownEntry
from bot.services.picture import ranking_png
from bot.services.results import (
    FinishRecorded,
    FinishToConfirm,
    NotFinishedNoted,
    SplitRecorded,
)
from bot.texts.common import DayRefusal
from bot.texts.history import undo_button
from bot.texts.names import unit_label
from bot.texts.result_lines import (
    no_entries,
    ranked_name,
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
    not_finished_button,
    not_finished_notice,
    nothing_changed,
    outcome_answer,
    outcome_button,
    outcome_notice,
    outcome_question,
    pieces_answer,
    record_button,
    split_answer,
    split_notice,
)
from bot.texts.results import not_finished_answer as not_finished_text
from bot.texts.standings import ranking_for_organisers, ranking_not_yet


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
    if typed is None and await _own_start(who, number):  # a claim made at home: confirmed
        await _confirm_own(update, context, who, number, None, who.at)
        return
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
    await answer(who.svc, update, await noting_final(who, out.entry,
                                                     finish_answer(who.lang, out, first)))
    await notify_entry(context, out.entry, partial(
        finish_notice, out=out, competitor=await _with_escape(who, out.entry)))


async def _with_escape(who: Caller, number: int) -> Competitor | None:
    """The entry's result as ranked, for an escape pair (its people are told how its ranking
    time is made up: issue 26, they were told one time and ranked on another)."""
    entry = await who.svc.store.entry(number)
    category = who.svc.contest.category(entry.category) if entry is not None else None
    if category is None or not category.escape:
        return None
    state = await who.svc.day.state(number)
    return state.competitor() if state is not None else None


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


READY_BUTTON = "ready:"  # under a "FINISHED?" line: ready:ok|no:ENTRY:LISTO_EVENT_ID


def ready_keyboard(lang: str, entry: int, time: int, listo: int) -> list[list[tuple[str, str]]]:
    """The buttons of a volunteers' "FINISHED?" line (entry ``entry`` said /listo at contest
    time ``time``, event ``listo``): record that moment, or say the puzzle is not done."""
    # each button names its entry: lines waiting for one chat go out joined, with all their
    # buttons under the one message
    return [claim_row(lang, entry, listo),
            [(f"#{entry} {record_button(lang, time)}", f"{READY_BUTTON}ok:{entry}:{listo}"),
             (f"#{entry} {not_finished_button(lang)}", f"{READY_BUTTON}no:{entry}:{listo}")]]


async def ready_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A volunteer's press under a "FINISHED?" line: the finish at the /listo's moment (as
    ``/fin N`` without a time), or "not finished" (the entry is told to play on). Refused as
    the typed commands are (role, clock, round closed); a line outdated by a newer /listo or
    a result since, or pressed twice, records nothing."""
    query = update.callback_query
    assert query is not None and query.data is not None
    await query.answer()
    parts = query.data.removeprefix(READY_BUTTON).split(":")
    number = parse_int(parts[1]) if len(parts) == 3 else None
    listo = parse_int(parts[2]) if len(parts) == 3 else None
    if number is None or listo is None or parts[0] not in ("ok", "no"):
        return  # not a button of ours
    who = await recorder(update, context, "volunteer")
    if who is None:
        return
    at = button_moment(update, context, await who.svc.day.linked_users(number))
    if at is None:
        return
    if parts[0] == "ok" and await _own_start(who, number):
        await _confirm_own(update, context, who, number, listo, at)
        return
    async with recording(who.svc):
        if parts[0] == "ok":
            out = await results.finish(who.svc.day, who.user_id, role(who), number, None, at,
                                       update.update_id, ready_line=listo)
            await _finish_answer(update, context, who, out)
            return
        checked = await results.not_finished(who.svc.day, who.user_id, role(who), number,
                                             listo, at, update.update_id)
        if isinstance(checked, Refusal):
            await refuse(update, who, checked)
            return
        await not_finished_answer(update, context, who, checked)


async def _own_start(who: Caller, number: int) -> bool:
    """Whether entry ``number`` starts each puzzle itself (its times are its own claims')."""
    if not any(c.own_start for c in who.svc.contest.categories):
        return False  # the hall's contests: no lookup on the volunteers' busiest command
    state = await who.svc.day.state(number)
    return state is not None and state.category.own_start


async def _confirm_own(update: Update, context: ContextTypes.DEFAULT_TYPE, who: Caller,
                       number: int, listo: int | None, at: datetime) -> None:
    """A claim of an entry that started the puzzle itself confirmed: its own time added, a
    split time or its finish."""
    async with recording(who.svc):
        out = await selftimed.confirm(who.svc.day, who.user_id, role(who), number, listo, at,
                                      update.update_id)
        if isinstance(out, SplitRecorded):
            await answer(who.svc, update, split_answer(who.lang, out))
            await notify_entry(context, number, partial(split_notice, out=out))
            return
        await _finish_answer(update, context, who, out)


async def not_finished_answer(update: Update, context: ContextTypes.DEFAULT_TYPE, who: Caller,
                              out: NotFinishedNoted) -> None:
    """"Not finished" recorded: the volunteer's answer and the entry's notice (a claim made at
    home and turned down by a reviewer: with the reviewer's reason)."""
    if out.reason:
        await answer(who.svc, update, rejected_answer(who.lang, out))
        await notify_entry(context, out.entry, partial(rejected_notice, out=out))
        return
    await answer(who.svc, update, not_finished_text(who.lang, out))
    await notify_entry(context, out.entry, partial(not_finished_notice, out=out))


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
        early_undo = buttons([[(undo_button(who.lang), f"undo:{out.event_id}")]]) \
            if out.early is not None and out.event_id is not None else None
        await answer(who.svc, update, await noting_final(who, out.entry,
                                                         pieces_answer(who.lang, out)),
                     **({"reply_markup": early_undo} if early_undo is not None else {}))


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
    if number is not None and len(words) == 1:  # /estado N: the outcomes as buttons
        entry = await who.svc.store.entry(number)
        if entry is None:
            await refuse(update, who, UnknownEntry(number))
            return
        await answer_now(who.svc, update, outcome_question(who.lang, number, entry.names),
                         reply_markup=buttons([[
                             (outcome_button(who.lang, "dns"), f"{OUTCOME_BUTTON}{number}:dns"),
                             (outcome_button(who.lang, "oc"), f"{OUTCOME_BUTTON}{number}:oc"),
                         ]]))
        return
    if number is None or outcome is None:
        await show_usage(update, who, "/estado N dns|dsq|oc [REASON]")
        return
    reason = " ".join(words[2].split())[:MAX_REASON] if len(words) == 3 else ""
    await _record_outcome(update, context, who, number, outcome, reason, who.at)


async def estado_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A button of ``/estado N``: "did not start" or "out of competition" recorded at the
    press, checked as the typed command is (a second press: already recorded)."""
    query = update.callback_query
    assert query is not None and query.data is not None
    await query.answer()
    number_text, _, outcome = query.data.removeprefix(OUTCOME_BUTTON).partition(":")
    number = parse_int(number_text)
    if number is None or outcome not in ("dns", "oc"):
        return  # not a button of ours
    who = await recorder(update, context, "volunteer")
    if who is None:
        return
    at = button_moment(update, context)
    if at is None:
        return
    await _record_outcome(update, context, who, number, outcome, "", at)


async def _record_outcome(update: Update, context: ContextTypes.DEFAULT_TYPE, who: Caller,
                          number: int, outcome: str, reason: str, at: datetime) -> None:
    async with recording(who.svc):
        out = await results.outcome(who.svc.day, who.user_id, role(who), number, outcome,
                                    reason, at, update.update_id)
        if isinstance(out, Refusal):
            await refuse(update, who, out)
            return
        await answer(who.svc, update, await noting_final(who, out.entry,
                                                         outcome_answer(who.lang, out)))
        await notify_entry(context, number, partial(outcome_notice, out=out))


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


RANKING_BUTTON = "rank:"  # an unknown category's buttons: rank:CATEGORY shows its ranking


async def clasificacion(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await caller(update, context)
    if who is None:
        return
    await _rankings(update, context, who, list(context.args or []))


async def ranking_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A category's button under /clasificacion's "unknown category": its ranking, as
    ``/clasificacion CATEGORY`` shows it to whoever pressed."""
    data, who = await pressed(update, context)
    if who is None:
        return
    category = who.svc.contest.category(data.removeprefix(RANKING_BUTTON))
    at = button_moment(update, context)
    if category is None or at is None:
        return
    await _rankings(update, context, replace(who, at=at), [category.id])


async def _rankings(update: Update, context: ContextTypes.DEFAULT_TYPE, who: Caller,
                    args: list[str]) -> None:
    if not who.roles.organiser:
        if who.roles.entries:
            await _entries_rankings(update, context, who)
        else:
            await refuse_role(update, who, "organiser")
        return
    landscape = bool(args) and args[-1].lower() in LANDSCAPE_WORDS
    if landscape:  # "foto horizontal", or "horizontal" alone
        args = args[:-1]
    picture = landscape or (bool(args) and args[-1].lower() in PICTURE_WORDS)
    if args and args[-1].lower() in PICTURE_WORDS:
        args = args[:-1]
    played = named_unit(who.svc, args, who.svc.day.rounds) if args and not picture else None
    if played is not None:
        await answer_now(who.svc, update, await _round_of_heats(who, played))
        return
    cats = await _categories(update, who, args)
    if cats is None:
        return
    if picture:
        await _pictures(update, who, cats, bool(args), landscape)
        return
    lines: list[str] = []
    for cat in cats:
        if cat.rounds:
            if lines:
                lines.append("")
            lines.extend(await _round_ranking_lines(who, cat))
            lines.extend(await _separate_lines(who, cat))
            lines.extend(await _claims_waiting(who, cat))
            continue
        rows = await who.svc.day.ranking(cat, who.at)
        if not rows and not args:
            continue
        if lines:
            lines.append("")
        lines.extend(_lines_of(context, who.lang, cat, rows))
        lines.extend(await _separate_lines(who, cat))
        lines.extend(await _claims_waiting(who, cat))
    await answer_now(who.svc, update, rankings_text(who.lang, lines))


async def _claims_waiting(who: Caller, category: Category) -> list[str]:
    """Played at home: the finishes claimed and not reviewed yet, under the ranking; a
    season where each entry starts each puzzle itself: the pace so far."""
    claims = await selftimed.waiting(who.svc.day, category)
    return ([waiting_line(who.lang, claims)] if claims else []) + await _pace(who, category)


async def _pace(who: Caller, category: Category) -> list[str]:
    """A season where each entry starts each puzzle itself: its pace so far."""
    if not category.own_start:
        return []
    paces = await selftimed.paces(who.svc.day, category)
    entries = {e.number: e for e in await who.svc.store.entries(category.id)}
    return pace_lines(who.lang, paces, entries)


async def _entries_rankings(update: Update, context: ContextTypes.DEFAULT_TYPE,
                            who: Caller) -> None:
    """/clasificacion from someone who follows entries: the ranking of each of their entries'
    categories, once the contest lets them read it (``participants_see_ranking``)."""
    contest = who.svc.contest
    if contest.participants_see_ranking == "never":
        await answer_now(who.svc, update, ranking_for_organisers(who.lang))
        return
    mine = {e.category for e in who.roles.entries}
    lines: list[str] = []
    for cat in (c for c in contest.categories if c.id in mine):
        if lines:
            lines.append("")
        if not await standings.may_see(who.svc.day, cat):
            lines.append(ranking_not_yet(who.lang, cat.name))
        elif cat.rounds:
            lines.extend(await _round_ranking_lines(who, cat))
        else:
            lines.extend(_lines_of(context, who.lang, cat,
                                   await who.svc.day.ranking(cat, who.at)))
            lines.extend(await _separate_lines(who, cat))
            lines.extend(await _pace(who, cat))
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
    day = who.svc.day
    ids = [*(c.id for c in contest.categories), *day.rounds, *day.heats]
    unit_id = named_unit(who.svc, args, ids)
    cat = None if unit_id is None else (
        await round_ops.unit(day, unit_id) or contest.category(unit_id))
    if cat is None:
        await answer_now(who.svc, update, unknown_category(
            who.lang, [unit_label(who.lang, contest, day.rounds, i) for i in ids]),
            reply_markup=choice_buttons(RANKING_BUTTON, [(c.name, c.id)
                                                         for c in contest.categories]))
        return None
    return [cat]


async def _pictures(update: Update, who: Caller, cats: list[Category], named: bool,
                    landscape: bool = False) -> None:
    """/clasificacion foto: each ranking as a picture (a category's ranking in rounds too),
    portrait for phones; /clasificacion foto horizontal: landscape."""
    contest = who.svc.contest
    pictures: list[tuple[str, bytes]] = []
    for cat in cats:
        rows = await who.svc.day.ranking(cat, who.at)
        if not rows and not named:
            continue
        title = ranking_title(who.lang, ranked_name(who.lang, who.svc.contest, cat))
        pictures.append((title, ranking_png(who.lang, contest, cat, rows, title,
                                            landscape=landscape)))
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
LANDSCAPE_WORDS = {"horizontal", "apaisada", "paysage", "landscape", "wide"}


# the commands this feature answers (bot/chat/app.py registers every feature's)
COMMANDS: dict[str, Callback] = {
    "fin": fin,
    "piezas": piezas,
    "estado": estado,
    "clasificacion": clasificacion,
    "parcial": parcial,
}
