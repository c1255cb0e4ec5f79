"""Final results: the organiser makes a category's results final (``/publicar``, which asks
first, with its buttons), each entry is told its place (operations.py); reading a ranking is
rankings.py's."""

from __future__ import annotations

from telegram import Update
from telegram.ext import ContextTypes

from bot.delivery.answers import answer_now
from bot.delivery.work import Asker, Work
from bot.domain.contest import Category
from bot.features.results.texts import did_not_start_rows
from bot.features.standings import day as standings
from bot.features.standings.operations import Publish, publish
from bot.features.standings.outcomes import (
    Publishable,
    worth_saying,
)
from bot.features.standings.texts import (
    Gaps,
    cancel_button,
    final_note,
    no_result,
    not_published,
    nothing_to_publish,
    publish_anyway_button,
    publish_button,
    publish_question,
)
from bot.handlers.common import (
    Caller,
    button_moment,
    buttons,
    named_unit,
    organiser,
    question_choice,
)
from bot.texts.result_lines import unknown_category

PUBLISH_BUTTON = "pub:"  # the question's buttons: pub:CATEGORY_ID, pub:* (every one), pub:-
EVERY = "*"
CALLBACK_DATA_MOST = 64  # bytes of a button's data Telegram takes


def _data(category: Category | None, contest_categories: list[Category]) -> str:
    """The Publish button's data: the category's id (its place in the contest file when the id
    is too long for a button), or every category."""
    if category is None:
        return PUBLISH_BUTTON + EVERY
    data = PUBLISH_BUTTON + category.id
    if len(data.encode()) <= CALLBACK_DATA_MOST:
        return data
    return f"{PUBLISH_BUTTON}#{contest_categories.index(category)}"


def _chosen(who: Caller, choice: str) -> list[Category] | None:
    """The categories a Publish button names (None: not a button of ours)."""
    cats = list(who.svc.contest.categories)
    if choice == EVERY:
        return cats
    if choice.startswith("#") and choice[1:].isdigit() and int(choice[1:]) < len(cats):
        return [cats[int(choice[1:])]]
    found = who.svc.contest.category(choice)
    return [found] if found is not None else None


async def _people(who: Caller, ready: list[Publishable]) -> int:
    """How many phones the publication reaches."""
    users: set[int] = set()
    for p in ready:
        for s in p.tell:
            users.update(await who.svc.day.linked_users(s.number))
    return len(users)


async def _gaps(who: Caller, ready: list[Publishable]) -> dict[str, Gaps]:
    """What a careful organiser checks before making results final, per category: the entries
    that would get no place for want of a result, and those nobody can tell (no phone)."""
    out: dict[str, Gaps] = {}
    for p in ready:
        names = {r.number: " / ".join(r.competitor.names) for r in p.rows}
        missing = tuple((s.number, names.get(s.number, "")) for s in p.now if no_result(s))
        unreachable = tuple([(s.number, names.get(s.number, "")) for s in p.tell
                             if not await who.svc.day.linked_users(s.number)])
        if missing or unreachable:
            out[p.category.id] = Gaps(missing, unreachable)
    return out




async def publicar(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``/publicar [CATEGORY]``: the results of the category (or of every category nobody
    plays in any more) are made final, once the organiser says so with the button. Nothing
    changes until then."""
    who = await organiser(update, context)
    if who is None:
        return
    args = list(context.args or [])
    contest = who.svc.contest
    category: Category | None = None
    if args:
        named = named_unit(who.svc, args, [c.id for c in contest.categories])
        category = contest.category(named) if named is not None else None
        if category is None:
            await answer_now(who.svc, update, unknown_category(
                who.lang, [c.name for c in contest.categories]))
            return
    cats = [category] if category is not None else list(contest.categories)
    ready, refused = await standings.preview(who.svc.day, cats, who.at)
    refused = worth_saying(refused, category is not None)
    if not ready:
        await answer_now(who.svc, update, nothing_to_publish(who.lang, contest, refused))
        return
    gaps = await _gaps(who, ready)
    question = publish_question(who.lang, contest, ready, refused, await _people(who, ready),
                                gaps)
    missing = [n for g in gaps.values() for n, _ in g.missing]
    # each entry left out settled with one tap (did not start), or go ahead anyway
    rows: list[list[tuple[str, str]]] = did_not_start_rows(who.lang, missing)
    go = publish_anyway_button(who.lang) if missing else publish_button(who.lang)
    rows.append([(go, _data(category, list(contest.categories))),
                 (cancel_button(who.lang), f"{PUBLISH_BUTTON}-")])
    await answer_now(who.svc, update, question, reply_markup=buttons(rows))


async def publish_pressed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The /publicar question answered: what may be made final at the press is, and each entry
    of it told its place (a second press finds nothing new and tells nobody)."""
    chosen = await question_choice(update, context, PUBLISH_BUTTON, not_published)
    if chosen is None:
        return
    choice, who = chosen
    cats = _chosen(who, choice)
    at = button_moment(update, context)
    if cats is None or at is None:
        return
    await publish(Work(who.svc, Asker.of(update, who.user_id, who.lang)), who.svc.day,
                  Publish(who.user_id, cats, at, update.update_id))


async def noting_final(who: Caller, number: int | None, text: str) -> str:
    """A volunteer's answer to a change in a category whose results are final: it says that
    the entries were told otherwise, and how to tell them again."""
    category = await standings.final_category(who.svc.day, number)
    return text if category is None else text + "\n" + final_note(who.lang, category.name)


