"""The Application: services in post_init, every handler registered here, in one place."""

from __future__ import annotations

import gc
import html
import logging
import re
from dataclasses import replace
from functools import partial
from typing import Any

import httpx
from telegram import Update
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)
from telegram.request import BaseRequest

from bot.chat.persistence import SQLitePersistence
from bot.chat.polling import AFTER_START, retry_network
from bot.chat.skips import listen_for_skips, start_the_clock
from bot.chat.updates import PerChatUpdateProcessor
from bot.delivery.announcements import fall_back
from bot.delivery.limits import TELEGRAM_LIMITS, SenderAwareLimiter
from bot.delivery.posting import chat_name, claim_note, organiser_recipients, staff_recipients
from bot.delivery.requests import TelegramOnlyRequest
from bot.delivery.sender import STAFF_GAP, Sender
from bot.delivery.services import Services
from bot.delivery.telegram_time import CaughtUp
from bot.domain.contest import Contest
from bot.features.installed import FEATURES
from bot.handlers import (
    access,
    claims,
    clocks,
    desk,
    entries,
    history,
    participant,
    ready,
    rounds,
)
from bot.handlers.commands import names_for
from bot.handlers.common import Callback
from bot.handlers.jobs import schedule_contest_jobs, watch_the_clock
from bot.handlers.menus import schedule_menu_changes, send_waiting_menus, set_default_menus
from bot.services.access import standing_organiser_invite
from bot.services.contest_day import ContestDay
from bot.storage.store import Store
from bot.support.config import Config, base_url
from bot.support.i18n import tr
from bot.support.loop import loop_name
from bot.support.wallclock import CLOCK
from bot.tools import scoreboard

log = logging.getLogger(__name__)

HANDLERS: dict[str, Callback] = {
    **access.COMMANDS,
    **ready.COMMANDS,
    **history.COMMANDS,
    **clocks.COMMANDS,
    **rounds.COMMANDS,
    **entries.COMMANDS,
    **desk.COMMANDS,
    **{name: callback for f in FEATURES for name, callback in f.handlers.items()},
}



class CommandRouter(CommandHandler[Any, object]):
    """Every plain command in one handler: the message is parsed once and its command looked up,
    where one CommandHandler per command would each parse it again to say no (25 of them, and
    the day's busiest commands came last)."""

    def __init__(self, routes: dict[str, Callback]) -> None:
        self.routes = {alias: callback for name, callback in routes.items()
                       for alias in names_for(name)}
        super().__init__(list(self.routes), self._route)

    async def _route(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> object:
        msg = update.effective_message
        assert msg is not None and msg.text is not None and msg.entities
        command = msg.text[1:msg.entities[0].length].split("@")[0].lower()
        return await self.routes[command](update, context)


class StoreHandle:
    """Opens the one Store on first use: persistence needs it before post_init runs."""

    def __init__(self, path: str, store: Store | None = None) -> None:
        self.path = path
        self.store: Store | None = store  # given: opened (and checked) by the caller

    async def get(self) -> Store:
        if self.store is None:
            self.store = await Store.open(self.path)
        return self.store


def build_application(
    config: Config,
    contest: Contest,
    request: BaseRequest | None = None,
    updates_request: BaseRequest | None = None,
    rate_limiter: bool = True,
    store: Store | None = None,
) -> Application[Any, Any, Any, Any, Any, Any]:
    """The bot, its handlers and its settings; ``store``: the database already open (else it
    is opened when the persistence first asks for it). Closed at its shutdown either way."""
    builder: ApplicationBuilder[Any, Any, Any, Any, Any, Any] = (
        ApplicationBuilder().token(config.token).base_url(base_url(config.base_url)))
    processor = PerChatUpdateProcessor()
    builder = builder.concurrent_updates(processor)
    # no Updater: chat/polling.py fetches updates and confirms each only once it is handled
    builder = builder.updater(None)
    # an answer that is not Telegram's JSON (a proxy's page) is an outage, not a refusal
    # (``TelegramOnlyRequest``); PTB's own pool sizes (256 for calls, 1 for getUpdates)
    # One TLS context for both: each client would load the certificates again (40-60 ms of
    # every start); made as httpx makes its own (``SSL_CERT_FILE``, ``SSL_CERT_DIR``, certifi)
    tls = {"verify": httpx.create_ssl_context()} if request is None or updates_request is None \
        else {}
    builder = builder.request(request if request is not None
                              else TelegramOnlyRequest(connection_pool_size=256,
                                                       read_timeout=config.read_timeout,
                                                       httpx_kwargs=tls))
    builder = builder.get_updates_request(updates_request if updates_request is not None
                                          else TelegramOnlyRequest(connection_pool_size=1,
                                                                   httpx_kwargs=tls))
    if rate_limiter:  # per simulated second in a rehearsal (speed 1 for real), as the sender
        builder = builder.rate_limiter(SenderAwareLimiter(
            overall_time_period=1 / CLOCK.pace, group_time_period=60 / CLOCK.pace,
            max_retries=3))
    handle = StoreHandle(config.db_path, store)
    builder = builder.persistence(SQLitePersistence(handle.get))
    builder = builder.post_init(_post_init).post_stop(_post_stop)
    builder = builder.post_shutdown(_post_shutdown)
    app = builder.build()
    app.bot_data["config"] = config
    app.bot_data["contest"] = contest
    app.bot_data["store_handle"] = handle
    app.bot_data["telegram_time"] = processor.telegram_time
    app.bot_data["caught_up"] = CaughtUp()  # deadlines wait for what Telegram held then
    app.bot_data[AFTER_START] = (send_default_menus,)
    register(app)
    return app


def register(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    for feature in FEATURES:  # asked before every command: the registration's conversation
        for handler, group in feature.ahead(app) if feature.ahead is not None else ():
            app.add_handler(handler, group=group)
    app.add_handler(CommandRouter(HANDLERS))
    app.add_handler(CallbackQueryHandler(entries.baja_button, pattern=r"^baja:"))
    app.add_handler(CallbackQueryHandler(access.language_button, pattern=r"^lang:"))
    app.add_handler(CallbackQueryHandler(claims.claim_pressed, pattern=r"^take:"))
    app.add_handler(CallbackQueryHandler(history.undo_pressed, pattern=r"^undo:"))
    app.add_handler(CallbackQueryHandler(clocks.announce_pressed, pattern=r"^ann:"))
    app.add_handler(CallbackQueryHandler(clocks.start_button, pattern=r"^go:"))
    app.add_handler(CallbackQueryHandler(rounds.confirm_pressed, pattern=r"^cr:"))
    app.add_handler(CallbackQueryHandler(ready.listo_button, pattern=r"^listo:"))
    for feature in FEATURES:
        for prefix, callback in feature.buttons.items():
            app.add_handler(CallbackQueryHandler(callback, pattern="^" + re.escape(prefix)))
    for feature in FEATURES:  # handlers of other kinds (a photo's), before the catch-all
        for handler in feature.other_handlers:
            app.add_handler(handler)
    # last: what nothing above took (free text, an unknown command) gets a pointer to /ayuda
    app.add_handler(MessageHandler(filters.TEXT & filters.ChatType.PRIVATE,
                                   participant.not_understood))
    app.add_error_handler(on_error)


async def open_services(app: Application[Any, Any, Any, Any, Any, Any]) -> Services:
    config: Config = app.bot_data["config"]
    contest: Contest = app.bot_data["contest"]
    handle: StoreHandle = app.bot_data["store_handle"]
    store = await handle.get()
    svc = Services(config, contest, store, ContestDay(contest, store, config.organisers))
    app.bot_data["services"] = svc
    app.bot_data["registrations"] = svc.day.registrations  # the day's read model
    return svc


# Collect the young generation every 10,000 allocations, not 700: each update allocates a few
# hundred short-lived objects, and the default ran full collections mid-rush (bench/README.md).
GC_YOUNG, GC_OLDER = 10_000, 20


def tune_gc() -> None:
    gc.set_threshold(GC_YOUNG, GC_OLDER, GC_OLDER)


async def _post_init(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    svc: Services = app.bot_data.get("services") or await open_services(app)
    # what people are owed goes out from the outbox, paced within Telegram's limits when the
    # bot talks to Telegram (AIORateLimiter on); the tests' and the benchmark's fake has none.
    # In a rehearsal the pace is per simulated second, as the rest of the day (speed 1 for real)
    processor = app.update_processor
    follow_moves(app, svc, await svc.store.chat_moves())
    sender = Sender(app.bot, svc.store,
                    TELEGRAM_LIMITS.faster(CLOCK.pace) if app.bot.rate_limiter is not None
                    else None,
                    quiet=processor.idle if isinstance(processor, PerChatUpdateProcessor)
                    else None, recipients=partial(staff_recipients, svc),
                    staff_gap=STAFF_GAP / CLOCK.speed,
                    organisers=partial(organiser_recipients, svc), name_of=partial(chat_name, svc),
                    on_moved=lambda old, new: _follow_move(app, svc, old, new),
                    note_of=partial(claim_note, svc),
                    announce_chat=lambda: svc.config.announce_chat,
                    fall_back=partial(fall_back, svc),
                    invoice_token=lambda: svc.config.payment_token)
    app.bot_data["sender"] = sender
    svc.attach_sender(sender)
    # a press waiting since before a restart is not stamped earlier than what was recorded
    for user_id, moment in (await svc.store.newest_message_dates()).items():
        app.bot_data["telegram_time"].seen(user_id, moment)
    await sender.start()
    start_the_clock()  # a rehearsal's clock, held while the bot started, runs from here
    schedule_menu_changes(app)
    await schedule_contest_jobs(app)
    watch_the_clock(app)
    for feature in FEATURES:
        if feature.on_start is not None:
            await feature.on_start(app)
    listen_for_skips(app)  # a rehearsal's idle stretches (never for a real contest)
    await scoreboard.attach(app)
    await print_organiser_link(app, svc)
    tune_gc()
    log.info("bot ready (%s event loop)", loop_name())


async def send_default_menus(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """The menus and the bot's description before anyone has a role (``set_default_menus``:
    25 calls to Telegram, a second or more on a slow line): once the bot takes updates
    (``AFTER_START``), while it answers, not before its first answer. Telegram keeps them
    between starts, so until they are sent a phone sees the last start's."""
    await retry_network("setMyCommands", lambda: set_default_menus(app))


def follow_moves(app: Application[Any, Any, Any, Any, Any, Any], svc: Services,
                       moves: dict[int, int]) -> None:
    """The volunteers' group or the announcements group moved by Telegram (kept in the
    database): its new id is used."""
    for old, new in moves.items():
        _follow_move(app, svc, old, new)


def _follow_move(app: Application[Any, Any, Any, Any, Any, Any], svc: Services, old: int,
                 new: int) -> None:
    if svc.config.volunteer_chat == old:
        svc.config = replace(svc.config, volunteer_chat=new)
        app.bot_data["config"] = svc.config
        log.info("the volunteers' group %s is now %s (moved by Telegram)", old, new)
    if svc.config.announce_chat == old:
        svc.config = replace(svc.config, announce_chat=new)
        app.bot_data["config"] = svc.config
        log.info("the announcements group %s is now %s (moved by Telegram)", old, new)


def organiser_link(username: str | None, code: str) -> str:
    return f"https://t.me/{username}?start={code}"


async def print_organiser_link(app: Application[Any, Any, Any, Any, Any, Any],
                               svc: Services) -> None:
    """The one-time organiser link, on the console (never in the chat): made when the bot has
    no organiser at all, printed again at every start until someone opens it."""
    none_yet = not await svc.day.all_organisers()
    code = await standing_organiser_invite(svc.day, CLOCK.now(), create=none_yet)
    if code is None:
        return
    link = organiser_link(app.bot.username, code)
    if none_yet:
        log.warning("no organiser yet: open this link on the organiser's phone (it works once, "
                    "for whoever opens it first): %s", link)
    else:
        log.info("organiser link not used yet (it works once): %s", link)


async def _post_stop(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """A clean stop, the bot still able to call Telegram: the chats' menus still settling are
    set (in memory only, they would be lost), then the sending stops."""
    await send_waiting_menus(app)
    for feature in FEATURES:
        if feature.on_stop is not None:
            await feature.on_stop(app)
    await _stop_sending(app)


async def _stop_sending(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """The sends under way end (a moment given), the marks are written; what is still owed
    waits in the database for the next start."""
    sender: Sender | None = app.bot_data.pop("sender", None)
    if sender is not None:
        await sender.stop()
        svc: Services | None = app.bot_data.get("services")
        if svc is not None:
            svc.attach_sender(None)


async def _post_shutdown(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    await _stop_sending(app)
    await scoreboard.detach(app)
    svc = app.bot_data.get("services")
    if svc is not None:
        await svc.store.close()
        return
    handle: StoreHandle | None = app.bot_data.get("store_handle")
    if handle is not None and handle.store is not None:
        await handle.store.close()  # opened by the persistence; stopped before post_init


async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    log.error("error while handling an update", exc_info=context.error)
    if isinstance(update, Update) and update.effective_message is not None:
        lang = "es"
        user = update.effective_user
        if user is not None and user.language_code:
            lang = user.language_code[:2]
        try:
            await update.effective_message.reply_text(html.unescape(tr(
                lang, "Something went wrong on my side. Please try again in a moment."
            )))
        except Exception:  # noqa: BLE001 - the error handler must not raise
            log.warning("could not tell the user about the error")
