"""The "I'm going" button under a volunteers' line (a hint or solution to hand over, a
puzzle said to be finished): the first volunteer to press it takes the line, which every
volunteer's copy then shows ("-> Ana is going"); a later press is told who took it."""

from __future__ import annotations

from functools import partial

from telegram import Update
from telegram.ext import ContextTypes

from bot.delivery.answers import recording
from bot.delivery.claims import post_edits
from bot.delivery.posting import claim_note
from bot.delivery.services import person_name
from bot.domain.claims import claim_ref, parse_claim
from bot.handlers.common import button_moment, caller, refuse_role
from bot.services import claims as service
from bot.services.claims import Claimed
from bot.texts.claims import claimed_text, going_button
from bot.texts.common import refusal


def claim_row(lang: str, entry: int, event_id: int | None) -> list[tuple[str, str]]:
    """The button row that lets a volunteer take the line about event ``event_id`` of entry
    ``entry`` (none without the event: nothing to name the line by)."""
    return [] if event_id is None else [(going_button(lang, entry), claim_ref(entry, event_id))]


async def claim_pressed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A press on "I'm going": for volunteers and organisers only; the claim and the edits of
    every copy of the line in one transaction; the presser told on their screen."""
    query = update.callback_query
    assert query is not None and query.data is not None
    parsed = parse_claim(query.data)
    who = await caller(update, context) if parsed is not None else None
    if parsed is None or who is None:
        await query.answer()
        return
    if not who.roles.staff:
        await query.answer()
        await refuse_role(update, who, "volunteer")
        return
    entry, event_id = parsed
    svc = who.svc
    name = await person_name(svc, who.user_id)
    at = button_moment(update, context) or who.at
    async with recording(svc) as tx:
        out = await service.claim(svc.day, tx, who.user_id, name, entry, event_id, at)
        if isinstance(out, Claimed):
            await post_edits(tx, await tx.copies_of(out.claim), out.claim, out.data,
                             partial(claim_note, svc))
    await query.answer(claimed_text(who.lang, out) if isinstance(out, Claimed)
                       else refusal(who.lang, out, svc.contest))
