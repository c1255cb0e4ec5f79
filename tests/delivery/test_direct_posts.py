"""The outbox's requests go straight to the bot's request object (``bot.delivery.requests.post``)
only while that sends what ``Bot.do_api_request`` would: the same URL, parameters, timeouts
and errors. These tests hold the shortcut to that rule."""

from __future__ import annotations

import json
from typing import Any

import pytest
from telegram import Bot
from telegram.constants import ParseMode
from telegram.error import BadRequest, ChatMigrated, RetryAfter
from telegram.ext import AIORateLimiter, Defaults, ExtBot
from telegram.request import BaseRequest, RequestData

from bot.delivery.limits import SELF_PACED, SenderAwareLimiter
from bot.delivery.requests import post, posts_directly

TOKEN = "123:direct-posts-test"


class Recording(BaseRequest):
    """A request object that records what would go over HTTP and answers ``answer``."""

    def __init__(self, answer: tuple[int, dict[str, Any]] | None = None) -> None:
        self.seen: list[tuple[str, str, dict[str, str], tuple[Any, ...]]] = []
        self.answer = answer or (200, {"ok": True, "result": {"message_id": 7}})

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        pass

    @property
    def read_timeout(self) -> float | None:
        return 5.0

    async def do_request(self, url: str, method: str, request_data: RequestData | None = None,
                         read_timeout: Any = None, write_timeout: Any = None,
                         connect_timeout: Any = None, pool_timeout: Any = None
                         ) -> tuple[int, bytes]:
        assert request_data is not None
        self.seen.append((url, method, request_data.json_parameters,
                          (read_timeout, write_timeout, connect_timeout, pool_timeout)))
        code, body = self.answer
        return code, json.dumps(body).encode()


PARAMS: list[dict[str, Any]] = [
    {"chat_id": 42, "text": "Pista de la etapa 2 para #3 Ana / Luis"},
    {"chat_id": -100123, "text": "¿TERMINADO? #2", "reply_markup": json.dumps(
        {"inline_keyboard": [[{"text": "Anotar 0:47:12", "callback_data": "fin:2:1"}]]})},
    {"chat_id": 5, "message_id": 9, "text": "→ Ana va", "reply_markup": {"inline_keyboard": []}},
    {"chat_id": 5, "text": "x", "disable_notification": True, "parse_mode": None},
    # a str subclass (PTB's StringEnum) is not a plain text: encoded as the library does
    {"chat_id": 5, "text": "<b>x</b>", "parse_mode": ParseMode.HTML, "protect_content": 0.0},
]


async def _both(bot: Bot, request: Recording, params: dict[str, Any]) -> tuple[Any, Any]:
    direct = await post(bot, "sendMessage", dict(params))
    through = await bot.do_api_request("sendMessage", api_kwargs=dict(params),
                                       **({"rate_limit_args": SELF_PACED}
                                          if getattr(bot, "rate_limiter", None) else {}))
    return direct, through


@pytest.mark.parametrize("params", PARAMS)
@pytest.mark.parametrize("limited", [False, True])
async def test_a_direct_post_sends_what_do_api_request_sends(params: dict[str, Any],
                                                             limited: bool) -> None:
    request = Recording()
    bot = ExtBot(TOKEN, request=request, get_updates_request=Recording(),
                 rate_limiter=SenderAwareLimiter() if limited else None)
    assert posts_directly(bot)
    direct, through = await _both(bot, request, params)
    assert direct == through == {"message_id": 7}
    assert len(request.seen) == 2
    assert request.seen[0] == request.seen[1]
    url, method, sent, _ = request.seen[0]
    assert url == f"https://api.telegram.org/bot{TOKEN}/sendMessage" and method == "POST"
    if params.get("parse_mode") is None:
        assert "parse_mode" not in sent  # None left out, as do_api_request leaves it out


@pytest.mark.parametrize(("answer", "error"), [
    ((400, {"ok": False, "error_code": 400, "description": "Bad Request: chat not found"}),
     BadRequest),
    ((429, {"ok": False, "error_code": 429, "description": "Too Many Requests",
            "parameters": {"retry_after": 3}}), RetryAfter),
    ((400, {"ok": False, "error_code": 400, "description": "group upgraded",
            "parameters": {"migrate_to_chat_id": -1009}}), ChatMigrated),
])
async def test_a_direct_post_fails_as_do_api_request_fails(answer: tuple[int, dict[str, Any]],
                                                           error: type[Exception]) -> None:
    request = Recording(answer)
    bot = ExtBot(TOKEN, request=request, get_updates_request=Recording())
    with pytest.raises(error) as direct:
        await post(bot, "sendMessage", {"chat_id": 1, "text": "x"})
    with pytest.raises(error) as through:
        await bot.do_api_request("sendMessage", api_kwargs={"chat_id": 1, "text": "x"})
    assert str(direct.value) == str(through.value)


def test_no_direct_post_when_the_bot_would_add_something() -> None:
    def bot(**kwargs: Any) -> ExtBot[Any]:
        return ExtBot(TOKEN, request=Recording(), get_updates_request=Recording(), **kwargs)

    assert not posts_directly(bot(defaults=Defaults(parse_mode="HTML")))
    # (arbitrary callback data needs PTB's callback-data extra, which the project does not
    # install: posts_directly checks for it all the same)
    assert not posts_directly(bot(rate_limiter=AIORateLimiter()))

    class StandIn:  # the tests' recording bots: only do_api_request
        async def do_api_request(self, method: str, api_kwargs: dict[str, Any]) -> bool:
            return True

    assert not posts_directly(StandIn())  # type: ignore[arg-type]
