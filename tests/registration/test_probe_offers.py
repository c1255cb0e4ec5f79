"""Probe of issue 51's waiting list that moves itself (``[waiting_list]``): failing tests for
what contradicts docs/rules.md ("A waiting list that moves itself")."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest

from bot.domain.places import Status
from bot.handlers import desk
from bot.handlers.desk import announce_changes
from tests.fakebot import FrozenClock, Harness
from tests.registration.test_offers import (
    ADULTS,
    ANA,
    BEA,
    CARL,
    DORA,
    ORGANISER,
    offer_events,
    three_in_line,
)
from tests.registration.test_registration_chat import paris, pay_direct, register, withdraw


@pytest.fixture(autouse=True)
def told_when_sent(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot's clock before every message here, unless a test sets it: an offer is told at
    its message's moment (the later of the two)."""
    monkeypatch.setattr(desk, "CLOCK", FrozenClock(paris(1, 1)))


async def place_of(h: Harness, number: int, at):  # type: ignore[no-untyped-def]
    [s] = await h.app.bot_data["registrations"].statuses(at, [number])
    return s.place


async def test_probe_a_withdrawal_confirmed_late_gives_the_next_its_whole_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ana asks /baja at 10:00 on 2 February and presses "Yes, withdraw" at 12:00 the next day
    (nobody of her entry wrote in between: the withdrawal is stamped with the question's time).
    Bea is told of the offer only then. The docs: "The deadline is offer_hours after its people
    were told". The bot counts it from the question's moment: Bea is told at 12:00 on 3 February
    that she may accept until 10:00 on 3 February, already past, and cannot accept at all."""
    h = await three_in_line(tmp_path)
    try:
        asked = await h.send(ANA, "/baja 1", paris(2, 2, 10))
        [yes] = [d for _, d in h.buttons(asked) if d.startswith("baja:y:1:")]
        monkeypatch.setattr(desk, "CLOCK", FrozenClock(paris(2, 3, 12)))
        h.request.calls.clear()
        await h.press(ANA, yes, paris(2, 3, 12), shown=paris(2, 2, 10))
        [told] = [c for c in h.request.calls if c.chat_id == BEA.id]
        # Bea presses "Accept the place" five minutes after being told
        calls = await h.press(BEA, "offer:yes:2", paris(2, 3, 12, 5))
        assert "Entry #2: place accepted." in calls[-1].text, (told.text, calls[-1].text)
        [offer] = offer_events(h)[:1]
        assert offer["value"] >= int(paris(2, 4, 12).timestamp()), told.text
    finally:
        await h.stop()


async def _bea_displaced_then_offered_again(h: Harness) -> None:
    """One place, places by date of payment. Ana withdraws on 2 Feb at 10:00: Bea is offered it
    and accepts at 11:00. At 12:00 the organiser records Dora's payment dated (2 Feb 11:00:30)
    before Bea's (11:01): Dora takes Bea's turn (the rules: a payment's own date counts), Bea
    waits again. Dora gives it up at 13:00: Bea is offered the place a second time."""
    await register(h, DORA, "adulte", ADULTS[DORA.id], paris(2, 1, 10, 3))
    await withdraw(h, ANA, paris(2, 2, 10), 1)
    calls = await h.press(BEA, "offer:yes:2", paris(2, 2, 11))
    assert "Entry #2: place accepted." in calls[-1].text
    await pay_direct(h, 4, paris(2, 1, 11) + timedelta(seconds=30), paris(2, 2, 12))
    await announce_changes(h.app, paris(2, 2, 12))
    assert (await place_of(h, 4, paris(2, 2, 12))).offered
    assert (await place_of(h, 2, paris(2, 2, 12))).status is Status.WAITING
    h.request.calls.clear()
    await withdraw(h, DORA, paris(2, 2, 13), 4)
    assert (await place_of(h, 2, paris(2, 2, 13))).offered


async def test_probe_a_second_offer_accepted_is_confirmed(tmp_path: Path) -> None:
    """... Bea accepts the second offer at 14:00 and is told "Your place is confirmed". The
    docs: "Accepted in time, the place is confirmed from the acceptance". The bot keeps only
    an entry's first acceptance (Registrations.applications: accepted.setdefault), older than
    this offer, so the second never counts: at the deadline Bea's entry is declined."""
    h = await three_in_line(tmp_path)
    try:
        await _bea_displaced_then_offered_again(h)
        calls = await h.press(BEA, "offer:yes:2", paris(2, 2, 14))
        assert "Entry #2: place accepted. Your place is confirmed." in calls[-1].text
        now = await place_of(h, 2, paris(2, 2, 15))
        assert now.status is Status.CONFIRMED and not now.offered, now
        later = await place_of(h, 2, paris(2, 4, 15))
        assert later.status is Status.CONFIRMED, later
    finally:
        await h.stop()


async def test_probe_a_second_offer_gets_its_own_deadline(tmp_path: Path) -> None:
    """... the second offer is told at 13:00 on 2 February: its deadline is 24 hours after
    that (the docs: "offer_hours after its people were told"). The bot reuses the first
    offer's deadline (10:00 on 3 February: places._Replay.offer takes any recorded deadline
    later than the offer's moment, and desk._offer then records none)."""
    h = await three_in_line(tmp_path)
    try:
        await _bea_displaced_then_offered_again(h)
        [told] = [c for c in h.request.calls if c.chat_id == BEA.id]
        assert "February 3, 2012 at 13:00" in told.text, told.text
    finally:
        await h.stop()


async def test_probe_an_offer_told_before_the_start_ends_at_it(tmp_path: Path) -> None:
    """Ana withdraws on the contest day at 11:00, three hours before her category starts
    (14:00): Bea's offer ends at the start, not 24 hours later. One told after the start (a
    late place the organisers freed) keeps its 24 hours (docs/rules.md)."""
    h = await three_in_line(tmp_path)
    try:
        await withdraw(h, ANA, paris(3, 10, 11), 1)
        [offer] = offer_events(h)
        assert offer["value"] == int(paris(3, 10, 14).timestamp())
        await announce_changes(h.app, paris(3, 10, 15))  # Bea's deadline passed: Carl's turn
        later = offer_events(h)[-1]
        assert later["entry"] == 3
        assert later["value"] == int((paris(3, 10, 15) + timedelta(hours=24)).timestamp())
    finally:
        await h.stop()


async def test_probe_a_quota_released_while_the_bot_was_off_gives_the_whole_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Castrillo pairs with ``offer_hours = 2``: 40 non-local pairs hold the 40 open places, Bea's
    non-local pair waits. The 10 reserved places are released at midnight on 15 April while
    the bot is off; it starts at 09:00. The docs: "not after the place freed up, so a place
    freed while the bot was off ... still gives them their whole time". The release's job,
    run at once at the start with its own moment, offers the place with a deadline counted
    from midnight: Bea is told at 09:00 that she could accept until 02:00."""
    from types import SimpleNamespace

    from bot.handlers import common, desk, jobs
    from tests.conftest import CASTRILLO
    from tests.registration.test_registration_chat import RELEASE, Who, fill_non_local_pairs

    path = tmp_path / "castrillo-offers.toml"
    path.write_text(CASTRILLO.read_text(encoding="utf-8")
                    + "\n[waiting_list]\noffer_hours = 2\n", encoding="utf-8")
    h = await Harness(tmp_path, path, organisers=frozenset({ORGANISER.id})).start()
    try:
        await fill_non_local_pairs(h, 40, datetime(2023, 3, 1, 12, tzinfo=RELEASE.tzinfo))
        final = await register(h, BEA, "parejas", [Who("Bea", "1980"), Who("Berto", "1981")],
                               datetime(2023, 3, 11, 12, tzinfo=RELEASE.tzinfo))
        assert "waiting list" in final
    finally:
        await h.stop()
    started = RELEASE + timedelta(hours=9)
    for module in (common, desk, jobs):
        monkeypatch.setattr(module, "CLOCK", FrozenClock(started))
    h = await Harness(tmp_path, path, organisers=frozenset({ORGANISER.id})).start()
    try:
        named = h.app.bot_data["jobs_by_name"]
        # what runs at once at the start, in the order it was scheduled
        for name in ("release:parejas", "offers"):
            job = named[name]
            await job.callback(SimpleNamespace(job=job, application=h.app))
        await h.app.bot_data["sender"].settled()
        told = [c.text for c in h.request.calls if c.chat_id == BEA.id]
        [offer] = offer_events(h)
        assert offer["value"] >= int((started + timedelta(hours=2)).timestamp()), told
    finally:
        await h.stop()


async def test_probe_a_declined_entry_does_not_lapse_afterwards(tmp_path: Path) -> None:
    """Castrillo's Infantil A with one place, ``pay_within_days = 10`` and offers. Ana's entry
    holds the place (paid); Bea's waits unpaid (a place does not need paying first here). Ana
    withdraws on 2 March: Bea is offered the place and lets the deadline pass on 3 March: her
    entry is declined, out of the waiting list. The docs: declined is out of the waiting list,
    refunded in full; an entry out before its payment deadline (as a withdrawal) does not
    lapse. On 11 March, ten days after Bea registered, the bot turns her entry into lapsed
    and tells her it "lost its place ... register again and pay within 10 days" (places.lapses_at
    knows nothing of declined; allocate checks the lapse first)."""
    from tests.conftest import CASTRILLO
    from tests.registration.test_registration_chat import Who, madrid

    text = CASTRILLO.read_text(encoding="utf-8").replace("capacity = 10", "capacity = 1", 1)
    text = text.replace('priority = "registration"',
                        'priority = "registration"\npay_within_days = 10', 1)
    path = tmp_path / "castrillo-offers.toml"
    path.write_text(text + "\n[waiting_list]\noffer_hours = 24\n", encoding="utf-8")
    h = await Harness(tmp_path, path, organisers=frozenset({ORGANISER.id})).start()
    try:
        await register(h, ANA, "infantil-a", [Who("Ana Kid", "2018")], madrid(3, 1, 10))
        await pay_direct(h, 1, madrid(3, 1, 11), madrid(3, 1, 11))
        final = await register(h, BEA, "infantil-a", [Who("Bea Kid", "2018")],
                               madrid(3, 1, 12))
        assert "waiting list" in final
        await withdraw(h, ANA, madrid(3, 2, 10), 1)
        assert (await place_of(h, 2, madrid(3, 2, 11))).offered
        await announce_changes(h.app, madrid(3, 3, 10, 1))  # the deadline's timer
        assert (await place_of(h, 2, madrid(3, 3, 11))).status is Status.DECLINED
        h.request.calls.clear()
        await announce_changes(h.app, madrid(3, 11, 12, 1))  # Bea's lapse's timer
        told = [c.text for c in h.request.calls if c.chat_id == BEA.id]
        place = await place_of(h, 2, madrid(3, 11, 13))
        assert place.status is Status.DECLINED and not told, (place.status, told)
    finally:
        await h.stop()


async def test_probe_a_press_made_after_the_offer_passed_on_does_not_take_it_back(
        tmp_path: Path) -> None:
    """Bea is told of the offer at 10:00 on 2 February (the message Telegram dates then), does
    nothing, and at the deadline (10:00 on 3 February) the place passes to Carl, who accepts
    it with the button at 11:00. At 12:00 Bea presses "Accept the place" on her old offer.
    The docs: "A press counts at the moment Telegram shows it was made"; accepted in time only.
    Nobody wrote to the bot meanwhile, so the press is stamped with the offer's own date
    (handlers.common.deadline_press: button_moment, floored only by messages): Bea's
    acceptance counts as made on 2 February, her place is confirmed, and Carl, told his place
    was confirmed, is silently back on the waiting list."""
    h = await three_in_line(tmp_path)
    try:
        await withdraw(h, ANA, paris(2, 2, 10), 1)
        await announce_changes(h.app, paris(2, 3, 10, 1))  # the deadline's timer
        assert (await place_of(h, 3, paris(2, 3, 10, 2))).offered
        calls = await h.press(CARL, "offer:yes:3", paris(2, 3, 11), shown=paris(2, 3, 10, 1))
        assert "Entry #3: place accepted." in calls[-1].text
        calls = await h.press(BEA, "offer:yes:2", paris(2, 3, 12), shown=paris(2, 2, 10))
        carl = await place_of(h, 3, paris(2, 3, 13))
        bea = await place_of(h, 2, paris(2, 3, 13))
        assert (carl.status, bea.status) == (Status.CONFIRMED, Status.DECLINED), (
            carl, bea, calls[-1].text)
    finally:
        await h.stop()
