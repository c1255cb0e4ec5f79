"""Refunds made (``/reembolsado N [AMOUNT]``; ``/refunded`` in English): an organiser records
money given back; what is still owed back is what the contest's rules give less what was
given, so the list of refunds to make in ``/inscritos`` shrinks, the entry's phones are told,
and ``export entries`` says what was given back. Castrillo's contest (withdrawals refunded in
full until 15 April). People write in English: the fragments are the msgids."""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path

from bot.features.refunds.rules import parse_cents
from tests.conftest import CASTRILLO
from tests.documents import bot
from tests.registration.test_corrections import last
from tests.registration.test_registration_chat import (
    ANA,
    ORGANISER,
    Who,
    madrid,
    open_harness,
    register,
    withdraw,
)


def test_amounts_as_typed() -> None:
    assert parse_cents("14") == 1400
    assert parse_cents("14.5") == 1450
    assert parse_cents("14,50") == 1450
    assert parse_cents("7.05€") == 705
    assert parse_cents("0") is None and parse_cents("abc") is None
    assert parse_cents("1.234") is None


async def test_a_refund_given_in_two_parts_leaves_the_list(tmp_path: Path) -> None:
    h = await open_harness(tmp_path, CASTRILLO)
    try:
        await register(h, ANA, "infantil-a", [Who("Lucas Pérez", "2018")], madrid(3, 1))
        await h.send(ORGANISER, "/pagado 1", madrid(3, 2))
        nothing = last(await h.send(ORGANISER, "/refunded 1", madrid(3, 3)), ORGANISER)
        assert nothing == "Entry #1 is owed nothing back."
        await withdraw(h, ANA, madrid(3, 4), 1)
        listed = last(await h.send(ORGANISER, "/inscritos infantil-a", madrid(3, 5)),
                      ORGANISER)
        assert "#1 Lucas Pérez: 10 € (100 % of 10 €)" in listed
        too_much = last(await h.send(ORGANISER, "/refunded 1 20", madrid(3, 5)), ORGANISER)
        assert "is owed 10 € back, not 20 €" in too_much
        calls = await h.send(ORGANISER, "/refunded 1 4", madrid(3, 6))
        assert last(calls, ORGANISER) == ("Recorded: 4 € given back to entry #1. Still to give "
                                          "back: 6 €.")
        assert "The organisers have given back 4 € for entry #1." in last(calls, ANA)
        listed = last(await h.send(ORGANISER, "/inscritos infantil-a", madrid(3, 7)),
                      ORGANISER)
        assert "4 € given back, 6 € still to give back" in listed
        done = last(await h.send(ORGANISER, "/refunded 1", madrid(3, 8)), ORGANISER)
        assert "6 € given back" in done and "Nothing more is owed to it." in done
        listed = last(await h.send(ORGANISER, "/inscritos infantil-a", madrid(3, 9)),
                      ORGANISER)
        assert "Refunds due" not in listed
        again = last(await h.send(ORGANISER, "/refunded 1", madrid(3, 9)), ORGANISER)
        assert "owed nothing more: 10 € was given back already" in again
        # the last one recorded by mistake: taken back, owed again, the entry's phones told
        asked = await h.send(ORGANISER, "/undo", madrid(3, 10))
        assert "Take back your last record: refund given #1" in last(asked, ORGANISER)
        calls = await h.press(ORGANISER, h.buttons(asked)[0][1], madrid(3, 10))
        assert "A refund recorded for your entry was taken back" in last(calls, ANA)
        listed = last(await h.send(ORGANISER, "/inscritos infantil-a", madrid(3, 10)),
                      ORGANISER)
        assert "4 € given back, 6 € still to give back" in listed
        await h.send(ORGANISER, "/refunded 1", madrid(3, 11))
        usage = last(await h.send(ORGANISER, "/refunded 1 lots", madrid(3, 9)), ORGANISER)
        assert "/refunded N [AMOUNT]" in usage
    finally:
        await h.stop()
    env = {**os.environ, "PUZZLEBOT_CONTEST": str(h.contest_file),
           "PUZZLEBOT_DB": str(h.db_path)}
    out = bot(["export", "entries"], env)
    [row] = list(csv.DictReader(io.StringIO(out.stdout)))
    assert row["refunded"] == "10.00" and row["status"] == "withdrawn"
