"""The escape in the chat: a pair's /pista, /solucion (and their stage buttons), /billetes;
the volunteers' /etapa and /escape (typed, or a stage pressed under the handover line)."""

from __future__ import annotations

from datetime import datetime

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import ContextTypes

from bot.delivery.answers import answer, answer_now, recording
from bot.delivery.claims import post_edits
from bot.delivery.posting import notify_entry, notify_staff, reader_language, send
from bot.delivery.services import language_of, person_name
from bot.features.escape import operations, texts
from bot.features.escape import outcomes as said
from bot.features.escape.outcomes import Granted, StageRecorded
from bot.features.escape.play import tell_pair
from bot.features.escape.rules import Cooldown, Kind
from bot.handlers.access import pick_entry
from bot.handlers.claims import claim_row
from bot.handlers.common import (
    Caller,
    already_handled,
    button_moment,
    caller,
    parse_int,
    pressed,
    recorder,
    refuse_role,
    show_usage,
)
from bot.handlers.jobs import schedule_notice
from bot.handlers.volunteers import number_and_time
from bot.handlers.volunteers import role as _role
from bot.services.outcomes import Refusal
from bot.storage.store import Copy, Transaction
from bot.texts.alerts import STAGE_BUTTON


async def etapa(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await recorder(update, context, "volunteer")
    if who is None:
        return
    args = list(context.args or [])
    usage = "/etapa N S"
    if len(args) != 2 or parse_int(args[0]) is None or parse_int(args[1]) is None:
        await show_usage(update, who, usage, texts.usage)
        return
    number, stage = parse_int(args[0]), parse_int(args[1])
    assert number is not None and stage is not None
    await _confirm(update, who, number, stage, who.at)


async def _confirm(update: Update, who: Caller, number: int, stage: int, at: datetime) -> None:
    """/etapa N S, typed or pressed under the handover line: recorded, or refused with why."""
    async with recording(who.svc) as tx:
        out = await operations.confirm_stage(
            who.svc.day, who.user_id, _role(who), number, stage, at,
            update.update_id if update.callback_query is None else None,
        )
        if isinstance(out, Refusal):
            await answer_now(who.svc, update,
                             said.refusal_line(who.lang, out, who.svc.contest, number))
            return
        await answer(who.svc, update, said.stage_confirmed(who.lang, out))
        await _close_stages(who, tx, out)


async def _close_stages(who: Caller, tx: Transaction, out: StageRecorded) -> None:
    """Every copy of the handover line loses the pair's stage buttons once its stage is
    confirmed (typed or pressed), with who confirmed which stage under it: a second volunteer
    never walks to a pair already settled. The other pairs' buttons stay."""
    svc = who.svc
    stages = svc.contest.escape.stages if svc.contest.escape else 0
    mine = [f"{STAGE_BUTTON}{out.entry}:{k}" for k in range(1, stages + 1)]
    found: dict[tuple[int, int], Copy] = {}
    for copies in (await tx.copies_of_any(mine)).values():  # one indexed read
        for copy in copies:
            found.setdefault((copy.chat_id, copy.message_id), copy)
    if not found:
        return
    by = await person_name(svc, who.user_id)

    async def note(chat_id: int, _data: dict[str, object]) -> str:
        return said.stage_settled(await reader_language(svc, chat_id), out, by)

    for copy in found.values():  # each copy found by one of the pair's buttons it holds
        held = next(c for c, _ in copy.claims if c in mine)
        await post_edits(tx, [copy], held, {}, note, frozenset(mine), replace=False)


async def confirm_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A stage pressed under the volunteers' handover line ("#3 > 4"): as /etapa 3 4, stamped
    with the press (never earlier than the line); a second press is refused as a typed
    repeat is (that stage is confirmed already)."""
    data, who = await pressed(update, context)
    parts = data.removeprefix(STAGE_BUTTON).split(":")
    number = parse_int(parts[0]) if len(parts) == 2 else None
    stage = parse_int(parts[1]) if len(parts) == 2 else None
    if who is None or number is None or stage is None:
        return  # not a button of ours, or nobody the bot can serve
    if not who.roles.staff:
        await refuse_role(update, who, "volunteer")
        return
    at = button_moment(update, context, await who.svc.day.linked_users(number))
    await _confirm(update, who, number, stage, at or who.at)


async def escape(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await recorder(update, context, "volunteer")
    if who is None:
        return
    parsed = await number_and_time(update, who, list(context.args or []), "/escape N [h:mm:ss]",
                                   texts.usage)
    if parsed is None:
        return
    number, typed = parsed
    async with recording(who.svc):
        out = await operations.solve(
            who.svc.day, who.user_id, _role(who), number, typed, who.at, update.update_id
        )
        if isinstance(out, Refusal):
            await answer_now(who.svc, update,
                             said.refusal_line(who.lang, out, who.svc.contest, number))
            return
        await answer(who.svc, update, said.solved(who.lang, out))
        rules = who.svc.contest.escape
        if rules is not None and rules.in_chat:  # the enigma's buttons go with it
            await tell_pair(who.svc, number, lambda lang: said.solved_notice(lang, out))
        else:
            await notify_entry(context, number, lambda lang: said.solved_notice(lang, out))


async def pista(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await _ask(update, context, Kind.HINT)


async def solucion(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await _ask(update, context, Kind.SOLUTION)


async def _ask(update: Update, context: ContextTypes.DEFAULT_TYPE, kind: Kind) -> None:
    who = await caller(update, context)
    if who is None:
        return
    entry, args = await pick_entry(update, who, list(context.args or []), escape_only=True,
                                   takes_stage=True)
    if entry is None:
        return
    rules = who.svc.contest.escape
    assert rules is not None
    if args:
        stage = parse_int(args[0])
        if stage is None or not 1 <= stage <= rules.stages or len(args) > 1:
            await show_usage(update, who, texts.stage_usage(who.lang, kind, rules.stages))
            return
        await do_request(update, context, who, entry.number, kind, stage)
        return
    state = await who.svc.day.state(entry.number)
    assert state is not None and state.ledger is not None
    first = state.ledger.stage
    if rules.in_chat:  # the bot knows the stage: the one the pair is in, and only that one
        await do_request(update, context, who, entry.number, kind, min(first, rules.stages))
        return
    stamp = int(who.at.timestamp())
    buttons = [
        InlineKeyboardButton(
            texts.stage_button(who.lang, s),
            callback_data=f"ask:{kind.value[0]}:{entry.number}:{s}:{stamp}",
        )
        for s in range(first, rules.stages + 1)
    ]
    rows = [buttons[i:i + 3] for i in range(0, len(buttons), 3)]
    await answer_now(who.svc, update, texts.which_stage(who.lang, kind),
                     reply_markup=InlineKeyboardMarkup(rows))


async def stage_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    assert query is not None and query.data is not None
    await query.answer()
    who = await caller(update, context)
    if who is None:
        return
    parts = query.data.split(":")
    number = parse_int(parts[2]) if len(parts) == 5 else None
    stage = parse_int(parts[3]) if len(parts) == 5 else None
    if number is None or stage is None:
        return  # not a button of ours
    k = parts[1]
    if number not in {e.number for e in who.roles.entries}:
        await refuse_role(update, who, "participant")
        return
    kind = Kind.HINT if k == "h" else Kind.SOLUTION
    # Stamped with the moment the buttons were shown (Telegram's date of that message, i.e.
    # when the person asked with /pista), never with data from the button itself.
    at = button_moment(update, context, await who.svc.day.linked_users(number))
    if at is None:
        return
    if query.message is not None:
        try:
            await query.edit_message_reply_markup(None)
        except Exception:  # noqa: BLE001 - the buttons may already be gone; nothing to do
            pass
    await do_request(update, context, who, number, kind, stage, at=at)


async def do_request(
    update: Update, context: ContextTypes.DEFAULT_TYPE, who: Caller, number: int, kind: Kind,
    stage: int, at: datetime | None = None,
) -> None:
    svc = who.svc
    contest = svc.contest
    if update.callback_query is None and await already_handled(update, who):
        return
    async with recording(svc):
        out = await operations.request(
            svc.day, who.user_id, number, kind, stage, at or who.at,
            update.update_id if update.callback_query is None else None,
        )
        if isinstance(out, Cooldown):  # recorded: the notice owed when they may ask again
            await answer(svc, update, said.refusal_line(who.lang, out, contest, number))
        elif isinstance(out, Refusal):
            await answer_now(svc, update, said.refusal_line(who.lang, out, contest, number))
        else:
            await _granted(update, context, who, out, number, kind, stage, at or who.at)
    if isinstance(out, Cooldown) and out.moment is not None:
        schedule_notice(context, number, f"cooldown:{number}:{out.next_at}", out.moment)


async def _granted(update: Update, context: ContextTypes.DEFAULT_TYPE, who: Caller,
                   out: Granted, number: int, kind: Kind, stage: int, at: datetime) -> None:
    """What a granted request is answered with, posted in its transaction: the answer, the
    volunteers' line, the partner's copy."""
    svc = who.svc
    contest = svc.contest
    await answer(svc, update, said.granted(who.lang, contest, out, number, kind, stage))
    rules = contest.escape
    assert rules is not None
    if rules.in_chat:  # the bot sent the text: the volunteers hear of it only if asked to
        if rules.tell_volunteers:
            await notify_staff(context, lambda lang: said.granted_staff_line(
                lang, contest, out, number, kind, stage, at))
    else:
        # "I'm going" under the line, in the volunteers' group or in each volunteer's private
        # copy (each copy recorded as one row, migration 0009: what made it cost 8 % of a
        # busy day)
        event = out.event_id
        await notify_staff(context, lambda lang: said.granted_staff_line(
            lang, contest, out, number, kind, stage, at),
            keyboard=lambda lang: [claim_row(lang, number, event)])
    # the partner's phone hears it too
    for partner in await svc.day.linked_users(number):
        if partner != who.user_id:
            await send(context, partner, said.granted(await language_of(svc, partner),
                                                       contest, out, number, kind, stage))


async def billetes(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await caller(update, context)
    if who is None:
        return
    entry, _ = await pick_entry(update, who, list(context.args or []), escape_only=True)
    if entry is None:
        return
    state = await who.svc.day.state(entry.number)
    assert state is not None and state.ledger is not None
    now_t = state.clock.elapsed(who.at)
    nxt = state.ledger.next_request_at
    moment = state.clock.instant_at(nxt) if nxt is not None else None
    await answer_now(who.svc, update,
                     texts.tickets_report(who.lang, who.svc.contest, state, now_t, moment))


