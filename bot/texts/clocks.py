"""What the clocks' outcomes read as: which clocks started, why a clock was not started,
paused or resumed, and an organiser's announcement."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import assert_never

from bot.domain.contest import Contest
from bot.domain.rounds import heats_by_id
from bot.features.standings.names import PUBLISH
from bot.services.clocks import (
    AlreadyPaused,
    AlreadyStarted,
    ClocksRefusal,
    ClocksStarted,
    HeatRunning,
    NothingToStart,
    NotPaused,
    NotReached,
    NotYet,
    TimeUp,
)
from bot.support.commands import typed
from bot.support.i18n import ntr, tr
from bot.texts.names import clock_time, day_text, heat_by_id, heat_name


def clocks_refusal(lang: str, refused: ClocksRefusal, contest: Contest) -> str:
    """One line saying why the organiser's /inicio, /pausa or /reanudar did nothing."""
    match refused:
        case AlreadyStarted(time_up=True, heats=True):
            return tr(lang, "That time is already up: nothing to start. Once its results are "
                      "checked: /confirmar_ronda")
        case AlreadyStarted(time_up=True):
            return tr(lang, "That time is already up: nothing to start. To make the results "
                      "final: {publish}", publish=typed(lang, PUBLISH))
        case AlreadyStarted():
            return tr(lang, "That clock is already running.")
        case TimeUp():
            return tr(lang, "Every clock's time is up: there is nothing to pause. To make the "
                      "results final: {publish}", publish=typed(lang, PUBLISH))
        case AlreadyPaused():
            return tr(lang, "The clocks are already paused.")
        case NotPaused():
            return tr(lang, "The clocks are not paused.")
        case NotYet(heat=heat, day=day, start=None):
            return tr(lang, "Nothing to start today: {heat} is on {day}. To start it now "
                      "anyway: /inicio {id}", heat=heat_by_id(lang, contest, heat),
                      day=day_text(lang, day), id=heat)
        case NotYet(heat=heat, start=start):
            return tr(lang, "Nothing to start now: {heat} starts at {time}. To start it now "
                      "anyway: /inicio {id}", heat=heat_by_id(lang, contest, heat),
                      time=clock_time(contest, start)[:5] if start else "-", id=heat)
        case HeatRunning(heat=heat, running=running):
            return tr(lang, "Nothing started: {heat} comes after {running}, which is still "
                      "being played. To start it now anyway: /inicio {id}",
                      heat=heat_by_id(lang, contest, heat),
                      running=heat_by_id(lang, contest, running), id=heat)
        case NotReached(heat=heat):
            return tr(lang, "{heat} has nobody in it yet: its entrants are known once the round "
                      "before is confirmed (/confirmar_ronda).",
                      heat=heat_by_id(lang, contest, heat))
        case NothingToStart():
            return tr(lang, "Nothing to start: no category or heat is waiting for its clock.")
        case _:
            assert_never(refused)


def clock_name(lang: str, contest: Contest, unit_id: str) -> str:
    """What a clock is called in running text: a category's name ("Individual"), a heat's
    with its category ("Heats 2 (Individual)"), never the id the contest file gives them."""
    heat = heats_by_id(contest.categories).get(unit_id)
    if heat is not None:
        return f"{heat_name(lang, contest, heat)} ({heat.category.name})"
    category = contest.category(unit_id)
    return category.name if category is not None else unit_id


def unknown_category(lang: str, contest: Contest, heats: Iterable[str]) -> str:
    """/inicio naming neither a category nor a heat (``heats``: the day's heat ids)."""
    return tr(lang, "Unknown category. Categories: {ids}",
              ids=", ".join(clock_name(lang, contest, unit_id) for unit_id in
                            [*(c.id for c in contest.categories), *heats]))


def clocks_started(lang: str, contest: Contest, out: ClocksStarted,
                   later: Sequence[NotYet]) -> str:
    """/inicio's answer: the clocks started, then why each heat left waits (``later``: those
    of another day or hour; ``out.behind``: those after a heat still played)."""
    started = ", ".join(clock_name(lang, contest, cid) for cid in out.started)
    text = tr(lang, "Clock started for: {categories}.", categories=started)
    for waits in later:
        text += "\n" + clocks_refusal(lang, waits, contest)
    for behind in out.behind:
        text += "\n" + clocks_refusal(lang, behind, contest)
    return text


def paused(lang: str) -> str:
    return tr(lang, "Break: every clock is paused. /reanudar to go on.")


def resumed(lang: str) -> str:
    return tr(lang, "The clocks run again.")


def announcement(text: str) -> str:
    """An organiser's announcement as each participant reads it."""
    return "📣 " + text


def announcement_preview(lang: str, text: str, recipients: int) -> str:
    """/anuncio's preview: what each participant will read, and how many it reaches."""
    return "\n\n".join([
        ntr(lang, "Preview: this announcement goes to {n} person, {when}.",
            "Preview: this announcement goes to {n} people, {when}.", recipients,
            when=_when_sent(lang, recipients)),
        announcement(text),
        tr(lang, "Send it? Nothing goes until you choose.")])


def channel_preview(lang: str, text: str, linked: int) -> str:
    """/anuncio's preview with an announcements channel: posted there once, nobody told
    privately; how many linked participants the bot cannot tell joined it."""
    return "\n\n".join(part for part in [
        tr(lang, "Preview: this announcement is posted once in the announcements channel, "
           "within a few seconds; nobody gets it privately."),
        announcement(text),
        _unseen(lang, linked),
        tr(lang, "Send it? Nothing goes until you choose.")] if part)


def announcement_posted(lang: str, linked: int) -> str:
    """The answer to Send with an announcements channel: where it went, and who may miss it."""
    return " ".join(part for part in [
        tr(lang, "Posted in the announcements channel, once: nobody gets it privately."),
        _unseen(lang, linked)] if part)


def _unseen(lang: str, linked: int) -> str:
    """The participants the bot cannot tell have the channel's post (it cannot see who joined
    the channel): none linked, nothing said."""
    if linked <= 0:
        return ""
    return ntr(lang, "The bot cannot tell whether the {n} linked participant joined the "
               "channel: give its link at registration and on the table cards.",
               "The bot cannot tell which of the {n} linked participants joined the channel: "
               "give its link at registration and on the table cards.", linked)


def channel_refused(lang: str, detail: str, linked: int) -> str:
    """The organisers' line when the announcements channel refused a post: it went to each
    linked participant instead (``delivery/announcements.py``)."""
    return ntr(lang, "The announcements channel refused the announcement (Telegram says: "
               "{detail}): it goes to the {n} linked participant privately instead. Make the "
               "bot an administrator of the channel (or a member of the group), or correct "
               "PUZZLEBOT_ANNOUNCE_CHAT.",
               "The announcements channel refused the announcement (Telegram says: "
               "{detail}): it goes to each of the {n} linked participants privately instead. "
               "Make the bot an administrator of the channel (or a member of the group), or "
               "correct PUZZLEBOT_ANNOUNCE_CHAT.", linked, detail=detail)


def send_button(lang: str) -> str:
    return tr(lang, "Send")


def cancel_button(lang: str) -> str:
    return tr(lang, "Cancel")


def announcement_cancelled(lang: str) -> str:
    return tr(lang, "Announcement not sent.")


def announcement_outdated(lang: str) -> str:
    return tr(lang, "This preview is not your latest one: nothing sent. Use the newest "
              "preview's Send, or /anuncio again.")


def announcement_already_sent(lang: str) -> str:
    return tr(lang, "This announcement was already sent: nothing sent again.")


def announcement_recorded(lang: str, recipients: int) -> str:
    # Telegram takes about 30 messages a second from a bot, fewer while people ask
    return ntr(lang, "Announcement recorded: it goes to {n} person, {when}.",
               "Announcement recorded: it goes to {n} people, {when}.", recipients,
               when=_when_sent(lang, recipients))


def _when_sent(lang: str, recipients: int) -> str:
    """How long until everyone has it, as people say it (issue 47: "in about 1 s"): Telegram
    takes about 30 messages a second from a bot, fewer while people ask."""
    seconds = math.ceil(recipients / 25)
    if seconds <= 5:
        return tr(lang, "within a few seconds")
    if seconds < 90:
        return ntr(lang, "in about {n} second", "in about {n} seconds", seconds)
    minutes = round(seconds / 60)
    return ntr(lang, "in about {n} minute", "in about {n} minutes", minutes)
