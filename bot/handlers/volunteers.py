"""What every volunteer command shares: the role it is recorded under, reading "N [h:mm:ss]",
and answering a refusal."""

from __future__ import annotations

from collections.abc import Callable

from telegram import Update

from bot.delivery.answers import answer_now
from bot.domain.clock import DurationError, parse_duration
from bot.handlers.common import Caller, parse_int, show_usage
from bot.texts.common import DayRefusal, duration_error, refusal
from bot.texts.names import usage_text


def role(who: Caller) -> str:
    return "organiser" if who.roles.organiser else "volunteer"


async def number_and_time(
    update: Update, who: Caller, args: list[str], line: str,
    usage: Callable[[str, str], str] = usage_text,
) -> tuple[int, int | None] | None:
    """"N [h:mm:ss]" read (None once answered: ``usage`` shows how to type ``line``)."""
    if not 1 <= len(args) <= 2:
        await show_usage(update, who, line, usage)
        return None
    number = parse_int(args[0])
    if number is None:
        await show_usage(update, who, line, usage)
        return None
    typed = None
    if len(args) == 2:
        try:
            typed = parse_duration(args[1])
        except DurationError as err:
            await answer_now(who.svc, update, duration_error(who.lang, err))
            return None
    return number, typed


async def refuse(update: Update, who: Caller, refused: DayRefusal) -> None:
    await answer_now(who.svc, update, refusal(who.lang, refused, who.svc.contest))
