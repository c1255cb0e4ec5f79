"""The results' chat handlers: volunteers record finishes (``/fin`` and its confirming buttons,
a "FINISHED?" line's buttons), split times (``/parcial``), pieces (``/piezas``), did-not-start,
disqualified or out of competition (``/estado`` and its buttons). Each parses and calls its
operation (operations.py) with a ``Work``: never a transaction, never a send."""

from __future__ import annotations

from datetime import datetime

from telegram import Update
from telegram.ext import ContextTypes

from bot.delivery.answers import answer_now
from bot.delivery.work import Asker, Work
from bot.domain.clock import hours_reading
from bot.features.results import operations as ops
from bot.features.results.names import FINISH_BUTTON, OUTCOME_BUTTON, READY_BUTTON
from bot.features.results.operations import By, Finish
from bot.features.results.texts import (
    not_finished_button,
    nothing_changed,
    outcome_button,
    outcome_question,
    record_button,
    usage,
)
from bot.handlers.claims import claim_row
from bot.handlers.common import (
    Caller,
    button_moment,
    buttons,
    parse_int,
    recorder,
    show_usage,
)
from bot.handlers.volunteers import number_and_time, refuse, role
from bot.services.outcomes import UnknownEntry


def _work(update: Update, who: Caller) -> Work:
    return Work(who.svc, Asker.of(update, who.user_id, who.lang))


def _by(update: Update, who: Caller, at: datetime) -> By:
    return By(who.user_id, role(who), at, update.update_id)


async def fin(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``/fin N [h:mm:ss]``: entry N finished, at the time typed (the clock's) or now."""
    who = await recorder(update, context, "volunteer")
    if who is None:
        return
    args = list(context.args or [])
    parsed = await number_and_time(update, who, args, "/fin N [h:mm:ss]", usage)
    if parsed is None:
        return
    number, typed = parsed
    if typed is None and await _own_start(who, number):  # a claim made at home: confirmed
        await ops.confirm_own(_work(update, who), who.svc.day, _by(update, who, who.at),
                              number, None)
        return
    other = hours_reading(args[1]) if len(args) == 2 else None
    await ops.finish(_work(update, who), who.svc.day, _by(update, who, who.at),
                     Finish(number, typed, other=other))


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
    await ops.finish(_work(update, who), who.svc.day, _by(update, who, at),
                     Finish(number, chosen, confirmed=True, basis=basis, asked_at=asked_at))


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
    by = _by(update, who, at)
    if parts[0] == "no":
        await ops.not_finished(_work(update, who), who.svc.day, by, number, listo)
    elif await _own_start(who, number):
        await ops.confirm_own(_work(update, who), who.svc.day, by, number, listo)
    else:
        await ops.finish(_work(update, who), who.svc.day, by, Finish(number, None,
                                                                     ready_line=listo))


async def _own_start(who: Caller, number: int) -> bool:
    """Whether entry ``number`` starts each puzzle itself (its times are its own claims')."""
    if not any(c.own_start for c in who.svc.contest.categories):
        return False  # the hall's contests: no lookup on the volunteers' busiest command
    state = await who.svc.day.state(number)
    return state is not None and state.category.own_start


async def piezas(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``/piezas N P``: entry N had placed P pieces when time was up."""
    who = await recorder(update, context, "volunteer")
    if who is None:
        return
    args = list(context.args or [])
    number = parse_int(args[0]) if len(args) == 2 else None
    count = parse_int(args[1]) if len(args) == 2 else None
    if count is None and len(args) == 2 and args[1].startswith("-") and (
            parse_int(args[1][1:]) is not None):
        count = -1  # a negative count: the operation answers with the range it must be in
    if number is None or count is None:
        await show_usage(update, who, "/piezas N P", usage)
        return
    await ops.pieces(_work(update, who), who.svc.day, _by(update, who, who.at), number, count)


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
        await show_usage(update, who, "/estado N dns|dsq|oc [REASON]", usage)
        return
    reason = " ".join(words[2].split())[:MAX_REASON] if len(words) == 3 else ""
    await ops.outcome(_work(update, who), who.svc.day, _by(update, who, who.at), number,
                      outcome, reason)


async def estado_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A button of ``/estado N`` (or of the final results' list of entries with no result): "did not
    start" or "out of competition" recorded at the press, checked as the typed command is (a
    second press: already recorded)."""
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
    await ops.outcome(_work(update, who), who.svc.day, _by(update, who, at), number, outcome,
                      "")


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
            await show_usage(update, who, "/parcial N [PUZZLE] [h:mm:ss]", usage)
            return
        args = args[:1] + args[2:]
    parsed = await number_and_time(update, who, args, "/parcial N [PUZZLE] [h:mm:ss]", usage)
    if parsed is None:
        return
    number, typed = parsed
    await ops.split(_work(update, who), who.svc.day, _by(update, who, who.at), number, typed,
                    puzzle)


async def comodin(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``/comodin N [PUZZLE]``: entry N gives up a puzzle now (its joker): the one it is on,
    or, when its puzzles are played in any order, PUZZLE."""
    who = await recorder(update, context, "volunteer")
    if who is None:
        return
    args = list(context.args or [])
    number = parse_int(args[0]) if args else None
    puzzle = parse_int(args[1]) if len(args) == 2 else None
    if number is None or len(args) > 2 or (len(args) == 2 and puzzle is None):
        await show_usage(update, who, "/comodin N [PUZZLE]", usage)
        return
    await ops.joker(_work(update, who), who.svc.day, _by(update, who, who.at), number, puzzle)
