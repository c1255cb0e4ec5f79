"""Our fake Bot API server: the spec check, long polling with offsets, injected failures."""

from __future__ import annotations

import asyncio
import json
import time
from datetime import UTC, datetime

import httpx
import pytest

from bot.rehearsal.fakeapi import Failure, FakeBotAPI


def url(api: FakeBotAPI, method: str) -> str:
    return f"{api.base_url}{api.token}/{method}"


async def test_spec_check_refuses_bad_calls(api):
    async with httpx.AsyncClient() as client:
        ok = await client.post(url(api, "sendMessage"), data={"chat_id": "5", "text": "hola"})
        assert ok.json()["ok"] is True and ok.json()["result"]["text"] == "hola"
        cases = {
            "sendMesage": {"chat_id": "5", "text": "x"},
            "sendMessage": {"chat_id": "5"},
        }
        for method, data in cases.items():
            r = await client.post(url(api, method), data=data)
            assert r.status_code == 400
        long = await client.post(url(api, "sendMessage"), data={"chat_id": "5",
                                                                 "text": "x" * 4097})
        assert long.status_code == 400
        markup = json.dumps({"inline_keyboard": [[{"text": "a", "callback_data": "y" * 65}]]})
        big = await client.post(url(api, "sendMessage"), data={"chat_id": "5", "text": "x",
                                                                "reply_markup": markup})
        assert big.status_code == 400
        wrong_token = await client.post(f"{api.base_url}999:nope/getMe")
        assert wrong_token.status_code == 401
    assert len(api.violations) == 4
    assert [c.text for c in api.sent(5)] == ["hola"]


async def test_long_polling_with_offsets(api):
    async with httpx.AsyncClient() as client:
        started = time.monotonic()
        empty = await client.post(url(api, "getUpdates"), data={"timeout": "1"})
        assert empty.json()["result"] == [] and time.monotonic() - started >= 0.9
        user = FakeBotAPI.user(7, "Ana")

        async def later():
            await asyncio.sleep(0.2)
            api.send_message(user, "/start", datetime.now(UTC))

        task = asyncio.create_task(later())
        got = (await client.post(url(api, "getUpdates"), data={"timeout": "5"})).json()["result"]
        await task
        assert [u["message"]["text"] for u in got] == ["/start"]
        first = got[0]["update_id"]
        again = (await client.post(url(api, "getUpdates"), data={"timeout": "0"})).json()
        assert [u["update_id"] for u in again["result"]] == [first]  # not confirmed yet
        api.press(user, "ask:h:1:1:0")
        confirmed = (await client.post(url(api, "getUpdates"),
                                       data={"offset": str(first + 1)})).json()["result"]
        assert [u["update_id"] for u in confirmed] == [first + 1]
        assert confirmed[0]["callback_query"]["data"] == "ask:h:1:1:0"
        assert api.confirmed_update() == first


async def test_injected_failures(api):
    api.failures.extend([Failure("429", retry_after=3), Failure("502"),
                         Failure("delay", delay=0.3)])
    async with httpx.AsyncClient() as client:
        data = {"chat_id": "5", "text": "x"}
        r = await client.post(url(api, "sendMessage"), data=data)
        assert r.status_code == 429 and r.json()["parameters"]["retry_after"] == 3
        assert (await client.post(url(api, "sendMessage"), data=data)).status_code == 502
        started = time.monotonic()
        assert (await client.post(url(api, "sendMessage"), data=data)).status_code == 200
        assert time.monotonic() - started >= 0.3
        api.failures.append(Failure("drop"))
        with pytest.raises(httpx.HTTPError):
            await client.post(url(api, "sendMessage"), data=data)
        assert (await client.post(url(api, "sendMessage"), data=data)).status_code == 200
    assert len(api.sent(5)) == 2


async def test_the_answer_is_the_reply_not_the_first_message_to_that_chat(api):
    """The rehearsal and the end-to-end tests pair a message with the bot's answer to it: a
    volunteers' line or a notice that reaches the same chat first is not that answer (an
    organiser gets the volunteers' lines privately; they used to be taken for the ranking)."""
    organiser = FakeBotAPI.user(7, "Org")

    async def bot() -> None:
        async with httpx.AsyncClient() as client:
            r = await client.post(url(api, "getUpdates"), data={"timeout": "1"})
            message = r.json()["result"][0]["message"]
            await client.post(url(api, "sendMessage"), data={
                "chat_id": "7", "text": "¿TERMINADO? #7 dice que ha terminado"})
            await asyncio.sleep(0.2)  # the answer is slower than the line
            await client.post(url(api, "sendMessage"), data={
                "chat_id": "7", "text": "Adultos parejas - clasificación",
                "reply_parameters": json.dumps({"message_id": message["message_id"]})})

    task = asyncio.create_task(bot())
    calls = await api.reply_to(organiser, "/clasificacion", datetime.now(UTC), timeout=5)
    await task
    assert [c.text for c in calls][:2] == ["Adultos parejas - clasificación",
                                           "¿TERMINADO? #7 dice que ha terminado"]
    assert calls[0].replies_to is not None and calls[1].replies_to is None
