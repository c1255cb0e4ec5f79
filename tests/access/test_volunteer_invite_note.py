"""An organiser's first /voluntario says where the volunteers' lines go (issue 26): privately
to every volunteer and organiser, with how to set a volunteers' group, or to the group that is
set. Later invitations are the link alone; the link stays the message's last word."""

from __future__ import annotations

from datetime import UTC, datetime

from tests.conftest import CASTRILLO
from tests.fakebot import Harness, Person, texts

OLGA, ODILE = Person(1, "Olga", "en"), Person(7, "Odile", "fr")
T = datetime(2023, 4, 22, 8, 0, tzinfo=UTC)


async def test_the_first_invitation_says_where_the_lines_go(tmp_path) -> None:
    h = await Harness(tmp_path, CASTRILLO, organisers=frozenset({OLGA.id, ODILE.id})).start()
    try:
        await h.send(OLGA, "/start", T)
        first = texts(await h.send(OLGA, "/voluntario", T))[0]
        assert first.startswith("The volunteers' lines (hints to hand over, finishes to check) "
                                "go privately to every volunteer and organiser.")
        assert "PUZZLEBOT_VOLUNTEER_CHAT" in first and "start=" in first.split()[-1]
        second = texts(await h.send(OLGA, "/voluntario", T))[0]
        assert second.startswith("Invitation for one volunteer") and "PUZZLEBOT" not in second
        # each organiser is told once, in their language
        await h.send(ODILE, "/start", T)
        french = texts(await h.send(ODILE, "/benevole", T))[0]
        assert french.startswith("Les messages pour les bénévoles") and \
            "start=" in french.split()[-1]
    finally:
        await h.stop()


async def test_with_a_group_it_says_the_lines_go_there(tmp_path) -> None:
    h = await Harness(tmp_path, CASTRILLO, organisers=frozenset({OLGA.id}),
                      volunteer_chat=-100123).start()
    try:
        await h.send(OLGA, "/start", T)
        first = texts(await h.send(OLGA, "/voluntario", T))[0]
        assert first.startswith("The volunteers' lines (hints to hand over, finishes to check) "
                                "go to the volunteers' group: organisers read them there")
    finally:
        await h.stop()
