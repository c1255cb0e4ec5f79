"""The feature registry: what each feature package adds to the bot, declared in one object
(``Feature``), and the one list of them installed at start (``bot/features/installed.py``).

A feature (``bot/features/<name>/``) declares its commands (name, who may use it, its menu line
as a catalog message, its aliases), the buttons it answers (a prefix of their data), its event
kinds (their name in a history, who records them, whether /deshacer takes them back), and the
table it reads from the contest file. The app, the menus, the command names typed in every
language, the history's names, /deshacer and a document's import are built from the list:
nothing else names the feature.

The lower layers read what was installed through ``REGISTRY`` (this module imports nothing of
the features); ``install`` runs once, when ``bot.features.installed`` is imported by the
program's entry point (``bot/chat/app.py``, which the CLI imports) and the tests'
``conftest.py``."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.support.command_languages import ALIASES_OF
from bot.support.contest_keys import Section

ROLES = ("participant", "volunteer", "organiser")


def N_(message: str) -> str:
    """A message of the catalogs named where it is declared and translated where it is shown
    (``tr(lang, command.line)``): the extractor reads ``N_("...")`` (``-k N_``)."""
    return message


@dataclass(frozen=True)
class Command:
    name: str
    role: str  # the least role that may use it
    line: str  # its menu line: an English message of the catalogs (``N_``)
    aliases: dict[str, str] = field(default_factory=dict)  # language -> its menu's alias
    needs: str = ""  # what the contest must have (ESCAPE...) for the command to be of use
    # "hint" or "solution": the menu's line says what it costs in the contest (and ``line``
    # is its words without the cost)
    cost: str = ""
    # examples as typed, for the volunteers' sheet (numbers only: the same in every language)
    examples: tuple[str, ...] = ()
    # shown in a menu only to someone who follows an entry (a pair's own commands)
    for_entry: bool = False
    # a feature's command: the one the command table lists it after (the order participants'
    # menus and the volunteers' sheet follow); none: after its feature's ``menu_after``, or at
    # the end
    after: str = ""

    def name_in(self, lang: str) -> str:
        return self.aliases.get(ALIASES_OF.get(lang, lang), self.name)


@dataclass(frozen=True)
class Kind:
    """An event kind a feature records. ``name``: what a history calls it, in a language (from
    the catalogs). For a document's import: ``roles`` who records it, ``fields`` (for entry,
    category, stage, value, ref, supersedes in turn: "+" has one, "-" none, "?" either) and
    ``data`` (its details, as ``bot/services/document_events.py`` reads them). ``undoable``:
    /deshacer takes the recorder's last one back; ``taken_back``: the entry's phones were told
    of it, and so read this (in their language) when it is taken back."""

    kind: str
    name: Callable[[str], str]
    roles: frozenset[str]
    fields: str
    data: Mapping[str, str] = field(default_factory=dict)
    undoable: bool = False
    taken_back: Callable[[str], str] | None = None
    # what a history's line adds about one event of it (its reason), from the event
    detail: Callable[[Any], str] | None = None
    # a kind that decides a line someone was asked (its ref: the line, "dec:<what>:<line>",
    # bot/delivery/claims.py): what every copy of the line reads under it once decided, in a
    # language, from the event's data
    line_note: Callable[[str, Any], str] | None = None


# a chat handler: python-telegram-bot's (update, context) coroutine
Callback = Callable[[Any, Any], Any]


@dataclass(frozen=True)
class Feature:
    """What one feature package adds. ``commands`` with their handlers (``handlers``: the
    command's name -> its callback); ``buttons``: the prefix of a button's data -> its
    callback; ``kinds``: its event kinds; ``table``: the contest file's table it reads, with
    ``settings`` reading it (a ``bot.services.contest_toml.Table`` -> the feature's settings,
    or None when absent); ``menu_after``: the command after which staff's menus show its
    commands (their order follows the day); ``desk_after``: the same in the desk's order,
    first while registration is open (empty: not a desk command); ``sheet``: its lines under
    the volunteers' sheet's buttons, for a contest (bot/services/handouts.py);
    ``follow_line``: what a phone that starts following an entry of a category
    (``bot.domain.contest.Category``, of the contest given) is told to use, in a language
    (None: nothing of this feature's)."""

    name: str
    commands: tuple[Command, ...] = ()
    handlers: Mapping[str, Callback] = field(default_factory=dict)
    buttons: Mapping[str, Callback] = field(default_factory=dict)
    kinds: tuple[Kind, ...] = ()
    table: str = ""
    settings: Callable[[Any], Any] | None = None
    # ``table``'s keys, declared (``bot/support/contest_keys.py``): read, documented and in
    # the contest file's JSON Schema as the core's are
    keys: Section | None = None
    menu_after: str = ""
    desk_after: str = ""
    # the lines it adds to the volunteers' sheet's buttons, for a contest, in a language
    sheet: Callable[[Any, str], list[str]] | None = None
    # python-telegram-bot handlers of other kinds (a photo's), registered as they are
    other_handlers: tuple[Any, ...] = ()
    # handlers asked before every command (a conversation's: it takes its own way out), built
    # for the application: (handler, group)
    ahead: Callable[[Any], tuple[tuple[Any, int], ...]] | None = None
    follow_line: Callable[[str, Any, Any], str | None] | None = None
    # what it owes a phone that starts following an entry, posted in the link's own
    # transaction: (the services, the phone's user id, the entry's number, Telegram's date of
    # the link) -> awaitable (the escape in the chat: the pair's current enigma)
    on_follow: Callable[[Any, int, int, Any], Awaitable[None]] | None = None
    # what it owes an entry's phones once one of its records is taken back (/deshacer), in
    # the undo's own transaction: (the services, the event taken back, when) -> awaitable
    # (the escape in the chat: a solve taken back gives the pair its enigma again)
    on_undo: Callable[[Any, Any, Any], Awaitable[None]] | None = None
    # the lines ``check-contest``'s summary gives of its table, for a contest (English)
    describe: Callable[[Any], list[str]] | None = None
    # the prefixes of its buttons' data whose lines close once used (every copy Telegram
    # holds is kept, for the feature to edit: bot/delivery/claims.py)
    closing: tuple[str, ...] = ()
    # at every start, once the services are open and the timers of the day scheduled: its own
    # timers (the application -> awaitable); ``on_stop``: at a clean stop, before the sending
    # ends
    on_start: Callable[[Any], Awaitable[None]] | None = None
    on_stop: Callable[[Any], Awaitable[None]] | None = None
    # its timers of the day (the application -> awaitable), (re)scheduled from the database
    # whenever the day's are: at every start, and after a clock starts, pauses or resumes
    timers: Callable[[Any], Awaitable[None]] | None = None


class Registry:
    """The features installed, read by the layers below them."""

    def __init__(self) -> None:
        self.features: tuple[Feature, ...] = ()
        self.kinds: dict[str, Kind] = {}
        self._listeners: list[Callable[[Feature], None]] = []
        self._closing: tuple[tuple[Feature, ...], tuple[str, ...]] = ((), ())

    def on_install(self, listener: Callable[[Feature], None]) -> None:
        """``listener`` is told of every feature installed (a table of commands adds theirs)."""
        self._listeners.append(listener)
        for f in self.features:
            listener(f)

    def install(self, features: tuple[Feature, ...]) -> None:
        """Once, at start: a second call with the same list does nothing, another is a bug."""
        if self.features:
            if self.features != features:
                raise RuntimeError("the features are installed once")
            return
        names = [f.name for f in features]
        if len(set(names)) != len(names):
            raise ValueError(f"two features named alike in {names}")
        for f in features:
            for k in f.kinds:
                if k.kind in self.kinds:
                    raise ValueError(f"event kind {k.kind!r} declared twice")
                self.kinds[k.kind] = k
        self.features = features
        for f in features:
            for listener in self._listeners:
                listener(f)

    def undoable(self) -> tuple[str, ...]:
        """The kinds /deshacer takes back, of every feature."""
        return tuple(k.kind for k in self.kinds.values() if k.undoable)

    def closing(self) -> tuple[str, ...]:
        """The prefixes of button data whose lines close, of every feature (worked out once
        per installation: the sender asks at every line it sends)."""
        of, prefixes = self._closing
        if of is not self.features:
            prefixes = tuple(p for f in self.features for p in f.closing)
            self._closing = (self.features, prefixes)
        return prefixes

    def deciding(self) -> tuple[str, ...]:
        """The kinds that decide a line someone was asked (their ``line_note``)."""
        return tuple(k.kind for k in self.kinds.values() if k.line_note is not None)

    def feature_of_table(self, table: str) -> Feature | None:
        return next((f for f in self.features if f.table == table), None)


REGISTRY = Registry()
