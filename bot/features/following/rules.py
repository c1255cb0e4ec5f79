"""Following an entry by its table card, pure: the card's code, the buttons of a request and
who decides one.

The card's code is not the entry's join code (that one, given privately to whoever
registered, links a phone at once): it is derived from it one way (a hash), so nobody who
reads a card learns the join code. A scan of the card asks; the entry's phones decide, or an
organiser; with no phone following the entry yet, ``first_phone`` says whether an organiser
must allow it ("organisers", the default) or the scan is enough ("anyone")."""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass

from bot.domain.numbers import parse_whole

CARD_PREFIX = "t"  # a table card's code: "t" and 22 letters, digits, - or _
CARD_LENGTH = 23
REQUEST = "follow_request"  # a phone asked to follow an entry (ref: the card's code)
ALLOWED = "follow_allowed"  # its request allowed (ref: the request's line; data: requester)
REFUSED = "follow_refused"  # ... refused
BUTTON = "dec:fol:"  # "dec:fol:<request event id>:y" (allow) or ":n" (refuse)
ORGANISERS = "organisers"
ANYONE = "anyone"
FIRST_PHONE = (ORGANISERS, ANYONE)


@dataclass(frozen=True)
class FollowRules:
    """``first_phone``: who lets in the first phone of an entry nobody follows yet."""

    first_phone: str = ORGANISERS


def card_code(join_code: str) -> str:
    """The code a table card's QR link carries for the entry with ``join_code``."""
    digest = hashlib.sha256(b"table card:" + join_code.encode()).digest()
    return CARD_PREFIX + base64.urlsafe_b64encode(digest).decode()[:CARD_LENGTH - 1]


def may_be_card(code: str) -> bool:
    return code.startswith(CARD_PREFIX) and len(code) == CARD_LENGTH


def asks(linked: int, rules: FollowRules) -> bool:
    """Whether a scan asks (True) or follows at once: it asks when ``linked`` phones follow
    the entry, or when an organiser lets in the first one."""
    return linked > 0 or rules.first_phone == ORGANISERS


def line(request: int) -> str:
    """The line of request ``request`` (its event id): the decision's ref."""
    return f"{BUTTON}{request}"


def button(request: int, allow: bool) -> str:
    return f"{line(request)}:{'y' if allow else 'n'}"


def parse_button(data: str) -> tuple[int, bool] | None:
    """(request event id, allowed) of a button's data, or None if it is not one."""
    parts = data.removeprefix(BUTTON).split(":") if data.startswith(BUTTON) else []
    request = parse_whole(parts[0]) if len(parts) == 2 else None
    if request is None or request <= 0 or parts[1] not in ("y", "n"):
        return None
    return request, parts[1] == "y"
