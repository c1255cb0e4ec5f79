"""How a correction is typed, with the entries it could correct and an example; its menu line
and its name in a history."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.features.corrections.names import CORRECT
from bot.features.corrections.outcomes import born_text
from bot.storage.store import Entry
from bot.support.commands import typed
from bot.support.i18n import tr


def usage(lang: str, entries: Sequence[Entry]) -> str:
    """How to type it, an example on the person's own first entry, and each of their entries'
    members as they stand, numbered."""
    command = typed(lang, CORRECT)
    lines = [tr(lang, "To correct a member's name or birth, send {command} N M NAME BIRTH "
                "(entry N, member M), as at registration.", command=command)]
    if entries:
        first = entries[0]
        last = first.members[-1]
        lines.append(tr(lang, "For example: {example}", example=(
            f"{command} {first.number} {len(first.members)} {last.name} {born_text(last)}")))
    for e in entries:
        members = "; ".join(f"{i}. {m.name} ({born_text(m)})"
                            for i, m in enumerate(e.members, 1))
        lines.append(f"#{e.number}: {members}")
    return "\n".join(lines)


def which_entry(lang: str, entries: Sequence[Entry]) -> str:
    return tr(lang, "Which entry? Send {command} N M NAME BIRTH with its number: {entries}.",
              command=typed(lang, CORRECT),
              entries=", ".join(f"#{e.number}" for e in entries))


def fix_name(lang: str) -> str:
    return tr(lang, "member corrected")


def fix_detail(event: Any) -> str:
    """What a correction changed, as a history shows it: "Lucas Perz 2018 → Lucas Pérez
    2019" (names and births are the same in every language)."""
    def shown(data: Any) -> str:
        if not isinstance(data, dict):
            return "?"
        born = data.get("born") or data.get("year")
        return f"{data.get('name', '?')} {born}" if born else str(data.get("name", "?"))

    return f"{shown(event.data.get('old'))} → {shown(event.data.get('new'))}"
