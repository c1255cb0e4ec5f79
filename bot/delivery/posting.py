"""Messages to people other than the one who asked: one chat, the phones of an entry, the
volunteers' line; posted to the outbox in the running ``recording`` operation (or one of their
own), sent once it commits."""

from __future__ import annotations

import logging
from collections.abc import Callable
from json.encoder import encode_basestring as _string
from typing import Any

from telegram.ext import ContextTypes

from bot.delivery.claims import CAPTION_LIMIT
from bot.delivery.items import line_params
from bot.delivery.sender import EVERY_VOLUNTEER
from bot.delivery.services import Services, language_of, services
from bot.storage.store import PRIORITY_COPY
from bot.support.i18n import LANGUAGES, pick_language
from bot.support.registry import REGISTRY
from bot.texts.claims import checking_note, going_note
from bot.texts.names import names

log = logging.getLogger(__name__)


async def _post(svc: Services, chat_id: int, params: dict[str, object], priority: int,
                grouping: str | None = None, method: str = "sendMessage") -> None:
    """One message owed: posted in the running ``recording`` operation if there is one (sent
    once it commits), else in an operation of its own."""
    store = svc.store
    tx = store.current()
    if tx is not None:
        tx.post(chat_id, params, priority=priority, grouping=grouping, method=method)
        return
    async with store.transaction() as own:
        own.post(chat_id, params, priority=priority, grouping=grouping, method=method)


async def post_call(svc: Services, chat_id: int, method: str, params: dict[str, object],
                    priority: int = PRIORITY_COPY) -> None:
    """A call other than a message owed to one chat (an invoice), as ``_post``."""
    await _post(svc, chat_id, params, priority, None, method)


async def send(context: ContextTypes.DEFAULT_TYPE, chat_id: int, text: str,
               priority: int = PRIORITY_COPY) -> bool:
    """A message to one chat, posted to the outbox (see ``_post``); True if there was
    something to say. A person who blocked the bot does not stop the others: the sender
    marks that message refused."""
    return await post_text(services(context), chat_id, text, priority)


async def post_text(svc: Services, chat_id: int, text: str, priority: int,
                    grouping: str | None = None, markup: str | None = None) -> bool:
    """``send`` with only the services at hand (jobs given the application); ``grouping``:
    lines that may go out joined with the next ones to the same chat; ``markup``: the line's
    buttons (JSON), which stay with it when joined (``items.buttons_of``)."""
    messages = line_params(text, markup)
    for params in messages:
        await _post(svc, chat_id, params, priority, grouping)
    return bool(messages)


# the buttons of a volunteers' line, in a reader's language (None: none): rows of (label,
# callback data)
Keyboard = Callable[[str], list[list[tuple[str, str]]] | None]


def keyboard_json(keyboard: Keyboard | None, lang: str) -> str | None:
    """The line's buttons as the Bot API's ``reply_markup`` JSON. Written here, not through
    python-telegram-bot's objects: every volunteer's copy of a line carries it, and building
    and encoding those objects cost more than the rest of the line (issue 26's bench)."""
    rows = keyboard(lang) if keyboard is not None else None
    if not rows:
        return None
    # what json.dumps writes for it (compact, not ASCII-escaped), with only the strings encoded
    return '{"inline_keyboard":[' + ",".join(
        "[" + ",".join(f'{{"text":{_string(text)},"callback_data":{_string(data)}}}'
                       for text, data in row) + "]" for row in rows) + "]}"


async def _languages_read(svc: Services) -> list[str]:
    """The languages people read the bot in (their choice, Telegram's, or the contest's), the
    contest's first."""
    fallback = svc.contest.language
    used = {pick_language(chosen, telegram, fallback)
            for chosen, telegram in await svc.store.language_pairs()}
    return [fallback] + [lang for lang in LANGUAGES if lang in used and lang != fallback]


async def notify_staff(context: ContextTypes.DEFAULT_TYPE, make: Callable[[str], str],
                       priority: int = PRIORITY_COPY, keyboard: Keyboard | None = None) -> int:
    """``tell_staff`` from a handler."""
    return await tell_staff(services(context), make, priority, keyboard)


async def tell_staff(svc: Services, make: Callable[[str], str], priority: int = PRIORITY_COPY,
                     keyboard: Keyboard | None = None) -> int:
    """The volunteers' line: in the volunteer chat, or privately to each volunteer/organiser.
    Posted to the outbox (see ``_post``); lines waiting for the same chat go out joined in
    one message (a volunteers' group takes 20 messages a minute), with every line's buttons
    (``keyboard``, in each reader's language). Returns how many chats it was posted for."""

    def write(lang: str) -> str:
        try:
            return make(lang)
        except Exception:  # a line that cannot be written must not undo what it reports
            log.exception("could not write a volunteers' line")
            return ""

    if svc.config.volunteer_chat is not None:
        lang = svc.contest.language
        return int(await post_text(svc, svc.config.volunteer_chat, write(lang), priority,
                                   grouping="staff", markup=keyboard_json(keyboard, lang)))
    # one row for every volunteer and organiser, the line (and its buttons) in each language
    # someone reads (the contest's first: what a reader of another one gets): the sender works
    # out who gets it (``staff_recipients``) when it sends it (working out here which
    # languages the staff read cost more than writing the line: 21 lookups a line)
    texts = {lang: text for lang in await _languages_read(svc)
             if (text := write(lang)).strip()}
    if not texts:
        return 0
    params: dict[str, object] = {"texts": texts}
    markups = {lang: m for lang in texts if (m := keyboard_json(keyboard, lang)) is not None}
    if markups:
        params["markups"] = markups
    await _post(svc, EVERY_VOLUNTEER, params, priority, grouping="staff")
    return 1




async def notify_staff_photo(context: ContextTypes.DEFAULT_TYPE, photo: str,
                             make: Callable[[str], str], keyboard: Keyboard | None = None,
                             priority: int = PRIORITY_COPY) -> int:
    """A participant's photo (``photo``: its Telegram file id) to the volunteers' chat, or to
    each volunteer and organiser in their language, with a caption and buttons: posted to the
    outbox (see ``_post``) as a message of its own (photos are never joined). Returns how many
    chats it was posted for."""
    svc = services(context)
    chats = [(svc.config.volunteer_chat, svc.contest.language)] \
        if svc.config.volunteer_chat is not None else await staff_recipients(svc)
    for chat, lang in chats:
        params: dict[str, object] = {"photo": photo, "caption": make(lang)[:CAPTION_LIMIT]}
        markup = keyboard_json(keyboard, lang)
        if markup is not None:
            params["reply_markup"] = markup
        await _post(svc, chat, params, priority, method="sendPhoto")
    return len(chats)


async def staff_recipients(svc: Services) -> list[tuple[int, str]]:
    """Who gets the volunteers' lines without a volunteers' group, and in which language:
    every volunteer and organiser who has talked to the bot (Telegram refuses the others)."""
    people = set(await svc.day.volunteers()) | set(await svc.day.all_organisers())
    out = []
    for user_id in sorted(people):
        if await svc.store.person(user_id) is not None:
            out.append((user_id, await language_of(svc, user_id)))
    return out


async def organiser_recipients(svc: Services) -> list[tuple[int, str]]:
    """Every organiser who has talked to the bot, with their language (the sender tells them
    of messages Telegram refused for good)."""
    out = []
    for user_id in sorted(await svc.day.all_organisers()):
        if await svc.store.person(user_id) is not None:
            out.append((user_id, await language_of(svc, user_id)))
    return out


async def chat_name(svc: Services, chat_id: int) -> str | None:
    """How the sender names a chat to the organisers: the person's name, if known."""
    row = await svc.store.person(chat_id)
    return str(row["name"]) if row is not None and row["name"] else None


async def reader_language(svc: Services, chat_id: int) -> str:
    """The language a copy of a volunteers' line is read in: its reader's, or in a volunteers'
    group the contest's."""
    if chat_id == svc.config.volunteer_chat:
        return svc.contest.language
    return await language_of(svc, chat_id)


async def settled_note(svc: Services, chat_id: int, data: dict[str, Any]) -> str:
    """What a settled line reads in chat ``chat_id``, in its reader's language
    (``reader_language``): ``data["settled"]``, the line's note by language."""
    lang = await reader_language(svc, chat_id)
    notes: dict[str, str] = data["settled"]
    return notes.get(lang) or notes.get(svc.contest.language) or next(iter(notes.values()))


async def claim_note(svc: Services, chat_id: int, data: dict[str, Any]) -> str:
    """The note under a claimed volunteers' line in chat ``chat_id``, in its reader's language
    (a volunteers' group reads the contest's): who is going (``data["by"]``); under a line
    someone decided (``data["kind"]``, a kind with a ``line_note``), what was decided."""
    if "settled" in data:  # a line settled before this copy was sent
        return await settled_note(svc, chat_id, data)
    lang = await reader_language(svc, chat_id)
    decided = REGISTRY.kinds.get(str(data.get("kind", "")))
    if decided is not None and decided.line_note is not None:  # a line someone decided
        return decided.line_note(lang, data)
    by = str(data.get("by") or "?")
    note = checking_note(lang, by) if data.get("review") else going_note(lang, by)
    # on a line about several entries, which one (the time's-up line: "-> Ana is going (#3)")
    return f"{note} (#{data['entry']})" if data.get("several") and "entry" in data else note


async def notify_entry(
    context: ContextTypes.DEFAULT_TYPE, number: int, make: Callable[[str], str],
    priority: int = PRIORITY_COPY, keyboard: Keyboard | None = None,
    skip: int | None = None,
) -> int:
    """``tell_entry`` from a handler."""
    return await tell_entry(services(context), number, make, priority, keyboard, skip)


async def entry_phones(svc: Services, number: int) -> list[tuple[int, str, str]]:
    """The phones following entry ``number``, each with its reader's language and what it
    reads first about the entry: a phone following several entries (a parent with two
    children) reads which one ("#13 Inés Bernard: "), the others nothing."""
    out = []
    for user_id in await svc.day.linked_users(number):
        prefix = ""
        followed = await svc.day.linked_entries(user_id)
        if len(followed) > 1:
            entry = next((e for e in followed if e.number == number), None)
            if entry is not None:
                prefix = f"#{number} {names(entry.names)}: "
        out.append((user_id, await language_of(svc, user_id), prefix))
    return out


async def tell_entry(
    svc: Services, number: int, make: Callable[[str], str], priority: int = PRIORITY_COPY,
    keyboard: Keyboard | None = None, skip: int | None = None, grouping: str | None = None,
    markup: str | None = None,
) -> int:
    """To every phone following entry ``number`` (``entry_phones``: which entry it is about,
    where a phone follows several); returns how many it was posted for. ``keyboard``: the
    message's buttons, in each reader's language, or ``markup`` the same for all (JSON: a
    reply keyboard, or its removal); ``skip``: a phone already answered, told nothing more;
    ``grouping``: see ``post_text`` (a line someone is asked to decide has its copies kept)."""
    sent = 0
    for user_id, lang, prefix in await entry_phones(svc, number):
        if user_id == skip:
            continue
        shown = keyboard_json(keyboard, lang) if keyboard is not None else markup
        if await post_text(svc, user_id, prefix + make(lang), priority, grouping,
                           markup=shown):
            sent += 1
    return sent
