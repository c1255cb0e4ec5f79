"""``Work``: the unit of work a feature's operation owns. One transaction, and what the operation
owes people because of it, written in that transaction by one path.

A handler parses, builds the ``Asker`` (who asked, where the answer goes, in which language) and
calls the operation with a ``Work``; the operation opens it (``async with work as tx``), decides,
records, and says what each person is told (``reply``, ``tell_entry``, ``tell_staff``,
``tell``), each text a function of the reader's language. When the block ends without an error:

- something was recorded: every message is posted to the outbox inside the transaction (the
  transactional outbox: they go out once it commits, even after a crash), the answer first in
  line;
- nothing was (a refusal): the answer is not stored; it is sent first in line and waited for
  before the update is confirmed to Telegram (``answer_now``'s path), and nobody else is told.

On an error nothing is recorded and nothing is said (the update is handled again). The handler
never opens a transaction and never chooses how a message is sent."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from types import TracebackType

from telegram import Update

from bot.delivery.answers import answered_message, post_answer, send_unstored
from bot.delivery.claims import ASKED, post_edits
from bot.delivery.posting import (
    Keyboard,
    keyboard_json,
    post_text,
    settled_note,
    tell_entry,
    tell_staff,
)
from bot.delivery.services import Services, language_of
from bot.storage.store import PRIORITY_COPY, Transaction
from bot.storage.transactions import Operation
from bot.support.i18n import LANGUAGES

# a text as a function of the reader's language
Text = Callable[[str], str]


@dataclass(frozen=True)
class Asker:
    """Who asked (``user_id``, reading ``lang``) and where their answer goes: ``chat_id``, with
    the parameters that quote their message (in its forum topic, if any)."""

    user_id: int
    lang: str
    chat_id: int
    where: dict[str, object] = field(default_factory=dict)

    @classmethod
    def of(cls, update: Update, user_id: int, lang: str) -> Asker:
        msg, where = answered_message(update)
        return cls(user_id, lang, msg.chat_id, where)


@dataclass(frozen=True)
class _Reply:
    text: Text
    markup: str | None


@dataclass(frozen=True)
class _ToEntry:
    number: int
    text: Text
    skip_asker: bool
    keyboard: Keyboard | None = None


@dataclass(frozen=True)
class _ToStaff:
    text: Text
    keyboard: Keyboard | None


@dataclass(frozen=True)
class _ToPerson:
    user_id: int
    text: Text
    keyboard: Keyboard | None = None


@dataclass(frozen=True)
class _Settled:
    claim: str
    note: Text
    gone: frozenset[str]
    now: bool = False


_Effect = _Reply | _ToEntry | _ToStaff | _ToPerson | _Settled


class Work:
    """One operation's transaction and its effects (see the module's docstring)."""

    def __init__(self, svc: Services, asker: Asker | None = None) -> None:
        self.svc = svc
        self.asker = asker
        self.effects: list[_Effect] = []
        self._op: Operation | None = None
        self._tx: Transaction | None = None

    # -- what the operation says -----------------------------------------------------------

    def reply(self, text: Text, markup: str | None = None) -> None:
        """The answer to the person who asked (``markup``: its buttons, as JSON)."""
        self.effects.append(_Reply(text, markup))

    def tell_entry(self, number: int, text: Text, *, skip_asker: bool = True,
                   keyboard: Keyboard | None = None) -> None:
        """Every phone following entry ``number`` (the asker's own phone, already answered,
        skipped unless ``skip_asker`` is False); ``keyboard``: buttons asking them to decide
        (``dec:`` data: every copy is kept, and closes once decided)."""
        self.effects.append(_ToEntry(number, text, skip_asker, keyboard))

    def tell_staff(self, text: Text, keyboard: Keyboard | None = None) -> None:
        """The volunteers' line."""
        self.effects.append(_ToStaff(text, keyboard))

    def tell(self, user_id: int, text: Text, keyboard: Keyboard | None = None) -> None:
        """One person (``keyboard``: as ``tell_entry``'s)."""
        self.effects.append(_ToPerson(user_id, text, keyboard))

    def settle_line(self, claim: str, note: Text, gone: frozenset[str],
                    now: bool = False) -> None:
        """Every copy Telegram holds of the volunteers' line ``claim`` (its "I'm going"
        data) edited: ``note`` in its place, in each chat's language, and the buttons whose
        data is in ``gone`` taken away (a line settled keeps none that would record it
        again). ``now``: only the copies already sent, edited in this transaction (a
        reviewer asking for another photo: the next photo of that claim comes with its own
        buttons, under the same claim)."""
        self.effects.append(_Settled(claim, note, gone, now))

    # -- the transaction -------------------------------------------------------------------

    async def __aenter__(self) -> Transaction:
        if self._op is not None:
            raise RuntimeError("a Work is opened once")
        # joinable: the posting path writes the messages into it
        self._op = self.svc.store.transaction(joinable=True)
        self._tx = await self._op.__aenter__()
        return self._tx

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        assert self._op is not None and self._tx is not None
        stored = exc_type is None and self._tx.recorded
        if stored:
            try:
                await self._write(self._tx)
            except BaseException as failed:  # nothing recorded, nothing said
                await self._op.__aexit__(type(failed), failed, failed.__traceback__)
                raise
        await self._op.__aexit__(exc_type, exc, tb)
        if exc_type is None and not stored:
            await self._answer_unstored()

    async def _write(self, tx: Transaction) -> None:
        """Every effect, in the order said, posted in the transaction (the answers first in
        line by their priority)."""
        asker = self.asker
        for effect in self.effects:
            match effect:
                case _Reply(text, markup):
                    if asker is not None:
                        post_answer(tx, asker.chat_id, asker.where, text(asker.lang), markup)
                case _ToEntry(number, text, skip_asker, keyboard):
                    await tell_entry(self.svc, number, text, keyboard=keyboard,
                                     skip=asker.user_id if skip_asker and asker else None,
                                     grouping=ASKED if keyboard is not None else None)
                case _ToStaff(text, keyboard):
                    await tell_staff(self.svc, text, keyboard=keyboard)
                case _ToPerson(user_id, text, keyboard):
                    lang = await self._lang(user_id)
                    await post_text(self.svc, user_id, text(lang), PRIORITY_COPY,
                                    ASKED if keyboard is not None else None,
                                    keyboard_json(keyboard, lang))
                case _Settled(claim, note, gone, now):
                    notes = {lang: note(lang) for lang in LANGUAGES}
                    if now:  # only the copies sent so far (the next ones are a new line)
                        await post_edits(tx, await tx.copies_of(claim), claim,
                                         {"settled": notes}, partial(settled_note, self.svc),
                                         gone)
                    else:
                        # owed in this transaction, applied by the sender's marks (every copy
                        # in its reader's language, one edit per message for all its lines
                        # settled, and the copies still on their way once sent)
                        tx.settle_line(claim, notes, gone)

    async def _lang(self, user_id: int) -> str:
        if self.asker is not None and user_id == self.asker.user_id:
            return self.asker.lang
        return await language_of(self.svc, user_id)

    async def _answer_unstored(self) -> None:
        """Nothing recorded: only the answer, not stored, sent at once and waited for."""
        asker = self.asker
        if asker is None:
            return
        for effect in self.effects:
            if isinstance(effect, _Reply):
                await send_unstored(self.svc, asker.chat_id, asker.where, asker.lang,
                                    effect.text(asker.lang), effect.markup)
