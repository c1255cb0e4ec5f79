"""Claiming a volunteers' line in words: its button, the note every copy gets once claimed,
and what the presser is told."""

from __future__ import annotations

from typing import assert_never

from bot.services.claims import Claimed, ClaimRefusal, TakenBy
from bot.support.i18n import tr


def going_button(lang: str, entry: int) -> str:
    """The button under a volunteers' line: "I'm going" (to entry ``entry``'s table)."""
    return f"#{entry} " + tr(lang, "I'm going")


def going_note(lang: str, name: str) -> str:
    """Under a claimed line, in every volunteer's copy."""
    return tr(lang, "→ {name} is going", name=name)


def checking_note(lang: str, name: str) -> str:
    """Under a reviewers' photo someone took, in every reviewer's copy."""
    return tr(lang, "→ {name} is checking it", name=name)


def claimed_text(lang: str, out: Claimed) -> str:
    """To the volunteer who took the line (a short notice on their screen)."""
    if out.data.get("review"):
        return tr(lang, "You're checking the photo of #{entry}. The others can see it.",
                  entry=out.entry)
    return tr(lang, "You're going to #{entry}. The others can see it.", entry=out.entry)


def claim_refusal(lang: str, out: ClaimRefusal) -> str:
    """Why a press on "I'm going" took nothing: someone (or the presser) took the line."""
    match out:
        case TakenBy(mine=True):
            return tr(lang, "You already said you're going to #{entry}.", entry=out.entry)
        case TakenBy():
            return tr(lang, "{name} is already going to #{entry}.", name=out.by,
                      entry=out.entry)
        case _:
            assert_never(out)
