"""The registration draft: what the conversation has gathered so far, how it is stored, and
the saving after every step.

The draft lives in python-telegram-bot's ``user_data["draft"]`` as plain JSON (kept by
``bot.chat.persistence.SQLitePersistence``), in the shape the bot has always stored, so a
draft left by an older bot still loads. ``step`` wraps every handler of the conversation: it
hands the step a ``Draft``, writes it back when it changed and asks for it to be saved as soon
as the update is handled, so no step can forget to.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field, fields
from datetime import date
from functools import wraps
from typing import Any

from telegram import Update
from telegram.ext import BaseHandler, ContextTypes

from bot.features.registration.rules import Member

Handler = Callable[[Update, ContextTypes.DEFAULT_TYPE], Coroutine[Any, Any, Any]]
# a step of the conversation: the update, its context and the draft; returns the next state
Step = Callable[[Update, ContextTypes.DEFAULT_TYPE, "Draft"], Coroutine[Any, Any, Any]]


@dataclass
class MemberDraft:
    """One member as typed: the name, then the birth, then the answers to their questions."""

    name: str
    answers: list[str] = field(default_factory=list)  # yes/no questions answered yes
    born: date | None = None
    born_year: int | None = None  # None: the birth is not typed yet
    values: dict[str, str] = field(default_factory=dict)  # choice and text answers

    def member(self) -> Member:
        return Member(name=self.name, born=self.born, born_year=self.born_year,
                      answers=frozenset(self.answers), values=tuple(self.values.items()))

    def stored(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "answers": list(self.answers)}
        if self.born_year is not None:
            out["born"] = self.born.isoformat() if self.born else None
            out["born_year"] = self.born_year
        if self.values:
            out["values"] = dict(self.values)
        return out

    @classmethod
    def load(cls, m: dict[str, Any]) -> MemberDraft | None:
        """A stored member; None for the empty one ({}) the old drafts keep between members."""
        if "name" not in m:
            return None
        return cls(name=m["name"], answers=list(m.get("answers", [])),
                   born=date.fromisoformat(m["born"]) if m.get("born") else None,
                   born_year=m.get("born_year"), values=dict(m.get("values", {})))


@dataclass
class Draft:
    """The entry being registered. ``phase``: whose questions are asked, "member" (the one
    being entered, ``current``) or "entry" (once the members are all in); ``question``: the
    index of the next one."""

    members: list[MemberDraft] = field(default_factory=list)
    started: int | None = None  # when /inscribir was sent (a timestamp)
    category: str | None = None
    current: MemberDraft | None = None
    refused: MemberDraft | None = None  # a birth refused, kept for a switch of category
    question: int = 0
    phase: str | None = None
    values: dict[str, str] | None = None  # the entry's own answers (None: not asked yet)
    meal_with: list[list[int]] | None = None  # [number, adults, children] of earlier entries
    meal_adults: int | None = None
    meal_children: int | None = None
    resume: bool = False  # a heat chosen again after a refused confirmation: to the summary
    # alone in a category of pairs or teams, asking to be matched with a partner
    # (``bot/features/partners``): registered with the members entered so far
    seeking: bool = False
    discarded: bool = field(default=False, compare=False)  # cancelled, ended or registered

    def restart(self, started: int) -> None:
        """A new draft in place of this one (/inscribir)."""
        for f in fields(self):
            setattr(self, f.name, getattr(Draft(started=started), f.name))

    def discard(self) -> None:
        """The conversation is over: nothing is kept."""
        self.discarded = True

    @property
    def for_entry(self) -> bool:
        """Whether the questions being asked are the entry's (after its members)."""
        return self.phase == "entry"

    def member_list(self) -> list[Member]:
        return [m.member() for m in self.members]

    def answers(self) -> dict[str, str]:
        """Where a choice or text answer goes: the entry's, or the member's being entered."""
        if self.for_entry:
            if self.values is None:
                self.values = {}
            return self.values
        assert self.current is not None
        return self.current.values

    def stored(self) -> dict[str, Any]:
        """As ``user_data["draft"]`` holds it (the keys the old dict had, when it had them)."""
        out: dict[str, Any] = {"members": [m.stored() for m in self.members]}
        if self.started is not None:
            out["started"] = self.started
        if self.category is not None:
            out["category"] = self.category
            out["current"] = self.current.stored() if self.current is not None else {}
        if self.refused is not None:
            out["refused"] = self.refused.stored()
        if self.phase is not None:
            out["question"] = self.question
            out["phase"] = self.phase
        if self.values is not None:
            out["values"] = dict(self.values)
        for key in ("meal_with", "meal_adults", "meal_children"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.resume:
            out["resume"] = True
        if self.seeking:
            out["seeking"] = True
        return out

    @classmethod
    def load(cls, d: dict[str, Any] | None) -> Draft:
        """A stored draft (by this bot or an older one); an empty one for None."""
        if not d:
            return cls()
        refused = d.get("refused")
        return cls(
            members=[m for raw in d.get("members", []) if (m := MemberDraft.load(raw))],
            started=d.get("started"), category=d.get("category"),
            current=MemberDraft.load(d.get("current") or {}),
            refused=MemberDraft.load(refused) if isinstance(refused, dict) else None,
            question=int(d.get("question", 0)), phase=d.get("phase"),
            values=dict(d["values"]) if "values" in d else None,
            meal_with=d.get("meal_with"), meal_adults=d.get("meal_adults"),
            meal_children=d.get("meal_children"), resume=bool(d.get("resume", False)),
            seeking=bool(d.get("seeking", False)),
        )


def step(run: Step) -> Handler:
    """A step of the conversation as python-telegram-bot calls it: the draft loaded, handed
    to the step, written back if it changed (dropped if discarded), and saved right after."""

    @wraps(run)
    async def handler(update: Update, context: ContextTypes.DEFAULT_TYPE) -> Any:
        data = context.user_data
        raw = data.get("draft") if data is not None else None
        draft = Draft.load(raw)
        before = draft.stored()
        state = await run(update, context, draft)
        if data is not None:
            if draft.discarded:
                data.pop("draft", None)
            elif (after := draft.stored()) != before:
                data["draft"] = after
        _save_after(update, context)
        return state

    return handler


def _save_after(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Ask for the conversation and its draft to be written as soon as this update is handled
    (``save_now`` runs after the ConversationHandler has recorded the new state)."""
    user = update.effective_user if isinstance(update, Update) else None
    if user is not None:
        context.application.bot_data.setdefault("flush_users", set()).add(user.id)


def persist_soon(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The person's data (``user_data``), changed outside the conversation (an announcement's
    preview), written as soon as this update is handled."""
    _save_after(update, context)


async def save_now(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Runs after an update that took a registration step (handler group 1, ``SaveNow``):
    persist it immediately, so a crash loses no answer, rather than at the next periodic
    save."""
    pending: set[int] = context.application.bot_data.get("flush_users", set())
    user = update.effective_user if isinstance(update, Update) else None
    if user is not None and user.id in pending:
        pending.discard(user.id)
        # python-telegram-bot marks the user's data for saving only once the update is done,
        # after this: marked now, the first step's draft and the last one's removal are saved
        context.application.mark_data_for_update_persistence(user_ids=user.id)
        await context.application.update_persistence()


class SaveNow(BaseHandler[Update, Any, None]):
    """``save_now`` for the updates that took a registration step, and only those: the others
    (nearly all, on the day) don't pay for a callback context and a call."""

    def __init__(self, pending: set[int]) -> None:
        super().__init__(save_now)
        self.pending = pending

    def check_update(self, update: object) -> bool:
        user = update.effective_user if isinstance(update, Update) else None
        return user is not None and user.id in self.pending
