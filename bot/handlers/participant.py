"""Participants: /start (linking), /ayuda, /idioma, /pista, /solucion, /billetes, /listo."""

from __future__ import annotations

from datetime import datetime

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import ContextTypes

from bot.domain.clock import format_duration
from bot.domain.escape import Kind
from bot.handlers.commands import menu, view_for
from bot.handlers.common import (
    Caller,
    already_handled,
    button_moment,
    caller,
    language_of,
    notify_staff,
    parse_int,
    recording,
    refuse_role,
    remember,
    reply,
    send,
    sender_for,
    show_usage,
)
from bot.handlers.jobs import schedule_notice
from bot.handlers.menus import refresh_menu
from bot.services.contest_day import Cooldown, Granted
from bot.services.outcomes import EscapeNotOver, PastLimit, Refusal
from bot.storage.store import Entry
from bot.support.commands import BY_NAME
from bot.support.i18n import LANGUAGES, ntr, tr
from bot.texts.common import clock_time, names, refusal, tickets_report


def help_text(who: Caller) -> str:
    lang = who.lang
    lines = [tr(lang, "Puzzle contest: {name}", name=who.svc.contest.name)]
    if who.roles.entries:
        lines.append(tr(lang, "Your entries: {entries}",
                        entries=", ".join(f"#{e.number} {names(e.names)}"
                                          for e in who.roles.entries)))
    # what their menu shows, and the registration's commands while registration is open
    view = view_for(who.svc.contest, who.at, who.roles.name,
                    [e.category for e in who.roles.entries])
    for name, description in menu(who.roles.name, lang, view):
        lines.append(f"/{name} - {description}")
    if len(who.roles.entries) > 1:
        lines.append(tr(lang, "You follow several entries: put the entry number first, e.g. "
                        "/billetes {n}.", n=who.roles.entries[0].number))
    return "\n".join(lines)


async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await caller(update, context)
    if who is None:
        return
    code = context.args[0] if context.args else ""
    if not code:
        text = tr(who.lang, "Hello! I run the puzzle contest on the day.")
        if not who.roles.entries and not who.roles.staff:
            text += "\n" + tr(who.lang, "To follow your entry, open the link the organisers gave "
                              "you (or scan the QR code on your table).")
        await reply(update, text + "\n\n" + help_text(who))
        await refresh_menu(context, who.user_id)
        return
    if await already_handled(update, who):
        return
    day = who.svc.day
    if code.startswith("o"):
        await _join_organiser(update, context, who, code)
        return
    if code.startswith("v"):
        async with recording(who.svc):
            joined = await day.join_volunteer(who.user_id, code, who.at, update.update_id)
            if isinstance(joined, Refusal):
                await reply(update, refusal(who.lang, joined, who.svc.contest))
                return
            await remember(update, context)
            if joined.already:
                await reply(update, tr(who.lang, "You are already a volunteer."))
            else:
                await reply(update, tr(who.lang, "Welcome, volunteer! You can now record "
                                       "stages, escapes, finishes and pieces.") + "\n\n"
                            + help_text(await caller(update, context) or who))
        await refresh_menu(context, who.user_id)
        return
    async with recording(who.svc):
        out = await day.link(who.user_id, code, who.at, update.update_id)
        if isinstance(out, Refusal):
            await reply(update, refusal(who.lang, out, who.svc.contest))
            return
        await remember(update, context)
        await reply(update, _linked_text(who, out.entry, out.already))
    await refresh_menu(context, who.user_id)


async def _join_organiser(update: Update, context: ContextTypes.DEFAULT_TYPE, who: Caller,
                          code: str) -> None:
    async with recording(who.svc):
        joined = await who.svc.day.join_organiser(who.user_id, code, who.at, update.update_id)
        if isinstance(joined, Refusal):
            await reply(update, refusal(who.lang, joined, who.svc.contest))
            return
        await remember(update, context)
        if joined.already:
            await reply(update, tr(who.lang, "You are already an organiser."))
        else:
            await reply(update, tr(who.lang, "Welcome, organiser! You can now start the clocks, "
                                   "see the rankings and invite volunteers (/voluntario).")
                        + "\n\n" + help_text(await caller(update, context) or who))
    await refresh_menu(context, who.user_id)


def _linked_text(who: Caller, entry: Entry, already: bool) -> str:
    category = who.svc.contest.category(entry.category)
    text = tr(who.lang, "You follow entry #{entry} ({names}), category {category}.",
              entry=entry.number, names=names(entry.names),
              category=category.name if category else entry.category)
    if already:
        text = tr(who.lang, "You already follow entry #{entry}.", entry=entry.number)
    if category is not None and category.escape:
        text += "\n" + tr(who.lang, "During the escape: /pista for a hint, /solucion for a "
                          "solution, /billetes for your tickets. When you finish the puzzle: "
                          "/listo.")
    elif category is not None:
        text += "\n" + tr(who.lang, "When you finish the puzzle, send /listo.")
    return text


async def ayuda(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await caller(update, context)
    if who is None:
        return
    await reply(update, help_text(who))


LANGUAGE_NAMES = {"es": "Español", "fr": "Français", "en": "English"}


async def idioma(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await caller(update, context)
    if who is None:
        return
    if context.args:
        choice = context.args[0].lower()[:2]
        if choice not in LANGUAGES:
            await reply(update, tr(who.lang, "Languages: es, fr, en. Example: /idioma fr"))
            return
        await set_language(update, context, who, choice)
        return
    buttons = [[InlineKeyboardButton(LANGUAGE_NAMES[code], callback_data=f"lang:{code}")
                for code in LANGUAGES]]
    await reply(update, tr(who.lang, "Choose your language:"),
                reply_markup=InlineKeyboardMarkup(buttons))


async def set_language(update: Update, context: ContextTypes.DEFAULT_TYPE, who: Caller,
                       choice: str) -> None:
    await who.svc.store.set_language(who.user_id, choice)
    await refresh_menu(context, who.user_id)
    await reply(update, tr(choice, "I will write to you in English."))


async def language_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    assert query is not None and query.data is not None
    await query.answer()
    who = await caller(update, context)
    choice = query.data.split(":", 1)[1]
    if who is None or choice not in LANGUAGES:
        return
    await set_language(update, context, who, choice)


# -- which entry? ----------------------------------------------------------------------------


async def pick_entry(
    update: Update, who: Caller, args: list[str], escape_only: bool, takes_stage: bool = False
) -> tuple[Entry | None, list[str]]:
    """The entry a participant command is about, and the arguments left.

    An entry number comes first when given (``/billetes 12``, ``/pista 12 3``); without one,
    the only entry the person follows (of the right kind). For ``/pista 3`` a lone number is the
    stage.
    """
    contest = who.svc.contest
    followed = list(who.roles.entries)
    if not followed:
        await refuse_role(update, who, "participant")
        return None, args

    def has_escape(e: Entry) -> bool:
        c = contest.category(e.category)
        return c is not None and c.escape

    explicit = args[0] if (len(args) >= 2 if takes_stage else len(args) >= 1) else None
    if explicit is not None:
        number = parse_int(explicit)
        chosen = next((e for e in followed if e.number == number), None)
        if chosen is None:
            await reply(update, tr(who.lang, "You don't follow entry {entry}. Your entries: "
                                   "{list}.", entry=explicit[:12],
                                   list=", ".join(f"#{e.number}" for e in followed)))
            return None, args
        if escape_only and not has_escape(chosen):
            await reply(update, tr(who.lang, "Entry {entry} has no escape stage.",
                                   entry=chosen.number))
            return None, args
        return chosen, args[1:]
    candidates = [e for e in followed if not escape_only or has_escape(e)]
    if not candidates:
        await reply(update, tr(who.lang, "Your entry has no escape stage."))
        return None, args
    if len(candidates) == 1:
        return candidates[0], args
    msg = update.effective_message
    command = (msg.text or "/").split()[0][1:].split("@")[0] if msg is not None else ""
    await reply(update, tr(who.lang, "You follow entries {list}: put the number first, e.g. "
                           "/{command} {n}.", list=", ".join(f"#{e.number}" for e in candidates),
                           command=command, n=candidates[0].number))
    return None, args


# -- hints and solutions ---------------------------------------------------------------------


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
            await show_usage(update, who, "/{} [{}]".format(
                "pista" if kind is Kind.HINT else "solucion",
                tr(who.lang, "stage 1-{stages}", stages=rules.stages)))
            return
        await do_request(update, context, who, entry.number, kind, stage)
        return
    state = await who.svc.day.state(entry.number)
    assert state is not None and state.ledger is not None
    first = state.ledger.stage
    stamp = int(who.at.timestamp())
    buttons = [
        InlineKeyboardButton(
            tr(who.lang, "Stage {stage}", stage=s),
            callback_data=f"ask:{kind.value[0]}:{entry.number}:{s}:{stamp}",
        )
        for s in range(first, rules.stages + 1)
    ]
    rows = [buttons[i:i + 3] for i in range(0, len(buttons), 3)]
    question = (tr(who.lang, "Hint for which stage?") if kind is Kind.HINT
                else tr(who.lang, "Solution for which stage?"))
    await reply(update, question, reply_markup=InlineKeyboardMarkup(rows))


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
        out = await svc.day.request(
            who.user_id, number, kind, stage, at or who.at,
            update.update_id if update.callback_query is None else None,
        )
        if isinstance(out, Refusal):
            await reply(update, refusal(who.lang, out, contest))
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
    charge = out.charge
    state = out.state
    assert state is not None and state.ledger is not None
    rules = contest.escape
    assert rules is not None
    texts = rules.hints if kind is Kind.HINT else rules.solutions
    ledger = state.ledger

    def answer(lang: str) -> str:
        what = (tr(lang, "Hint for stage {stage}", stage=stage) if kind is Kind.HINT
                else tr(lang, "Solution for stage {stage}", stage=stage))
        lines = [f"{what} (#{number})."]
        if stage in texts:
            lines.append(texts[stage])
        else:
            lines.append(tr(lang, "A volunteer is coming to your table."))
        cost = ntr(lang, "Charged: {n} ticket.", "Charged: {n} tickets.", charge.tickets_used)
        if charge.tickets_bought:
            cost += " " + ntr(lang, "Bought with time: {n} ticket, +{penalty}.",
                              "Bought with time: {n} tickets, +{penalty}.",
                              charge.tickets_bought, penalty=format_duration(charge.penalty))
        lines.append(cost)
        lines.append(tr(lang, "Tickets left: {left}. Penalties so far: {penalty}.",
                        left=ledger.tickets_left, penalty=format_duration(ledger.penalty)))
        return "\n".join(lines)

    await reply(update, answer(who.lang))
    t = state.clock.elapsed(at) or 0

    def staff_line(lang: str) -> str:
        kind_text = tr(lang, "hint") if kind is Kind.HINT else tr(lang, "solution")
        return tr(lang, "#{entry} {names}: {kind} stage {stage} at {time} ({clock}). "
                  "Tickets used {used}, bought {bought}; {left} left.",
                  entry=number, names=names(state.entry.names), kind=kind_text, stage=stage,
                  time=format_duration(t), clock=clock_time(contest, at),
                  used=charge.tickets_used, bought=charge.tickets_bought,
                  left=state.ledger.tickets_left if state.ledger else 0)

    await notify_staff(context, staff_line)
    # the partner's phone hears it too
    for partner in await svc.day.linked_users(number):
        if partner != who.user_id:
            await send(context, partner, answer(await language_of(svc, partner)))


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
    await reply(update, tickets_report(who.lang, who.svc.contest, state, now_t, moment))


async def listo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await caller(update, context)
    if who is None:
        return
    entry, _ = await pick_entry(update, who, list(context.args or []), escape_only=False)
    if entry is None:
        return
    if await already_handled(update, who):
        return
    contest = who.svc.contest
    async with recording(who.svc):
        out = await who.svc.day.ready(who.user_id, entry.number, who.at, update.update_id)
        if isinstance(out, PastLimit):  # the participants' answer, not the volunteers'
            await reply(update, tr(who.lang, "Time is up ({limit}): hands off the puzzle. A "
                                   "volunteer will count your pieces.",
                                   limit=format_duration(out.limit)))
            return
        if isinstance(out, EscapeNotOver):  # the participants' answer, not the volunteers'
            await reply(update, tr(who.lang, "Your escape is not over yet: when you solve it, "
                                   "call a volunteer, who records it. Then the puzzle!"))
            return
        if isinstance(out, Refusal):
            await reply(update, refusal(who.lang, out, contest))
            return
        t = out.time
        await reply(update, tr(who.lang, "Noted: finished at {time} ({clock}). A volunteer is "
                               "coming to check.", time=format_duration(t),
                               clock=clock_time(contest, who.at)))
        await notify_staff(context, lambda lang: tr(
            lang, "FINISHED? #{entry} {names} says done at {time} ({clock}): go and check, "
            "then /fin {entry}.", entry=entry.number, names=names(entry.names),
            time=format_duration(t), clock=clock_time(contest, who.at)))


async def not_understood(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Free text, or a command the bot does not know, in a private chat: one line pointing to
    the help, in the person's language (budgeted like refusals: a flood gets few answers)."""
    msg = update.effective_message
    if msg is None or msg.chat.type != "private":
        return
    first = (msg.text or "").split(maxsplit=1)[0] if (msg.text or "").strip() else ""
    if first.startswith("/") and "@" in first and \
            first.split("@", 1)[1].lower() != (context.bot.username or "").lower():
        return  # a command for another bot
    who = await caller(update, context)
    if who is None or sender_for(msg.get_bot()).admit(msg.chat_id) == "no":
        return
    help_name = BY_NAME["ayuda"].name_in(who.lang)
    if (msg.text or "").startswith("/"):
        text = tr(who.lang, "I don't know that command. /{help} lists what you can do.",
                  help=help_name)
    else:
        text = tr(who.lang, "I only understand commands. /{help} lists what you can do.",
                  help=help_name)
    await reply(update, text)
