"""Issue 45, item 8: photos are a door of their own. One entry's photos go on to the reviewers
at most ``PHOTOS_PER_MINUTE`` in any minute (by the photos' dates); the rest are kept as
events, not forwarded, and the next photo forwarded tells the reviewers how many were held
back, so another entry's claim is not queued behind a flood. A photo sent again or forwarded
(the same ``file_unique_id``) is noted and not forwarded again."""

from __future__ import annotations

import json

from bot.domain.selftimed import PHOTOS_PER_MINUTE, KeptPhoto, PhotoRoute, photo_route
from tests.day.test_bot_commands import event_rows, replies_to
from tests.selftimed.test_selftimed import (
    ORGANISER,
    REVIEWER,
    SOLO1,
    SOLO2,
    Home,
    at,
    photos_to,
)
from tests.selftimed.test_selftimed import home as home  # the fixture

HELD = ("Photo kept, but not sent on to the reviewers: they get at most 3 photos of an entry "
        "a minute, and yours already went. If they need another one, I will tell you.")
REPEAT = ("I have this photo already: it is not sent to the reviewers again. If they need "
          "another one, take a new photo.")


def test_which_photos_go_on() -> None:
    sent = [KeptPhoto(i, f"u{i}", 100.0 + i, forwarded=True) for i in range(1, 4)]
    # the budget spent within a minute of the photos' dates: kept only
    assert photo_route("new", sent, 150.0, reviewed=True) == PhotoRoute()
    held = [*sent, KeptPhoto(4, "u4", 151.0, forwarded=False, held=True),
            KeptPhoto(5, "u5", 152.0, forwarded=False, held=True)]
    # a minute after the first: on again, with the two held back since said
    assert photo_route("new", held, 161.0, reviewed=True) == PhotoRoute(forward=True, held=2)
    # the same file again, whatever it was: noted as the earlier one
    assert photo_route("u2", held, 500.0, reviewed=True) == PhotoRoute(repeat_of=2)
    # a start photo goes to nobody
    assert photo_route("new", [], 0.0, reviewed=False) == PhotoRoute()


async def test_a_flood_of_photos_goes_on_within_the_entrys_budget(home: Home) -> None:
    await home.send(SOLO1, "/listo", "1:00:00")
    forwarded = []
    for i in range(30):  # 30 photos dated the same second
        calls = await home.photo(SOLO1, "1:00:10", f"flood-{i}")
        forwarded += photos_to(calls, REVIEWER)
        (said,) = replies_to(calls, SOLO1)
        if i < PHOTOS_PER_MINUTE:
            assert said.startswith("Photo received for your finish at 1:00:00."), said
        else:
            assert said == HELD
    assert [c.params["photo"] for c in forwarded] == ["flood-0", "flood-1", "flood-2"]
    # every photo is kept: nothing acknowledged is lost
    kept = [json.loads(r["data"]) for r in event_rows(home.h, "photo")]
    assert len(kept) == 30 and sum(d["forwarded"] for d in kept) == PHOTOS_PER_MINUTE
    # another entry's claim is not behind them: its photo goes on at once
    await home.send(SOLO2, "/listo", "1:00:15")
    (other,) = photos_to(await home.photo(SOLO2, "1:00:20", "ben"), REVIEWER)
    assert other.params["caption"].startswith("REVIEW #2 Ben Brook")
    # within the minute of the first three (by the photos' dates) it is still held
    late = await home.photo(SOLO1, "1:01:09", "still-held")
    assert photos_to(late, REVIEWER) == [] and replies_to(late, SOLO1) == [HELD]
    # a minute on: the next one goes, and the reviewers read how many were held back
    (next_one,) = photos_to(await home.photo(SOLO1, "1:01:10", "next"), REVIEWER)
    assert next_one.params["caption"].endswith(
        "\n(+28 more photos of this entry kept, not forwarded: at most 3 a minute.)")
    ranking = (await home.say(ORGANISER, "/clasificacion solo", "1:02:00"))[0]
    assert "#1 (1:00:00, 32 photos)" in ranking


async def test_a_photo_sent_again_is_noted_not_forwarded(home: Home) -> None:
    start = await home.photo(SOLO1, "0:01:00", "open-box")
    assert replies_to(start, SOLO1)[0].startswith("Start photo kept")
    await home.send(SOLO1, "/listo", "1:00:00")
    # the start photo sent again as the finish's: not the evidence, and not forwarded
    again = await home.photo(SOLO1, "1:00:20", "open-box")
    assert replies_to(again, SOLO1) == [REPEAT] and photos_to(again, REVIEWER) == []
    (review,) = photos_to(await home.photo(SOLO1, "1:00:30", "finished"), REVIEWER)
    listo = event_rows(home.h, "ready")[-1]["id"]
    # forwarded from the chat (the same file) minutes later: noted, not forwarded again
    forwarded = await home.photo(SOLO1, "1:05:00", "finished")
    assert replies_to(forwarded, SOLO1) == [REPEAT] and photos_to(forwarded, REVIEWER) == []
    rows = [json.loads(r["data"]) for r in event_rows(home.h, "photo")]
    first = [r["id"] for r in event_rows(home.h, "photo")]
    assert [d.get("repeat_of") for d in rows] == [None, first[0], None, first[2]]
    ranking = (await home.say(ORGANISER, "/clasificacion solo", "1:06:00"))[0]
    assert "#1 (1:00:00, photo received)" in ranking  # one photo, sent twice
    # another photo asked: the same one again is no new photo
    await home.h.press(REVIEWER, f"rev:again:1:{listo}", at("1:07:00"))
    assert replies_to(await home.photo(SOLO1, "1:08:00", "finished"), SOLO1) == [REPEAT]
    twice = await home.h.press(ORGANISER, f"rev:again:1:{listo}", at("1:09:00"))
    assert replies_to(twice, ORGANISER) == [
        "Entry 1 was already asked for another photo, and none came since."]
    (sharp,) = photos_to(await home.photo(SOLO1, "1:10:00", "sharp"), REVIEWER)
    assert review.params["photo"] == "finished" and sharp.params["photo"] == "sharp"
