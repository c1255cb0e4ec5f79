"""The rehearsal's buttons mode (``demo --buttons``): a volunteer's typed command that a button
already offers is played as that button instead (one tap), the rest still typed; the taps and
the commands they replaced counted for the report. Both modes play the same day with the same
results: a button records what its typed command would."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime

from bot.rehearsal.actions import Action, Person
from bot.rehearsal.fakeapi import Call

Play = Callable[[Person, str, datetime], Awaitable[list[Call]]]

# a typed command -> the prefix of the button that does the same: /fin N (no time) after a
# /listo is the FINISHED? line's "Record"; /etapa N S at the escape's end is the handover
# line's stage button
_AS_BUTTON = ((re.compile(r"^/fin (\d+)$"), "ready:ok:{0}:", "finish"),
              (re.compile(r"^/etapa (\d+) (\d+)$"), "stg:{0}:{1}", "stage"))


_PLURAL = {"finish": "finishes", "stage": "stages"}


class Taps:
    """What the buttons mode pressed instead of typing, by kind, and what it still typed."""

    def __init__(self) -> None:
        self.pressed: Counter[str] = Counter()
        self.typed = 0

    def button_for(self, text: str, chat: int, calls: Sequence[Call]
                   ) -> tuple[str, str, str] | None:
        """The button ``chat`` was sent that does what ``text`` would, newest first: (its data,
        its kind, its label); None when none does (the command is typed)."""
        for pattern, prefix, kind in _AS_BUTTON:
            found = pattern.match(text)
            if found is None:
                continue
            wanted = prefix.format(*found.groups())
            for call in reversed(calls):
                if call.chat_id != chat or call.method not in ("sendMessage",
                                                               "editMessageText"):
                    continue
                for label, data in call.buttons():
                    if data == wanted or (wanted.endswith(":") and data.startswith(wanted)):
                        return data, kind, label
        return None

    async def play(self, action: Action, calls: Sequence[Call], send: Play, press: Play
                   ) -> list[Call]:
        """A volunteer's action: the button that does the same pressed (``press``), one tap,
        or the command typed (``send``) when no button does."""
        tap = self.button_for(action.text, action.actor.id, calls)
        if tap is None:
            self.typed += 1
            return await send(action.actor, action.text, action.at)
        self.pressed[tap[1]] += 1
        action.label = f"[{tap[2]}]"
        return await press(action.actor, tap[0], action.at)

    def report(self) -> str:
        """The report's line: every tap, and what was still typed."""
        kinds = ", ".join(f"{n} {kind if n == 1 else _PLURAL[kind]}"
                          for kind, n in sorted(self.pressed.items()))
        total = sum(self.pressed.values())
        return (f"Buttons: {total} volunteers' commands played as one tap each "
                f"({kinds or 'none'}); {self.typed} still typed.")
