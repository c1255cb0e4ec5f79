"""Issue 47, item 1: registrations closed with entries still waiting, unpaid, or that nobody
could tell anything (imported, no phone linked), and the organisers learnt it afterwards. A day
before the closing (``closing_warning_at``) each organiser gets, in their language, what the
closing would leave as it is; once, across restarts; never after the closing. ``/inscritos``
names the entries no phone can hear, and ``import entries --check`` lists what an import would
meet without writing anything."""

from __future__ import annotations

import io
from datetime import datetime, timedelta
from types import SimpleNamespace

from bot.handlers.jobs import registration_job
from bot.services.csvio import import_entries, read_entries
from tests.conftest import BILLOM
from tests.fakebot import Harness, Person
from tests.registration.test_registration_chat import (
    BILLOM_CLOSES,
    ORGANISER,
    add_direct,
    grown,
    paris,
    pay_direct,
    rows,
)

SECOND = Person(2, "Sabine", "fr")  # another organiser, reading French
CSV = """number,category,names,born
40,adulte,Anne; Bruno,1980-01-01; 1982-02-02
41,junior,Gaspard; Hélène,2002-01-01; 2003-01-01
"""


async def start(tmp_path) -> Harness:
    h = await Harness(tmp_path, BILLOM, organisers=frozenset({ORGANISER.id, SECOND.id})).start()
    await h.send(ORGANISER, "/start", paris(1, 23))
    await h.send(SECOND, "/start", paris(1, 23))
    await h.send(SECOND, "/langue fr", paris(1, 23))
    for i in range(30):  # the 30 shared places, paid
        n = await add_direct(h, 30_000 + i, "expert", [grown(f"A{i}"), grown(f"B{i}")],
                             paris(1, 24, 10, i))
        await pay_direct(h, n, paris(2, 1), paris(2, 1))
    svc = h.services
    await import_entries(svc.store, read_entries(svc.contest, io.StringIO(CSV), "x.csv"))
    await pay_direct(h, 40, paris(2, 2), paris(2, 2))  # imported: a place kept, no phone
    late = await add_direct(h, 31_000, "expert", [grown("Zoé"), grown("Yann")], paris(2, 3))
    await pay_direct(h, late, paris(2, 4), paris(2, 4))  # paid, no place left: waiting
    return h


async def run(h: Harness, name: str, when: datetime) -> list[tuple[int, str]]:
    job = SimpleNamespace(data={"name": name, "when": when.timestamp()})
    before = len(h.request.calls)
    await registration_job(SimpleNamespace(job=job, application=h.app))  # type: ignore[arg-type]
    await h.app.bot_data["sender"].settled()
    # (the job tells places changed first: the 29 teams registered without the chat)
    return [(c.chat_id, c.text) for c in h.request.calls[before:] if c.method == "sendMessage"
            and c.chat_id in (ORGANISER.id, SECOND.id)]


async def test_organisers_get_what_the_closing_would_leave(tmp_path):
    h = await start(tmp_path)
    try:
        soon = BILLOM_CLOSES - timedelta(days=1)
        sent = dict(await run(h, "closing-soon", soon))
        assert set(sent) == {ORGANISER.id, SECOND.id}
        en = sent[ORGANISER.id].splitlines()
        assert en[0].startswith("Registrations close on ") and en[0].endswith("Before then, check:")
        assert en[1] == ("Waiting for a place (1), left out at the closing unless one frees "
                         "up: #42 Zoé / Yann")
        assert en[2] == ("Not paid yet (1): #41 Gaspard / Hélène")
        assert en[3].startswith("No phone linked (2), so nobody in them hears from the bot: "
                                "#40 Anne / Bruno, #41 Gaspard / Hélène. Give each its link "
                                "(/export, the join_code column)")
        fr = sent[SECOND.id].splitlines()
        assert fr[0].startswith("Les inscriptions ferment ")
        assert fr[3].startswith("Aucun téléphone lié (2)") and "(/exporter, colonne join_code)" \
            in fr[3]
        # once: the job again (a restart reschedules it) tells nobody
        assert await run(h, "closing-soon", soon) == []
        assert len(rows(h, "SELECT * FROM events WHERE ref = 'closing-soon'")) == 1
    finally:
        await h.stop()


async def test_no_list_once_the_closing_has_come(tmp_path):
    h = await start(tmp_path)
    try:
        assert await run(h, "closing-soon", BILLOM_CLOSES) == []
        assert rows(h, "SELECT * FROM events WHERE ref = 'closing-soon'") == []
    finally:
        await h.stop()


async def test_inscritos_names_the_entries_no_phone_hears(tmp_path):
    h = await start(tmp_path)
    try:
        reply = (await h.send(ORGANISER, "/inscritos", paris(2, 5)))
        text = "\n".join(c.text for c in reply if c.chat_id == ORGANISER.id)
        assert text.splitlines()[-1] == "No phone linked (2), nobody hears from the bot: #40, #41"
        fr = "\n".join(c.text for c in await h.send(SECOND, "/inscrits", paris(2, 5))
                       if c.chat_id == SECOND.id)
        assert fr.splitlines()[-1] == \
            "Aucun téléphone lié (2), personne ne reçoit rien du bot : #40, #41"
    finally:
        await h.stop()
