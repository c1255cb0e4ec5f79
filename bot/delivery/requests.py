"""What answered a request: Telegram (its refusal is for good) or something in between (an
outage, retried), and which failures prove a message was not delivered (docs/invariants.md,
section 10)."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
from telegram import Bot
from telegram.error import NetworkError, TelegramError, TimedOut
from telegram.request import HTTPXRequest, RequestData

# the type of RequestData's parameters (its documented constructor's), not re-exported by
# telegram.request in python-telegram-bot 22; tests/delivery/test_direct_posts.py holds
# ``post`` to what ``Bot.do_api_request`` sends
from telegram.request._requestparameter import RequestParameter

from bot.delivery.limits import SenderAwareLimiter

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


def posts_directly(bot: Bot) -> bool:
    """Whether the outbox's requests may go straight to the bot's request object (``post``):
    only when ``Bot.do_api_request`` would add nothing to them, that is no ``Defaults`` to
    insert, no callback data to keep, and no rate limiter but one that lets the outbox's
    requests through untouched (``SenderAwareLimiter``). A stand-in for the bot
    (the tests' recording ones) gets every request through its ``do_api_request``."""
    limiter = getattr(bot, "rate_limiter", None)
    return (isinstance(bot, Bot) and getattr(bot, "defaults", None) is None
            and getattr(bot, "callback_data_cache", None) is None
            and (limiter is None or isinstance(limiter, SenderAwareLimiter)))


async def post(bot: Bot, method: str, params: dict[str, Any]) -> Any:
    """One request of the outbox, as ``Bot.do_api_request(method, api_kwargs=params)`` makes
    it when ``posts_directly`` holds: the same parameters (None left out, each one encoded by
    ``RequestParameter``), the same request object, URL and default timeouts, the same errors
    (``BaseRequest.post`` raises them), without the layers around it (camel case, defaults,
    the rate limiter's hand-over, two debug logs): about a sixth of a send's time here."""
    data = RequestData([
        # a plain text, number or flag (nearly every parameter the outbox sends) is what
        # ``from_input`` makes of it, without its dozen type checks for files and objects
        RequestParameter(key, value, None) if type(value) in _PLAIN
        else RequestParameter.from_input(key, value)
        for key, value in params.items() if value is not None])
    return await bot.request.post(f"{bot.base_url}/{method}", request_data=data)


# the exact types ``RequestParameter.from_input`` passes through as they are (a subclass, such
# as PTB's StringEnum, may not be)
_PLAIN = frozenset({str, int, float, bool})
