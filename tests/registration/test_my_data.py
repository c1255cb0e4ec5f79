"""``/mis_datos`` (bot/features/privacy): a person reads everything the bot keeps about them and
the entries they follow, and nobody else's; it records nothing."""

from __future__ import annotations

from pathlib import Path

from tests.fakebot import FrozenClock, Person, count_events
from tests.registration.test_payments import ADULTS, ANA, BEA, FEE, clock, started  # noqa: F401
from tests.registration.test_registration_chat import Who, paris, register


async def test_my_data_lists_what_is_kept_and_only_mine(tmp_path: Path,
                                                        clock: FrozenClock) -> None:  # noqa: F811
    h = await started(tmp_path)
    try:
        await register(h, ANA, "adulte", ADULTS, paris(2, 1, 10))
        await h.paid(ANA, f"pay:1:{FEE}", FEE, paris(2, 1, 10, 5), "ch-1")
        await register(h, BEA, "adulte", [Who("Cy Tres", "1990-01-02"),
                                          Who("Di Cuatro", "1991-03-04")], paris(2, 1, 11))
        before = count_events(h)
        calls = await h.send(ANA, "/my_data", paris(2, 2))
        [text] = [c.text for c in calls if c.chat_id == ANA.id and c.method == "sendMessage"]
        assert text.startswith("What I keep about you:\n• your name as Telegram gives it: Ana")
        assert "that your phone follows entries #1" in text
        assert "Entry #1 (Adulte):" in text and "registered by you in the chat on" in text
        assert "Ana Uno; born May 17, 1980" in text and "Bea Dos; born May 17, 1981" in text
        assert "Payment: 14 € on February 1, 2012 at 10:05 (paid in the chat)" in text
        assert "Who sees it: the organisers see all of it" in text
        assert "Cy Tres" not in text and "#2" not in text  # Bea's entry is not Ana's
        assert count_events(h) == before
        stranger = await h.send(Person(777, "Zoe", "en"), "/my_data", paris(2, 2))
        [alone] = [c.text for c in stranger if c.method == "sendMessage"]
        assert "Entry #" not in alone and "To have it removed, ask the organisers." in alone
    finally:
        await h.stop()


async def test_my_data_says_a_payment_twice_is_to_be_given_back(
        tmp_path: Path, clock: FrozenClock) -> None:  # noqa: F811
    h = await started(tmp_path)
    try:
        await register(h, ANA, "adulte", ADULTS, paris(2, 1, 10))
        await h.paid(ANA, f"pay:1:{FEE}", FEE, paris(2, 1, 10, 5), "ch-1")
        await h.paid(ANA, f"pay:1:{FEE}", FEE, paris(2, 1, 10, 6), "ch-2")
        calls = await h.send(ANA, "/my_data", paris(2, 2))
        [text] = [c.text for c in calls if c.chat_id == ANA.id and c.method == "sendMessage"]
        assert "at 10:05 (paid in the chat)" in text
        assert "at 10:06 (paid in the chat; to be given back)" in text, text
    finally:
        await h.stop()
