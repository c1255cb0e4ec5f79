"""The rehearsal's buttons mode (``demo --buttons``): a volunteer's typed command that a button
already offers is played as that button instead (one tap), the rest still typed; the taps and
the commands they replaced counted for the report. A volunteer recording a finish from its
FINISHED? line takes the line with "I'm going" first, when nobody has. Both modes play the
same day with the same results: a button records what its typed command would."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime

from bot.domain.claims import CLAIM_PREFIX
from bot.rehearsal.actions import Action, Person
from bot.rehearsal.fakeapi import Call

Play = Callable[[Person, str, datetime], Awaitable[list[Call]]]

# a typed command -> the prefix of the button that does the same: /fin N (no time) after a
# /listo is the FINISHED? line's "Record"; /etapa N S at the escape's end is the handover
# line's stage button
_AS_BUTTON = ((re.compile(r"^/fin (\d+)$"), "ready:ok:{0}:", "finish"),
              (re.compile(r"^/etapa (\d+) (\d+)$"), "stg:{0}:{1}", "stage"))


_PLURAL = {"finish": "finishes", "stage": "stages"}
CLAIM = CLAIM_PREFIX + "{0}:"  # the line's "I'm going" (a FINISHED? line's): pressed first


class Taps:
    """What the buttons mode pressed instead of typing, by kind, and what it still typed."""

    def __init__(self) -> None:
        self.pressed: Counter[str] = Counter()
        self.typed = 0
        self.claimed = 0  # lines taken with "I'm going" before walking to the table

    def button_for(self, text: str, chat: int, calls: Sequence[Call]
                   ) -> tuple[str, str, str, str | None] | None:
        """The button ``chat`` was sent that does what ``text`` would, newest first: (its data,
        its kind, its label, the "I'm going" still under that line, if any); None when none
        does (the command is typed)."""
        for pattern, prefix, kind in _AS_BUTTON:
            found = pattern.match(text)
            if found is None:
                continue
            wanted = prefix.format(*found.groups())
            claim = CLAIM.format(found.group(1))
            for call in reversed(calls):
                if call.chat_id != chat or call.method not in ("sendMessage", "sendPhoto",
                                                               "editMessageText"):
                    continue
                shown = call.buttons()
                for label, data in shown:
                    if data == wanted or (wanted.endswith(":") and data.startswith(wanted)):
                        going = next((d for _, d in shown if d.startswith(claim)), None)
                        return data, kind, label, going
        return None

    async def play(self, action: Action, calls: Sequence[Call], send: Play, press: Play
                   ) -> list[Call]:
        """A volunteer's action: the button that does the same pressed (``press``), one tap,
        or the command typed (``send``) when no button does."""
        tap = self.button_for(action.text, action.actor.id, calls)
        if tap is None:
            self.typed += 1
            return await send(action.actor, action.text, action.at)
        if tap[3] is not None:  # the line not taken yet: "I'm going" first, as on the day (its
            # answer is a notice on the presser's screen, not a message of the transcript)
            await press(action.actor, tap[3], action.at)
            self.claimed += 1
        self.pressed[tap[1]] += 1
        action.label = f"[{tap[2]}]"
        return await press(action.actor, tap[0], action.at)

    def report(self) -> str:
        """The report's line: every tap, and what was still typed."""
        kinds = ", ".join(f"{n} {kind if n == 1 else _PLURAL[kind]}"
                          for kind, n in sorted(self.pressed.items()))
        total = sum(self.pressed.values())
        return (f"Buttons: {total} volunteers' commands played as one tap each "
                f"({kinds or 'none'}); {self.typed} still typed; {self.claimed} lines "
                "taken with \"I'm going\" first.")
