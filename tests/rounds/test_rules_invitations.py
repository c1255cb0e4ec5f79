"""Qualifiers invited to the next round (features/invitations/rules.py; docs/rules.md, "Qualifiers
invited"): when a heat begins, the deadlines (``by`` for those told at the confirmation,
``within`` of being told for the next in line, never after the heat begins), the history
folded into invitations, who accepted in which heat, the places freed for the next in line,
and whether an answer is taken. Pure domain, run against every mutant by ``make mutate``; every
expected value is worked out by hand from the rule."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from bot.domain.contest import HeatSchedule, Invite, Round
from bot.features.invitations.rules import (
    LAPSED,
    NO,
    YES,
    AlreadyAccepted,
    AlreadyDeclined,
    Answer,
    HeatBegun,
    Invitation,
    Lapsed,
    NotInvited,
    accepted,
    begins_at,
    first_deadline,
    fold,
    freed,
    next_deadline,
    reminder_at,
    reminder_key,
    reply_verdict,
)

TZ = ZoneInfo("Europe/Madrid")
DAY = date(2027, 7, 10)
T0 = datetime(2027, 7, 1, 12, 0, tzinfo=TZ)  # the round confirmed
BEGINS = datetime(2027, 7, 10, 10, 0, tzinfo=TZ)  # the next round's heat begins
HOUR = timedelta(hours=1)
DAY_S = 86400


def at(hours: float) -> datetime:
    return T0 + timedelta(hours=hours)


@dataclass
class Ev:
    kind: str
    entry: int | None
    at: datetime
    data: dict[str, Any] = field(default_factory=dict)


def test_when_a_heat_begins() -> None:
    start = datetime(2027, 7, 10, 10, 0, tzinfo=TZ)
    rnd = Round("final", {"en": "Final"}, DAY, start, 500, 3600)
    assert begins_at(rnd, 1, TZ) == start
    # no start: its day's midnight, in the contest's time zone (a name or a zone)
    no_start = Round("final", {"en": "Final"}, DAY, None, 500, 3600)
    assert begins_at(no_start, 1, "Europe/Madrid") == datetime(2027, 7, 10, 0, 0, tzinfo=TZ)
    assert begins_at(no_start, 1, TZ) == datetime(2027, 7, 10, 0, 0, tzinfo=TZ)
    assert begins_at(no_start, 1, "UTC").utcoffset() == timedelta(0)
    assert begins_at(no_start, 1, "Europe/Madrid").utcoffset() == timedelta(hours=2)
    # each heat its own schedule: heat 2 is the second one
    two = Round("semi", {"en": "Semi"}, DAY, None, 500, 3600, heats=2, schedule=(
        HeatSchedule(date(2027, 7, 3), datetime(2027, 7, 3, 9, 0, tzinfo=TZ)),
        HeatSchedule(date(2027, 7, 4)),
    ))
    assert begins_at(two, 1, TZ) == datetime(2027, 7, 3, 9, 0, tzinfo=TZ)
    assert begins_at(two, 2, TZ) == datetime(2027, 7, 4, 0, 0, tzinfo=TZ)


def test_an_invitation_waits_until_its_deadline_or_an_answer() -> None:
    i = Invitation(3, T0, at(48))
    assert i.heat == 1 and i.replaces is None and i.answer is None and i.answered is None
    assert i.pending(at(47)) and not i.pending(at(48)) and not i.pending(at(49))
    assert not i.out
    assert not Invitation(3, T0, at(48), answer=YES).pending(at(1))
    assert Invitation(3, T0, at(48), answer=NO).out
    assert Invitation(3, T0, at(48), answer=LAPSED).out
    assert not Invitation(3, T0, at(48), answer=YES).out


def test_the_first_deadline() -> None:
    by = at(72)
    # ``by`` still ahead: by
    assert first_deadline(Invite(by=by), T0, BEGINS) == by
    assert first_deadline(Invite(by=by, within=DAY_S), T0, BEGINS) == by
    # ``by`` passed already (or this very moment): within of being told
    assert first_deadline(Invite(by=at(-1), within=DAY_S), T0, BEGINS) == at(24)
    assert first_deadline(Invite(by=T0, within=DAY_S), T0, BEGINS) == at(24)
    # no ``by``: within of being told
    assert first_deadline(Invite(within=DAY_S), T0, BEGINS) == at(24)
    # ``by`` passed and no within: until the heat begins
    assert first_deadline(Invite(by=at(-1)), T0, BEGINS) == BEGINS
    assert first_deadline(Invite(), T0, BEGINS) == BEGINS
    # never after the heat begins
    assert first_deadline(Invite(by=BEGINS + HOUR), T0, BEGINS) == BEGINS
    assert first_deadline(Invite(within=30 * DAY_S), T0, BEGINS) == BEGINS


def test_the_next_in_lines_deadline() -> None:
    told = at(100)
    # within of being told, even with a ``by`` still ahead
    assert next_deadline(Invite(by=at(200), within=DAY_S), told, BEGINS) == at(124)
    assert next_deadline(Invite(within=DAY_S), told, BEGINS) == at(124)
    # no within: by
    assert next_deadline(Invite(by=at(150)), told, BEGINS) == at(150)
    # never after the heat begins
    assert next_deadline(Invite(within=30 * DAY_S), told, BEGINS) == BEGINS
    assert next_deadline(Invite(by=BEGINS + HOUR), told, BEGINS) == BEGINS
    # no time left: nobody takes the place
    assert next_deadline(Invite(by=at(90)), told, BEGINS) is None
    assert next_deadline(Invite(by=told), told, BEGINS) is None
    assert next_deadline(Invite(within=DAY_S), BEGINS, BEGINS) is None
    assert next_deadline(Invite(within=DAY_S), BEGINS + HOUR, BEGINS) is None
    # a second before the heat: one second to answer
    last = BEGINS - timedelta(seconds=1)
    assert next_deadline(Invite(within=DAY_S), last, BEGINS) == BEGINS


def invited(entry: int, when: datetime, deadline: datetime, **data: Any) -> Ev:
    return Ev("invited", entry, when, {"deadline": deadline.isoformat(), **data})


def test_the_history_folded_into_invitations() -> None:
    events = [
        Ev("invited", None, at(1), {"deadline": at(2).isoformat()}),  # no entry
        invited(1, at(0), at(48)),
        invited(2, at(0), at(48), heat=2),
        invited(3, at(0), at(48)),
        Ev("invite_reply", 1, at(5), {"answer": "yes"}),
        Ev("invite_reply", 1, at(6), {"answer": "no"}),  # the latest answer counts
        Ev("invite_reply", 2, at(7), {"answer": "yes"}),
        Ev("invite_lapsed", 2, at(48)),  # it answered: no lapse
        Ev("invite_lapsed", 3, at(48)),
        invited(4, at(49), at(60), heat="2", replaces=3),
        Ev("invite_reply", 5, at(8), {"answer": "yes"}),  # never invited
        Ev("invite_lapsed", 6, at(48)),  # never invited
        Ev("paid", 1, at(9)),  # another kind
    ]
    out = fold(events)
    assert sorted(out) == [1, 2, 3, 4]
    assert out[1] == Invitation(1, at(0), at(48), 1, None, NO, at(6))
    assert out[2] == Invitation(2, at(0), at(48), 2, None, YES, at(7))
    assert out[3] == Invitation(3, at(0), at(48), 1, None, LAPSED, at(48))
    assert out[4] == Invitation(4, at(49), at(60), 2, 3, None, None)
    # invited again: a new invitation, its answer so far forgotten
    again = fold([invited(7, at(0), at(10)), Ev("invite_reply", 7, at(1), {"answer": "no"}),
                  invited(7, at(20), at(30))])
    assert again == {7: Invitation(7, at(20), at(30))}
    assert fold([]) == {}


def test_who_accepted_in_which_heat_in_the_rounds_order() -> None:
    inv = {
        1: Invitation(1, T0, at(48), heat=1, answer=YES),
        2: Invitation(2, T0, at(48), heat=2, answer=YES),
        3: Invitation(3, T0, at(48), heat=1, answer=NO),
        4: Invitation(4, T0, at(48), heat=1),  # waiting
        5: Invitation(5, T0, at(48), heat=2, answer=YES),
        6: Invitation(6, T0, at(48), heat=1, answer=LAPSED),
        7: Invitation(7, T0, at(48), heat=3, answer=YES),  # no heat 3
        8: Invitation(8, T0, at(48), heat=0, answer=YES),  # no heat 0
        9: Invitation(9, T0, at(48), heat=1, answer=YES),
    }
    order = [5, 9, 3, 1, 2, 4, 6, 7, 8, 10]
    assert accepted(inv, order, 2) == [[9, 1], [5, 2]]
    assert accepted(inv, order, 3) == [[9, 1], [5, 2], [7]]
    assert accepted(inv, order, 1) == [[9, 1]]
    assert accepted(inv, [], 2) == [[], []]
    assert accepted({}, order, 2) == [[], []]


def test_the_places_freed_for_the_next_in_line() -> None:
    inv = {
        1: Invitation(1, T0, at(48), answer=NO, answered=at(30)),
        2: Invitation(2, T0, at(48), answer=LAPSED, answered=at(10)),
        3: Invitation(3, T0, at(48), answer=YES, answered=at(5)),
        4: Invitation(4, T0, at(48)),  # waiting
        5: Invitation(5, T0, at(20), answer=NO),  # no moment: its deadline (20 h)
        6: Invitation(6, T0, at(48), answer=NO, answered=at(10)),  # same moment as 2
        7: Invitation(7, at(11), at(60), replaces=2),  # 2's place taken by 7
    }
    assert [i.entry for i in freed(inv)] == [6, 5, 1]
    # once 6's place is taken too, and 7 declines, 7's place is freed in turn
    inv[8] = Invitation(8, at(31), at(70), replaces=6)
    inv[7] = Invitation(7, at(11), at(60), replaces=2, answer=NO, answered=at(40))
    assert [i.entry for i in freed(inv)] == [5, 1, 7]
    assert freed({}) == []


def test_whether_an_answer_is_taken() -> None:
    waiting = Invitation(1, T0, at(48))
    assert reply_verdict(None, True, at(1), BEGINS) == NotInvited()
    assert reply_verdict(waiting, True, at(1), BEGINS) == Answer(None)
    assert reply_verdict(waiting, False, at(47), BEGINS) == Answer(None)
    # at its deadline it has lapsed (a lapse recorded or not)
    assert reply_verdict(waiting, True, at(48), BEGINS) == Lapsed(at(48))
    assert reply_verdict(waiting, False, at(49), BEGINS) == Lapsed(at(48))
    lapsed = Invitation(1, T0, at(48), answer=LAPSED, answered=at(48))
    assert reply_verdict(lapsed, True, at(47), BEGINS) == Lapsed(at(48))
    # declined: for good, even before the deadline or after the heat begins
    declined = Invitation(1, T0, at(48), answer=NO, answered=at(2))
    assert reply_verdict(declined, True, at(3), BEGINS) == AlreadyDeclined()
    assert reply_verdict(declined, True, BEGINS + HOUR, BEGINS) == AlreadyDeclined()
    # accepted: yes again is nothing new; no gives the place up, until the heat begins,
    # after the deadline too
    yes = Invitation(1, T0, at(48), answer=YES, answered=at(2))
    assert reply_verdict(yes, True, at(3), BEGINS) == AlreadyAccepted()
    assert reply_verdict(yes, False, at(3), BEGINS) == Answer(YES)
    assert reply_verdict(yes, False, at(100), BEGINS) == Answer(YES)
    assert reply_verdict(yes, False, BEGINS, BEGINS) == HeatBegun()
    assert reply_verdict(yes, True, BEGINS + HOUR, BEGINS) == HeatBegun()
    # the heat has begun before the deadline
    late = Invitation(1, T0, BEGINS + HOUR)
    assert reply_verdict(late, True, BEGINS, BEGINS) == HeatBegun()
    assert reply_verdict(late, True, BEGINS - HOUR, BEGINS) == Answer(None)


def test_a_reminder_comes_a_day_before_or_a_quarter_of_the_time_to_answer() -> None:
    def remind(invite: Invite, hours: float, answer: str | None = None) -> datetime | None:
        return reminder_at(invite, Invitation(5, T0, T0 + timedelta(hours=hours),
                                              answer=answer))

    week = Invite(within=7 * 86400)
    assert remind(week, 7 * 24) == T0 + timedelta(days=6)  # a day before
    assert remind(week, 24) == T0 + timedelta(hours=18)  # a quarter of a day: 6 h before
    assert remind(week, 4) == T0 + timedelta(hours=3)  # 4 hours to answer: 1 h before
    assert remind(week, 3.99) is None  # less than 4 hours: on the day, no reminder
    assert remind(week, 8 * 24) == T0 + timedelta(days=7)  # never more than a day
    assert remind(week, 7 * 24, answer=YES) is None
    assert remind(week, 0) is None and remind(week, -1) is None
    # the contest's own: 2 hours before, even with little time; never before being told
    assert remind(Invite(within=86400, remind=7200), 24) == T0 + timedelta(hours=22)
    assert remind(Invite(within=86400, remind=7200), 3) == T0 + HOUR
    assert remind(Invite(within=86400, remind=7200), 2) is None
    assert remind(Invite(within=86400, remind=0), 24) is None
    # asked for more than the invitation leaves (told a day before a fixed deadline, reminded
    # "2 days" before it): the default comes instead of none, silently (issue 47)
    assert remind(Invite(within=86400, remind=2 * 86400), 24) == T0 + timedelta(hours=18)
    assert remind(Invite(within=86400, remind=2 * 86400), 3) is None  # under 4 hours: none


def test_a_reminder_is_recorded_once_per_invitation() -> None:
    inv = Invitation(5, T0, T0 + timedelta(days=7))
    key = reminder_key("teams:0", inv)
    assert key == f"invite-remind:teams:0:5:{int((T0 + timedelta(days=7)).timestamp())}"
    assert reminder_key("teams:0", Invitation(5, T0, T0 + timedelta(days=8))) != key
    assert reminder_key("teams:0", Invitation(6, T0, T0 + timedelta(days=7))) != key
