"""Issue 45, item 8: photos are a door of their own. One entry's photos go on to the reviewers
at most ``PHOTOS_PER_MINUTE`` in any minute (by the photos' dates); the rest are kept as
events, not forwarded, and the next photo forwarded tells the reviewers how many were held
back, so another entry's claim is not queued behind a flood. A photo sent again or forwarded
(the same ``file_unique_id``) is noted and not forwarded again."""

from __future__ import annotations

import json
from types import SimpleNamespace

from bot.features.selftimed.handlers import held_photo_job
from bot.features.selftimed.rules import (
    PHOTOS_PER_MINUTE,
    HeldPhoto,
    KeptPhoto,
    PhotoRoute,
    held_photo,
    photo_route,
)
from tests.day.test_bot_commands import event_rows, replies_to
from tests.fakebot import Call, Harness
from tests.selftimed.test_selftimed import (
    HOME_CUP,
    ORGANISER,
    PAIR,
    REVIEWER,
    SOLO1,
    SOLO2,
    Home,
    at,
    keyboard,
    photos_to,
)
from tests.selftimed.test_selftimed import home as home  # the fixture

HELD = ("Photo kept. The reviewers get at most 3 photos of an entry a minute: your newest one "
        "goes on to them within the minute. If they need another one, I will tell you.")
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
            assert said.startswith("Photo received for your time of 1:00:00."), said
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


# -- the photos held back go on by themselves when the budget frees ------------------------------

KEPT_26 = "\n(+26 more photos of this entry kept, not forwarded: at most 3 a minute.)"


def test_the_newest_photo_held_back_is_owed_when_the_budget_frees() -> None:
    sent = [KeptPhoto(i, f"u{i}", 100.0 + i, forwarded=True) for i in range(1, 4)]
    held = [*sent, KeptPhoto(4, "u4", 110.0, forwarded=False, held=True),
            KeptPhoto(5, "u5", 111.0, forwarded=False, held=True),
            KeptPhoto(6, "u6", 112.0, forwarded=False)]  # a start photo or a repeat: not owed
    # the newest held back, the other one counted, when the first forwarded leaves the minute
    assert held_photo(held) == HeldPhoto(event=5, others=1, due=161.0)
    assert photo_route("new", held, 160.0, reviewed=True) == PhotoRoute()  # not before
    assert photo_route("new", held, 161.0, reviewed=True).forward
    # forwarded by itself at 161: nothing owed, it counts in the budget from then on, and the
    # next photo forwarded says nothing held back
    late = [*held[:4], KeptPhoto(5, "u5", 161.0, forwarded=True), held[5]]
    assert held_photo(late) is None
    assert photo_route("new", late, 162.0, reviewed=True) == PhotoRoute(forward=True)
    spent = [*late, KeptPhoto(7, "u7", 162.0, forwarded=True),
             KeptPhoto(8, "u8", 162.0, forwarded=True)]
    assert photo_route("new", spent, 163.0, reviewed=True) == PhotoRoute()
    # a photo forwarded after them told the reviewers already
    assert held_photo([*held, KeptPhoto(7, "u7", 170.0, forwarded=True)]) is None
    # held back while the budget is free (photos dated out of order): owed at its own date
    assert held_photo([KeptPhoto(1, "u1", 50.0, forwarded=False, held=True)]) == HeldPhoto(
        event=1, others=0, due=50.0)


async def flood(home: Home, photos: int = 30) -> list[Call]:
    """Entry 1 claims at 1:00:00 and sends ``photos`` photos dated 1:00:10: what the reviewers
    got."""
    await home.send(SOLO1, "/listo", "1:00:00")
    forwarded = []
    for i in range(photos):
        forwarded += photos_to(await home.photo(SOLO1, "1:00:10", f"flood-{i}"), REVIEWER)
    return forwarded


async def run_held_photo_job(h: Harness, number: int) -> list[Call]:
    """Entry ``number``'s job for its photos held back, as the job queue runs it (checked to
    be scheduled when the budget frees: the first photo forwarded + a minute); the calls it
    made."""
    scheduled = h.app.bot_data["jobs_by_name"][f"photos:{number}"]
    assert scheduled.data == {"entry": number, "when": at("1:01:10").timestamp()}
    context = SimpleNamespace(job=SimpleNamespace(data=dict(scheduled.data)), application=h.app,
                              bot_data=h.app.bot_data, bot=h.app.bot)
    before = len(h.request.calls)
    await held_photo_job(context)  # type: ignore[arg-type]
    await h.app.bot_data["sender"].settled()
    return list(h.request.calls[before:])


def photo_notices(h: Harness) -> list[str | None]:
    return [r["ref"] for r in event_rows(h, "notice")]


async def test_the_newest_photo_held_back_goes_on_when_the_budget_frees(home: Home) -> None:
    first = await flood(home)
    assert [c.params["photo"] for c in first] == ["flood-0", "flood-1", "flood-2"]
    (late,) = photos_to(await run_held_photo_job(home.h, 1), REVIEWER)
    # the 30th photo, as a claim's photo goes on, with the 26 others held back counted
    assert late.params["photo"] == "flood-29"
    assert late.params["caption"] == first[0].params["caption"] + (
        "\n(This entry's newest photo, sent at 20:00:10: kept back until now.)" + KEPT_26)
    assert keyboard(late) == keyboard(first[0])
    photos = event_rows(home.h, "photo")
    assert photo_notices(home.h) == [f"photos:1:{photos[-1]['id']}"]
    # once only
    assert await run_held_photo_job(home.h, 1) == []
    assert len(event_rows(home.h, "notice")) == 1
    # it counts in the entry's budget from 1:01:10, and nothing is held back any more: two
    # more go on (nothing said of held photos), the third waits
    for i in range(2):
        (more,) = photos_to(await home.photo(SOLO1, "1:01:11", f"more-{i}"), REVIEWER)
        assert "kept" not in more.params["caption"]
    assert photos_to(await home.photo(SOLO1, "1:01:11", "more-2"), REVIEWER) == []
    history = (await home.say(ORGANISER, "/historial 1", "1:02:00"))[0]
    assert "photo held back sent on to the reviewers" in history


async def test_a_claim_decided_first_is_owed_no_photo(home: Home) -> None:
    await flood(home)
    listo = event_rows(home.h, "ready")[-1]["id"]
    await home.h.press(REVIEWER, f"ready:ok:1:{listo}", at("1:00:40"))  # on the first three
    assert await run_held_photo_job(home.h, 1) == [] and photo_notices(home.h) == []
    await home.h.stop()
    home.h = await Harness(home.h.tmp_path, HOME_CUP, organisers=home.h.organisers).start()
    assert "photos:1" not in home.h.app.bot_data.get("jobs_by_name", {})


async def test_a_photo_forwarded_first_leaves_nothing_owed(home: Home) -> None:
    await flood(home)
    (told,) = photos_to(await home.photo(SOLO1, "1:01:10", "next"), REVIEWER)
    assert told.params["caption"].endswith(
        "\n(+27 more photos of this entry kept, not forwarded: at most 3 a minute.)")
    assert await run_held_photo_job(home.h, 1) == []
    assert photo_notices(home.h) == []


async def test_a_time_up_photo_held_back_goes_on_to_count_the_pieces(home: Home) -> None:
    for i in range(5):
        await home.photo(PAIR, "3:00:20", f"where-{i}")
    scheduled = home.h.app.bot_data["jobs_by_name"]["photos:10"]
    assert scheduled.data["when"] == at("3:01:20").timestamp()
    context = SimpleNamespace(job=scheduled, application=home.h.app,
                              bot_data=home.h.app.bot_data, bot=home.h.app.bot)
    before = len(home.h.request.calls)
    await held_photo_job(context)  # type: ignore[arg-type]
    await home.h.app.bot_data["sender"].settled()
    (late,) = photos_to(home.h.request.calls[before:], REVIEWER)
    assert late.params["photo"] == "where-4" and keyboard(late) == []
    assert late.params["caption"].startswith("PIECES? #10 Cleo Cole / Dan Cole: time is up.")
    assert late.params["caption"].endswith(
        "\n(+1 more photo of this entry kept, not forwarded: at most 3 a minute.)")


async def test_photos_held_back_are_owed_after_a_restart(home: Home) -> None:
    await flood(home)
    await home.h.stop()  # off before the budget freed: the job is rebuilt from the database
    home.h = await Harness(home.h.tmp_path, HOME_CUP, organisers=home.h.organisers).start()
    (late,) = photos_to(await run_held_photo_job(home.h, 1), REVIEWER)
    assert late.params["photo"] == "flood-29" and late.params["caption"].endswith(KEPT_26)
    await home.h.stop()
    home.h = await Harness(home.h.tmp_path, HOME_CUP, organisers=home.h.organisers).start()
    assert "photos:1" not in home.h.app.bot_data.get("jobs_by_name", {})  # sent: none owed
