"""What finding a partner says: the request sent to another entry, the lists of those looking,
how the command is typed, and the names of its events in a history."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.features.partners.names import PAIR
from bot.support.commands import typed
from bot.support.i18n import tr
from bot.texts.names import names, usage_text


def usage(lang: str, organiser: bool) -> str:
    command = typed(lang, PAIR)
    if organiser:
        return usage_text(lang, f"{command} N M") + "\n" + tr(
            lang, "For example {example}: entries 12 and 15, both looking for a partner, "
            "become one (entry 12, the one registered first).", example=f"{command} 12 15")
    return usage_text(lang, f"{command} N") + "\n" + tr(
        lang, "For example {example}: ask entry 15, looking for a partner too, to play with "
        "you.", example=f"{command} 15")


def matched_text(lang: str, kept: int, members: Sequence[str], complete: bool) -> str:
    """To everyone following the entry kept (the other's people follow it now)."""
    text = tr(lang, "Partner found: entry #{entry} is now {names}.", entry=kept,
              names=names(members))
    if not complete:
        text += " " + tr(lang, "It still needs more members: it keeps looking.")
    return text


def joined_text(lang: str, kept: int, joining: int) -> str:
    """What the entry that joined the other became (to whoever matched them)."""
    return tr(lang, "Entry #{joining} has joined entry #{entry} and is withdrawn; its people "
              "now follow #{entry}.", joining=joining, entry=kept)


def asked_text(lang: str, other: int, other_names: Sequence[str]) -> str:
    return tr(lang, "Asked: entry #{entry} ({names}) is asked whether to play with you. You "
              "are matched as soon as they say yes.", entry=other, names=names(other_names))


def request_text(lang: str, number: int, members: Sequence[str]) -> str:
    """To the people of the entry asked."""
    return tr(lang, "Entry #{entry} ({names}), looking for a partner too, asks to play with "
              "you.", entry=number, names=names(members))


def request_buttons(lang: str, asked: int, asking: int) -> list[list[tuple[str, str]]]:
    return [[(tr(lang, "Play with #{entry}", entry=asking), f"partner:yes:{asked}:{asking}"),
             (tr(lang, "No, thanks"), f"partner:no:{asked}:{asking}")]]


def declined_text(lang: str, asked: int) -> str:
    """To the entry that asked, when the other says no."""
    return tr(lang, "Entry #{entry} would rather not play with you. You are still looking "
              "for a partner.", entry=asked)


def said_no_text(lang: str, asking: int) -> str:
    return tr(lang, "Noted: you will not be matched with entry #{entry}.", entry=asking)


def seekers_text(lang: str, category: str, others: Sequence[tuple[int, Sequence[str]]]) -> str:
    """To someone looking for a partner: the others looking in their category."""
    if not others:
        return tr(lang, "Nobody else is looking for a partner in {category} yet. I will tell "
                  "you as soon as someone asks to play with you, or the organisers match "
                  "you.", category=category)
    lines = [tr(lang, "Looking for a partner in {category}:", category=category)]
    lines += [f"  #{n} {names(m)}" for n, m in others]
    lines.append(tr(lang, "To ask one of them to play with you: {command} N.",
                    command=typed(lang, PAIR)))
    return "\n".join(lines)


def all_seekers_text(lang: str, by_category: Sequence[tuple[str, Sequence[tuple[int, Sequence[
        str]]]]]) -> str:
    """To an organiser: everyone looking for a partner, per category."""
    if not by_category:
        return tr(lang, "Nobody is looking for a partner.")
    lines = []
    for category, seekers in by_category:
        lines.append(tr(lang, "Looking for a partner in {category}:", category=category))
        lines += [f"  #{n} {names(m)}" for n, m in seekers]
    lines.append(tr(lang, "To match two of them: {command} N M.", command=typed(lang, PAIR)))
    return "\n".join(lines)


def not_seeking_any(lang: str) -> str:
    return tr(lang, "None of your entries is looking for a partner.")


def no_partners(lang: str) -> str:
    return tr(lang, "This contest does not match partners: each entry registers with all its "
              "members.")


def proposal_detail(event: Any) -> str:
    """A request as a history shows it: "→ #15" (asked entry 15), "✗ #15" (declined by 15)."""
    declined = event.data.get("declined_by") if isinstance(event.data, dict) else None
    if declined is not None:
        return f"✗ #{declined}"
    return f"→ #{event.value}" if event.value else ""


def match_detail(event: Any) -> str:
    """A match as a history shows it: "+ #15" (entry 15's members joined)."""
    other = event.data.get("other") if isinstance(event.data, dict) else None
    return f"+ #{other}" if other is not None else ""


def seek_name(lang: str) -> str:
    return tr(lang, "registered alone, looking for a partner")


def match_name(lang: str) -> str:
    return tr(lang, "partner found")


def proposal_name(lang: str) -> str:
    return tr(lang, "asked to play with another entry")


def which_text(lang: str, numbers: Sequence[int]) -> str:
    """Someone with several entries looking for a partner: which one asks."""
    return tr(lang, "Which of your entries? {command} N M: N one of {list}, M the entry you "
              "ask.", command=typed(lang, PAIR), list=", ".join(f"#{n}" for n in numbers))
