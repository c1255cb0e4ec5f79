"""Issue 45, item 8: menus are a door of their own. A person's menu changes close together (60
language switches) are coalesced per chat: the first menu goes at once, the later ones wait
for the chat's changes to settle under one named job, and only the latest menu, read from the
database when the job runs, is sent. The test runs that job itself: it waits on the bot's
state, never on time."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from zoneinfo import ZoneInfo

from bot.handlers.menus import MENU_JOB
from bot.support.i18n import LANGUAGES
from tests.access.test_menus import linked_day
from tests.conftest import CASTRILLO
from tests.day.test_bot_commands import menu_calls
from tests.fakebot import Call, Person

DAY = datetime(2023, 4, 22, 10, tzinfo=ZoneInfo("Europe/Madrid"))
ANA = Person(301, "Ana", "es")


def menu_traffic(calls: Sequence[Call], who: Person) -> list[str]:
    """The menu calls scoped to ``who``'s chat, by method."""
    return [c.method for c in calls if c.method in ("setMyCommands", "deleteMyCommands")
            and c.params.get("scope") == {"type": "chat", "chat_id": who.id}]


async def test_sixty_language_switches_send_the_last_menu_once(tmp_path) -> None:
    h, codes = await linked_day(tmp_path, CASTRILLO)
    try:
        # a long settling time: nothing here waits for it, the test runs the job itself
        h.app.bot_data["menu_settle"] = 3600
        linked = await h.send(ANA, f"/start {codes[3]}", DAY)
        assert menu_traffic(linked, ANA) == ["setMyCommands"] + ["deleteMyCommands"] * 7
        assert "pista" in menu_calls(linked, ANA)[None]
        switches: list[Call] = []
        for i in range(60):  # typed and pressed, every language in turn, French the last
            choice = [lang for lang in LANGUAGES if lang != "fr"][i % 6] if i < 59 else "fr"
            switches += (await h.send(ANA, f"/idioma {choice}", DAY) if i % 2 else
                         await h.press(ANA, f"lang:{choice}", DAY))
        # every switch is answered, in the language chosen; no menu went meanwhile
        assert [c.text for c in switches if c.method == "sendMessage"][-1] == (
            "Je vous écrirai en français.")
        assert menu_traffic(switches, ANA) == []
        # one job for the chat, whatever the number of changes
        job = h.app.bot_data["jobs_by_name"][MENU_JOB + str(ANA.id)]
        assert [n for n in h.app.bot_data["jobs_by_name"] if n.startswith(MENU_JOB)] == [
            MENU_JOB + str(ANA.id)]
        before = len(h.request.calls)
        await job.run(h.app)
        settled = h.request.calls[before:]
        assert menu_traffic(settled, ANA) == ["setMyCommands"]
        menu = menu_calls(settled, ANA)[None]
        assert "indice" in menu and "pista" not in menu  # French, as the database says now
        # in all: 2 setMyCommands and the 7 deletes once, not 480 calls
        assert len(menu_traffic(h.request.calls, ANA)) == 9
        # once the changes have settled, the next change goes at once again
        h.app.bot_data["menu_settle"] = 0
        back = await h.send(ANA, "/idioma en", DAY)
        assert "hint" in menu_calls(back, ANA)[None]
        assert menu_traffic(back, ANA) == ["setMyCommands"]
    finally:
        await h.stop()


async def test_a_clean_stop_sends_the_menus_still_settling(tmp_path) -> None:
    """The settling job lives in memory only: a stop within the settling time lost the chat's
    final menu. A clean stop (the application's post_stop, as bot/chat/polling.py calls it
    before the bot shuts down) sends each waiting chat's latest menu, once."""
    h, codes = await linked_day(tmp_path, CASTRILLO)
    try:
        h.app.bot_data["menu_settle"] = 3600  # never reached here: the stop comes first
        bea = Person(302, "Bea", "es")
        await h.send(ANA, f"/start {codes[3]}", DAY)
        await h.send(bea, f"/start {codes[3]}", DAY)
        switches = [*await h.send(ANA, "/idioma en", DAY), *await h.send(ANA, "/idioma fr", DAY),
                    *await h.press(bea, "lang:en", DAY)]
        assert menu_traffic(switches, ANA) == menu_traffic(switches, bea) == []
        assert h.app.bot_data["menus_waiting"] == {ANA.id, bea.id}
        before = len(h.request.calls)
        await h.app.post_stop(h.app)
        stopped = h.request.calls[before:]
        assert menu_traffic(stopped, ANA) == menu_traffic(stopped, bea) == ["setMyCommands"]
        assert "indice" in menu_calls(stopped, ANA)[None]  # French, the last choice
        assert "hint" in menu_calls(stopped, bea)[None]
        assert h.app.bot_data["menus_waiting"] == set()
        before = len(h.request.calls)
        await h.app.post_stop(h.app)  # nothing owed any more: nothing sent twice
        assert h.request.calls[before:] == []
    finally:
        await h.stop()
