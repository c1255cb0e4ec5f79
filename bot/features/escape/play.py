"""The escape played in the chat (``[escape] play = "chat"``): each stage's enigma sent to the
pair's phones (at the start, and when a stage is passed), the answers typed or tapped on
either phone (any free text of a pair's phone while its escape runs, or /respuesta), the
solve told to the volunteers with the table, and the time limit with every stage known.

Every message here is posted in the operation's own transaction (the outbox): a right answer
is never recorded without its next enigma owed to both phones."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import datetime
from functools import partial
from typing import Any

from telegram import Update
from telegram.ext import ContextTypes

from bot.delivery.answers import answer, answer_now, recording
from bot.delivery.items import UPLOAD
from bot.delivery.posting import entry_phones, post_call, post_text, tell_entry, tell_staff
from bot.delivery.services import Services, language_of
from bot.domain.contest import Category, Contest, Enigma, EscapeRules
from bot.domain.events import EventKind
from bot.features.escape import operations, texts
from bot.features.escape import outcomes as said
from bot.features.escape.answers import is_right
from bot.features.escape.outcomes import RightAnswer, WrongAnswer
from bot.features.escape.rules import OUT_OF_PLAY, NotInChat, PassedByPartner
from bot.features.tables.sheets import hall_seats
from bot.handlers.common import Caller, already_handled, caller, parse_int, refuse_role
from bot.handlers.participant import not_understood
from bot.services.outcomes import Refusal
from bot.services.state import EntryState
from bot.storage.records import PRIORITY_ANSWER
from bot.storage.store import Entry
from bot.support.wallclock import CLOCK
from bot.texts.names import names

# the keyboard a stage without choices leaves (the last stage's buttons go with it)
NO_KEYBOARD = json.dumps({"remove_keyboard": True})


def keyboard(enigma: Enigma | None) -> str:
    """The choices of an enigma as the phone's own keyboard (a tap sends the choice as a
    message, dated by Telegram as anything typed is), two a row; none: the keyboard goes."""
    if enigma is None or not enigma.choices:
        return NO_KEYBOARD
    rows = [[{"text": c} for c in enigma.choices[i:i + 2]]
            for i in range(0, len(enigma.choices), 2)]
    return json.dumps({"keyboard": rows, "resize_keyboard": True}, ensure_ascii=False)


async def _picture(svc: Services, chat_id: int, enigma: Enigma) -> None:
    """The enigma's picture or file, before its text."""
    if enigma.picture is None:
        return
    photo = enigma.photo
    field = "photo" if photo else "document"
    await post_call(svc, chat_id, "sendPhoto" if photo else "sendDocument",
                    {UPLOAD: [field, enigma.picture]}, priority=PRIORITY_ANSWER)


async def tell_enigma(svc: Services, number: int, enigma: Enigma,
                      lead: Callable[[str], str] | None = None, skip: int | None = None) -> None:
    """Stage ``enigma.stage``'s enigma to every phone of pair ``number`` (``lead``: a line
    before it, in a language; ``skip``: the phone answered already)."""
    markup = keyboard(enigma)
    for user_id, lang, prefix in await entry_phones(svc, number):
        if user_id == skip:
            continue
        await _picture(svc, user_id, enigma)
        text = texts.enigma_text(lang, svc.contest, enigma, lead(lang) if lead else "")
        await post_text(svc, user_id, prefix + text, PRIORITY_ANSWER, markup=markup)


async def tell_pair(svc: Services, number: int, make: Callable[[str], str],
                    skip: int | None = None) -> None:
    """A line to every phone of pair ``number`` (but ``skip``), its enigma keyboard gone."""
    await tell_entry(svc, number, make, PRIORITY_ANSWER, skip=skip, markup=NO_KEYBOARD)


async def first_enigmas(svc: Services, started: Sequence[str]) -> None:
    """At a start (``started``: the units whose clocks just started), every pair of a category
    playing the escape in the chat gets stage 1's enigma, in the start's own transaction."""
    rules = svc.contest.escape
    first = rules.enigma(1) if rules is not None else None
    if first is None:
        return
    unreached: list[str] = []  # pairs no phone follows: nobody to send their enigma to
    for unit_id in started:
        category = svc.contest.category(unit_id)
        if category is None or not category.escape:
            continue
        clock = await svc.day.clock(category.id)
        # the pairs holding a place when the clock started (its date, Telegram's)
        for state in await svc.day.states(category, clock.started):
            if state.clock.started is not None and state.ledger is not None \
                    and (state.outcome is None or state.outcome.ref not in OUT_OF_PLAY):
                if not await svc.day.linked_users(state.entry.number):
                    unreached.append(f"#{state.entry.number} {names(state.entry.names)}")
                await tell_enigma(svc, state.entry.number, first)
    if unreached:
        await tell_staff(svc, lambda lang: texts.no_phone_line(lang, unreached))


async def respuesta(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``/respuesta [N] [ANSWER]``: an answer to the pair's enigma, or (none given) the enigma
    again with its choices."""
    who = await caller(update, context)
    if who is None:
        return
    if not who.roles.entries:
        await refuse_role(update, who, "participant")
        return
    rules = who.svc.contest.escape
    if rules is None or not rules.in_chat:
        await answer_now(who.svc, update, said.refused(who.lang, NotInChat(), who.svc.contest, 0))
        return
    args = list(context.args or [])
    playing = await _playing(who)
    mine = {e.number for e in who.roles.entries if _in_chat(who.svc.contest, e)}
    named = parse_int(args[0]) if args and len(mine) > 1 else None
    if named in mine and (len(args) > 1 or len(playing) > 1):
        # a phone following two pairs says which first (as it is told to), even once the
        # other's escape is over
        playing, args = [s for s in playing if s.entry.number == named], args[1:]
    elif len(playing) > 1:
        await answer_now(who.svc, update, texts.which_entry_answers(
            who.lang, [s.entry.number for s in playing]))
        return
    if not playing:
        await _nothing_to_answer(update, context, who, " ".join(args))
        return
    state = playing[0]
    if not args:
        await _show(update, who, state)
        return
    await _answer(update, who, state.entry.number, " ".join(args))


async def typed_answer(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Free text in a private chat: an answer when the phone follows a pair whose escape is
    played in the chat and running; anything else goes to the help's pointer."""
    rules = context.bot_data["contest"].escape if "contest" in context.bot_data else None
    if rules is None or not rules.in_chat:
        await not_understood(update, context)
        return
    who = await caller(update, context)
    msg = update.effective_message
    if who is None or msg is None or not who.roles.entries:
        await not_understood(update, context)
        return
    playing = await _playing(who)
    if len(playing) > 1:  # a choice tapped names its pair, when only one has it on screen
        playing = [s for s in playing if _offers(rules, s, msg.text or "")] or playing
    if len(playing) > 1:
        await answer_now(who.svc, update, texts.which_entry_answers(
            who.lang, [s.entry.number for s in playing]))
        return
    if not playing:
        await _nothing_to_answer(update, context, who, msg.text or "")
        return
    await _answer(update, who, playing[0].entry.number, msg.text or "")


def _offers(rules: EscapeRules, state: EntryState, text: str) -> bool:
    """Whether ``text`` is one of the choices of the enigma the pair is on (its keyboard)."""
    enigma = rules.enigma(state.ledger.stage) if state.ledger is not None else None
    return enigma is not None and text.strip() in enigma.choices


async def _playing(who: Caller) -> list[EntryState]:
    """The pairs the phone follows whose escape runs in the chat now (at the message's date)."""
    out = []
    for entry in who.roles.entries:
        if not _in_chat(who.svc.contest, entry):
            continue
        state = await who.svc.day.state(entry.number)
        t = state.clock.elapsed(who.at) if state is not None else None
        if state is not None and state.ledger is not None and t is not None \
                and not state.ledger.answers_over(t):
            out.append(state)
    return out


def _in_chat(contest: Contest, entry: Entry) -> bool:
    category = contest.category(entry.category)
    return bool(category is not None and category.escape and contest.escape is not None
                and contest.escape.in_chat)


async def _nothing_to_answer(update: Update, context: ContextTypes.DEFAULT_TYPE,
                             who: Caller, typed: str) -> None:
    """No pair of the phone's plays now: the last answer again once the other phone solved
    the escape is "solved already"; anything else, that there is no enigma (or, for a phone
    of no such pair, the help's pointer)."""
    mine = [e for e in who.roles.entries if _in_chat(who.svc.contest, e)]
    if not mine:
        await not_understood(update, context)
        return
    rules = who.svc.contest.escape
    last = rules.enigma(rules.stages) if rules is not None else None
    for entry in mine:
        state = await who.svc.day.state(entry.number)
        if state is not None and state.ledger is not None and last is not None \
                and state.ledger.solved_at is not None and is_right(last, typed):
            await answer_now(who.svc, update, said.refused(
                who.lang, PassedByPartner(last.stage), who.svc.contest, entry.number))
            return
    await answer_now(who.svc, update, texts.no_running_enigma(who.lang))


async def _show(update: Update, who: Caller, state: EntryState) -> None:
    """The pair's enigma again, to this phone only (nothing recorded)."""
    rules = who.svc.contest.escape
    assert rules is not None and state.ledger is not None
    enigma = rules.enigma(state.ledger.stage)
    if enigma is None:
        return
    msg = update.effective_message
    assert msg is not None
    await _picture(who.svc, msg.chat_id, enigma)
    await answer_now(who.svc, update, texts.enigma_text(who.lang, who.svc.contest, enigma),
                     reply_markup=keyboard(enigma))


async def _answer(update: Update, who: Caller, number: int, typed: str) -> None:
    svc = who.svc
    if await already_handled(update, who):
        return
    async with recording(svc):
        out = await operations.attempt(svc.day, who.user_id, number, typed, who.at,
                                       update.update_id)
        if isinstance(out, Refusal):
            await answer_now(svc, update, said.refusal_line(who.lang, out, svc.contest, number))
        elif isinstance(out, WrongAnswer):
            await answer(svc, update, texts.wrong_text(who.lang, svc.contest, out.stage,
                                                       out.wrong, out.moment, out.paused))
        else:
            await _passed(update, who, out)


async def _passed(update: Update, who: Caller, out: RightAnswer) -> None:
    """A stage passed: the next enigma to both phones (the one that answered reads it as the
    answer to its message); the last: the pair and the volunteers told (with the table), the
    puzzle to hand over."""
    svc = who.svc
    rules = svc.contest.escape
    msg = update.effective_message
    assert rules is not None and msg is not None
    number = out.entry
    if not out.solved and _over_by_now(out):  # dated in time, handled after the limit
        await answer(svc, update, texts.passed_after_time_up(who.lang, out.stage, out.time),
                     reply_markup=NO_KEYBOARD)
        await tell_pair(svc, number, lambda lang: texts.passed_after_time_up(
            lang, out.stage, out.time), skip=who.user_id)
        return
    if not out.solved:
        nxt = rules.enigma(out.stage + 1)
        assert nxt is not None
        await _picture(svc, msg.chat_id, nxt)
        await answer(svc, update, texts.enigma_text(
            who.lang, svc.contest, nxt, texts.right_lead(who.lang, out.stage, out.time)),
            reply_markup=keyboard(nxt))
        await tell_enigma(svc, number, nxt,
                          lambda lang: texts.right_lead(lang, out.stage, out.time),
                          skip=who.user_id)
        return
    table = (await hall_seats(svc.day)).get(number)
    await answer(svc, update, texts.solved_in_chat(who.lang, out.time, table),
                 reply_markup=NO_KEYBOARD)
    await tell_pair(svc, number, lambda lang: texts.solved_in_chat(lang, out.time, table),
                    skip=who.user_id)
    entry_names = names(out.state.entry.names) if out.state is not None else ""
    await tell_staff(svc, lambda lang: texts.solved_staff_line(lang, number, entry_names,
                                                               out.time, table))


def _over_by_now(out: RightAnswer) -> bool:
    """Whether the pair's escape time is up by now (this machine's clock): a stage passed by
    an answer sent in time but handled later (the bot was off) opens no enigma."""
    state, rules = out.state, out.state.ledger.rules if out.state and out.state.ledger else None
    now = state.clock.elapsed(CLOCK.now()) if state is not None else None
    return rules is not None and now is not None and now > rules.time_limit


async def handover(svc: Services, category: Category, unsolved: Sequence[EntryState],
                   tables: dict[int, int], limit: int) -> None:
    """At the escape's time limit, played in the chat: the volunteers read every pair still
    playing with its table and the stage its answers reached (nothing to confirm), and each
    pair's phones are told their stage, their keyboard gone."""
    rules = svc.contest.escape
    assert rules is not None
    reached = [(f"#{s.entry.number} {names(s.entry.names)}", tables.get(s.entry.number),
                s.ledger.stage if s.ledger is not None else 1) for s in unsolved]
    await tell_staff(svc, lambda lang: texts.handover_in_chat(lang, limit, category, reached))
    for s in unsolved:
        stage = s.ledger.stage if s.ledger is not None else 1
        await tell_pair(svc, s.entry.number, partial(_time_up, stage=stage, stages=rules.stages))


def _time_up(lang: str, stage: int, stages: int) -> str:
    return texts.time_up_in_chat(lang, stage, stages)


async def _current(svc: Services, number: int, at: datetime) -> Enigma | None:
    """The enigma pair ``number`` is on at ``at``, if its escape runs in the chat then (its
    clock going, not over, the pair holding its place and in play)."""
    rules = svc.contest.escape
    state = await svc.day.state(number) if rules is not None and rules.in_chat else None
    if state is None or state.ledger is None or rules is None:
        return None
    t = state.clock.elapsed(at)
    if t is None or state.ledger.answers_over(t) or (
            state.outcome is not None and state.outcome.ref in OUT_OF_PLAY):
        return None
    if not await svc.day.holds_place(number, at):
        return None
    return rules.enigma(state.ledger.stage)


async def on_follow(svc: Services, user_id: int, number: int, at: datetime) -> None:
    """A phone that starts following a pair while its escape runs in the chat (a partner
    joining late, a new phone for one that died, one let in by the table card) gets the
    pair's current enigma, as the other phones did (naming the pair where the phone follows
    another too)."""
    enigma = await _current(svc, number, at)
    if enigma is None:
        return
    phone = next((p for p in await entry_phones(svc, number) if p[0] == user_id), None)
    lang, prefix = (phone[1], phone[2]) if phone else (await language_of(svc, user_id), "")
    await _picture(svc, user_id, enigma)
    await post_text(svc, user_id, prefix + texts.enigma_text(lang, svc.contest, enigma),
                    PRIORITY_ANSWER, markup=keyboard(enigma))


async def on_undo(svc: Services, ev: Any, at: datetime) -> None:
    """A volunteer's solve, or a "did not start" or a disqualification, taken back while the
    pair's escape runs in the chat: its phones get its enigma again (its buttons with it)."""
    if ev.entry is None or ev.kind not in (EventKind.ESCAPE, EventKind.OUTCOME):
        return
    enigma = await _current(svc, ev.entry, at)
    if enigma is not None:
        await tell_enigma(svc, ev.entry, enigma)
