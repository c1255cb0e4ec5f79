"""Shared pieces of the handlers: the caller (language, role), refusals, buttons, timers."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from apscheduler.jobstores.base import JobLookupError  # type: ignore[import-untyped]
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import Application, ContextTypes

from bot.delivery.answers import SPEAKING, answer_now, over_budget
from bot.delivery.services import Services, language_of, services
from bot.delivery.telegram_time import CaughtUp, TelegramTime
from bot.domain.contest import Category
from bot.domain.numbers import parse_whole
from bot.features.registration.day import Registrations
from bot.features.registration.rules import typed_name_key
from bot.services.contest_day import Roles
from bot.support.i18n import tr
from bot.support.registry import REGISTRY
from bot.support.wallclock import CLOCK
from bot.texts.access import not_followed
from bot.texts.desk import unknown_category_text
from bot.texts.names import unit_names, usage_text

log = logging.getLogger(__name__)

# a command's handler, as each feature lists them in its COMMANDS
Callback = Callable[[Update, ContextTypes.DEFAULT_TYPE], Awaitable[object]]


@dataclass(frozen=True)
class Caller:
    svc: Services
    user_id: int
    lang: str
    roles: Roles
    at: datetime  # when the person sent the message (Telegram's date)
    update_id: int


def message_date(update: Update) -> datetime:
    """When the person sent it. A button press has no date of its own: the caller decides."""
    msg = update.effective_message
    assert msg is not None and msg.date is not None
    return msg.date


async def caller(update: Update, context: ContextTypes.DEFAULT_TYPE) -> Caller | None:
    svc = services(context)
    user = update.effective_user
    if user is None or update.effective_message is None:
        return None
    roles = await svc.day.roles(user.id)
    if roles.name != "stranger":
        # people we will write to later (notices, staff lines) are kept; a stranger's refused
        # command leaves the database untouched
        await svc.store.remember_person(user.id, user.full_name, user.language_code)
    lang = await language_of(svc, user.id, user.language_code)
    SPEAKING.set(lang)  # this update's task only: ``answer_now``'s notice is in this language
    return Caller(svc, user.id, lang, roles, message_date(update), update.update_id)


async def organiser(update: Update, context: ContextTypes.DEFAULT_TYPE) -> Caller | None:
    """The caller of an organisers' read-only command, or None once refused (nothing written)."""
    who = await caller(update, context)
    if who is not None and not who.roles.organiser:
        await refuse_role(update, who, "organiser")
        return None
    return who


async def recorder(update: Update, context: ContextTypes.DEFAULT_TYPE,
                   needed: str) -> Caller | None:
    """The caller of a command that records something, once let through: refused with the
    reason when their role may not use it (``needed``: "volunteer" or "organiser"), answered
    "already recorded" for a redelivered update. None once answered."""
    who = await caller(update, context)
    if who is None:
        return None
    allowed = who.roles.organiser if needed == "organiser" else who.roles.staff
    if not allowed:
        await refuse_role(update, who, needed)
        return None
    if await already_handled(update, who):
        return None
    return who


async def remember(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Keep someone who just became a participant or volunteer (name, Telegram language)."""
    user = update.effective_user
    if user is not None:
        await services(context).store.remember_person(user.id, user.full_name,
                                                      user.language_code)


async def show_usage(update: Update, who: Caller, line: str,
                     usage: Callable[[str, str], str] = usage_text) -> None:
    """How to type a command (``/historial N``), with the command as the reader types it
    (``usage``: a feature's own words for it, with its example)."""
    await answer_now(who.svc, update, usage(who.lang, line))


async def not_theirs(update: Update, who: Caller, number: int) -> None:
    """A button of entry ``number``, which this phone does not follow: answered as a typed
    command naming it is (someone who follows no entry: as anyone without one)."""
    if who.roles.entries:
        await answer_now(who.svc, update, not_followed(who.lang, str(number),
                                                       who.roles.entries))
    else:
        await refuse_role(update, who, "participant")


async def refuse_role(update: Update, who: Caller, needed: str) -> None:
    """A command this account may not use. Such refusals have a budget per chat
    (``Sender.admit``): an account sending them by the hundred is told a few times, then once
    that the bot will answer again in a while, and is not allowed to use up Telegram's shared
    limit, which everyone else's answers need."""
    msg = update.effective_message
    admitted = who.svc.sender.admit(msg.chat_id) if msg is not None else "yes"
    if admitted == "no":
        return
    if admitted == "notice":
        await answer_now(who.svc, update, over_budget(who.lang), admitted=True)
        return
    texts = {
        "participant": tr(who.lang, "This command is for participants: open your entry's link "
                          "first (ask the organisers)."),
        "volunteer": tr(who.lang, "This command is for volunteers and organisers."),
        "organiser": tr(who.lang, "This command is for organisers."),
    }
    await answer_now(who.svc, update, texts[needed])


async def already_handled(update: Update, who: Caller) -> bool:
    """A redelivered update (the bot stopped before Telegram heard it was handled)."""
    if await who.svc.day.already_handled(update.update_id):
        await answer_now(who.svc, update, tr(who.lang, "Already recorded."))
        return True
    return False


async def owed_on_follow(svc: Services, user_id: int, number: int, at: datetime) -> None:
    """What the features owe a phone that starts following entry ``number`` (by its link or
    its table card): the escape's current enigma, say."""
    for feature in REGISTRY.features:
        if feature.on_follow is not None:
            await feature.on_follow(svc, user_id, number, at)


def parse_int(text: str) -> int | None:
    """An entry number, a stage or a count as people type it: the one policy of
    ``bot.domain.numbers`` (digits of any script, at most 9, one leading "#" allowed)."""
    return parse_whole(text, hash_mark=True)


def named_unit(svc: Services, typed: Sequence[str], ids: Iterable[str]) -> str | None:
    """The one of ``ids`` (categories, rounds, heats) that the words ``typed`` name: its id or
    any name people read for it (``unit_names``), in any case, with or without accents; None
    when none does, or more than one ("Heats 2" of two categories)."""
    typed_text = " ".join(typed)
    ids = list(ids)
    for exact_id in (typed_text, typed_text.lower()):  # an id as typed: no names to compare
        if exact_id in ids:
            return exact_id
    key = typed_name_key(typed_text)
    if not key:
        return None
    rounds = svc.day.rounds
    found = [unit_id for unit_id in ids
             if any(typed_name_key(n) == key for n in {unit_id} | unit_names(svc.contest, rounds,
                                                                            unit_id))]
    exact = [unit_id for unit_id in found if typed_name_key(unit_id) == key]
    return exact[0] if exact else found[0] if len(found) == 1 else None


async def named_categories(update: Update, who: Caller, args: Sequence[str]
                           ) -> list[Category] | None:
    """Every category of the contest, or the one ``args`` name; None once the organiser was
    told that no category has that name (and which ones there are)."""
    contest = who.svc.contest
    if not args:
        return list(contest.categories)
    named = named_unit(who.svc, args, [c.id for c in contest.categories])
    category = contest.category(named) if named is not None else None
    if category is None:
        await answer_now(who.svc, update, unknown_category_text(who.lang, contest))
        return None
    return [category]


def registrations(context: ContextTypes.DEFAULT_TYPE) -> Registrations:
    regs: Registrations = context.bot_data["registrations"]
    return regs


async def pressed(update: Update,
                  context: ContextTypes.DEFAULT_TYPE) -> tuple[str, Caller | None]:
    """A button: answered at once (Telegram stops the spinner), its data and who pressed it
    (None: nobody the bot can serve)."""
    query = update.callback_query
    assert query is not None and query.data is not None
    await query.answer()
    return query.data, await caller(update, context)


async def answered_question(update: Update, context: ContextTypes.DEFAULT_TYPE, prefix: str,
                            role: str) -> tuple[int | None, Caller] | None:
    """A press on one of a question's buttons (data ``prefix`` + a number, or ``prefix`` +
    "-" for its No), answered at once: the number (None for No) and the presser, checked for
    ``role`` as a typed command is. None: not a button of ours, or nobody who may answer."""
    query = update.callback_query
    assert query is not None and query.data is not None
    await query.answer()
    choice = query.data.removeprefix(prefix)
    number = parse_int(choice) if choice != "-" else None
    if number is None and choice != "-":
        return None
    who = await recorder(update, context, role)
    return None if who is None else (number, who)


def buttons(rows: list[list[tuple[str, str]]]) -> InlineKeyboardMarkup:
    """Inline buttons from rows of (text, callback data)."""
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(text, callback_data=data) for text, data in row] for row in rows]
    )


def choice_buttons(prefix: str, choices: Iterable[tuple[str, str]], per_row: int = 2
                   ) -> InlineKeyboardMarkup | None:
    """A button per (label, id), ``per_row`` to a row, each with data ``prefix`` + id (an id
    too long for a button's 64 bytes is left out: it is still typed); None without any."""
    keys = [(label, prefix + i) for label, i in choices if len((prefix + i).encode()) <= 64]
    if not keys:
        return None
    return buttons([keys[k:k + per_row] for k in range(0, len(keys), per_row)])


def button_moment(update: Update, context: ContextTypes.DEFAULT_TYPE,
                  people: Iterable[int] = ()) -> datetime | None:
    """When a tapped button counts as pressed: the later of when its message was shown (Telegram's
    date; button data can be forged by a modified client, this date cannot) and the newest
    message that the presser or ``people`` (the entry's) sent before the press
    (``TelegramTime``). None if Telegram gave no date."""
    query = update.callback_query
    message = query.message if query is not None else None
    shown = getattr(message, "date", None)
    if not isinstance(shown, datetime) or shown.timestamp() <= 0:
        return None
    clock: TelegramTime | None = context.bot_data.get("telegram_time")
    who = {query.from_user.id} if query is not None and query.from_user else set()
    floor = clock.before(update.update_id, who | set(people)) if clock is not None else None
    return max(shown, floor) if floor is not None else shown


# A deadline is decided this long after it on this machine's clock, once every update Telegram
# held then has been handled (CaughtUp): an answer Telegram dated before the deadline counts,
# however late it reaches the bot (off across the deadline, a slow network), and this machine's
# clock may run ahead of Telegram's by up to this much
DEADLINE_GRACE = timedelta(seconds=30)


def deadline_press(update: Update, context: ContextTypes.DEFAULT_TYPE,
                   people: Iterable[int] = ()) -> datetime | None:
    """When a button answering something with a deadline counts as pressed: as
    ``button_moment``, and no earlier than anyone's message that reached Telegram before it
    (Telegram's order: a press that waited while the bot was off, behind messages dated after
    the deadline, came late)."""
    at = button_moment(update, context, people)
    if at is None:
        return None
    clock: TelegramTime | None = context.bot_data.get("telegram_time")
    floor = clock.before_anyone(update.update_id) if clock is not None else None
    return max(at, floor) if floor is not None else at




# -- timers ------------------------------------------------------------------------------------

# APScheduler skips a job more than a second late ("misfire"): a laptop that slept across the
# moment a notice was due would never send it. A late job still runs; each job checks in the
# database whether its announcement is still owed (and clock alerts whether it still helps).
LATE_IS_STILL_OWED: dict[str, Any] = {"misfire_grace_time": None, "coalesce": True}


async def caught_up_to(context: Any) -> datetime | None:
    """A timer's moment (its data's ``when``), once every message Telegram dated before it has
    been read (a registration or a payment still on its way); None: the bot is stopping."""
    job = context.job
    assert job is not None and isinstance(job.data, dict)
    moment = datetime.fromtimestamp(job.data["when"], UTC)
    caught_up: CaughtUp | None = context.application.bot_data.get("caught_up")
    if caught_up is not None and not await caught_up.wait(moment):
        return None
    return moment


def replace_job(app: Application[Any, Any, Any, Any, Any, Any], name: str, callback: Any,
                when: datetime, data: dict[str, Any]) -> None:
    """Schedule ``callback`` at ``when`` under ``name``, replacing the job of that name."""
    jq = app.job_queue
    assert jq is not None, "python-telegram-bot[job-queue] is required"
    named: dict[str, Any] = app.bot_data.setdefault("jobs_by_name", {})
    old = named.get(name)
    if old is not None and not old.removed:
        try:
            old.schedule_removal()  # kept by name: no scan of every job in the queue
        except JobLookupError:
            pass  # it already ran

    named[name] = jq.run_once(callback, when=CLOCK.seconds_until(when), name=name, data=data,
                              job_kwargs=LATE_IS_STILL_OWED)


async def question_choice(update: Update, context: ContextTypes.DEFAULT_TYPE, prefix: str,
                          declined: Callable[[str], str]) -> tuple[str, Caller] | None:
    """An organiser's button under a question that asks before something can't be taken back
    (``prefix``: its buttons'): the choice and who pressed; None once answered (someone who
    may not, or "-": nothing done, ``declined`` says so)."""
    query = update.callback_query
    assert query is not None and query.data is not None
    await query.answer()
    choice = query.data.removeprefix(prefix)
    who = await recorder(update, context, "organiser")
    if who is None:
        return None
    if choice == "-":
        await answer_now(who.svc, update, declined(who.lang))
        return None
    return choice, who
