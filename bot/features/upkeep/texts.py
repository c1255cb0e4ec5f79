"""What keeping the bot up says, in the reader's language: the doctor's findings and what to
do about each, the notice after a long time off, a backup that failed, and the caption of the
day's copy sent to the organisers."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from zoneinfo import ZoneInfo

from bot.features.backup.names import COPY
from bot.features.payments.settings import HOLD_UNUSED, NO_TABLE
from bot.features.upkeep.rules import Finding, Offline, Status, worst
from bot.support.commands import typed
from bot.support.i18n import ntr, tr
from bot.texts.names import day_text

Text = Callable[[str], str]  # a text as a function of the reader's language

MARKS = {Status.OK: "✅", Status.WARN: "⚠️", Status.FAIL: "❌"}


def _found(lang: str, f: Finding) -> str:
    """What one check found."""
    return _FOUND[f.check](lang, f)


def _token(lang: str, f: Finding) -> str:
    if f.status is Status.OK:
        return tr(lang, "The token works: the bot is @{username}.", username=f.found)
    if f.advice == "run_setup":
        return tr(lang, "No token is set (TELEGRAM_BOT_TOKEN).")
    if f.status is Status.FAIL:
        return tr(lang, "Telegram refuses the token.")
    return tr(lang, "The token could not be checked (Telegram did not answer).")


def _telegram(lang: str, f: Finding) -> str:
    if f.status is Status.OK:
        return tr(lang, "Telegram answers ({ms} ms).", ms=f.found)
    if f.advice == "run_setup":
        return tr(lang, "Telegram was not asked (no token).")
    if f.advice == "delete_webhook":
        return tr(lang, "A webhook is set on this bot ({url}): the bot cannot read its "
                  "messages while it is.", url=f.found)
    return tr(lang, "Telegram does not answer ({error}).", error=f.found)


def _clock(lang: str, f: Finding) -> str:
    if f.status is Status.OK:
        return tr(lang, "This machine's clock agrees with Telegram's ({offset}).",
                  offset=f.found)
    if f.status is Status.FAIL:
        return tr(lang, "This machine's clock is off Telegram's by {offset}.", offset=f.found)
    return tr(lang, "Telegram's time is unknown (no answer): the clock was not checked.")


def _database(lang: str, f: Finding) -> str:
    if f.status is Status.OK:
        return tr(lang, "The database is intact ({events} events).", events=f.found)
    if f.status is Status.FAIL:
        return tr(lang, "The database is damaged ({problem}).", problem=f.found)
    return tr(lang, "There is no database yet ({path}).", path=f.found)


def _disk(lang: str, f: Finding) -> str:
    if f.status is Status.OK:
        return tr(lang, "Room on the disk: {free} MB free (the database {size} MB).",
                  free=f.found, size=f.detail)
    return tr(lang, "The disk is nearly full: {free} MB free (the database {size} MB).",
              free=f.found, size=f.detail)


def _backup(lang: str, f: Finding) -> str:
    if f.advice == "backups_off":
        return tr(lang, "Automatic backups are off (PUZZLEBOT_BACKUPS = off).")
    if not f.found:
        return tr(lang, "No automatic backup yet.")
    if f.status is Status.OK:
        return tr(lang, "Backups are taken: the newest is {age} old.",
                  age=_age(lang, int(f.found)))
    return tr(lang, "Backups have stopped: the newest is {age} old.",
              age=_age(lang, int(f.found)))


def _age(lang: str, minutes: int) -> str:
    if minutes < 120:
        return ntr(lang, "{n} minute", "{n} minutes", minutes)
    if minutes < 48 * 60:
        return ntr(lang, "{n} hour", "{n} hours", minutes // 60)
    return ntr(lang, "{n} day", "{n} days", minutes // (24 * 60))


def _contest(lang: str, f: Finding) -> str:
    if f.status is Status.OK:
        return tr(lang, "The contest file is valid ({name}).", name=f.found)
    return tr(lang, "The contest file has a problem: {problem}", problem=f.found)


def _payments(lang: str, f: Finding) -> str:
    said = {
        NO_TABLE: tr(lang, "A payment provider's token is set, but the contest file has no "
                     "[payments] table: nobody is sent an invoice."),
        HOLD_UNUSED: tr(lang, "[payments] hold_minutes holds nothing here: places are taken at "
                        "registration (payment_required is false)."),
    }
    return " ".join(said.get(code, code) for code in f.found.split(","))


def _privacy(lang: str, f: Finding) -> str:
    return tr(lang, "Personal data was due for removal on {day} ([privacy] keep_days) and is "
              "still there: the bot removes it as soon as it starts.", day=f.found)


def _running(lang: str, f: Finding) -> str:
    if f.status is Status.OK:
        return tr(lang, "The bot is running (process {pid}).", pid=f.found)
    return tr(lang, "The bot is not running.")


_FOUND = {"token": _token, "telegram": _telegram, "clock": _clock, "database": _database,
          "disk": _disk, "backup": _backup, "contest": _contest, "running": _running,
          "payments": _payments, "privacy": _privacy}


def _advice(lang: str, code: str | None) -> str:
    """What to do about a finding that is not in order."""
    match code:
        case "new_token":
            return tr(lang, "Get a new token from @BotFather (/token) and run setup again.")
        case "check_network":
            return tr(lang, "Check this machine's internet connection. The bot keeps trying "
                      "by itself, and Telegram keeps people's messages for 24 hours.")
        case "delete_webhook":
            return tr(lang, "Another program set it: stop that program, then open "
                      "https://api.telegram.org/bot<TOKEN>/deleteWebhook in a browser (your "
                      "token in place of <TOKEN>).")
        case "check_clock" | "set_clock":
            return tr(lang, "Set this machine's clock right (automatic time, NTP): all the times "
                      "the bot records depend on it.")
        case "run_setup":
            return tr(lang, "Run setup: it asks for the token and writes the settings; the "
                      "database is made at the first start.")
        case "restore":
            return tr(lang, "Stop the bot and put the newest backup back: puzzlebot restore "
                      "FILE (the guide's page on hosting and backups).")
        case "free_disk":
            return tr(lang, "Free some space, or move the backups to a bigger disk "
                      "(PUZZLEBOT_BACKUPS).")
        case "backups_off":
            return tr(lang, "Take copies yourself (puzzlebot backup FILE, or {command}), or "
                      "remove the setting.", command="/" + typed(lang, COPY))
        case "run_bot":
            return tr(lang, "They are taken while the bot runs: start it, and if it runs, "
                      "look at its log for why a copy failed.")
        case "check_contest":
            return tr(lang, "Fix it: puzzlebot check-contest FILE says where.")
        case "start_bot":
            return tr(lang, "Start it: puzzlebot run (or its service).")
        case "payments_settings":
            return tr(lang, "Remove the setting, or add what it needs to the contest file (the "
                      "guide's page on hosting).")
        case _:
            return ""


def finding_line(lang: str, f: Finding) -> str:
    line = f"{MARKS[f.status]} {_found(lang, f)}"
    advice = _advice(lang, f.advice) if f.status is not Status.OK else ""
    return f"{line} {advice}" if advice else line


def doctor_report(lang: str, findings: Sequence[Finding]) -> str:
    """The doctor's one screen: a verdict, then a line per check."""
    verdict = worst(findings)
    title = (tr(lang, "Everything is in order.") if verdict is Status.OK else
             tr(lang, "Something to do soon:") if verdict is Status.WARN else
             tr(lang, "The bot cannot work as it should:"))
    return "\n".join([title, *(finding_line(lang, f) for f in findings)])


def offline_notice(lang: str, gap: Offline, zone: ZoneInfo) -> str:
    """To the organisers at a start after more than Telegram's 24 hours off."""
    since, lost = gap.since.astimezone(zone), gap.lost_before.astimezone(zone)
    return tr(lang, "The bot was off from {since} until now. Telegram keeps messages for 24 "
              "hours only: what people sent the bot before {lost} may be lost. Ask them to "
              "send again anything they sent since {since} (an /anuncio reaches everyone), "
              "and have the volunteers enter again from their paper sheet the results of "
              "that time.", since=_moment(lang, since), lost=_moment(lang, lost))


def _moment(lang: str, at: datetime) -> str:
    return f"{day_text(lang, at.date())} {at:%H:%M}"


def backup_failed(lang: str, problem: str) -> str:
    return tr(lang, "The automatic backup failed: {problem}. The bot goes on, and tries again "
              "at the next one; /diagnostico says what to do.", problem=problem)


def daily_copy_caption(lang: str, name: str, events: int) -> str:
    return tr(lang, "Today's backup of the database ({events} events). Keep it somewhere "
              "safe: it holds people's data. To put it back: puzzlebot restore {name}",
              events=events, name=name)


def too_big_for_telegram(lang: str, path: str, size_mb: int) -> str:
    return tr(lang, "Today's backup ({size} MB) is too big for Telegram to carry; it is on "
              "the bot's computer: {path}", size=size_mb, path=path)
