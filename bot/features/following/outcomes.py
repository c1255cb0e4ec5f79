"""What a scan of a table card and a decision on it give back, each outcome declared here once,
and what each reader reads of it: the person who scanned (``scan_answer``), the people asked
(``request_line``, with ``buttons``), the presser (``decision_answer``), the person who asked
once decided (``decided_notice``) and the note under every copy of the line (``line_note``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, assert_never

from bot.domain.contest import Contest
from bot.services.access import LinksEnded
from bot.services.outcomes import Done, Refusal
from bot.storage.store import Entry
from bot.support.i18n import tr
from bot.texts.access import access_refusal, linked
from bot.texts.names import names


@dataclass(frozen=True)
class Asked(Done):
    """A request recorded (event ``request``): ``phones`` the entry's phones were asked (the
    organisers too), else the organisers only."""

    entry: Entry
    request: int
    name: str
    phones: bool


@dataclass(frozen=True)
class FollowedAtOnce(Done):
    """No phone followed the entry, and the contest lets the first scan follow it."""

    entry: Entry


@dataclass(frozen=True)
class AlreadyFollowing(Refusal):
    code: ClassVar[str] = "already_following"
    entry: Entry


@dataclass(frozen=True)
class StillAsking(Refusal):
    """The same phone asked before, and nobody answered yet."""

    code: ClassVar[str] = "still_asking"
    entry: Entry


@dataclass(frozen=True)
class RefusedBefore(Refusal):
    """The same phone asked before and was refused: it is not asked again."""

    code: ClassVar[str] = "refused_before"
    entry: Entry


ScanOutcome = (Asked | FollowedAtOnce | AlreadyFollowing | StillAsking | RefusedBefore
               | LinksEnded)


@dataclass(frozen=True)
class Decided(Done):
    """Request ``request`` of ``requester`` (named ``name``) to follow ``entry``, ``allowed``
    or refused by ``by``."""

    entry: Entry
    request: int
    requester: int
    name: str
    allowed: bool
    by: str


@dataclass(frozen=True)
class UnknownRequest(Refusal):
    code: ClassVar[str] = "unknown_request"


@dataclass(frozen=True)
class NotTheirs(Refusal):
    """The presser neither follows the entry nor is an organiser."""

    code: ClassVar[str] = "not_theirs"
    entry: int


@dataclass(frozen=True)
class AlreadyDecided(Refusal):
    code: ClassVar[str] = "already_decided"
    entry: int
    allowed: bool
    by: str


DecisionOutcome = Decided | UnknownRequest | NotTheirs | AlreadyDecided


def scan_answer(lang: str, out: ScanOutcome, contest: Contest) -> str:
    """To the person who scanned the card."""
    match out:
        case Asked(entry=entry, phones=True):
            return tr(lang, "I have asked the people who follow entry #{entry} to let you "
                      "follow it. I will tell you as soon as one of them (or an organiser) "
                      "answers.", entry=entry.number)
        case Asked(entry=entry):
            return tr(lang, "Nobody follows entry #{entry} yet: I have asked the organisers "
                      "to let you follow it. I will tell you as soon as one of them answers.",
                      entry=entry.number)
        case FollowedAtOnce(entry=entry):
            return linked(lang, contest, entry, False)
        case AlreadyFollowing(entry=entry):
            return linked(lang, contest, entry, True)
        case StillAsking(entry=entry):
            return tr(lang, "You have already asked to follow entry #{entry}: nobody has "
                      "answered yet. I will tell you as soon as someone does.",
                      entry=entry.number)
        case LinksEnded():
            return access_refusal(lang, out)
        case RefusedBefore(entry=entry):
            return tr(lang, "Your request to follow entry #{entry} was not accepted. If you "
                      "play in it, please ask an organiser at the desk.", entry=entry.number)
        case _:
            assert_never(out)


def request_line(lang: str, out: Asked, organisers: bool) -> str:
    """To the people asked: the entry's phones, and (``organisers``) the organisers."""
    text = tr(lang, "{name} scanned the table card of entry #{entry} ({names}) and asks to "
              "follow it: they would get its notices and could answer for it. Do you allow "
              "it?", name=out.name, entry=out.entry.number, names=names(out.entry.names))
    if not organisers:
        return text
    if out.phones:
        return text + "\n" + tr(lang, "The entry's phones were asked too: whoever answers "
                                "first decides.")
    return text + "\n" + tr(lang, "No phone follows this entry yet.")


def allow_label(lang: str) -> str:
    return tr(lang, "Allow")


def refuse_label(lang: str) -> str:
    return tr(lang, "Refuse")


def line_note(lang: str, data: dict[str, Any]) -> str:
    """Under every copy of the line once decided (the decision's data: who, ``by``)."""
    by = str(data.get("by") or "?")
    if data.get("kind") == "follow_allowed":
        return tr(lang, "→ Allowed by {name}.", name=by)
    return tr(lang, "→ Refused by {name}.", name=by)


def decided_notice(lang: str, out: Decided, contest: Contest) -> str:
    """To the person who asked, in their language."""
    if out.allowed:
        return tr(lang, "{name} allowed you to follow entry #{entry}.", name=out.by,
                  entry=out.entry.number) + "\n" + linked(lang, contest, out.entry, False)
    return tr(lang, "Sorry: your request to follow entry #{entry} was not accepted. If you "
              "play in it, please ask an organiser at the desk.", entry=out.entry.number)


def decision_answer(lang: str, out: DecisionOutcome) -> str:
    """To whoever pressed Allow or Refuse."""
    match out:
        case Decided(allowed=True):
            return tr(lang, "Done: {name} now follows entry #{entry}.", name=out.name,
                      entry=out.entry.number)
        case Decided():
            return tr(lang, "Done: {name} does not follow entry #{entry}.", name=out.name,
                      entry=out.entry.number)
        case UnknownRequest():
            return tr(lang, "That request no longer exists.")
        case NotTheirs(entry=entry):
            return tr(lang, "Only the people who follow entry #{entry}, or an organiser, may "
                      "answer this request.", entry=entry)
        case AlreadyDecided(allowed=True, by=by):
            return tr(lang, "Already answered: {name} allowed it.", name=by)
        case AlreadyDecided(by=by):
            return tr(lang, "Already answered: {name} refused it.", name=by)
        case _:
            assert_never(out)
