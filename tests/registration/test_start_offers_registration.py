"""While registration is open, /start offers it first, as a button (issue 26: a stranger was
told to open a link the organisers gave; /inscribir was only in the list below it)."""

from __future__ import annotations

from tests.fakebot import texts
from tests.registration.test_registration_chat import STRANGER, castrillo_bot, madrid

__all__ = ["castrillo_bot"]  # the fixture


async def test_start_offers_register_while_registration_is_open(castrillo_bot):
    h = castrillo_bot
    calls = await h.send(STRANGER, "/start", madrid(3, 1))
    (hello,) = texts(calls)
    assert 'To register, tap "Register" below (or send /register).' in hello
    assert h.buttons(calls) == [("Register", "reg:new")]
    # the button starts the registration, as /inscribir does
    pressed = await h.press(STRANGER, "reg:new", madrid(3, 1))
    assert texts(pressed) == ["Which category? (/cancel to stop at any time)"]
    labels = [label for label, _ in h.buttons(pressed)]
    assert labels[0] == "Infantil A · born 2017 to 2019 · 10 €"
    assert all(d.startswith("reg:cat:") for _, d in h.buttons(pressed))


async def test_no_register_button_once_registration_is_closed(castrillo_bot):
    h = castrillo_bot
    calls = await h.send(STRANGER, "/start", madrid(4, 22, 10))
    (hello,) = texts(calls)
    assert "Register" not in hello and h.buttons(calls) == []
    # an old button pressed after the close is answered as /inscribir is then
    pressed = await h.press(STRANGER, "reg:new", madrid(4, 22, 10))
    assert len(texts(pressed)) == 1 and "closed" in texts(pressed)[0]
