"""Reading a contest file's ``[[questions]]`` (asked at registration), and the sections that
name them: ``[local]`` and ``[discount]``."""

from __future__ import annotations

import re

from bot.domain.contest import (
    CHOICE,
    PER_MEMBER,
    TEXT,
    YES_NO,
    Choice,
    Discount,
    Question,
)
from bot.services.contest_model import MAX_CHOICES
from bot.services.contest_toml import Table, kind_of, lang_texts, one_line
from bot.services.exports import (
    ENTRY_COLUMNS,
    REFUND_COLUMN,
    REFUNDED_COLUMN,
    RESULT_COLUMNS,
    STATUS_COLUMNS,
)

QUESTION_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")
# a choice is stored, exported ("ES; FR") and joined ("ES/FR"): none of ; / , or line breaks
CHOICE_ID = re.compile(r"[^\W_][\w .'()-]{0,31}")
# the columns the CSV files have besides the questions': a question may not take their name
_OWN_COLUMNS = frozenset(ENTRY_COLUMNS + STATUS_COLUMNS + RESULT_COLUMNS
                         + ["paid_at", REFUND_COLUMN, REFUNDED_COLUMN])


def _choices(q: Table) -> tuple[Choice, ...]:
    """``choices = ["ES", "FR"]``, or tables ``{ id = "ES", label = { es = "España", ... } }``
    (the two may be mixed): ids are stored and exported, labels shown on the buttons."""
    q.seen.add("choices")
    q.declared("choices", (list,), None)
    items = q.data.get("choices")
    if items is None:
        raise q.ctx.error(q.key("choices"), 'is required when kind = "choice"')
    if not isinstance(items, list):
        raise q.ctx.error(q.key("choices"), f"must be a list, not {kind_of(items)}")
    if not items:
        raise q.ctx.error(q.key("choices"), "needs at least one choice")
    if len(items) > MAX_CHOICES:
        raise q.ctx.error(q.key("choices"), f"has {len(items)} choices: at most {MAX_CHOICES}")
    choices: list[Choice] = []
    for i, item in enumerate(items):
        where = f"{q.key('choices')}[{i}]"
        if isinstance(item, str):
            choice = Choice(item)
        elif isinstance(item, dict):
            c = Table(q.ctx, item, where)
            choice = Choice(c.get("id", str), lang_texts(c, "label", False),
                            c.int("places", None))
            one_line(c, "label", choice.label)
            c.done()
            where = c.key("id")
        else:
            raise q.ctx.error(where, f"must be text or a table, not {kind_of(item)}")
        if not CHOICE_ID.fullmatch(choice.id) or choice.id != " ".join(choice.id.split()):
            raise q.ctx.error(where, "must be 1 to 32 letters, digits, single spaces, . _ ' ( ) "
                              f"or -, beginning with a letter or digit, not {choice.id!r}")
        if any(c.id.casefold() == choice.id.casefold() for c in choices):
            raise q.ctx.error(where, f"{choice.id!r} is a choice twice")
        choices.append(choice)
    return tuple(choices)


def _question(q: Table, ids: set[str]) -> Question:
    qid: str = q.get("id", str)
    if not QUESTION_ID.fullmatch(qid):
        raise q.ctx.error(q.key("id"), "must be letters, digits, - or _ (it names a CSV "
                          f"column), not {qid!r}")
    if qid in ids:
        raise q.ctx.error(q.key("id"), f"{qid!r} is used by another question")
    if qid in _OWN_COLUMNS:
        raise q.ctx.error(q.key("id"), f"{qid!r} is a column of the CSV files already")
    ids.add(qid)
    text = lang_texts(q, "text", True)
    kind = q.get("kind", str, YES_NO)
    per = q.get("per", str, PER_MEMBER)
    label = lang_texts(q, "label", False)
    one_line(q, "label", label)
    only = {"choices": CHOICE, "quota": CHOICE, "max_length": TEXT}
    for key, needs in only.items():
        if q.has(key) and kind != needs:
            raise q.ctx.error(q.key(key), f'is only for kind = "{needs}" questions')
    if q.has("show") and kind == YES_NO:
        raise q.ctx.error(q.key("show"), 'is only for kind = "choice" or "text" questions')
    question = Question(
        id=qid, text=text, kind=kind, per=per,
        choices=_choices(q) if kind == CHOICE else (),
        show=q.get("show", bool, False),
        quota=q.int("quota", None),
        max_length=q.int("max_length", 40),
        label=label,
        categories=q.strings("categories", ()),
        public=q.get("public", bool, False),
        on_tables=q.get("on_tables", bool, False),
    )
    q.done()
    return question


def read_questions(root: Table) -> tuple[Question, ...]:
    """``[[questions]]``: asked of every member (or once per entry) at registration."""
    ids: set[str] = set()
    return tuple(_question(q, ids) for q in root.tables("questions"))


def _yes_no_per_member(t: Table, name: str, flags: tuple[str, ...],
                       questions: tuple[Question, ...]) -> None:
    """``[local]`` and ``[discount]`` go by members answering yes."""
    for i, f in enumerate(flags):
        q = next(q for q in questions if q.id == f)
        if not q.yes_no or q.per_entry:
            raise t.ctx.error(f"{t.key(name)}[{i}]", f"{f!r} must be a yes/no question asked "
                              'of each member (kind = "yes_no", per = "member")')


def _known(t: Table, name: str, qids: set[str]) -> tuple[str, ...]:
    """A list of question ids: a typo would silently never match, so each must exist."""
    flags: tuple[str, ...] = t.strings(name)
    for i, f in enumerate(flags):
        if f not in qids:
            raise t.ctx.error(f"{t.key(name)}[{i}]", f"names no question: {f!r}")
    return flags


def read_local(root: Table, questions: tuple[Question, ...]) -> tuple[str, ...]:
    """``[local]``: an entry is local when a member answers yes to one of these questions."""
    local_t = root.table("local")
    if local_t is None:
        return ()
    local_if_any = _known(local_t, "any_member", {q.id for q in questions})
    _yes_no_per_member(local_t, "any_member", local_if_any, questions)
    local_t.done()
    return local_if_any


def read_discount(root: Table, questions: tuple[Question, ...]) -> Discount | None:
    d = root.table("discount")
    if d is None:
        return None
    discount = Discount(amount=d.money("amount"),
                        any_of=_known(d, "any_of", {q.id for q in questions}))
    _yes_no_per_member(d, "any_of", discount.any_of, questions)
    d.done()
    return discount
