"""What answered a request: Telegram (its refusal is for good) or something in between (an
outage, retried), and which failures prove a message was not delivered (docs/invariants.md,
section 10)."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
from telegram.error import NetworkError, TelegramError, TimedOut
from telegram.request import HTTPXRequest

# httpx errors that python-telegram-bot 22 (HTTPXRequest.do_request) turns into NetworkError or
# TimedOut and that prove the request never reached Telegram: no connection was made, or none
# was free in the pool (PTB's own message says "Request was *not* sent to Telegram")
_NEVER_SENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)
# httpcore's words when the server closes the connection before the first byte of an answer
# (httpcore/_async/http11.py, which says it treats the case "as a ConnectError"): what a server
# does with a keep-alive connection it had already closed when our request went out. Telegram
# answers what it accepted, and a proxy that lost its backend answers 502; a connection lost
# on the way (the hall's 4G) ends in a read timeout instead, or a reset, both counted below as
# possibly delivered
_HUNG_UP = "Server disconnected without sending a response"


class NotTelegram(NetworkError):
    """An HTTP answer that is not Telegram's JSON, whatever its status (a proxy's page, a hotel
    network's login page): it proves nothing about the message, so it is retried as an
    outage (``not_delivered``: nothing was delivered, no cause)."""


_TELEGRAM_JSON = re.compile(rb'\s*\{\s*"ok"\s*:')


def telegram_json(payload: bytes) -> bool:
    """Whether an HTTP answer is Telegram's JSON: an object with a boolean "ok" (Telegram's
    answers start with it: checked first, without parsing the whole answer)."""
    if _TELEGRAM_JSON.match(payload):
        return True
    try:
        data = json.loads(payload)
    except ValueError:
        return False
    return isinstance(data, dict) and isinstance(data.get("ok"), bool)


class TelegramOnlyRequest(HTTPXRequest):
    """PTB's HTTPX request, but an answer that is not Telegram's JSON raises ``NotTelegram``
    (a ``NetworkError``). PTB itself turns a 200 HTML page into a bare ``TelegramError``
    ("Invalid server response"), a 404 or 401 page into ``InvalidToken`` (``EndPointNotFound``
    from ``do_api_request``) and a 400 page into ``BadRequest``: all of which read as
    Telegram's refusals, though Telegram never saw the request."""

    async def do_request(self, *args: Any, **kwargs: Any) -> tuple[int, bytes]:
        code, payload = await super().do_request(*args, **kwargs)
        if not telegram_json(payload):
            raise NotTelegram(f"HTTP {code} with an answer that is not Telegram's (something "
                              "between the bot and Telegram answered)")
        return code, payload


def not_delivered(exc: NetworkError) -> bool:
    """Whether a failed send proves the message was not delivered, so that sending it again
    cannot make a duplicate. How python-telegram-bot 22 raises what we catch:

    - ``HTTPXRequest.do_request``: an ``httpx.TimeoutException`` becomes ``TimedOut`` and any
      other ``httpx.HTTPError`` a ``NetworkError``, each ``from`` the httpx error;
    - ``BaseRequest._request_wrapper``: an HTTP answer that is not 2xx (nor 400 ``BadRequest``,
      401/403/404/409, nor a 429 with ``retry_after``, ``RetryAfter``) becomes a
      ``NetworkError`` raised with no httpx cause (at most the ``TelegramError`` of an answer
      that was not JSON, such as a proxy's 502 page).

    Proof that it was not delivered: could not connect (refused, unreachable, DNS, connect
    timeout), no free connection (pool timeout), an error answer from the server (5xx), or
    the server hanging up before answering anything (``_HUNG_UP``). Anything else may have
    been delivered: a read timeout (Telegram may still be sending it), a write that failed
    half-way, a connection reset or cut in the middle of the answer, an unknown error.
    """
    cause = exc.__cause__
    if isinstance(cause, _NEVER_SENT):
        return True
    if isinstance(cause, httpx.RemoteProtocolError) and str(cause).startswith(_HUNG_UP):
        return True
    if isinstance(exc, TimedOut):
        return False
    return cause is None or isinstance(cause, TelegramError)  # the server answered an error

