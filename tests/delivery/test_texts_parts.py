"""A text is sent as the same messages whether it fits at once or is cut at line ends."""

from __future__ import annotations

import random

from bot.texts.common import RANKING_NAME, message_parts, short, split_messages


def test_message_parts_are_what_splitting_the_lines_gives():
    rng = random.Random(3)
    pieces = ["", "a", "línea", "x" * 50, "\n", "\n\n", "y" * 4000]
    for _ in range(3000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 6)))
        assert message_parts(text) == split_messages(text.split("\n")), repr(text[:80])
    assert message_parts("short") == ["short"]
    assert all(len(p) <= 4096 for p in message_parts("z" * 10_000))


def test_a_long_name_is_cut_on_a_ranking_line_only() -> None:
    name = "María de los Ángeles Fernández-Villaverde y Gómez de la Serna"
    cut = short(name)
    assert len(cut) == RANKING_NAME and cut.endswith("…") and name.startswith(cut[:-1])
    assert short("Ana") == "Ana"
    assert short("x" * RANKING_NAME) == "x" * RANKING_NAME  # at the limit: whole
