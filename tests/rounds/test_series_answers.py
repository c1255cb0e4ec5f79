"""Issue 47, item 10: a series over weeks tells a team what is so. A team the final never
invited, answering an invitation (a command, or the old buttons of the semi-final's), is told
it has no invitation to answer, not that "its heat has begun" (the semi-final's, long over)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.fakebot import Harness
from tests.rounds.test_invitations import BOSS, VIC, _locals_played, at, phone, said, series

__all__ = ["series"]


async def _semis_played(h: Harness) -> None:
    """Every team invited accepts; each semi-final is played (the lower the number, the
    faster) and the round confirmed: the top three of each are invited to the final."""
    await _locals_played(h)
    for n in (1, 2, 4, 5, 7, 8, 10, 11):
        await h.press(phone(n, "en"), f"invite:yes:{n}", at(2024, 9, 13))
    for heat, day, teams in (("teams-semi1", at(2024, 10, 12, 10), (1, 2, 4, 5)),
                             ("teams-semi2", at(2024, 10, 19, 10), (7, 8, 10, 11))):
        await h.send(BOSS, f"/inicio {heat}", day)
        for n in teams:
            await h.send(VIC, f"/fin {n} 1:{10 + n}:00", day + timedelta(minutes=115))
    await h.send(BOSS, "/confirmar_ronda", at(2024, 10, 19, 12, 30))


@pytest.mark.parametrize("lang, expected", [
    ("es", "La inscripción #5 no tiene ninguna invitación que responder."),
    ("de", "Anmeldung #5 hat keine Einladung, auf die sie antworten könnte."),
])
async def test_a_team_the_final_never_invited_has_no_invitation_to_answer(
        series: Harness, lang: str, expected: str) -> None:
    h = series
    await _semis_played(h)
    five = phone(5, lang)  # fourth of its semi-final: not invited to the final
    when = at(2024, 10, 20, 9)
    assert said(await h.send(five, "/acepto", when), five) == [expected]
    assert said(await h.send(five, "/renuncio", when), five) == [expected]
    # the semi-final's old button, pressed now (dated by its message: now)
    assert said(await h.press(five, "invite:yes:5", when), five) == [expected]
    # a team the final invited still answers it
    one = phone(1, lang)
    assert said(await h.send(one, "/acepto", when), one) != [expected]
