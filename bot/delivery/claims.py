"""Claiming a volunteers' line ("I'm going"): which lines of a message may be claimed (their
button's callback data is the claim), the copy Telegram holds in each chat (``Copy``, recorded
by the sender once sent), and the edits a claim makes to every copy of its line ("-> Ana is
going" under the line, its button gone), posted to the outbox in the claim's transaction.

A line someone is asked to decide (a phone asking to follow an entry: Allow / Refuse) closes
the same way: its buttons' data read ``dec:<what>:<line>:<choice>``, every choice of one line
sharing ``dec:<what>:<line>`` (``line_of``); the event that decides it has that line as its
ref and is of a kind declared with a ``line_note`` (``bot/support/registry.py``), which says
what every copy reads under the line once decided, its buttons gone."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Sequence
from functools import lru_cache
from typing import Any

from bot.delivery.items import BUTTONS, MESSAGE_LIMIT, Item, keyboard_rows
from bot.domain.events import EventKind
from bot.storage.outbox import json_line
from bot.storage.store import PRIORITY_COPY, Copy, Transaction
from bot.support.registry import REGISTRY

CLAIM_BUTTON = "take:"  # callback data "take:<entry>:<event id>": the line about that event
DECIDE_BUTTON = "dec:"  # callback data "dec:<what>:<line>:<choice>": a line someone decides
CLOSING = (CLAIM_BUTTON, DECIDE_BUTTON)
ASKED = "asked"  # the grouping of the lines asking someone to decide (their copies are kept)
EDIT = "edit"  # the grouping of the edits: never joined, and a refused edit tells nobody
EDIT_METHOD = "editMessageText"
CAPTION_METHOD = "editMessageCaption"  # a photo's line (a home claim's, to the reviewers)
EDIT_METHODS = (EDIT_METHOD, CAPTION_METHOD)
PHOTO_METHOD = "sendPhoto"
CAPTION_LIMIT = 1024  # Telegram's longest photo caption
# the note under a claimed line in the chat's language, from the claim's data (who is going)
NoteOf = Callable[[int, dict[str, Any]], Awaitable[str]]


def claim_data(entry: int, event_id: int) -> str:
    """The callback data of a line's "I'm going" button (and its claim's ref)."""
    return f"{CLAIM_BUTTON}{entry}:{event_id}"


def line_of(data: str) -> str:
    """The line a button closes: a claim is its own line; a decision's choices share theirs
    (``dec:<what>:<line>``)."""
    return data.rsplit(":", 1)[0] if data.startswith(DECIDE_BUTTON) else data


def _closing() -> tuple[str, ...]:
    """The prefixes of the buttons whose lines close: a claim's, a decision's, and the ones
    features declare (``Feature.closing``: the escape's stages under the handover line)."""
    return CLOSING + REGISTRY.closing()


def closing(markup: object) -> bool:
    """Whether buttons (``reply_markup`` JSON) hold a line that closes once taken or decided."""
    return isinstance(markup, str) and any(q in markup for q in _quoted(_closing()))


@lru_cache(maxsize=4)
def _quoted(prefixes: tuple[str, ...]) -> tuple[str, ...]:
    """The prefixes as they open a JSON string (a button's data)."""
    return tuple(f'"{p}' for p in prefixes)


def claims_in(markup: object) -> tuple[str, ...]:
    """The claims (and decisions' choices) a line's buttons (``reply_markup`` JSON) carry, in
    order."""
    if not isinstance(markup, str) or not closing(markup):
        return ()
    return _claims_in(markup)


@lru_cache(maxsize=512)
def _claims_in(markup: str) -> tuple[str, ...]:
    """A pure function of the JSON (every copy of a line carries the same): read once."""
    prefixes = _closing()
    return tuple(b["callback_data"] for row in keyboard_rows(markup) for b in row
                 if str(b.get("callback_data", "")).startswith(prefixes))


def copy_of(chat: int, result: object, markup: str | None, items: Sequence[Item]
            ) -> Copy | None:
    """What to record of a message Telegram took (``result``, its answer) joining ``items``:
    None unless one of its lines may be claimed. A photo's one line is its caption."""
    claims = tuple((claim, part) for part, i in enumerate(items)
                   for claim in claims_in(i.message.params.get(BUTTONS)))
    if not claims or not isinstance(result, dict) or not isinstance(
            result.get("message_id"), int):
        return None
    photo = items[0].message.method == PHOTO_METHOD
    parts = tuple(str(i.message.params.get("caption" if photo else "text", "")) for i in items)
    return Copy(chat, int(result["message_id"]), parts, markup, claims, photo)


def edited(copy: Copy, claim: str, note: str, gone: frozenset[str] | None = None,
           replace: bool | None = None) -> Copy:
    """``copy`` once ``claim`` is taken (or its line decided): ``note`` under its line, its
    button (a decision's: every choice of the line) gone; the other lines' buttons stay.
    With ``gone`` (a line settled: the data of all of its own buttons, which go), ``note``
    takes the line's place: the message never grows past what Telegram took (a joined
    message may be 4,096 characters already); ``replace=False`` keeps the line and adds the
    note under it all the same (a line about many entries: one of them settled)."""
    line = line_of(claim)
    if replace is None:
        replace = gone is not None
    part = next((p for c, p in copy.claims if line_of(c) == line), None)
    if part is None or part >= len(copy.parts):
        parts = copy.parts
    elif replace:
        parts = (*copy.parts[:part], note, *copy.parts[part + 1:])
    else:
        text = copy.parts[part]
        if copy.caption and len(text) + len(note) + 1 > CAPTION_LIMIT:
            # a caption takes 1,024 characters: the note stays whole
            text = text[:max(0, CAPTION_LIMIT - len(note) - 2)].rstrip() + "…"
        parts = (*copy.parts[:part], text + "\n" + note, *copy.parts[part + 1:])
        if not copy.caption and sum(len(p) + 1 for p in parts) - 1 > MESSAGE_LIMIT:
            parts = copy.parts  # Telegram would refuse it: the buttons alone go
    markup = None if copy.markup is None else _without(
        copy.markup, gone if gone is not None else frozenset((line,)))
    return Copy(copy.chat_id, copy.message_id, parts, markup, copy.claims, copy.caption)


# a keyboard's buttons, row by row, each as (its line, its own JSON): read once per keyboard
_Buttons = tuple[tuple[tuple[str, str], ...], ...]
_BUTTONS_KEPT = 2048
_buttons: dict[str, _Buttons] = {}


def _buttons_of(markup: str) -> _Buttons:
    """``markup``'s buttons (``_Buttons``): a keyboard made by ``_without`` is known without
    reading it (each settled line edits a copy made by the edit before)."""
    known = _buttons.get(markup)
    if known is None:
        known = tuple(tuple(_button(b) for b in row) for row in keyboard_rows(markup))
        _keep(markup, known)
    return known


def _keep(markup: str, buttons: _Buttons) -> None:
    if len(_buttons) >= _BUTTONS_KEPT:
        del _buttons[next(iter(_buttons))]  # the oldest
    _buttons[markup] = buttons


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


_BUTTONS_JSON_KEPT = 8192
_button_json: dict[tuple[tuple[str, object], ...], tuple[str, str]] = {}


def _button(b: dict[str, Any]) -> tuple[str, str]:
    """A button's line and its own JSON: the same button is under every copy of its line
    (twenty volunteers' joined messages each carry it), so it is written once."""
    key = tuple(b.items())
    known = _button_json.get(key)
    if known is None:
        known = (line_of(str(b.get("callback_data", ""))), _json(b))
        if len(_button_json) >= _BUTTONS_JSON_KEPT:
            del _button_json[next(iter(_button_json))]  # the oldest
        _button_json[key] = known
    return known


def _without(markup: str, gone: frozenset[str]) -> str | None:
    """A keyboard (JSON, as ``json.dumps`` writes it compact) without the buttons whose line
    (``line_of`` their data) is in ``gone`` (None: none left): built from the buttons' own
    JSON, so twenty chats' keyboards, edited at every finish, are not read and written
    again whole."""
    rows = tuple(kept for kept in (tuple(b for b in row if b[0] not in gone)
                                   for row in _buttons_of(markup)) if kept)
    if not rows:
        return None
    out = '{"inline_keyboard":[' + ",".join(
        "[" + ",".join(j for _, j in row) + "]" for row in rows) + "]}"
    _keep(out, rows)
    return out


async def post_edits(tx: Transaction, copies: Sequence[Copy], claim: str,
                     data: dict[str, Any], note_of: NoteOf,
                     gone: frozenset[str] | None = None, replace: bool | None = None) -> int:
    """Every copy of the line ``claim`` edited (``edited``), in this transaction: the copy as
    it now reads recorded, its edit owed. Copies that read the same (a line joined alike in
    every chat of one language) are edited, written and encoded once. Returns how many."""
    made: dict[tuple[object, ...], Copy] = {}
    edits: list[tuple[Copy, Copy]] = []
    for copy in copies:
        note = await note_of(copy.chat_id, data)
        key = (copy.parts, copy.markup, copy.claims, copy.caption, note)
        new = made.get(key)
        if new is None:
            new = made[key] = edited(copy, claim, note, gone, replace)
        edits.append((copy, new))
    return _post_changed(tx, edits)


def _post_changed(tx: Transaction, edits: Sequence[tuple[Copy, Copy]]) -> int:
    """The copies whose text or buttons changed (each (as it read, as it now reads)): written
    as they now read, and their edits owed (Telegram refuses an edit that changes nothing).
    Copies that read the same are written and encoded once. Returns how many edits."""
    changed = [(old, new) for old, new in edits
               if new.parts != old.parts or new.markup != old.markup]
    if not changed:
        return 0
    tx.rewrite_copies([(old.chat_id, old.message_id, new) for old, new in changed])
    bodies: dict[tuple[object, ...], str] = {}
    for old, new in changed:
        key = (new.parts, new.markup, new.caption)
        body = bodies.get(key)
        if body is None:
            body = bodies[key] = _encoded(new)
        field = "caption" if new.caption else "text"
        params: dict[str, object] = {"message_id": old.message_id, field: new.text}
        # without reply_markup, Telegram takes the buttons away
        if new.markup is not None:
            params[BUTTONS] = new.markup
        tx.post(old.chat_id, params, priority=PRIORITY_COPY, grouping=EDIT,
                method=CAPTION_METHOD if new.caption else EDIT_METHOD,
                encoded=f'{{"message_id":{old.message_id},{body}')
    return len(changed)


async def apply_settled(tx: Transaction, note_of: NoteOf) -> int:
    """The lines settled since the last time (``settled_lines``, written in the settling's
    own transaction), applied to every copy known, in this transaction: each line replaced
    by its note in the copy's language, its buttons gone; a message holding several of
    them is edited once, with all of them (twenty volunteers' joined lines, each settled by
    a finish, are not twenty edits of each copy). Returns how many edits are owed."""
    pending = tx.pending_settles()
    if not pending:
        return 0
    found_of = await tx.copies_of_any([claim for claim, _, _ in pending])  # one scan
    # each copy with every line of it settled since, in the order they were settled
    settles: dict[tuple[int, int], tuple[Copy, list[tuple[str, dict[str, str]]]]] = {}
    gone_all: set[str] = set()
    for claim, notes, gone in pending:
        gone_all |= gone
        for found in found_of.get(claim, ()):
            settles.setdefault((found.chat_id, found.message_id), (found, []))[1].append(
                (claim, notes))
    made: dict[tuple[object, ...], Copy] = {}
    edits = []
    for copy, lines in settles.values():
        notes_here = tuple([(claim, await note_of(copy.chat_id, {"settled": notes}))
                            for claim, notes in lines])
        memo = (copy.parts, copy.markup, copy.claims, copy.caption, notes_here)
        new = made.get(memo)
        if new is None:
            new = made[memo] = _settled(copy, notes_here, frozenset(gone_all))
        edits.append((copy, Copy(copy.chat_id, copy.message_id, new.parts, new.markup,
                                 new.claims, new.caption)))
    return _post_changed(tx, edits)


def _settled(copy: Copy, notes: tuple[tuple[str, str], ...], gone: frozenset[str]) -> Copy:
    """``copy`` with each of its lines ``notes`` names (claim, note) replaced by its note,
    and the buttons in ``gone`` taken away at once (a keyboard read and written once however
    many of its lines were settled)."""
    place = {line_of(c): p for c, p in copy.claims}
    parts = list(copy.parts)
    for claim, note in notes:
        part = place.get(line_of(claim))
        if part is not None and part < len(parts):
            parts[part] = note
    markup = None if copy.markup is None else _without(copy.markup, gone)
    return Copy(copy.chat_id, copy.message_id, tuple(parts), markup, copy.claims, copy.caption)


def _encoded(copy: Copy) -> str:
    """An edit's parameters but its message id, as JSON without the opening brace (each
    chat's edit puts its own message id first): its text from its lines' own JSON, each
    encoded once however many copies carry it."""
    text = '"' + "\\n".join(json_line(p) for p in copy.parts) + '"'
    field = "caption" if copy.caption else "text"
    if copy.markup is None:
        return f'"{field}":{text}}}'
    return f'"{field}":{text},"{BUTTONS}":{json.dumps(copy.markup, ensure_ascii=False)}}}'



async def edit_claimed(tx: Transaction, copies: Sequence[Copy], note_of: NoteOf) -> int:
    """Copies just recorded (the sender's marks) of lines claimed, decided or settled before
    they were sent: edited as the claim, the decision or the settling edited the others, all
    of it at once in memory (each copy is written, and its edit owed, once). Returns how
    many edits are owed."""
    mine = {claim for c in copies for claim, _ in c.claims}
    if not mine:
        return 0
    before = {(c.chat_id, c.message_id): c for c in copies}
    now = dict(before)

    async def apply(claim: str, data: dict[str, Any], gone: frozenset[str] | None = None
                    ) -> None:
        line = line_of(claim)
        for key, copy in now.items():
            if any(line_of(k) == line for k, _ in copy.claims):
                now[key] = edited(copy, claim, await note_of(copy.chat_id, data), gone)

    taken = tx.refs_taken(EventKind.CLAIM, [c for c in mine if c.startswith(CLAIM_BUTTON)])
    for claim, data in taken.items():
        await apply(claim, data)
    choices = {line_of(c): c for c in mine if c.startswith(DECIDE_BUTTON)}
    for kind in REGISTRY.deciding() if choices else ():
        for line, data in tx.refs_taken(kind, choices).items():
            await apply(choices[line], {**data, "kind": kind})
    # settled and applied already (a settling still to apply finds these copies itself)
    for claim, (notes, gone) in tx.settled_lines(sorted(mine)).items():
        await apply(claim, {"settled": notes}, gone)
    return _post_changed(tx, [(before[k], now[k]) for k in now])
