"""/clasificacion: the rankings, for organisers (text or pictures; a category, a heat, a round
of heats) and for an entry's people where the contest lets them; its "unknown category"
buttons."""

from __future__ import annotations

from dataclasses import replace

from telegram import InputFile, Update
from telegram.ext import ContextTypes

import bot.features.selftimed.day as selftimed
from bot.delivery.answers import answer_now
from bot.delivery.services import services
from bot.domain.contest import Category
from bot.domain.ranking import Row
from bot.domain.rounds import Heat
from bot.features.selftimed.texts import pace_lines, waiting_line
from bot.features.standings import day as standings
from bot.features.standings.texts import ranking_for_organisers, ranking_not_yet
from bot.handlers.common import (
    Caller,
    button_moment,
    caller,
    choice_buttons,
    named_unit,
    pressed,
    refuse_role,
)
from bot.services import rounds as round_ops
from bot.services.picture import ranking_png
from bot.texts.names import unit_label
from bot.texts.result_lines import (
    no_entries,
    provisional,
    provisional_title,
    ranked_name,
    ranking_lines,
    ranking_title,
    rankings_text,
    round_of_heats_text,
    round_ranking_lines,
    separate_lines,
    unknown_category,
)


def _lines_of(context: ContextTypes.DEFAULT_TYPE, lang: str, cat: Category,
              rows: list[Row], final: bool) -> list[str]:
    """A category's ranking lines (provisional until ``final``), written again only when its
    rows changed (the day's ranking gives back the same list while none of the category's
    entries changed) or it was made final."""
    written: dict[tuple[str, str, bool], tuple[list[Row], list[str]]] = \
        context.bot_data.setdefault("ranking_lines", {})
    hit = written.get((lang, cat.id, final))
    if hit is None or hit[0] is not rows:
        hit = written[(lang, cat.id, final)] = (rows, ranking_lines(
            lang, services(context).contest, cat, rows, final=final))
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
        lines.extend(_lines_of(context, who.lang, cat, rows, await _final_unit(who, cat)))
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
                                   await who.svc.day.ranking(cat, who.at),
                                   await standings.is_final(who.svc.day, cat)))
            lines.extend(await _separate_lines(who, cat))
            lines.extend(await _pace(who, cat))
    await answer_now(who.svc, update, rankings_text(who.lang, lines))


async def _round_of_heats(who: Caller, name: str) -> str:
    """The ranking over all the heats of a round of several ("pairs-heats")."""
    category, index = who.svc.day.rounds[name]
    _, rows = await round_ops.round_ranking(who.svc.day, category, index)
    final = await who.svc.day.confirmed_rounds(category) > index
    return round_of_heats_text(who.lang, who.svc.contest, category, index, rows, final)


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
        if rows and not await _final_unit(who, cat):
            title, rows = provisional_title(who.lang, title), provisional(rows)
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


async def _final_unit(who: Caller, unit: Category) -> bool:
    """Whether a category's results are final, or a heat's (its round confirmed)."""
    day = who.svc.day
    heat = day.heats.get(unit.id)
    if heat is None:
        return await standings.is_final(day, unit)
    return await day.confirmed_rounds(heat.category) > heat.round_index


async def _separate_lines(who: Caller, category: Category) -> list[str]:
    """The category's rankings of their own (under 18s...), each after a blank line; their
    prizes once the category is final."""
    separate = await round_ops.separate_rankings(who.svc.day, category)
    return separate_lines(who.lang, who.svc.contest, category, separate,
                          await standings.is_final(who.svc.day, category))


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
                               await day.classification(category),
                               await standings.is_final(day, category))


PICTURE_WORDS = {"foto", "imagen", "image", "photo", "picture", "img"}
LANDSCAPE_WORDS = {"horizontal", "apaisada", "paysage", "landscape", "wide"}



