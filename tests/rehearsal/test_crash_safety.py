"""Crash safety: the rehearsal's contest day with the bot killed by SIGKILL at 8 random moments
(20 in ``make soak``) and restarted on the same file gives the same results as an uninterrupted
day with the same seed; every reply is backed by its event; every owed notice arrives exactly
once."""

from __future__ import annotations

import io
import json
import sqlite3
from collections import Counter

from bot.delivery.sender import Sender
from bot.rehearsal.demo import Rehearsal
from bot.storage.store import Store
from tests.conftest import CASTRILLO
from tests.e2e import FULL

KINDS = ("hint", "solution", "stage", "escape", "ready", "finish", "pieces", "registered",
         "payment", "withdraw", "clock_start")
KILLS = 20 if FULL else 8  # each restart is a new process: about a second and a half


def results(db) -> Counter:
    """The contest's history, without ids or processing times: what each person did, when."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT kind, entry, category, stage, value, at FROM events WHERE kind IN "
            f"({','.join('?' * len(KINDS))})", KINDS).fetchall()
    return Counter(rows)


def rankings(out: str) -> str:
    return out.split("Rankings:")[1].split("Bot API calls:")[0]


async def next_start(db) -> list[tuple[int, str]]:
    """The outbox's sender on the file, as at the bot's next start: what it sends."""
    sent: list[tuple[int, str]] = []

    class Bot:
        async def do_api_request(self, method: str, api_kwargs: dict) -> bool:
            # an invoice by its payload (it has no text)
            sent.append((api_kwargs["chat_id"],
                         api_kwargs.get("text", api_kwargs.get("payload"))))
            return True

    store = await Store.open(db)
    sender = Sender(Bot(), store, None)  # type: ignore[arg-type]
    await sender.start()
    try:
        await sender.settled()
        assert await store.owed_messages() == []
    finally:
        await sender.stop()
        await store.close()
    return sent


async def play(tmp_path, name: str, kills: int) -> tuple[Rehearsal, str]:
    out = io.StringIO()
    r = Rehearsal(str(CASTRILLO), 10, 3, str(tmp_path / f"{name}.sqlite3"), out=out,
                  day_seconds=8, kills=kills)
    assert await r.run() == 0, out.getvalue()[-3000:]
    return r, out.getvalue()


async def test_sigkills_change_no_result(tmp_path):
    calm, calm_out = await play(tmp_path, "calm", 0)
    chaos, chaos_out = await play(tmp_path, "chaos", KILLS)
    assert chaos.kills_done == KILLS
    assert chaos_out.count("*** the bot is killed (SIGKILL)") == KILLS
    assert rankings(chaos_out) == rankings(calm_out)
    assert results(tmp_path / "chaos.sqlite3") == results(tmp_path / "calm.sqlite3")
    # every reply the fake server carried is backed by its event: an accepted hint reply per
    # hint event, a finish reply per finish event
    db = tmp_path / "chaos.sqlite3"
    with sqlite3.connect(db) as conn:
        hints = conn.execute("SELECT COUNT(*) FROM events WHERE kind IN ('hint', 'solution')"
                             ).fetchone()[0]
        finishes = conn.execute("SELECT COUNT(*) FROM events WHERE kind = 'finish'"
                                ).fetchone()[0]
        notices = conn.execute("SELECT entry, ref FROM events WHERE kind = 'notice'").fetchall()
        phones = dict(conn.execute(
            "SELECT entry, COUNT(DISTINCT actor) FROM events WHERE kind = 'link' GROUP BY entry"
        ).fetchall())
        outbox = conn.execute("SELECT chat_id, params, outcome FROM outbox").fetchall()
    calls = chaos.api.calls
    accepted = [c for c in calls if c.method == "sendMessage" and "Billetes restantes" in c.text]
    # every acknowledgement is backed by its event, and every event by its acknowledgement:
    # the answer is written in the same transaction as the event (the outbox), so a SIGKILL
    # between the commit and the send only delays it to the next start
    assert len({c.text.splitlines()[0] for c in accepted}) == hints > 0
    finish_replies = [c for c in calls if c.method == "sendMessage" and " terminó en " in c.text]
    assert len({(c.chat_id, c.replies_to) for c in finish_replies}) == finishes > 0
    # every message marked sent reached the server; what was still owed when the rehearsal
    # stopped the bot (paced at one a second per chat) goes at the next start
    owed = [row for row in outbox if row[2] is None]
    if owed:
        delivered = await next_start(db)
        assert sorted(delivered) == sorted(
            (chat, json.loads(params).get("text", json.loads(params).get("payload")))
            for chat, params, _ in owed if chat != 0)
    # a message, or the edit of one (a volunteers' line settled: "✅ Recorded ...")
    carried = {(c.chat_id, c.text) for c in calls
               if c.method in ("sendMessage", "editMessageText")}
    invoiced = {(c.chat_id, c.params.get("payload")) for c in calls if c.method == "sendInvoice"}
    for chat, params, outcome in outbox:
        if outcome != "sent":
            continue
        message = json.loads(params)
        if "payload" in message:  # an invoice (Castrillo takes payments in the chat)
            assert (chat, message["payload"]) in invoiced, (chat, message)
        elif chat == 0:  # a volunteers' line for every volunteer: in one of its languages
            assert any(text in t for text in message["texts"].values() for _, t in carried)
        else:
            assert any(chat == c and message["text"] in t for c, t in carried), (chat, message)
    # owed notices: to every phone of the pair, once, or again only across a restart. A
    # SIGKILL after Telegram took a message and before the outbox marked it sent makes the
    # next start send it again: Telegram offers no way to send exactly once, and the bot
    # chooses at least once (nothing owed is dropped) over at most once
    expected = Counter()
    for entry, _ in notices:
        for team in chaos.teams:
            if team.number == entry:
                for phone in team.phones:
                    expected[phone.id] += 1
    delivered: dict[int | None, list[int]] = {}
    for i, c in enumerate(calls):
        if c.method == "sendMessage" and "ya han pasado" in c.text:
            delivered.setdefault(c.chat_id, []).append(i)
    assert set(delivered) == set(expected)
    starts = [i for i, c in enumerate(calls) if c.method == "getMe"]
    for chat, at in delivered.items():
        # every notice owed reached the phone; one more at most per restart in between
        again = sum(1 for i in starts if at[0] < i < at[-1])
        assert expected[chat] <= len(at) <= expected[chat] + again, (chat, len(at), again)
    assert len(notices) == len({ref for _, ref in notices})
    assert sum(phones.values()) > 0
    assert notices, "this seed has pairs asking too early: their notices must be owed"
    print(f"kills {KILLS}, hints {hints}, finishes {finishes}, notices {len(notices)}")
