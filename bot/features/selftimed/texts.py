"""Contests played at home in words: the start signal with each entry's code, what a /listo
and a photo are answered, the reviewers' photo with its buttons, and what a decision tells
the entry."""

from __future__ import annotations

from datetime import datetime
from typing import assert_never
from zoneinfo import ZoneInfo

from babel.dates import get_timezone_location

from bot.domain.clock import DAY, clocks_change, format_duration
from bot.domain.contest import Category, Contest
from bot.features.results.names import PIECES
from bot.features.results.outcomes import NotFinishedNoted
from bot.features.selftimed.day import (
    AllPuzzlesDone,
    Claim,
    ClaimWaiting,
    NoClaim,
    NoPuzzleStarted,
    NotOwnStart,
    NotSelfTimed,
    OwnStarted,
    Pace,
    PhotoAskedAlready,
    PhotoKept,
    PiecesCounted,
    RetakeAsked,
    SeasonOver,
    SelfTimedRefusal,
    StillPlaying,
    WhichToStart,
)
from bot.features.selftimed.rules import PHOTOS_PER_MINUTE, PhotoUse, per_hour
from bot.services.ready import ReadyNoted
from bot.storage.store import Entry
from bot.support.commands import typed
from bot.support.i18n import ntr, tr
from bot.texts.names import clock_time, day_text, names, span_text


def start_notice(lang: str, category: Category, code: str, contest: Contest | None = None,
                 span: tuple[datetime, datetime] | None = None) -> str:
    """To each entry's phones at the start signal: its code, and what to do with it (a time
    to play of days: when it ends, ``season_end``)."""
    text = tr(lang, "Start! Your code is {code}. Write it in big letters on a sheet of paper "
              "and photograph it beside the open box; send me the photo. You have {limit}. As "
              "soon as the puzzle is done, send /listo: that moment is your time. Then send a "
              "photo of the finished puzzle with the same paper beside it.", code=code,
              limit=span_text(lang, category.time_limit))
    return _with_end(lang, text, category, contest, span)


def season_notice(lang: str, category: Category, contest: Contest | None = None,
                  span: tuple[datetime, datetime] | None = None) -> str:
    """To each entry's phones when a category whose entries start each puzzle themselves
    opens: how it goes, and when the season ends (``season_end``)."""
    text = tr(lang, "{category} is open! You have {limit} to play. Start each puzzle when you "
              "want with /empiezo (with several left, its number: /empiezo 2): the bot gives "
              "you a code for it. Write the code on a sheet of paper and photograph it beside "
              "the open box. When the puzzle is done, /listo at once, then a photo of it with "
              "the paper. Your time is the sum of your puzzles' times.",
              category=category.name, limit=span_text(lang, category.time_limit))
    return _with_end(lang, text, category, contest, span)


def _with_end(lang: str, text: str, category: Category, contest: Contest | None,
              span: tuple[datetime, datetime] | None) -> str:
    """A notice of a time to play of a day or more, with the moment it ends."""
    if contest is None or span is None or category.time_limit < DAY:
        return text
    return text + "\n" + season_end(lang, contest, *span)


def season_end(lang: str, contest: Contest, start: datetime, end: datetime) -> str:
    """When a time to play of days that began at ``start`` ends (``end``), on the clocks of
    the contest's zone, named; where the clocks change in between, said: the end keeps the
    hour of day the season began (``wall_clock_limit``)."""
    zone = ZoneInfo(contest.timezone)
    city = get_timezone_location(contest.timezone, locale=lang, return_city=True)
    text = tr(lang, "Your time to play ends on {end} ({city} time).", city=city,
              end=_day_and_hour(lang, contest, end))
    change = clocks_change(zone, start, end)
    if change is None:
        return text
    day, forward = change
    when = day_text(lang, day)
    hour = clock_time(contest, end)[:5]
    return text + " " + (
        tr(lang, "The clocks go forward an hour on {day}: the end stays at {hour}, the hour "
           "of day it began.", day=when, hour=hour) if forward else
        tr(lang, "The clocks go back an hour on {day}: the end stays at {hour}, the hour of "
           "day it began.", day=when, hour=hour))


def _day_and_hour(lang: str, contest: Contest, at: datetime) -> str:
    """"Saturday 31 October at 10:00" on the contest's clocks."""
    local = at.astimezone(ZoneInfo(contest.timezone))
    return tr(lang, "{day} at {time}", day=day_text(lang, local.date()),
              time=clock_time(contest, at)[:5])


def own_started(lang: str, contest: Contest, out: OwnStarted, at: datetime) -> str:
    """The answer to /empiezo: the puzzle's clock runs from now, and its code."""
    return tr(lang, "Puzzle {puzzle} of {puzzles} ({pieces} pieces) started at {clock}. Your "
              "code is {code}: write it on a sheet of paper and photograph it beside the open "
              "box. When it is done, send /listo at once, then a photo of the puzzle with the "
              "paper.", puzzle=out.puzzle, puzzles=out.puzzles, pieces=out.pieces,
              clock=_when(lang, contest, at), code=out.code)


def _when(lang: str, contest: Contest, at: datetime) -> str:
    """A moment of a season over weeks: its day and its time ("Sunday 8 November 20:03:11")."""
    local = at.astimezone(ZoneInfo(contest.timezone))
    return f"{day_text(lang, local.date())} {clock_time(contest, at)}"


def ready_noted(lang: str, contest: Contest, out: ReadyNoted, at: datetime, code: str) -> str:
    """A self-timed entry's /listo: its claim is noted, now the photo."""
    return tr(lang, "Noted: finished in {time} (at {clock}). Now send a photo of the whole "
              "finished puzzle with the paper showing your code {code} beside it. Your time "
              "counts once a reviewer has checked the photo; I will tell you.",
              time=format_duration(out.time), clock=clock_time(contest, at), code=code)


def past_limit_at_home(lang: str, limit: int) -> str:
    """A /listo after the time limit, at home: what is still owed (the photo to count)."""
    return tr(lang, "Time is up ({limit}): hands off the puzzle, and send me a photo of it as "
              "it is now: a reviewer counts your pieces.", limit=span_text(lang, limit))


def photo_answer(lang: str, out: PhotoKept) -> str:
    """To the participant who sent a photo: what it was kept as (a photo sent before: that it
    is not sent on again; one over the entry's budget: kept, not sent on)."""
    if out.repeat_of is not None:
        return tr(lang, "I have this photo already: it is not sent to the reviewers again. If "
                  "they need another one, take a new photo.")
    if out.held_back:
        return tr(lang, "Photo kept. The reviewers get at most {count} photos of an entry a "
                  "minute: your newest one goes on to them within the minute. If they need "
                  "another one, I will tell you.", count=PHOTOS_PER_MINUTE)
    match out.use:
        case PhotoUse.CLAIM:
            return tr(lang, "Photo received for your time of {time}. A reviewer checks it; "
                      "I will tell you.", time=format_duration(out.time))
        case PhotoUse.START:
            return tr(lang, "Start photo kept ({time} after your start). When the puzzle is "
                      "done: /listo, then a photo of it with your code {code}.",
                      time=format_duration(out.time), code=out.code)
        case PhotoUse.TIME_UP:
            return tr(lang, "Photo kept: time is up, and a reviewer counts your pieces from "
                      "it.")
        case _:
            assert_never(out.use)


def review_caption(lang: str, contest: Contest, entry: Entry, out: PhotoKept,
                   claimed_at: datetime | None) -> str:
    """Under the photo the reviewers get: whose it is, what it backs, the code to look for
    (and, for a photo held back that went on by itself, when it came)."""
    who = f"#{entry.number} {names(entry.names)}"
    held = "" if not out.held else "\n" + ntr(
        lang, "(+{n} more photo of this entry kept, not forwarded: at most {most} a minute.)",
        "(+{n} more photos of this entry kept, not forwarded: at most {most} a minute.)",
        out.held, most=PHOTOS_PER_MINUTE)
    if out.kept_since is not None:  # held back, and gone on by itself when the budget freed
        held = "\n" + tr(lang, "(This entry's newest photo, sent at {clock}: kept back until "
                         "now.)", clock=clock_time(contest, out.kept_since)) + held
    if out.use is PhotoUse.TIME_UP:
        return tr(lang, "PIECES? {who}: time is up. Count the pieces placed in the photo, then "
                  "{pieces} {entry} P.", who=who, entry=entry.number,
                  pieces=typed(lang, PIECES)) + held
    clock = clock_time(contest, claimed_at) if claimed_at is not None else "-"
    return tr(lang, "REVIEW {who}: finished in {time} (at {clock}). Their code is {code}: check "
              "that the puzzle is complete and the code is on the paper in the photo.",
              who=who, time=format_duration(out.time), clock=clock, code=out.code) + held


def confirm_button(lang: str, entry: int, time: int) -> str:
    return f"#{entry} " + tr(lang, "✅ Confirm {time}", time=format_duration(time))


def retake_button(lang: str) -> str:
    return tr(lang, "📷 Another photo")


def reject_button(lang: str, reason: str) -> str:
    """The buttons turning a claim down, by reason (``REJECT_REASONS``)."""
    if reason == "no_code":
        return tr(lang, "❌ No code in the photo")
    return tr(lang, "❌ Not finished")


def _reason(lang: str, out: NotFinishedNoted) -> str:
    if out.reason == "no_code":
        return tr(lang, "the paper with your code is not in the photo")
    if out.reason == "not_done":
        return tr(lang, "the puzzle in the photo is not finished")
    return out.reason


def rejected_notice(lang: str, out: NotFinishedNoted) -> str:
    """To the entry's phones: the claim at ``out.time`` was turned down, and why (its time
    up: the photo to count its pieces from)."""
    if out.time_up:
        return tr(lang, "A reviewer did not accept your time of {time}: {reason}. Your time "
                  "is up: send me a photo of your puzzle as it is now, and a reviewer counts "
                  "your pieces from it.", time=format_duration(out.time),
                  reason=_reason(lang, out))
    return tr(lang, "A reviewer did not accept your time of {time}: {reason}. If your time "
              "is not up, play on and send /listo again when the puzzle is done, then a "
              "photo of it with your code.", time=format_duration(out.time),
              reason=_reason(lang, out))


def rejected_answer(lang: str, out: NotFinishedNoted) -> str:
    """To the reviewer who turned a claim down."""
    return tr(lang, "Entry {entry}: the time of {time} is not accepted ({reason}). They are "
              "told, and may claim again.", entry=out.entry, time=format_duration(out.time),
              reason=_reason(lang, out))


def rejected_settled(lang: str, out: NotFinishedNoted, by: str) -> str:
    """In place of the reviewers' photo (every copy) once the claim is turned down."""
    return tr(lang, "❌ Not accepted: {reason} ({name})", reason=_reason(lang, out), name=by)


def retake_settled(lang: str, by: str) -> str:
    """In place of the reviewers' photo (every copy) once another photo is asked for: the
    next one comes with its own buttons."""
    return tr(lang, "📷 Another photo asked for ({name})", name=by)


def review_claim_button(lang: str, entry: int) -> str:
    """First under a reviewers' photo: the reviewer takes it (the others see who does)."""
    return f"#{entry} " + tr(lang, "🙋 I'll check it")


def retake_notice(lang: str, out: RetakeAsked) -> str:
    """To the entry's phones: another photo, please; the claim keeps its time."""
    return tr(lang, "A reviewer needs another photo of your finished puzzle: the whole puzzle "
              "and the paper with your code {code}, sharp, in one picture. Your time stays "
              "{time}.", code=out.code, time=format_duration(out.time))


def retake_answer(lang: str, out: RetakeAsked) -> str:
    """To the reviewer who asked for another photo."""
    return tr(lang, "Entry {entry} is asked for another photo; its time of {time} waits for "
              "it.", entry=out.entry, time=format_duration(out.time))


def waiting_line(lang: str, claims: list[Claim]) -> str:
    """Under a ranking: the finishes claimed and not reviewed yet (not in the ranking)."""
    items = ", ".join(
        f"#{c.entry} ({format_duration(c.time)}, "
        + (tr(lang, "{count} photos", count=c.photos) if c.photos > 1 else
           tr(lang, "photo received") if c.photos == 1 else tr(lang, "no photo yet")) + ")"
        for c in claims)
    return tr(lang, "Waiting for review (not ranked yet): {items}.", items=items)


def selftimed_refusal(lang: str, refused: SelfTimedRefusal, contest: Contest) -> str:
    """Why a photo, a claim or a review recorded nothing."""
    match refused:
        case NotSelfTimed(entry=entry):
            return tr(lang, "Entry {entry} is not played at home: volunteers record its finish "
                      "(no photo needed).", entry=entry)
        case ClaimWaiting(time=t):
            return tr(lang, "Your time of {time} already waits for review: send the photo of "
                      "the finished puzzle with your code, if you haven't yet.",
                      time=format_duration(t))
        case NoClaim(entry=entry):
            return tr(lang, "Nothing of entry {entry} waits for review (no /listo since the "
                      "last decision).", entry=entry)
        case PhotoAskedAlready(entry=entry):
            return tr(lang, "Entry {entry} was already asked for another photo, and none came "
                      "since.", entry=entry)
        case PiecesCounted(entry=entry):
            return tr(lang, "Entry {entry}'s time is up and its pieces are recorded: nothing "
                      "changed.", entry=entry)
        case NotOwnStart(entry=entry):
            return tr(lang, "Entry {entry}'s puzzles start for everyone at once, at the start "
                      "signal: there is nothing to start yourself.", entry=entry)
        case NoPuzzleStarted():
            return tr(lang, "Start a puzzle first with /empiezo (the bot gives you its code), "
                      "then /listo when it is done.")
        case StillPlaying():
            return tr(lang, "You have a puzzle started and not claimed yet: send /listo when "
                      "it is done (one puzzle at a time).")
        case AllPuzzlesDone():
            return tr(lang, "Every puzzle of yours is done and confirmed: nothing left to "
                      "start.")
        case WhichToStart(left=left):
            return tr(lang, "Which puzzle do you start? Puzzles left: {left}. For example: "
                      "/empiezo {first}", left=", ".join(str(k) for k in left), first=left[0])
        case SeasonOver(limit=limit, until=until) if until is not None:
            return tr(lang, "The time to play is over ({limit} from the start), and the photo "
                      "of your puzzle as it stood then had to come by {when}: nothing changed.",
                      limit=span_text(lang, limit), when=_when(lang, contest, until))
        case SeasonOver(limit=limit):
            return tr(lang, "The time to play is over ({limit} from the start): nothing "
                      "changed.", limit=span_text(lang, limit))
        case _:
            assert_never(refused)


def which_photo(lang: str, entries: list[Entry]) -> str:
    """A phone following several entries played at home: which one a photo is about."""
    return tr(lang, "You follow entries {list}: send the photo again with the entry's number "
              "as its caption (e.g. {n}).", list=", ".join(f"#{e.number}" for e in entries),
              n=entries[0].number)


def pace_lines(lang: str, paces: list[Pace], entries: dict[int, Entry]) -> list[str]:
    """The season so far by pieces per hour, under its ranking."""
    if not paces:
        return []
    lines = [tr(lang, "Pace so far (pieces per hour of the puzzles confirmed):")]
    for p in paces:
        entry = entries.get(p.entry)
        who = f"#{p.entry} {names(entry.names)}" if entry is not None else f"#{p.entry}"
        lines.append(tr(lang, "{place}. {who}: {rate} per hour ({pieces} pieces in {time})",
                        place=p.place, who=who, rate=round(per_hour(p.pieces, p.seconds)),
                        pieces=p.pieces, time=format_duration(p.seconds)))
    return lines
