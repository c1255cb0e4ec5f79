"""What every volunteer command shares: the role it is recorded under, reading "N [h:mm:ss]",
and answering a refusal."""

from __future__ import annotations

from telegram import Update

from bot.delivery.answers import answer_now
from bot.domain.clock import DurationError, parse_duration
from bot.handlers.common import Caller, parse_int, show_usage
from bot.texts.common import DayRefusal, duration_error, refusal


def role(who: Caller) -> str:
    return "organiser" if who.roles.organiser else "volunteer"


async def number_and_time(
    update: Update, who: Caller, args: list[str], usage: str
) -> tuple[int, int | None] | None:
    if not 1 <= len(args) <= 2:
        await show_usage(update, who, usage)
        return None
    number = parse_int(args[0])
    if number is None:
        await show_usage(update, who, usage)
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
