"""Rounds: the organiser confirms a round (/confirmar_ronda), everyone sees the heats and
their tables (/series); split times are results'."""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from telegram import Update
from telegram.ext import ContextTypes

from bot.delivery.answers import answer, answer_now, recording
from bot.delivery.posting import notify_entry
from bot.delivery.services import services
from bot.domain.contest import Category
from bot.domain.ranking import titles
from bot.domain.rounds import Heat, table_number
from bot.features.invitations.day import invitation_of, round_invitations
from bot.features.invitations.handlers import tell_invited
from bot.features.invitations.texts import (
    in_line_text,
    invited_confirmed_text,
    invited_status,
    status_lines,
)
from bot.features.results.texts import did_not_start_rows
from bot.handlers.access import pick_entry
from bot.handlers.common import (
    Callback,
    Caller,
    button_moment,
    buttons,
    caller,
    named_unit,
    parse_int,
    question_choice,
    recorder,
    refuse_role,
)
from bot.handlers.jobs import schedule_contest_jobs
from bot.services.outcomes import Refusal
from bot.services.rounds import (
    RoundConfirmed,
    RoundGaps,
    confirm_round,
    separate_rankings,
    table_of,
)
from bot.texts.common import refusal
from bot.texts.result_lines import final_classification_text
from bot.texts.rounds import (
    cancel_confirm_button,
    confirm_anyway_button,
    confirmed_text,
    entries_heats_text,
    final_place_text,
    lineup_text,
    no_rounds,
    not_confirmed,
    out_text,
    plays_text,
    qualified_text,
    round_gaps_question,
    which_category,
)


async def _round_category(update: Update, who: Caller, args: list[str]) -> Category | None:
    """The category named, or the only one with rounds; None once answered."""
    contest = who.svc.contest
    with_rounds = [c for c in contest.categories if c.rounds]
    if not with_rounds:
        await answer_now(who.svc, update, no_rounds(who.lang))
        return None
    if not args and len(with_rounds) == 1:
        return with_rounds[0]
    named = named_unit(who.svc, args, [c.id for c in with_rounds])
    category = contest.category(named) if named is not None else None
    if category is None or not category.rounds:
        await answer_now(who.svc, update, which_category(who.lang, with_rounds))
        return None
    return category


async def confirmar_ronda(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``/confirmar_ronda [CATEGORY]``: the category's current round is final. Its qualifiers
    are recorded and told their next round, day, time and table; the others are told their
    place; after the last round everyone gets their final place. Entries with no result in
    the round are listed first, with a button each (did not start) and "Confirm anyway"."""
    who = await recorder(update, context, "organiser")
    if who is None:
        return
    category = await _round_category(update, who, list(context.args or []))
    if category is None:
        return
    await _confirm(update, context, who, category, None)


CONFIRM_BUTTON = "cr:"  # the question's buttons: cr:ROUND_INDEX:CATEGORY (#POSITION), cr:-


def _confirm_data(category: Category, index: int, categories: list[Category]) -> str:
    """"Confirm anyway"'s data: the round's index and the category's id (its place in the
    contest file when the id is too long for a button)."""
    data = f"{CONFIRM_BUTTON}{index}:{category.id}"
    return data if len(data.encode()) <= 64 else \
        f"{CONFIRM_BUTTON}{index}:#{categories.index(category)}"


async def confirm_pressed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The question's "Confirm anyway" (the round it asked about, if still the one played) or
    "Not yet" (nothing changes)."""
    chosen = await question_choice(update, context, CONFIRM_BUTTON, not_confirmed)
    if chosen is None:
        return
    choice, who = chosen
    index_text, _, named = choice.partition(":")
    index = parse_int(index_text)
    cats = list(who.svc.contest.categories)
    category = cats[int(named[1:])] if named.startswith("#") and named[1:].isdigit() \
        and int(named[1:]) < len(cats) else who.svc.contest.category(named)
    at = button_moment(update, context)
    if index is None or category is None or not category.rounds or at is None:
        return  # not a button of ours
    await _confirm(update, context, replace(who, at=at), category, index)


async def _confirm(update: Update, context: ContextTypes.DEFAULT_TYPE, who: Caller,
                   category: Category, anyway: int | None) -> None:
    svc = who.svc
    contest = svc.contest
    async with recording(svc):
        out = await confirm_round(svc.day, who.user_id, category, who.at,
                                  update.update_id, anyway=anyway)
        if isinstance(out, Refusal):
            await answer_now(svc, update, refusal(who.lang, out, contest))
            return
        if isinstance(out, RoundGaps):
            await _ask_first(update, who, out)
            return
        index = out.round_index
        if out.heats:
            who_is = {e.number: e.names for e in await svc.store.entries(category.id)}
            if out.invited:  # they play once they accept: each is invited, and answers
                text = invited_confirmed_text(who.lang, contest, out.category, out.round_index,
                                              out.invited, who_is)
                await tell_invited(context, out.invited)
            else:
                text = confirmed_text(who.lang, contest, out, who_is)
                await _tell_qualified(context, out)
            rows = {r.number: r for r in out.ranking}
            in_heat = {n: (Heat(category, index, h), place) for n, h, place in out.heat_places
                       if place is not None}
            capped = dict(out.capped)
            rule = category.rounds[index].advance
            line = dict(out.in_line)
            answer_by = max((i.deadline for i in out.invited), default=who.at)
            for n in sorted(set(rows) - set(out.qualifiers)):
                position = rows[n].position
                if n in line and position is not None:  # told its number in line
                    await notify_entry(context, n, partial(
                        in_line_text, contest=contest, number=n, category=category,
                        index=index, position=position, place=line[n], deadline=answer_by,
                        in_heat=in_heat.get(n)))
                    continue
                cap = (rule.max_per, rule.by, capped[n]) if n in capped and rule is not None \
                    and rule.max_per is not None and rule.by is not None else None
                await notify_entry(context, n, partial(out_text, contest=contest, number=n,
                                                       category=category, index=index,
                                                       row=rows.get(n), cap=cap,
                                                       in_heat=in_heat.get(n)))
        else:
            rows_list = await svc.day.classification(category)
            text = final_classification_text(who.lang, contest, category, index, rows_list)
            held = titles(await separate_rankings(svc.day, category, rows_list))
            for row in rows_list:
                if row.position is not None:
                    await notify_entry(context, row.number, partial(
                        final_place_text, category=category, number=row.number, row=row,
                        contest=contest, titles=held.get(row.number, ())))
        await answer(svc, update, text)
    await schedule_contest_jobs(context.application)


async def _ask_first(update: Update, who: Caller, out: RoundGaps) -> None:
    """The round's entries with no result, each with a "did not start" button, then "Confirm
    anyway" and "Not yet": nothing is confirmed with a silent gap."""
    missing = [n for n, _ in out.missing]
    rows: list[list[tuple[str, str]]] = did_not_start_rows(who.lang, missing)
    rows.append([(confirm_anyway_button(who.lang),
                  _confirm_data(out.category, out.round_index, list(who.svc.contest.categories))),
                 (cancel_confirm_button(who.lang), f"{CONFIRM_BUTTON}-")])
    await answer_now(who.svc, update, round_gaps_question(who.lang, who.svc.contest, out),
                     reply_markup=buttons(rows))


async def _tell_qualified(context: ContextTypes.DEFAULT_TYPE, out: RoundConfirmed) -> None:
    """Each qualifier: its heat in the next round, its day and its table."""
    contest = services(context).contest
    for h, numbers in enumerate(out.heats, 1):
        heat = Heat(out.category, out.round_index + 1, h)
        for i, n in enumerate(numbers):
            table = table_number(i, heat.round.per_table)
            await notify_entry(context, n, partial(qualified_text, contest=contest,
                                                   number=n, heat=heat, table=table))


async def _entry_line(who: Caller, number: int, category_id: str) -> str | None:
    """/series for one entry a participant follows: its heat and table, its invitation to the
    next round (waiting for its answer, or given up), or that it is out."""
    svc, contest = who.svc, who.svc.contest
    category = contest.category(category_id)
    heat = await svc.day.heat_of(number, category) if category else None
    table = await table_of(svc.day, number, heat) if heat else None
    waiting = await invitation_of(svc.day, number)
    if waiting is not None and (heat is None or waiting[0].round_index > heat.round_index):
        return invited_status(who.lang, contest, number, *waiting, who.at)
    if heat is None or table is None or category is None:
        return None
    if await svc.day.confirmed_rounds(category) > heat.round_index:
        return out_text(who.lang, contest, number, category, heat.round_index, None,
                        played=True)
    return plays_text(who.lang, contest, number, heat, table)


async def series(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``/series [CATEGORY]``: the heats of the round being played, with each entry's table.
    A participant sees their own heat and table."""
    who = await caller(update, context)
    if who is None:
        return
    svc = who.svc
    contest = svc.contest
    args = list(context.args or [])
    if not who.roles.staff or (args and parse_int(args[0]) is not None):
        if args:  # "/series 12": the heat of one of the entries this phone follows
            chosen, _ = await pick_entry(update, who, args, escape_only=False)
            if chosen is None:
                return
            followed = [chosen]
        elif not who.roles.entries:
            await refuse_role(update, who, "participant")  # someone who follows no entry
            return
        else:
            followed = list(who.roles.entries)
        lines = [line for entry in followed
                 if (line := await _entry_line(who, entry.number, entry.category)) is not None]
        await answer_now(svc, update, entries_heats_text(who.lang, lines))
        return
    category = await _round_category(update, who, args)
    if category is None:
        return
    lineup = await svc.day.lineups(category)
    index = len(lineup) - 1
    who_is = {e.number: e.names for e in await svc.store.entries(category.id)}
    text = lineup_text(who.lang, contest, category, index, lineup[index], who_is)
    invited = await round_invitations(svc.day, category, index - 1)
    if invited:  # the round invites: who was invited and what each answered
        text += "\n" + "\n".join(status_lines(who.lang, contest, invited, who_is, who.at))
    await answer_now(svc, update, text)


# the commands this feature answers (bot/chat/app.py registers every feature's)
COMMANDS: dict[str, Callback] = {
    "confirmar_ronda": confirmar_ronda,
    "series": series,
}
