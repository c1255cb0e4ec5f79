"""What changing one's answers says: the list of answers that may change, how it is typed,
its name in a history."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.domain.contest import Contest, Question
from bot.features.answers.names import ANSWERS
from bot.features.answers.rules import Row
from bot.features.registration.texts import shown_value
from bot.storage.records import Entry
from bot.support.commands import typed
from bot.support.i18n import tr
from bot.texts.names import usage_text


def row_label(lang: str, contest: Contest, entry: Entry, row: Row) -> str:
    """"Ana Uno, T-shirt size" (a member's), or "Team name" (the entry's own)."""
    q = contest.questions[row.question]
    if row.member is None or row.member >= len(entry.members):
        return q.label_in(lang)
    return f"{entry.members[row.member].name}, {q.label_in(lang)}"


def value_text(lang: str, contest: Contest, row: Row, value: str | None) -> str:
    if value is None:
        return "-"
    return shown_value(lang, contest.questions[row.question], value)


def rows_text(lang: str, contest: Contest, entry: Entry, found: Sequence[Row]) -> str:
    """``/respuestas N``: the entry's answers that may change, numbered, and how."""
    if not found:
        return tr(lang, "Entry #{entry} has no answer to change: those that decide a fee, a "
                  "place or a ranking stay as registered.", entry=entry.number)
    lines = [tr(lang, "Entry #{entry}: the answers you may change.", entry=entry.number)]
    lines += [f"{k}. {row_label(lang, contest, entry, r)}: {value_text(lang, contest, r, r.value)}"
              for k, r in enumerate(found, 1)]
    lines.append(tr(lang, "Tap one to change it, or type {example} with the new answer.",
                    example=f"{typed(lang, ANSWERS)} {entry.number} R"))
    return "\n".join(lines)


def button_of(number: int, row: Row) -> str:
    """A row's button data, naming its member ("e": the entry's own) and question, never its
    place in the list: a list shown before the members changed still names the right one."""
    who = "e" if row.member is None else str(row.member)
    return f"ans:{number}:{who}:{row.question}"


def row_buttons(lang: str, contest: Contest, entry: Entry, found: Sequence[Row]
                ) -> list[list[tuple[str, str]]]:
    return [[(f"{k}. {row_label(lang, contest, entry, r)}", button_of(entry.number, r))]
            for k, r in enumerate(found, 1)]


def options(lang: str, contest: Contest, entry: Entry, k: int, row: Row
            ) -> tuple[str, list[list[tuple[str, str]]]]:
    """Row ``k``'s question (whose it is first), and its answers as buttons (yes/no, or its
    choices); a text question: how to type the new answer, no buttons."""
    q = contest.questions[row.question]
    asked = f"{row_label(lang, contest, entry, row)}: {q.asked(lang)}"
    data = button_of(entry.number, row)
    if q.yes_no:
        return asked, [[(tr(lang, "Yes"), f"{data}:y"), (tr(lang, "No"), f"{data}:n")]]
    if q.kind == "choice":
        return asked, [[(c.shown(lang), f"{data}:{i}")] for i, c in enumerate(q.choices)]
    return (asked + "\n" + tr(lang, "Type the new answer: {example}",
                              example=f"{typed(lang, ANSWERS)} {entry.number} {k} ..."), [])


def which_entry(lang: str, entries: Sequence[Entry]) -> str:
    """Someone following several entries: which one's answers."""
    return tr(lang, "Which entry? {command} N, with N one of {entries}.",
              command=typed(lang, ANSWERS),
              entries=", ".join(f"#{e.number}" for e in entries))


def answer_detail(event: Any) -> str:
    """A change as a history shows it: "team: Las Piezs → Las Piezas" (the question's id,
    the answers as stored: the same in every language)."""
    data = event.data if isinstance(event.data, dict) else {}
    return f"{data.get('question', '?')}: {data.get('old') or '-'} → {data.get('new') or '-'}"


def use_buttons(lang: str, q: Question) -> str:
    """A typed answer to a yes/no or choice question that names none of its answers."""
    if q.kind == "choice":
        return tr(lang, "Please answer one of: {choices}.",
                  choices=", ".join(c.shown(lang) for c in q.choices))
    return tr(lang, "Please use the buttons: tap the answer in the list ({command}).",
              command=typed(lang, ANSWERS))


def usage(lang: str) -> str:
    command = typed(lang, ANSWERS)
    return usage_text(lang, f"{command} [N] [R ANSWER]") + "\n" + tr(
        lang, "{example} lists entry 12's answers that may change; {change} changes the third "
        "one.", example=f"{command} 12", change=f"{command} 12 3 ...")


def answer_name(lang: str) -> str:
    return tr(lang, "answer changed")
