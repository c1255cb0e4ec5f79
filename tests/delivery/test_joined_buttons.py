"""Volunteers' lines waiting for one chat go out joined in one message; lines with buttons
(the "FINISHED?" line's) keep theirs: every joined line's buttons under the message, in the
lines' order (issue 26), at most MOST_BUTTONS buttons (Telegram's limit) in one message."""

from __future__ import annotations

import json
from collections import deque

from bot.delivery.items import MOST_BUTTONS, Item, buttons_of, take
from bot.storage.store import OutboxMessage


def line(row: int, text: str, entry: int | None = None, grouping: str | None = "staff") -> Item:
    params: dict[str, object] = {"text": text}
    if entry is not None:
        params["reply_markup"] = json.dumps({"inline_keyboard": [[
            {"text": f"#{entry} Record", "callback_data": f"ready:ok:{entry}:{row}"},
            {"text": f"#{entry} Not finished", "callback_data": f"ready:no:{entry}:{row}"}]]})
    return Item(OutboxMessage(row, 7, 1, "sendMessage", params, grouping))


def labels(keyboard: str | None) -> list[str]:
    assert keyboard is not None
    return [b["text"] for row in json.loads(keyboard)["inline_keyboard"] for b in row]


def test_lines_with_and_without_buttons_join_and_keep_every_button_in_order() -> None:
    queue = deque([line(1, "hint #4"), line(2, "FINISHED? #12", 12), line(3, "hint #9"),
                   line(4, "FINISHED? #3", 3)])
    joined = take(queue)
    assert [i.message.params["text"] for i in joined] == [
        "hint #4", "FINISHED? #12", "hint #9", "FINISHED? #3"]
    assert not queue
    assert labels(buttons_of(joined)) == ["#12 Record", "#12 Not finished", "#3 Record",
                                          "#3 Not finished"]


def test_one_line_keeps_its_own_keyboard_and_lines_without_buttons_have_none() -> None:
    alone = [line(1, "FINISHED? #12", 12)]
    assert buttons_of(alone) == alone[0].message.params["reply_markup"]
    assert buttons_of([line(1, "hint #4"), line(2, "hint #9")]) is None


def test_at_most_so_many_buttons_in_one_message() -> None:
    lines = MOST_BUTTONS // 2  # two buttons each
    queue = deque(line(n, f"FINISHED? #{n}", n) for n in range(1, lines + 5))
    first = take(queue)
    assert len(first) == lines
    assert len(labels(buttons_of(first))) == MOST_BUTTONS  # Telegram takes 100
    assert len(take(queue)) == 4


def test_a_line_with_many_buttons_counts_them_all() -> None:
    """The handover line carries a button per stage per pair: it does not join lines whose
    buttons would take the message past Telegram's 100."""
    many = {"text": "escape over", "reply_markup": json.dumps({"inline_keyboard": [[
        {"text": f"#{n} > {k}", "callback_data": f"stg:{n}:{k}"} for k in range(3, 6)]
        for n in range(1, 34)]})}  # 99 buttons
    queue = deque([Item(OutboxMessage(1, 7, 1, "sendMessage", many, "staff")),
                   line(2, "FINISHED? #12", 12), line(3, "hint #4")])
    assert len(take(queue)) == 1
    assert len(take(queue)) == 2


def test_lines_not_to_be_joined_keep_their_buttons() -> None:
    queue = deque([line(1, "answer", 5, grouping=None), line(2, "hint #4")])
    assert len(take(queue)) == 1
