"""A phone following several entries (a parent with two children) is told which entry each
notice is about (issue 26: "Tu tiempo final está anotado: 0:00:01" named no entry); a phone
following one entry reads the notice as before."""

from __future__ import annotations

from tests.day.test_bot_commands import P50, PARENT, VOLUNTEER, day, replies_to

__all__ = ["day"]  # the fixture, shared with tests/day/test_bot_commands.py


async def test_a_parent_of_two_reads_which_entry_each_notice_is_about(day):
    await day.link(PARENT, 50)
    await day.link(PARENT, 30)
    finished = await day.send(VOLUNTEER, "/fin 50 1:02:03", "1:05:00")
    assert replies_to(finished, PARENT) == [
        "#50 Luis: Your finish is recorded: 1:02:03. Well done!"]
    assert replies_to(finished, P50) == ["Your finish is recorded: 1:02:03. Well done!"]
    absent = await day.send(VOLUNTEER, "/estado 30 dns", "1:06:00")
    (notice,) = replies_to(absent, PARENT)
    assert notice.startswith("#30 Nico: ")


async def test_a_phone_following_one_entry_reads_no_prefix(day):
    await day.link(PARENT, 50)
    finished = await day.send(VOLUNTEER, "/fin 50 1:02:03", "1:05:00")
    assert replies_to(finished, PARENT) == ["Your finish is recorded: 1:02:03. Well done!"]
