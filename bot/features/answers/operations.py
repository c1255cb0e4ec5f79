"""An answer changed, in one transaction the operation owns (``Work``): the entry's members or
its own answers as they are now, and the ``answer_fix`` event saying what changed, with the
answer and a copy to the entry's other phones."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import partial

from bot.delivery.work import Work
from bot.features.answers.outcomes import (
    AnswerChanged,
    BadAnswer,
    NoSuchRow,
    Outcome,
    Unchanged,
    answer,
    notice,
)
from bot.features.answers.rules import (
    ANSWER_FIX,
    entry_with_answer,
    rows,
    typed_choice,
    with_answer,
)
from bot.features.answers.texts import row_label, use_buttons, value_text
from bot.features.corrections.outcomes import RegistrationClosed
from bot.features.members.operations import playing_unit
from bot.features.members.outcomes import AlreadyPlaying
from bot.features.registration.rules import clean_name, registration_window
from bot.features.registration.texts import text_answer_problem
from bot.services.contest_day import ContestDay
from bot.services.outcomes import UnknownEntry
from bot.storage.transactions import Transaction


@dataclass(frozen=True)
class ChangeAnswer:
    """Entry ``number``'s answer ``row`` (1-based, ``rules.rows``) made ``value`` (a
    choice's id, yes/no, or the text typed, ``raw``) by ``actor`` (as ``role``, named
    ``name``, writing in ``lang``) at ``at``."""

    number: int
    row: int
    value: str
    actor: int
    role: str
    name: str
    lang: str
    at: datetime
    update_id: int | None
    chosen: bool = False  # ``value`` came from a button (a choice's id, yes/no): not typed


async def change_answer(work: Work, day: ContestDay, cmd: ChangeAnswer) -> Outcome:
    async with work as tx:
        out = await _change(day, tx, cmd)
        work.reply(partial(answer, out=out, contest=day.contest))
        if isinstance(out, AnswerChanged):
            work.tell_entry(cmd.number, partial(notice, out=out, by=cmd.name))
        return out


async def _change(day: ContestDay, tx: Transaction, cmd: ChangeAnswer) -> Outcome:
    contest = day.contest
    entry = await tx.entry(cmd.number)
    if entry is None:
        return UnknownEntry(cmd.number)
    if cmd.role == "participant" and registration_window(contest, cmd.at) == "closed":
        return RegistrationClosed(cmd.number)
    playing = await playing_unit(day, entry)
    if playing is not None:
        return AlreadyPlaying(cmd.number, playing)
    found = rows(contest, entry.category, entry.members, entry.values)
    if not 1 <= cmd.row <= len(found):
        return NoSuchRow(cmd.number, cmd.row, len(found))
    row = found[cmd.row - 1]
    q = contest.questions[row.question]
    value = cmd.value
    if q.kind == "text":
        value = clean_name(cmd.value)
        why = text_answer_problem(cmd.lang, q, cmd.value, value)
        if why is not None:
            return BadAnswer(why)
    elif not cmd.chosen:  # typed: a choice named by its id or label; yes/no by its buttons
        named = typed_choice(q, cmd.value, cmd.lang) if q.kind == "choice" else None
        if named is None:
            return BadAnswer(use_buttons(cmd.lang, q))
        value = named
    label = row_label(cmd.lang, contest, entry, row)
    if value == row.value:
        return Unchanged(cmd.number, label)
    if row.member is None:
        await tx.set_values(cmd.number, entry_with_answer(entry.values, q, value))
    else:
        members = list(entry.members)
        members[row.member] = with_answer(members[row.member], q, value)
        await tx.set_members(cmd.number, members)
    await tx.add_event(at=cmd.at, kind=ANSWER_FIX, role=cmd.role, actor=cmd.actor,
                       entry=cmd.number,
                       data={"member": row.member, "question": q.id, "old": row.value,
                             "new": value}, update_id=cmd.update_id)
    return AnswerChanged(cmd.number, label, value_text(cmd.lang, contest, row, row.value),
                         value_text(cmd.lang, contest, row, value))
