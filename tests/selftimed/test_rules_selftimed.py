"""Contests played at home, self-timed (bot/features/selftimed/rules.py; docs/rules.md, "Contests
played at home"): each entry's code, what a photo is for, which photos go on to the reviewers
(3 an entry in any minute, the others held back and told of), the photo owed once the budget
frees, whether a held photo is still wanted, which puzzle an entry starts at its own moment,
its own time and the interim ranking by pace. Pure domain, run against every mutant by
``make mutate``; every expected value is worked out by hand from the rule."""

from __future__ import annotations

import hmac

import pytest

from bot.features.selftimed.rules import (
    CODE_ALPHABET,
    CODE_LENGTH,
    PHOTO_MINUTE,
    PHOTOS_NOTICE,
    PHOTOS_PER_MINUTE,
    REJECT_REASONS,
    HeldPhoto,
    KeptPhoto,
    PhotoRefused,
    PhotoRoute,
    PhotoUse,
    StartRefused,
    by_pace,
    claim_code,
    held_photo,
    own_total,
    per_hour,
    photo_of_key,
    photo_route,
    photo_use,
    photos_key,
    puzzle_to_start,
    still_wanted,
)

# -- the codes --------------------------------------------------------------------------------


def test_the_codes_alphabet_has_nothing_misread_off_a_photo() -> None:
    assert CODE_LENGTH == 5
    assert len(CODE_ALPHABET) == 22 == len(set(CODE_ALPHABET))
    assert not set("0O1IL2Z5S8B6G") & set(CODE_ALPHABET)
    # 22 ** 5: "about 5 million codes"
    assert len(CODE_ALPHABET) ** CODE_LENGTH == 5_153_632


def reference_code(seed: str, number: int) -> str:
    """The code as the bot has always drawn it (a restart, or an upgrade between two, must give
    the codes already sent): HMAC-SHA256 keyed by the start's secret over "entry:N", its first
    8 bytes a big-endian number written in base 22 over the alphabet, lowest digit first."""
    mac = hmac.digest(seed.encode(), b"entry:" + str(number).encode(), "sha256")
    n = sum(b << (8 * (7 - i)) for i, b in enumerate(mac[:8]))
    letters = []
    while len(letters) < 5:
        letters.append(CODE_ALPHABET[n % 22])
        n //= 22
    return "".join(letters)


def test_each_entry_its_code_the_same_whenever_worked_out() -> None:
    codes = [claim_code("secret-of-this-start", n) for n in range(1, 101)]
    assert all(len(c) == 5 and set(c) <= set(CODE_ALPHABET) for c in codes)
    assert codes == [claim_code("secret-of-this-start", n) for n in range(1, 101)]
    assert codes == [reference_code("secret-of-this-start", n) for n in range(1, 101)]
    assert len(set(codes)) >= 98  # two sharing one is rare (about 1 in 1,000 for 100)
    # another start, other codes
    other = [claim_code("another-secret", n) for n in range(1, 101)]
    assert sum(a == b for a, b in zip(codes, other, strict=True)) <= 2
    assert claim_code("s", 7) == reference_code("s", 7)
    assert claim_code("ñandú", 12345) == reference_code("ñandú", 12345)
    # all the alphabet is used, the last letters too
    used = {c for n in range(1, 2001) for c in claim_code("k", n)}
    assert used == set(CODE_ALPHABET)


# -- what a photo is for ------------------------------------------------------------------------


@pytest.mark.parametrize(("started", "waiting", "finished", "time_up", "counted", "use"), [
    (False, False, False, False, False, PhotoRefused("not_started")),
    (False, True, True, True, True, PhotoRefused("not_started")),
    (True, False, True, False, False, PhotoRefused("finished")),
    (True, True, True, True, False, PhotoRefused("finished")),
    (True, True, False, False, False, PhotoUse.CLAIM),
    (True, True, False, True, True, PhotoUse.CLAIM),  # a claim waiting at time's up
    (True, False, False, True, True, PhotoRefused("counted")),
    (True, False, False, True, False, PhotoUse.TIME_UP),
    (True, False, False, False, True, PhotoUse.START),
    (True, False, False, False, False, PhotoUse.START),
])
def test_what_a_photo_is_for(started: bool, waiting: bool, finished: bool, time_up: bool,
                             counted: bool, use: object) -> None:
    assert photo_use(started, waiting, finished, time_up, counted) == use


def test_the_uses_as_recorded() -> None:
    assert (PhotoUse.CLAIM.value, PhotoUse.START.value, PhotoUse.TIME_UP.value) == (
        "claim", "start", "time_up")
    assert REJECT_REASONS == ("not_done", "no_code")


# -- which photos go on --------------------------------------------------------------------------


def fwd(event: int, at: float, uid: str = "") -> KeptPhoto:
    return KeptPhoto(event, uid or f"u{event}", at, True)


def held(event: int, at: float, uid: str = "") -> KeptPhoto:
    return KeptPhoto(event, uid or f"u{event}", at, False, True)


def kept(event: int, at: float, uid: str = "") -> KeptPhoto:
    return KeptPhoto(event, uid or f"u{event}", at, False)


def test_three_photos_a_minute_go_on() -> None:
    assert (PHOTOS_PER_MINUTE, PHOTO_MINUTE) == (3, 60)
    assert photo_route("new", [], 0, True) == PhotoRoute(forward=True)
    two = [fwd(1, 0), fwd(2, 10)]
    assert photo_route("new", two, 20, True) == PhotoRoute(forward=True)
    three = [fwd(1, 0), fwd(2, 10), fwd(3, 20)]
    assert photo_route("new", three, 30, True) == PhotoRoute()  # spent: kept only
    assert photo_route("new", three, 59, True) == PhotoRoute()
    # a minute after the first one it leaves the count
    assert photo_route("new", three, 60, True) == PhotoRoute(forward=True)
    # by the photos' dates, either way (a photo dated before the others)
    assert photo_route("new", [fwd(1, 100), fwd(2, 110), fwd(3, 120)], 61, True) == PhotoRoute()
    assert photo_route("new", [fwd(1, 100), fwd(2, 110), fwd(3, 120)], 40, True) == \
        PhotoRoute(forward=True)
    # photos not forwarded do not count
    assert photo_route("new", [kept(1, 0), held(2, 1), fwd(3, 2), fwd(4, 3)], 4, True) == \
        PhotoRoute(forward=True)  # two forwarded; nothing held since the last
    # another budget
    assert photo_route("new", [fwd(1, 0)], 1, True, budget=1) == PhotoRoute()
    assert photo_route("new", [fwd(1, 0)], 1, True, budget=2) == PhotoRoute(forward=True)


def test_a_start_photo_is_only_kept_and_a_repeat_only_noted() -> None:
    assert photo_route("new", [], 0, False) == PhotoRoute()
    earlier = [kept(4, 0, "same"), fwd(7, 10, "same"), fwd(9, 20, "x")]
    assert photo_route("same", earlier, 30, True) == PhotoRoute(repeat_of=4)  # the first one
    assert photo_route("x", earlier, 30, False) == PhotoRoute(repeat_of=9)
    # no unique id: never a repeat
    assert photo_route("", [kept(4, 0, "")], 30, True) == PhotoRoute(forward=True)
    assert photo_route("", [KeptPhoto(4, "", 0, False)], 30, True) == PhotoRoute(forward=True)


def test_how_many_were_held_back_since_the_last_one_forwarded() -> None:
    earlier = [held(1, 0), fwd(2, 1), held(3, 2), kept(4, 3), held(5, 4), held(6, 5)]
    assert photo_route("new", earlier, 200, True) == PhotoRoute(forward=True, held=3)
    assert photo_route("new", [held(1, 0), held(2, 1), fwd(3, 2)], 200, True) == \
        PhotoRoute(forward=True)


# -- the photo owed once the budget frees ------------------------------------------------------


def test_nothing_owed() -> None:
    assert held_photo([]) is None
    assert held_photo([fwd(1, 0), kept(2, 1)]) is None
    assert held_photo([held(1, 0), fwd(2, 70)]) is None  # told of by the one forwarded after


def test_the_newest_held_back_when_a_forwarded_one_leaves_the_minute() -> None:
    # three forwarded at 0, 10, 20, two held back at 30 and 40: at 60 the first leaves the
    # minute, so the newest (event 5) goes then, with one other
    earlier = [fwd(1, 0), fwd(2, 10), fwd(3, 20), held(4, 30), held(5, 40)]
    assert held_photo(earlier) == HeldPhoto(5, 1, 60)
    # only the ones held since the last forwarded count
    earlier = [held(1, 0), fwd(2, 5), fwd(3, 10), fwd(4, 20), held(5, 30), kept(6, 31)]
    assert held_photo(earlier) == HeldPhoto(5, 0, 65)


def test_owed_at_its_own_date_when_the_budget_is_free_then() -> None:
    earlier = [fwd(1, 0), fwd(2, 10), fwd(3, 20), held(4, 100)]
    assert held_photo(earlier) == HeldPhoto(4, 0, 100)
    # two of the three still within a minute of it: one more may go, at its date
    earlier = [fwd(1, 0), fwd(2, 50), fwd(3, 55), held(4, 61)]
    assert held_photo(earlier) == HeldPhoto(4, 0, 61)
    assert held_photo([held(1, 7), held(2, 9)]) == HeldPhoto(2, 1, 9)


def test_owed_with_another_budget() -> None:
    earlier = [fwd(1, 0), fwd(2, 10), held(3, 15)]
    assert held_photo(earlier, budget=1) == HeldPhoto(3, 0, 70)  # both must leave the minute
    assert held_photo(earlier, budget=2) == HeldPhoto(3, 0, 60)
    # a budget of none never frees: a minute after the last photo
    assert held_photo(earlier, budget=0) == HeldPhoto(3, 0, 75)
    assert held_photo([fwd(1, 50), held(2, 20)], budget=0) == HeldPhoto(2, 0, 110)


def test_the_notice_of_a_photo_forwarded_later() -> None:
    assert PHOTOS_NOTICE == "photos"
    assert photos_key(12, 345) == "photos:12:345"
    assert photo_of_key("photos:12:345") == 345
    assert photo_of_key(photos_key(1, 2)) == 2
    for other in (None, "", "photos", "photos:12", "photos:12:", "photos:12:x",
                  "photos:12:345:6", "photo:12:345", "outbox:12:345", "photos:12:-3"):
        assert photo_of_key(other) is None


@pytest.mark.parametrize(("use", "ready", "waiting", "finished", "counted", "wanted"), [
    ("claim", 40, 40, False, False, True),
    ("claim", 40, 40, False, True, True),
    ("claim", 40, 40, True, False, False),  # confirmed since
    ("claim", 40, 41, False, False, False),  # another claim waits now
    ("claim", 40, None, False, False, False),  # turned down since
    ("claim", None, None, False, False, False),
    ("time_up", 40, 40, False, False, True),
    ("time_up", None, None, False, False, True),
    ("time_up", None, None, False, True, False),  # counted since
    ("time_up", None, None, True, False, False),
    ("start", 40, 40, False, False, False),
    ("start", None, None, False, False, False),
])
def test_whether_a_held_photo_is_still_wanted(use: str, ready: int | None, waiting: int | None,
                                              finished: bool, counted: bool,
                                              wanted: bool) -> None:
    assert still_wanted(use, ready, waiting, finished, counted) is wanted


# -- each entry its own start ------------------------------------------------------------------


def start(any_order: bool, done: tuple[int, ...], asked: int | None, *, count: int = 3,
          played: int = 3, playing: bool = False, waiting: bool = False,
          over: bool = False) -> int | StartRefused:
    return puzzle_to_start(any_order, count, played, done, asked, playing=playing,
                           waiting=waiting, over=over)


def test_the_puzzles_in_a_fixed_order() -> None:
    assert start(False, (), None) == 1
    assert start(False, (), 1) == 1
    assert start(False, (1,), None) == 2
    assert start(False, (1, 2), 3) == 3
    assert start(False, (1,), 3) == StartRefused("which", (2,))
    assert start(False, (1,), 1) == StartRefused("which", (2,))


def test_the_puzzles_in_any_order() -> None:
    assert start(True, (), 2) == 2
    assert start(True, (2,), 3) == 3
    assert start(True, (2,), 2) == StartRefused("which", (1, 3))  # done already
    assert start(True, (2,), None) == StartRefused("which", (1, 3))  # several left
    assert start(True, (), 4) == StartRefused("which", (1, 2, 3))
    assert start(True, (), 0) == StartRefused("which", (1, 2, 3))
    assert start(True, (1, 3), None) == 2  # one left: no need to name it
    assert start(True, (1, 3), 2) == 2
    assert start(True, (1, 3), 1) == StartRefused("which", (2,))
    # two of five to play, one done: four left to choose from
    assert start(True, (4,), None, count=5, played=2) == StartRefused("which", (1, 2, 3, 5))
    assert start(True, (4,), 5, count=5, played=2) == 5


def test_why_a_puzzle_cant_start() -> None:
    assert start(True, (1, 2, 3), None) == StartRefused("done")
    assert start(False, (1, 2), None, played=2) == StartRefused("done")
    assert start(False, (1, 2), None, played=2, over=True, waiting=True) == StartRefused("done")
    assert start(False, (1,), None, over=True, waiting=True, playing=True) == \
        StartRefused("over")
    assert start(False, (1,), None, waiting=True, playing=True) == StartRefused("waiting")
    assert start(False, (1,), None, playing=True) == StartRefused("playing")
    assert StartRefused("done").left == ()


def test_an_entrys_own_time_and_pace() -> None:
    assert own_total(0, 100.0, 1300.0) == 1200
    assert own_total(1200, 5000.0, 5600.9) == 1800  # whole seconds, cut down
    assert own_total(300, 50.0, 40.0) == 300  # a claim before the start adds nothing
    assert own_total(300, 50.0, 50.0) == 300
    assert per_hour(500, 1800) == 1000.0
    assert per_hour(1000, 3600) == 1000.0
    assert per_hour(250, 900) == 1000.0
    assert per_hour(1, 1) == 3600.0  # a second is time
    assert per_hour(500, 0) == 0.0
    assert per_hour(500, -10) == 0.0
    assert per_hour(0, 3600) == 0.0


def test_the_interim_ranking_by_pace() -> None:
    done = [
        (1, 500, 3600),  # 500 pieces an hour
        (2, 1000, 3600),  # 1000
        (3, 500, 1800),  # 1000: shares the first place with #2, after it by number
        (4, 300, 0),  # no time: not ranked
        (5, 250, 3600),  # 250
        (6, 500, 3600),  # 500: shares the third place with #1
    ]
    assert by_pace(done) == [(1, 2, 1000, 3600), (1, 3, 500, 1800), (3, 1, 500, 3600),
                             (3, 6, 500, 3600), (5, 5, 250, 3600)]
    assert by_pace([]) == []
    assert by_pace([(9, 100, 0)]) == []
    assert by_pace([(9, 100, 60)]) == [(1, 9, 100, 60)]
    assert by_pace([(9, 1, 1), (3, 0, 0)]) == [(1, 9, 1, 1)]  # a second is time
