"""The results' operations: a finish (typed, confirmed after a question, a "FINISHED?" line's
button, a claim made at home confirmed), "not finished", pieces, a split time, an outcome. Each
owns its transaction (``Work``): it records through ``day.py`` and says who is told what, one
path writing those messages in the same transaction."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import partial

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

import bot.features.selftimed.day as selftimed
from bot.delivery.claims import claim_data
from bot.delivery.services import person_name
from bot.delivery.work import Text, Work
from bot.domain.ranking import Competitor
from bot.features.results import day as results
from bot.features.results.names import FINISH_BUTTON, READY_BUTTON, REVIEW_BUTTON
from bot.features.results.outcomes import (
    FinishRecorded,
    FinishToConfirm,
    NotFinishedNoted,
    OutcomeRecorded,
    PiecesRecorded,
    SplitRecorded,
)
from bot.features.results.texts import (
    confirm_question,
    finish_answer,
    finish_notice,
    finish_replaced_notice,
    finish_settled,
    keep_button,
    not_finished_answer,
    not_finished_notice,
    not_finished_settled,
    outcome_answer,
    outcome_notice,
    pieces_answer,
    record_button,
    split_answer,
    split_notice,
)
from bot.features.selftimed.texts import rejected_answer, rejected_notice, rejected_settled
from bot.features.standings import day as standings
from bot.features.standings.texts import final_note
from bot.services.contest_day import ContestDay
from bot.services.outcomes import Refusal
from bot.texts.common import DayRefusal, refusal
from bot.texts.history import undo_button
from bot.texts.names import names


@dataclass(frozen=True)
class By:
    """Who records (``actor``, as ``role``), when it counts (``at``) and the update that
    records it (``update_id``: a button's own, or its question's), recorded once."""

    actor: int
    role: str
    at: datetime
    update_id: int | None


@dataclass(frozen=True)
class Finish:
    """Entry ``number``'s finish at ``typed`` (None: now, or the /listo's moment); the rest as
    ``day.finish`` reads it."""

    number: int
    typed: int | None
    other: int | None = None
    confirmed: bool = False
    basis: int = 0
    asked_at: datetime | None = None
    ready_line: int | None = None


def _refused(work: Work, day: ContestDay, out: DayRefusal) -> None:
    work.reply(partial(refusal, refused=out, contest=day.contest))


async def _with_final(day: ContestDay, number: int, text: Text) -> Text:
    """A volunteer's answer to a change in a category whose results are final: it says that
    the entries were told otherwise, and how to tell them again."""
    category = await standings.final_category(day, number)
    if category is None:
        return text
    return partial(_noted, text=text, category=category.name)


def _noted(lang: str, text: Text, category: str) -> str:
    return text(lang) + "\n" + final_note(lang, category)


def _confirm_buttons(lang: str, asked: FinishToConfirm) -> str:
    """One button per time the volunteer may have meant, and one that changes nothing (each
    names the finish it was asked on: pressed after that changed, it is refused)."""
    rows = [[InlineKeyboardButton(record_button(lang, t),
                                  callback_data=f"{FINISH_BUTTON}{asked.entry}:{t}:{asked.basis}")]
            for t in (asked.time, asked.other) if t is not None]
    rows.append([InlineKeyboardButton(
        keep_button(lang, asked), callback_data=f"{FINISH_BUTTON}{asked.entry}:-:{asked.basis}")])
    return InlineKeyboardMarkup(rows).to_json()


async def finish(work: Work, day: ContestDay, by: By, cmd: Finish
                 ) -> FinishRecorded | FinishToConfirm | DayRefusal:
    """A finish recorded, or the question asked first, or why not."""
    async with work:
        out = await results.finish(
            day, by.actor, by.role, cmd.number, cmd.typed, by.at, by.update_id, other=cmd.other,
            confirmed=cmd.confirmed, basis=cmd.basis, asked_at=cmd.asked_at,
            ready_line=cmd.ready_line)
        await _tell_finish(work, day, out)
        return out


async def _tell_finish(work: Work, day: ContestDay,
                       out: FinishRecorded | FinishToConfirm | DayRefusal) -> None:
    if isinstance(out, Refusal):
        _refused(work, day, out)
        return
    if isinstance(out, FinishToConfirm):  # a question: nothing recorded yet
        lang = work.asker.lang if work.asker is not None else "es"
        work.reply(partial(confirm_question, asked=out), _confirm_buttons(lang, out))
        return
    first = None
    asker = work.asker.user_id if work.asker is not None else None
    if out.corrected and out.old_actor is not None and out.old_actor != asker:
        # another volunteer's time replaced (two at the same table, or a correction): both
        # see what is recorded, and the first one is told by whom
        first = await person_name(work.svc, out.old_actor)
        by = await person_name(work.svc, asker) if asker is not None else ""
        work.tell(out.old_actor, partial(finish_replaced_notice, out=out, by=by))
    if out.line is not None:
        by = await person_name(work.svc, asker) if asker is not None else ""
        await settle_line(work, day, out.entry, out.line,
                          partial(finish_settled, out=out, by=by))
    work.reply(await _with_final(day, out.entry, partial(finish_answer, out=out, first=first)))
    work.tell_entry(out.entry, partial(finish_notice, out=out,
                                       competitor=await _with_escape(day, out.entry)),
                    skip_asker=False)


async def settle_line(work: Work, day: ContestDay, entry: int, line: int, note: Text,
                      now: bool = False) -> None:
    """Every copy of the line about the /listo ``line`` (a "FINISHED?" line, a reviewer's
    photo) reads, in its place, the entry and ``note`` (what was done, by whom), and none of
    its buttons is left (its "I'm going", record, not finished, another photo, no code):
    shorter than the line, so a joined message stays within what Telegram takes."""
    mine = frozenset((claim_data(entry, line), f"{READY_BUTTON}ok:{entry}:{line}",
                      f"{READY_BUTTON}no:{entry}:{line}", f"{REVIEW_BUTTON}again:{entry}:{line}",
                      f"{REVIEW_BUTTON}nocode:{entry}:{line}"))
    row = await day.store.entry(entry)
    who = f"#{entry} {names(row.names)}" if row is not None else f"#{entry}"
    work.settle_line(claim_data(entry, line), lambda lang: f"{who} · {note(lang)}", mine, now)


async def _with_escape(day: ContestDay, number: int) -> Competitor | None:
    """The entry's result as ranked, for an escape pair (its people are told how its ranking
    time is made up: issue 26, they were told one time and ranked on another)."""
    entry = await day.store.entry(number)
    category = day.contest.category(entry.category) if entry is not None else None
    if category is None or not category.escape:
        return None
    state = await day.state(number)
    return state.competitor() if state is not None else None


async def confirm_own(work: Work, day: ContestDay, by: By, number: int, line: int | None
                      ) -> FinishRecorded | FinishToConfirm | SplitRecorded | DayRefusal:
    """A claim of an entry that started the puzzle itself confirmed: its own time added, a
    split time or its finish."""
    async with work:
        out = await selftimed.confirm(day, by.actor, by.role, number, line, by.at,
                                      by.update_id)
        if isinstance(out, SplitRecorded):
            _tell_split(work, out)
        else:
            await _tell_finish(work, day, out)
        return out


async def not_finished(work: Work, day: ContestDay, by: By, number: int, line: int
                       ) -> NotFinishedNoted | DayRefusal:
    """A "FINISHED?" line's "not finished": the entry plays on."""
    async with work:
        out = await results.not_finished(day, by.actor, by.role, number, line, by.at,
                                          by.update_id)
        await tell_not_finished(work, day, out)
        return out


async def tell_not_finished(work: Work, day: ContestDay, out: NotFinishedNoted | DayRefusal
                            ) -> None:
    """"Not finished" recorded: the volunteer's answer and the entry's notice (a claim made at
    home and turned down by a reviewer: with the reviewer's reason), and every copy of the
    line it decides settled; or why not."""
    if isinstance(out, Refusal):
        _refused(work, day, out)
        return
    if out.line is not None:
        by = await person_name(work.svc, work.asker.user_id) if work.asker is not None else ""
        await settle_line(work, day, out.entry, out.line, partial(
            rejected_settled if out.reason else not_finished_settled, out=out, by=by))
    if out.reason:
        work.reply(partial(rejected_answer, out=out))
        work.tell_entry(out.entry, partial(rejected_notice, out=out), skip_asker=False)
    else:
        work.reply(partial(not_finished_answer, out=out))
        work.tell_entry(out.entry, partial(not_finished_notice, out=out), skip_asker=False)


async def pieces(work: Work, day: ContestDay, by: By, number: int, count: int
                 ) -> PiecesRecorded | DayRefusal:
    """Pieces placed when time was up (or before: the answer offers to take it back)."""
    async with work:
        out = await results.pieces(day, by.actor, by.role, number, count, by.at, by.update_id)
        if isinstance(out, Refusal):
            _refused(work, day, out)
            return out
        lang = work.asker.lang if work.asker is not None else "es"
        early_undo = InlineKeyboardMarkup([[InlineKeyboardButton(
            undo_button(lang), callback_data=f"undo:{out.event_id}")]]).to_json() \
            if out.early is not None and out.event_id is not None else None
        work.reply(await _with_final(day, out.entry, partial(pieces_answer, out=out)),
                   early_undo)
        return out


async def outcome(work: Work, day: ContestDay, by: By, number: int, outcome: str, reason: str
                  ) -> OutcomeRecorded | DayRefusal:
    """Did not start, disqualified, out of competition."""
    async with work:
        out = await results.outcome(day, by.actor, by.role, number, outcome, reason, by.at,
                                    by.update_id)
        if isinstance(out, Refusal):
            _refused(work, day, out)
            return out
        work.reply(await _with_final(day, out.entry, partial(outcome_answer, out=out)))
        work.tell_entry(number, partial(outcome_notice, out=out), skip_asker=False)
        return out


async def split(work: Work, day: ContestDay, by: By, number: int, typed: int | None,
                puzzle: int | None) -> SplitRecorded | DayRefusal:
    """A split time: the entry finished one of its puzzles, not its last."""
    async with work:
        out = await results.split(day, by.actor, by.role, number, typed, by.at, by.update_id,
                                  puzzle)
        if isinstance(out, Refusal):
            _refused(work, day, out)
        else:
            _tell_split(work, out)
        return out


async def joker(work: Work, day: ContestDay, by: By, number: int,
                puzzle: int | None) -> SplitRecorded | DayRefusal:
    """A joker: the entry gives up one of its puzzles (not its last), now."""
    async with work:
        out = await results.joker(day, by.actor, by.role, number, by.at, by.update_id, puzzle)
        if isinstance(out, Refusal):
            _refused(work, day, out)
        else:
            _tell_split(work, out)
        return out


def _tell_split(work: Work, out: SplitRecorded) -> None:
    work.reply(partial(split_answer, out=out))
    work.tell_entry(out.entry, partial(split_notice, out=out), skip_asker=False)
