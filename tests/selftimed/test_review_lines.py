"""Issue 47, item 4: a finish claimed at home went to every reviewer as a photo with buttons,
and nothing closed it: two reviewers could decide one photo differently, and every copy kept
its buttons after the decision. A review is now claimed ("I'll check it": every copy says who
checks), and once decided (confirmed, not finished, no code, another photo asked) every
reviewer's copy reads what was decided and by whom, in the reader's language, without buttons
(the photos' captions are edited: ``editMessageCaption``)."""

from __future__ import annotations

from tests.claims.test_claims import keyboard, toasts
from tests.day.test_bot_commands import event_rows, events
from tests.fakebot import Call
from tests.selftimed.test_selftimed import (
    ORGANISER,
    REVIEWER,
    SOLO1,
    SOLO2,
    at,
    claim_with_photo,
    home,
    photos_to,
)

__all__ = ["home"]


def captions(calls: list[Call]) -> dict[int, Call]:
    """The caption edits, by chat."""
    return {c.chat_id: c for c in calls if c.method == "editMessageCaption"}


async def test_a_review_is_claimed_and_every_copy_says_who_checks(home):
    await home.send(ORGANISER, "/idioma es", "0:05:00")
    review, listo = await claim_with_photo(home, SOLO1, 1, "1:12:30", "1:13:05")
    assert keyboard(review)[0] == ("#1 🙋 I'll check it", f"take:1:{listo}")
    pressed = await home.h.press(REVIEWER, f"take:1:{listo}", at("1:14:00"))
    assert toasts(pressed) == ["You're checking the photo of #1. The others can see it."]
    edited = captions(pressed)
    assert set(edited) == {REVIEWER.id, ORGANISER.id}
    assert edited[REVIEWER.id].params["caption"] == review.params["caption"] + \
        "\n→ Rita is checking it"
    assert edited[ORGANISER.id].params["caption"].endswith("\n→ Rita la está revisando")
    for c in edited.values():  # the decisions stay, the claim is gone
        assert [d for _, d in keyboard(c)] == [
            f"ready:ok:1:{listo}", f"rev:again:1:{listo}", f"ready:no:1:{listo}",
            f"rev:nocode:1:{listo}"]
    # a second reviewer is told who checks it, and nothing is written
    before = events(home.h)
    again = await home.h.press(ORGANISER, f"take:1:{listo}", at("1:14:30"))
    assert "Rita" in toasts(again)[0] and not captions(again)
    assert events(home.h) == before


async def test_a_confirmed_review_closes_every_copy(home):
    await home.send(ORGANISER, "/idioma es", "0:05:00")
    _, listo = await claim_with_photo(home, SOLO1, 1, "1:12:30", "1:13:05")
    pressed = await home.h.press(REVIEWER, f"ready:ok:1:{listo}", at("1:25:00"))
    edited = captions(pressed)
    assert set(edited) == {REVIEWER.id, ORGANISER.id}
    assert edited[REVIEWER.id].params["caption"] == \
        "#1 Ann Archer · ✅ Recorded: 1:12:30 (Rita)"
    assert edited[ORGANISER.id].params["caption"] == \
        "#1 Ann Archer · ✅ Anotado: 1:12:30 (Rita)"
    assert all(keyboard(c) == [] for c in edited.values())  # nothing left to decide


async def test_turned_down_and_retaken_reviews_close_too(home):
    _, listo = await claim_with_photo(home, SOLO1, 1, "0:50:00", "0:50:30")
    refused = captions(await home.h.press(REVIEWER, f"rev:nocode:1:{listo}", at("0:52:00")))
    assert {c.params["caption"] for c in refused.values()} == {
        "#1 Ann Archer · ❌ Not accepted: the paper with your code is not in the photo (Rita)"}
    assert all(keyboard(c) == [] for c in refused.values())

    _, listo = await claim_with_photo(home, SOLO2, 2, "1:30:00", "1:30:40", "blurred")
    await home.h.press(ORGANISER, f"take:2:{listo}", at("1:31:00"))
    asked = captions(await home.h.press(ORGANISER, f"rev:again:2:{listo}", at("1:33:00")))
    assert set(asked) == {REVIEWER.id, ORGANISER.id}
    assert {c.params["caption"] for c in asked.values()} == {
        "#2 Ben Brook · 📷 Another photo asked for (Olga)"}
    # the next photo comes with its buttons, and says who checks it
    calls = await home.photo(SOLO2, "1:36:00", "sharp")
    (second,) = photos_to(calls, REVIEWER)
    assert f"ready:ok:2:{listo}" in [d for _, d in keyboard(second)]
    later = captions(calls)
    assert later[REVIEWER.id].params["caption"].endswith("\n→ Olga is checking it")
    assert (await home.h.press(REVIEWER, f"ready:ok:2:{listo}", at("1:37:00")))
    assert [r["entry"] for r in event_rows(home.h, "finish")] == [2]
