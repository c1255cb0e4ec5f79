"""Hostile probes of corrections (/corregir) and refunds made (/reembolsado): each test
asserts what the docs say, and fails where the bot does otherwise."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import CASTRILLO
from tests.documents import entries_survive
from tests.fakebot import Harness
from tests.registration.test_corrections import fixes, last, members
from tests.registration.test_registration_chat import (
    ANA,
    BEA,
    ORGANISER,
    Who,
    madrid,
    open_harness,
    register,
    withdraw,
)


def round_trip(tmp_path: Path, h: Harness, contest: Path | None = None) -> None:
    """Export the document, import it into a fresh database: it reads back the same."""
    entries_survive(contest or h.contest_file, h.db_path, tmp_path)


async def test_the_same_member_corrected_twice_travels_in_a_document(tmp_path: Path) -> None:
    """Two corrections of one member, no change of the team: the document must import."""
    h = await open_harness(tmp_path, CASTRILLO)
    try:
        await register(h, ANA, "infantil-a", [Who("Lucas Perz", "2018")], madrid(3, 1))
        await h.send(ANA, "/correct 1 Lucas Pere 2018", madrid(3, 2))
        await h.send(ANA, "/correct 1 Lucas Pérez 2019", madrid(3, 3))
        assert members(h, 1) == [("Lucas Pérez", 2019)]
        assert len(fixes(h)) == 2
    finally:
        await h.stop()
    round_trip(tmp_path, h)


async def test_my_data_shows_the_money_given_back(tmp_path: Path) -> None:
    """docs/privacy.md: the bot keeps "refunds given (/reembolsado)" of each entry, and
    /mis_datos shows what it keeps about the entries the phone follows."""
    h = await open_harness(tmp_path, CASTRILLO)
    try:
        await register(h, ANA, "infantil-a", [Who("Lucas Pérez", "2018")], madrid(3, 1))
        await h.send(ORGANISER, "/pagado 1", madrid(3, 2))
        await withdraw(h, ANA, madrid(3, 4), 1)
        await h.send(ORGANISER, "/refunded 1 4", madrid(3, 5))
        shown = last(await h.send(ANA, "/my_data", madrid(3, 6)), ANA)
        assert "4 €" in shown, shown
    finally:
        await h.stop()


def test_refunded_is_a_column_a_question_may_not_take(tmp_path: Path) -> None:
    """A question's id names a CSV column: the entries' own columns are refused
    (refund_amount is); refunded, the column export entries gains, too."""
    import pytest

    from bot.services.contest_file import ContestFileError, load_contest

    text = CASTRILLO.read_text(encoding="utf-8").replace(
        'id = "aepuzz_member"', 'id = "refunded"', 1).replace(
        '"aepuzz_member"', '"refunded"')
    path = tmp_path / "q.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ContestFileError):
        load_contest(path)


async def test_an_entry_refunded_as_left_out_does_not_keep_a_paid_place(
        tmp_path: Path) -> None:
    """Billom (a place only once paid) with one place: entry 2 paid but is left out at the
    closing, and is given its money back. A withdrawal afterwards frees the place: entry 2
    holds no paid place on money given back (it is not confirmed as paid with nothing owed)."""
    from bot.domain.places import Status
    from tests.registration.test_payments import ADULTS
    from tests.registration.test_payments import contest as billom_one_place
    from tests.registration.test_registration_chat import paris

    h = await open_harness(tmp_path, billom_one_place(tmp_path, places=1))
    try:
        await h.send(ORGANISER, "/start", paris(1, 23))
        await register(h, ANA, "adulte", ADULTS, paris(2, 1, 10))
        await register(h, BEA, "adulte", [Who("Cy Tres", "1982-05-17"),
                                          Who("Di Cuatro", "1983-05-17")], paris(2, 1, 11))
        await h.send(ORGANISER, "/pagado 1", paris(2, 2))
        await h.send(ORGANISER, "/pagado 2", paris(2, 3))
        regs = h.app.bot_data["registrations"]
        [s2] = await regs.statuses(paris(3, 3), [2])
        assert s2.place.status is Status.LEFT_OUT and s2.owed_back == 1400
        await h.send(ORGANISER, "/refunded 2", paris(3, 3))
        await withdraw(h, ANA, paris(3, 4), 1)
        [s2] = await regs.statuses(paris(3, 5), [2])
        assert not (s2.place.status is Status.CONFIRMED and s2.owed_back == 0
                    and s2.refunded == 1400), s2
    finally:
        await h.stop()
