"""Who is sent to next: each kind of message's share of the sends (4:2:1, self-clocked fair
queuing), each chat's pace within Telegram's limits, and the per-chat budgets of answers that
report nothing recorded (docs/invariants.md, section 12)."""

from __future__ import annotations

import heapq
from collections.abc import Callable

from bot.delivery.limits import Limits, Pace
from bot.storage.store import PRIORITY_ANSWER

BUDGETS_KEPT = 10_000  # chats' answer budgets kept before the whole ones are forgotten
# Each kind of message's share of the overall limit while every kind has something waiting
# (priority 0 answers, 1 partners' copies and volunteers' lines, 2 announcements): 4/7, 2/7 and
# 1/7 of Telegram's 28 a second. A kind with nothing waiting leaves its share to the others,
# and banks nothing meanwhile: an answer after a quiet moment still goes first
SHARES = (4, 2, 1)
LAST_KIND = len(SHARES) - 1

# the order of the chats ready among one kind: (a key, the chat)
Ready = list[tuple[tuple[int, float], int]]


def kind_of(urgency: int) -> int:
    """The kind of message a chat's urgency (its most urgent message) counts as."""
    return min(urgency, LAST_KIND)


class FairShares:
    """The send budget's shares (``SHARES``), as self-clocked fair queuing: each waiting kind's
    tag is when its next send would end in virtual time (a send of a kind costs 1/share of
    it), fixed while the kind keeps waiting; the lowest tag goes next, the most urgent among
    equals. A kind that starts waiting (nothing of it was waiting at the last look) is tagged
    from the tag of the last send (``_vtime``) or its own last one, whichever is later: it
    banks nothing while idle, and an answer arriving with the volunteers' line it comes with
    goes first."""

    def __init__(self) -> None:
        self._tags = [0.0] * len(SHARES)  # each kind's next send's tag, while it waits
        self._last_tag = [0.0] * len(SHARES)  # each kind's last send's tag
        self._waiting_kinds: set[int] = set()  # the kinds waiting at the last look
        self._vtime = 0.0

    def looked(self, waiting_kinds: set[int], able: set[int]) -> None:
        """The kinds waiting now, and those of them with a chat that could go now but for the
        flood limit."""
        for kind in waiting_kinds - self._waiting_kinds:  # waiting again: tagged from now
            self._tags[kind] = max(self._last_tag[kind], self._vtime) + 1.0 / SHARES[kind]
        self._waiting_kinds = waiting_kinds
        for kind in waiting_kinds - able:  # waiting, but unable to send: it earns nothing
            self._tags[kind] = max(self._tags[kind], self._vtime + 1.0 / SHARES[kind])

    def order(self, ready: dict[int, Ready], room: int) -> list[int]:
        """The chats ready, in the order the shares give (as ``count`` will count them), at
        most ``room``."""
        kinds = {kind: heapq.nsmallest(room, chats) if len(chats) > room else sorted(chats)
                 for kind, chats in ready.items()}
        if len(kinds) == 1:
            return [chat for _, chat in next(iter(kinds.values()))]
        tags = {kind: self._tags[kind] for kind in kinds}
        heads = dict.fromkeys(kinds, 0)
        order: list[int] = []
        while len(order) < room and tags:
            kind = min(tags, key=lambda k: (tags[k], k))
            order.append(kinds[kind][heads[kind]][1])
            heads[kind] += 1
            tags[kind] += 1.0 / SHARES[kind]
            if heads[kind] == len(kinds[kind]):
                del tags[kind]
        return order

    def count(self, urgency: int) -> None:
        """One send of this kind counted against its share."""
        kind = kind_of(urgency)
        if kind not in self._waiting_kinds:  # not seen waiting by ``looked``: tagged now
            self._tags[kind] = max(self._last_tag[kind], self._vtime) + 1.0 / SHARES[kind]
            self._waiting_kinds.add(kind)
        self._last_tag[kind] = self._tags[kind]
        self._vtime = max(self._vtime, self._tags[kind])  # virtual time never goes back
        self._tags[kind] += 1.0 / SHARES[kind]


class Pacing:
    """Telegram's overall flood limit and each chat's pace (``limits`` None: no pacing)."""

    def __init__(self, limits: Limits | None) -> None:
        self._limits = limits
        self.overall = Pace(limits.overall, limits.overall_burst) if limits else None
        self.chats: dict[int, Pace] = {}
        # how much further than the burst an answer may dip: its budget's burst
        # (``admit_answer``) and the notice of a chat over it, so that an answer admitted goes
        # at once
        self._extra = self._extra_group = 0
        if limits is not None:
            self._extra = max(0, limits.answer_burst + 1 - limits.burst)
            self._extra_group = max(0, limits.group_answer_burst + 1 - limits.burst)

    def overall_wait(self, now: float) -> float:
        return self.overall.wait(now) if self.overall is not None else 0.0

    def chat_wait(self, chat: int, urgency: int, now: float) -> float:
        """How long until ``chat`` may have its next message: every message keeps to its chat's
        pace (Telegram's one a second, 20 a minute in a group); an answer may use a bigger
        burst (a person asking three things at once)."""
        pace = self.chats.get(chat)
        return 0.0 if pace is None else pace.wait(now, 0 if urgency > PRIORITY_ANSWER
                                                  else self._extra_group if chat < 0
                                                  else self._extra)

    def took(self, chat: int, now: float) -> None:
        if self._limits is None:
            return
        assert self.overall is not None
        self.overall.took(now)
        pace = self.chats.get(chat)
        if pace is None:
            rate = self._limits.group if chat < 0 else self._limits.private
            pace = self.chats[chat] = Pace(rate, self._limits.burst)
        pace.took(now)

    def give_back(self, chat: int) -> None:
        if self.overall is not None:
            self.overall.give_back()
        pace = self.chats.get(chat)
        if pace is not None:
            pace.give_back()

    def moved(self, old: int, new: int) -> None:
        """Telegram moved ``old`` to ``new``: one pace for the chat, under its new id."""
        if old in self.chats and new not in self.chats:
            self.chats[new] = self.chats.pop(old)


class Budgets:
    """The per-chat budgets of refusals (``admit``) and of answers that report nothing recorded
    (``admit_answer``); ``forget_also`` runs whenever the budgets back to whole are
    forgotten."""

    def __init__(self, limits: Limits, forget_also: Callable[[], None]) -> None:
        self._limits = limits
        self._forget_also = forget_also
        # refusals per chat, and the chats told that they were over it, until their budget is
        # whole again
        self._budgets: dict[int, Pace] = {}
        self._told_over: set[int] = set()
        # every answer reporting nothing recorded, per chat: the chat's own Telegram rate; and
        # the chats told they were over it
        self._answer_budgets: dict[int, Pace] = {}
        self._told_answers: set[int] = set()

    def admit(self, chat_id: int, now: float) -> str:
        """``Sender.admit``."""
        limits = self._limits
        budget = self._budgets.get(chat_id)
        if budget is None:
            if len(self._budgets) >= BUDGETS_KEPT:
                self._forget(now)
            budget = self._budgets[chat_id] = Pace(1.0 / limits.refusal_every,
                                                   limits.refusal_burst)
        if budget.wait(now) <= 0:
            if budget.whole(now):  # a while without refusals: told again if it floods again
                self._told_over.discard(chat_id)
            budget.took(now)
            return "yes"
        if chat_id in self._told_over:
            return "no"
        self._told_over.add(chat_id)
        return "notice"

    def admit_answer(self, chat_id: int, parts: int, now: float) -> str:
        """``Sender.admit_answer``."""
        limits = self._limits
        budget = self._answer_budgets.get(chat_id)
        if budget is None:
            if len(self._answer_budgets) >= BUDGETS_KEPT:
                self._forget(now)
            group = chat_id < 0
            budget = self._answer_budgets[chat_id] = Pace(
                limits.group if group else limits.private,
                limits.group_answer_burst if group else limits.answer_burst)
        if budget.wait(now) <= 0:
            if budget.whole(now):
                self._told_answers.discard(chat_id)
            for _ in range(parts):
                budget.took(now)
            return "yes"
        if chat_id in self._told_answers:
            return "no"
        self._told_answers.add(chat_id)
        return "notice"

    def _forget(self, now: float) -> None:
        """Budgets back to whole are forgotten (a new one is whole too)."""
        for chat in [c for c, b in self._budgets.items() if b.whole(now)]:
            del self._budgets[chat]
            self._told_over.discard(chat)
        for chat in [c for c, b in self._answer_budgets.items() if b.whole(now)]:
            del self._answer_budgets[chat]
            self._told_answers.discard(chat)
        self._forget_also()
