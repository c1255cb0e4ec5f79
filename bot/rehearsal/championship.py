"""The rehearsal of a contest played in rounds: every round of every category, day by day.

Each day the laptop comes back to the hall: the bot is restarted on the same database with its
clock on that day. Heats are played one after the other: the organiser starts each one with
``/inicio HEAT``, volunteers log finishes, split times, pieces and now and then a penalty, and
once a round's last heat is over the organiser confirms it (``/confirmar_ronda``). Who plays the
next round is what the bot decided: the rehearsal reads the lineups back from the database, as
``/series`` shows them, and plays them in turn. Categories played once are played on the
contest's day like any heat.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from datetime import time as dtime

from bot.domain.clock import CategoryClock, Pause, format_duration
from bot.domain.contest import Category
from bot.domain.rounds import Heat
from bot.rehearsal.actions import Action, Person, Stage, Team
from bot.rehearsal.fakeapi import Call
from bot.services.contest_day import ContestDay
from bot.storage.store import Store

GAP = timedelta(minutes=20)  # between a heat's time limit and the next heat's start
DAY_SPAN = 10 * 3600  # simulated seconds of a championship day, played in ``day_seconds``

Add = Callable[[datetime, Person, str], None]  # an action planned: when, who, what they send


@dataclass
class Session:
    """One clock's worth of play: a heat, or a category played once."""

    unit: str
    category: Category
    round_index: int | None
    start: datetime
    time_limit: int
    pieces: int
    puzzles: int
    numbers: list[int]
    sizes: tuple[int, ...] = ()  # the puzzles' pieces, in order
    any_order: bool = False  # each entry plays them in the order it chooses (the split names it)


class Championship:
    def __init__(self, rehearsal: Stage, confirmed: set[int]) -> None:
        self.reh = rehearsal
        self.contest = rehearsal.contest
        self.confirmed = confirmed
        self.played: set[str] = set()
        self.outcomes = False  # the DNS and the DSQ played (once, in the first heat of 3+)
        self.known: dict[str, list[list[list[int]]]] = {}  # the lineups last read
        self.declined = False  # one invited team gives its place up (once in the rehearsal)

    def days(self) -> list[date]:
        found = {self.contest.date}
        for c in self.contest.categories:
            found.update(r.date for r in c.rounds)
            found.update(h.date for r in c.rounds for h in r.schedule)
        return sorted(found)

    def _at(self, day: date, hour: int) -> datetime:
        return datetime.combine(day, dtime(hour, 0), self.reh.tz)

    async def lineups(self) -> dict[str, list[list[list[int]]]]:
        """What the bot recorded: each category's rounds reached and their heats."""
        store = await Store.open(self.reh.db_path)
        try:
            day = ContestDay(self.contest, store, frozenset())
            return {c.id: await day.lineups(c) for c in self.contest.categories if c.rounds}
        finally:
            await store.close()

    async def waiting(self, at: datetime) -> list[int]:
        """The entries invited to a next round that have not answered yet, at ``at``."""
        store = await Store.open(self.reh.db_path)
        try:
            day = ContestDay(self.contest, store, frozenset())
            out: list[int] = []
            for c in self.contest.categories:
                for r in range(len(c.rounds) - 1):
                    out += [n for n, i in (await day.invitations(c, r)).items()
                            if i.pending(at)]
            return sorted(out)
        finally:
            await store.close()

    async def answer_invitations(self, at: datetime) -> None:
        """A round that invites: each team invited answers from a phone of its own, with the
        invitation's button; the first one ever gives its place up (asked, then confirmed),
        and the next in line, invited in turn, accepts."""
        reh = self.reh
        step = 0
        while waiting := await self.waiting(at + timedelta(minutes=step + 1)):
            for n in waiting:
                step += 1
                team = next(t for t in reh.teams if t.number == n)
                phone, when = team.phones[0], at + timedelta(minutes=step)
                if not self.declined:
                    self.declined = True
                    reh.say(f"  #{n} gives its place up; the next in line is invited")
                    await reh.send(phone, f"/renuncio {n}", when)
                    await reh.press(phone, f"invite:no!:{n}", when)
                    break  # the next in line is invited: read again
                await reh.press(phone, f"invite:yes:{n}", when)

    async def substitute(self, at: datetime) -> None:
        """Where teams may change members (``keep_originals``): before the first event, the
        organiser replaces the second member of the last team registered (a later event's)."""
        team = next((t for t in reversed(self.reh.teams) if t.number in self.confirmed
                     and t.category.keep_originals is not None and len(t.members) > 1), None)
        if team is None:
            return
        answers = await self.reh.send(self.reh.organiser,
                                      f"/sustituir {team.number} 2 Alex Stand-In 1990-05-04", at)
        for call in answers:
            if call.method == "sendMessage" and call.chat_id == self.reh.organiser.id:
                self.reh.say(f"  [{at:%H:%M:%S}] organiser: /sustituir {team.number} 2 Alex "
                             f"Stand-In 1990-05-04 -> {call.text}")

    async def sessions(self, day: date) -> list[Session]:
        """The heats of ``day`` whose entrants are known and that were not played yet."""
        out: list[Session] = []
        lineups = self.known = await self.lineups()
        for c in self.contest.categories:
            if not c.rounds:
                if day == self.contest.date and c.id not in self.played:
                    start = self.contest.start or self._at(day, 10)
                    teams = [t.number for t in self.reh.teams
                             if t.category.id == c.id and t.number in self.confirmed]
                    # several puzzles in one go: their sizes too, as a round's (the last
                    # one's pieces are counted at time's up)
                    out.append(Session(c.id, c, None, start, c.time_limit, c.pieces,
                                       c.play or len(c.puzzles), teams, c.puzzles,
                                       c.puzzle_order == "any"))
                continue
            r = len(lineups[c.id]) - 1
            rnd = c.rounds[r]
            start = rnd.start or self._at(rnd.date, 10)  # heats one after the other
            for h, numbers in enumerate(lineups[c.id][r], 1):
                heat = Heat(c, r, h)
                when = rnd.when(h)  # a heat of its own day (a qualifier event)
                at = when.start or (start if when.date == rnd.date else self._at(when.date, 10))
                if when.date == day and heat.id not in self.played and numbers:
                    out.append(Session(heat.id, c, r, at, rnd.time_limit, rnd.pieces,
                                       rnd.play or len(rnd.puzzles), numbers, rnd.puzzles,
                                       rnd.puzzle_order == "any"))
                start += timedelta(seconds=rnd.time_limit) + GAP
        return out

    def clock(self, start: datetime) -> CategoryClock:
        return CategoryClock.build(start, [Pause(b.start, b.end) for b in self.contest.breaks])

    def plan(self, sessions: list[Session]) -> list[Action]:
        reh = self.reh
        actions: list[Action] = []

        def add(at: datetime, who: Person, text: str) -> None:
            actions.append(Action(at.replace(microsecond=0), reh.next_order(), who, text))

        ends: dict[str, datetime] = {}
        for s in sessions:
            end = self._plan_session(s, add)
            key = s.category.id
            ends[key] = max(end, ends.get(key, end))
            self.played.add(s.unit)
        for category_id, end in ends.items():
            category = self.contest.category(category_id)
            if category is None or not category.rounds:
                continue
            r = len(self.known[category_id]) - 1
            heats = [Heat(category, r, h).id for h, numbers
                     in enumerate(self.known[category_id][r], 1) if numbers]
            if all(h in self.played for h in heats):  # a qualifier on a later day: not yet
                add(end, reh.organiser, f"/confirmar_ronda {category_id}")
        return sorted(actions)

    def _plan_session(self, s: Session, add: Add) -> datetime:
        """A session's messages, from its start to its results; when it is over."""
        reh = self.reh
        add(s.start, reh.organiser, f"/inicio {s.unit}")
        clock = self.clock(s.start)

        def real(seconds: float) -> datetime:
            moment = clock.instant_at(int(seconds))
            assert moment is not None
            return moment

        # once in the rehearsal: an entry that does not turn up, and one disqualified
        no_show = s.numbers[0] if not self.outcomes and len(s.numbers) >= 3 else None
        cheat = s.numbers[-1] if no_show is not None else None
        if no_show is not None:
            self.outcomes = True
            add(real(5 * 60), reh.volunteers[0], f"/estado {no_show} dns")
        for n in s.numbers:
            team = next((t for t in reh.teams if t.number == n), None)
            if team is None or n == no_show:
                continue
            self._plan_entry(s, team, n == cheat, real, add)
        return real(s.time_limit + 300)

    def _plan_entry(self, s: Session, team: Team, cheat: bool,
                    real: Callable[[float], datetime], add: Add) -> None:
        """An entry's split times, its finish or pieces, now and then a penalty."""
        reh = self.reh
        n = team.number
        vol = reh.rng.choice(reh.volunteers)
        if cheat:
            add(real(s.time_limit + 240), reh.volunteers[0],
                f"/estado {n} dsq pieces taken from another table")
        finish = reh.rng.uniform(0.45, 1.2) * s.time_limit
        # the puzzles in the order the entry plays them (its own, where it chooses: each split
        # then names the puzzle done, as the volunteer says it)
        order = list(range(1, len(s.sizes) + 1))
        if s.any_order:
            reh.rng.shuffle(order)
        for k in range(1, s.puzzles):
            split = min(finish, s.time_limit) * k / s.puzzles
            which = f" {order[k - 1]}" if s.any_order else ""
            add(real(split + 30), vol, f"/parcial {n}{which} {format_duration(int(split))}")
        if finish <= s.time_limit - 30:
            add(real(finish), reh.rng.choice(team.phones), "/listo")
            add(real(finish + reh.rng.uniform(30, 150)), vol, f"/fin {n}")
        else:  # with puzzles in sequence, the count of the one being played (not finished)
            left = s.sizes[order[s.puzzles - 1] - 1] if s.puzzles > 1 else s.pieces
            pieces = int(left * reh.rng.uniform(0.55, 0.97))
            add(real(s.time_limit + 120), vol, f"/piezas {n} {pieces}")
        if self.contest.penalties and reh.rng.random() < 0.15:
            kind = reh.rng.choice(self.contest.penalties).id
            add(real(s.time_limit + 180), vol, f"/penalizacion {n} {kind}")

    async def run(self) -> list[Call]:
        """Every day in turn; the final rankings (``/clasificacion``) at the end."""
        reh = self.reh
        final: list[Call] = []
        last_moment = None
        for index, day in enumerate(self.days()):
            sessions = await self.sessions(day)
            if not sessions:
                continue
            first = min(s.start for s in sessions)
            if index > 0:  # the laptop comes back to the hall the next day
                await reh.stop_bot()
                await reh.flush()  # what it sent before it stopped: the day before
                await reh.start_bot(first - timedelta(minutes=30),
                                    max(1.0, DAY_SPAN / reh.day_seconds))
            reh.say("")
            reh.say(f"Day {day:%Y-%m-%d} (clock times {self.contest.timezone}):")
            if last_moment is None:  # the first day played
                await self.substitute(first - timedelta(minutes=20))
            while sessions:
                actions = self.plan(sessions)
                await reh.play(actions)
                last_moment = actions[-1].at
                await self.answer_invitations(last_moment)
                sessions = await self.sessions(day)
        if last_moment is not None:
            replies = await reh.send(reh.organiser, "/clasificacion",
                                     last_moment + timedelta(minutes=10))
            final = replies
        return final

