"""The rehearsal: a whole contest day in seconds, with no token.

``python -m bot demo [--contest FILE] [--entries N] [--seed S]`` starts our fake Bot API server
on loopback and the real bot (``python -m bot run``) against it, with the bot's clock running
simulated time fast (see ``bot.support.wallclock``). Simulated participants register in the
chat, link their partners' phones, ask for hints; volunteers confirm stages and log finishes and
pieces, at message dates that follow the contest file's clock. It prints an account of the day
and the rankings, and leaves the SQLite file for ``python -m bot export results``. Same seed,
same day.
"""

from __future__ import annotations

import asyncio
import random
import re
import sqlite3
import sys
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from datetime import time as dtime
from functools import partial
from pathlib import Path
from typing import TextIO
from zoneinfo import ZoneInfo

from bot.chat.skips import MARGIN, supported
from bot.domain.contest import Contest
from bot.domain.events import EventKind
from bot.features.partners.names import PAIR
from bot.features.payments.settings import rules_of as payments_rules
from bot.features.registration.day import Registrations
from bot.features.selftimed.rules import photo_of_key
from bot.rehearsal import plan
from bot.rehearsal.actions import PHOTO, Action, Line, Person, Team, Window, recipients
from bot.rehearsal.botprocess import BotProcess
from bot.rehearsal.championship import DAY_SPAN, Championship
from bot.rehearsal.fakeapi import Call, FakeBotAPI
from bot.rehearsal.refusals import (
    Records,
    Refused,
    Said,
    not_refused,
    refusals,
    report,
    unexpected_results,
)
from bot.rehearsal.taps import Taps
from bot.services.contest_day import ContestDay
from bot.services.contest_file import load_contest
from bot.services.rounds import units
from bot.storage.store import Store
from bot.support.program import command_line
from bot.support.wallclock import ENV as CLOCK_ENV
from bot.support.wallclock import SKIP_ENV, WallClock
from bot.texts.names import amount_text

ORGANISER_ID = 1
VOLUNTEER_IDS = (2, 3)


# real seconds at most for the bot to answer a message: a bound for a bot that hangs (the wait
# ends once it answered or handled the message), not a limit a busy machine should reach
ANSWER_BOUND = 120.0
# the payment provider's token the rehearsal gives its bot (the fake Bot API takes any; like
# Telegram's test tokens, it charges nothing)
REHEARSAL_PAYMENT_TOKEN = "000000000:TEST:rehearsal"
# the school class that books the places left in a small category (``_waiting_list_moves``):
# its pupils' first names, and the surnames of an entry's members (apart from the day's entries)
SCHOOL = ("Adrián", "Blanca", "Ciro", "Dafne", "Eloy", "Fátima", "Gael", "Irene", "Jorge",
          "Laia", "Marcos", "Noa")
SCHOOL_SURNAMES = ("Gil", "Vega", "Soto", "Mora")
FAMILY = ("Marta", "Pablo", "Irene", "Hugo")  # the family waiting: its members' first names
# two people who come alone to a category of pairs, matched (``_partner_found``)
ALONE = ("Nuria Prado", "Óscar Lago")
MOST_FILLED = len(SCHOOL)  # the most places the class books


async def ran_until(db: Path | str, moment: datetime) -> None:
    """The bot noted as running until ``moment``: the rehearsal's clock jumps weeks between
    its lives (the registration, the day), where a real bot runs through; its start must not
    tell the organisers of a time off (bot/features/upkeep)."""
    if not Path(db).exists():
        return
    store = await Store.open(db)
    try:
        await store.beat(moment)
    finally:
        await store.close()


class Rehearsal:
    def __init__(self, contest_path: str, entries: int, seed: int, db_path: str,
                 out: TextIO = sys.stdout, day_seconds: float = 22.0, kills: int = 0,
                 buttons: bool = False, skips: bool = True) -> None:
        self.kills = kills
        self.taps = Taps() if buttons else None  # the buttons mode (``taps.py``)
        self.kills_done = 0
        self.web_port = 0
        self.contest_path = contest_path
        self.contest: Contest = load_contest(contest_path)
        self.entries = entries
        self.rng = random.Random(seed)
        self.seed = seed
        self.db_path = db_path
        self.out = out
        self.day_seconds = day_seconds
        self.tz = ZoneInfo(self.contest.timezone)
        self.api = FakeBotAPI(quiet=0.01)
        self.teams: list[Team] = []
        self.organiser = Person(ORGANISER_ID, "Organiser", self.contest.language)
        self.volunteers = [Person(v, f"Volunteer {i + 1}", self.contest.language)
                           for i, v in enumerate(VOLUNTEER_IDS)]
        self.bot = BotProcess(self.api, db_path, contest_path, organisers=str(ORGANISER_ID))
        if payments_rules(self.contest) is not None:
            # a contest that takes payments in the chat: a provider's token of the fake's own
            # (Telegram's test mode), so that people are sent invoices and pay them
            self.bot.extra_env["PUZZLEBOT_PAYMENT_TOKEN"] = REHEARSAL_PAYMENT_TOKEN
        self.skips = skips  # idle time skipped (``wait_until``)
        if skips:
            self.bot.extra_env[SKIP_ENV] = f"{db_path}.skip"
        self.clock: WallClock | None = None
        self._next_user = 100
        self._order = 0
        # the transcript: lines gathered with their moments, printed in that order (``flush``)
        self._lines: list[Line] = []
        self._seq = 0
        self._window: Window | None = None  # the message being answered, while it is
        self._last_at: datetime | None = None  # the date of the last message played
        self._next_at: datetime | None = None  # the date of the next one, on the day
        self._answered: dict[int, set[str]] = {}  # by entry's first phone: its answers
        self._on_the_day = False  # registrations are printed by date, the day by clock time
        self._peek: sqlite3.Connection | None = None  # the outbox read by ``_owed_nothing``
        self.last_seq = 0  # the place of the last message played, for its line
        self.said: list[Said] = []  # every message the simulated people sent, answered

    # -- output ----------------------------------------------------------------------------

    def next_order(self) -> int:
        """The next planned action's rank among those at the same moment."""
        self._order += 1
        return self._order

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def stamp(self, moment: datetime) -> str:
        if not self._on_the_day:
            return f"{moment.astimezone(self.tz):%Y-%m-%d %H:%M}"
        return moment.astimezone(self.tz).strftime("%H:%M:%S")

    def line(self, at: datetime, text: str, *more: str, seq: int | None = None) -> None:
        """A line of the transcript at ``at`` (``seq``: its place among lines of the same
        moment; by default after them), and lines under it; printed by ``flush``."""
        if seq is None:
            self._seq += 1
            seq = self._seq
        self._lines.append(Line(at, seq, [text, *more]))

    def _on_call(self, call: Call) -> None:
        """What the bot sends by itself (notices, alerts, the volunteers' lines), gathered as
        lines of their own. An answer quotes the message it answers (``reply_parameters``): it
        is printed with that message by whoever played it, never here; nor is the partner's
        copy of it (``flush``)."""
        if call.method not in ("sendMessage", "sendPhoto") or self.clock is None:
            return
        if call.method == "sendPhoto":  # a participant's photo sent on to the reviewers
            call = Call("sendMessage", {**call.params, "text": "[photo] " + str(
                call.params.get("caption", ""))}, call.at, call.update)
        chat = call.chat_id
        team = next((t for t in self.teams if any(p.id == chat for p in t.phones)), None)
        if call.replies_to is not None:
            if team is not None:
                self._answered.setdefault(team.phones[0].id, set()).add(call.text)
            return
        to = self._recipient(chat)
        if to is None:
            return
        window = self._window
        if window is not None and self.api.last_message != window.mark:  # sent: being answered
            self._last_at = window.at
        # on the day its moment is worked out when printed (``_moment_of``), unless the clock
        # is held (a message being played: no timer goes off, what comes is about it); weeks
        # before it, it is the date of the message played last
        held = self.clock.held and self.skips
        at = None if self._on_the_day and not held else self._last_at
        self._seq += 1
        self._lines.append(Line(at, self._seq, call.text.splitlines() or [""], said=call.text,
                                to=[to], arrived=self.clock.now(), after=self._last_at,
                                phones=team.phones[0].id if team is not None else None))

    def _recipient(self, chat: int | None) -> str | None:
        if chat == ORGANISER_ID:
            return "organiser"
        if chat in VOLUNTEER_IDS:
            return "volunteers"
        team = next((t for t in self.teams if any(p.id == chat for p in t.phones)), None)
        return f"#{team.number or '?'}" if team is not None else None

    async def flush(self) -> None:
        """Print the lines gathered, in the order of the moments they belong to (the bot's own
        messages merged: the same text to several phones, and to the volunteers, is one
        line). Once the bot has said all it owes (``_said``): its state, not a quiet spell,
        so a busy machine makes it slower, never different."""
        lines: list[Line] = []
        moments: list[tuple[datetime, str | None]] = []
        while True:
            await self._said()  # what the last message played made the bot say
            # taken with no await in between: a line that arrives later stays for the next
            # look, never dropped nor sorted before its moment is worked out
            taken, self._lines = self._lines, []
            lines.extend(taken)
            if not any(line.at is None for line in lines):
                break
            # read after every line taken arrived: a timer's event is committed before its
            # message is sent
            moments = await self._timer_moments()
            if not self._lines:  # nothing came during the read
                break
        for line in lines:
            if line.at is None:
                line.at = self._moment_of(line, moments)
        # the partner's copy of an answer (it may reach the server before the answer does)
        lines = [line for line in lines if line.phones is None
                 or line.said not in self._answered.get(line.phones, ())]
        shown: list[Line] = []
        said: dict[str, Line] = {}  # since the last message played
        for line in sorted(lines, key=Line.order):
            if not line.said:
                said.clear()
                shown.append(line)
            elif line.said in said:
                same = said[line.said]
                same.to.extend(t for t in line.to if t not in same.to)
            else:
                said[line.said] = line
                shown.append(line)
        for line in shown:
            assert line.at is not None
            head = line.text[0]
            if line.said:
                head = f"bot -> {recipients(line.to)}: {head}"
            self.say(f"  [{self.stamp(line.at)}] {head}")
            for more in line.text[1:]:
                self.say(f"      {more}")

    async def _said(self, timeout: float = 60.0) -> None:
        """Until the running bot has said all it owes so far, by its state: every update played
        handled (confirmed to the fake Telegram, which the bot does once its answers are
        sent), no timer running and nothing left to send (the bot's own check before a skip,
        ``bot.chat.skips``, when skips are on), and no message owed in its outbox (each one
        marked done was taken by the fake Telegram, and so gathered by ``_on_call``). A
        stopped bot has nothing more to say. ``timeout`` real seconds at most: a bound for a
        bot that hangs, not a wait that decides anything."""
        if self.bot.proc is None:
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        await self.api.wait_until(self.api.handled, timeout)
        if self.skips and self.clock is not None:
            clock = await self.bot.skip_to(self.clock.now())  # a moment past: no jump
            if clock is not None:
                self.clock = clock
        store = await Store.open(self.db_path)
        try:
            while loop.time() < deadline and not (
                    self.api.handled() and not (await store.outbox_counts()).get("owed", 0)):
                await asyncio.sleep(0.02)
        finally:
            await store.close()

    async def _timer_moments(self) -> list[tuple[datetime, str | None]]:
        """The bot's timers that went off, as it recorded them (the contest clock's moments, to
        the second): clock alerts, the escape's handover and photos held back forwarded (to
        anyone), cooldown notices (to their entry, ``#N``)."""
        store = await Store.open(self.db_path)
        try:
            events = await store.events(
                kinds=[EventKind.ALERT, EventKind.NOTICE, EventKind.HANDOVER])
        finally:
            await store.close()
        # a photo held back goes to the reviewers, not to its entry
        return sorted((e.at, f"#{e.entry}" if e.kind == EventKind.NOTICE
                       and photo_of_key(e.ref) is None else None) for e in events)

    def _moment_of(self, line: Line, timers: list[tuple[datetime, str | None]]) -> datetime:
        """When a message the bot sent by itself, after the message played last had its answer,
        belongs: the moment of the timer that sent it (the latest one gone off for its
        recipient since that message's date, by the time it arrived), else that message's
        date (what the bot still had to say about it: the partner's copy, the volunteers'
        line; the sender paces them)."""
        assert line.arrived is not None and self.clock is not None
        early = timedelta(seconds=1 + 0.02 * self.clock.speed)  # a timer firing a hair early
        due = [m for m, to in timers if (to is None or to in line.to)
               and (line.after is None or m >= line.after) and m <= line.arrived + early]
        if due:
            return max(due)
        return line.after or line.arrived

    # -- the bot process ---------------------------------------------------------------------

    async def start_bot(self, simulated_start: datetime, speed: float,
                        real_start: float | None = None, pace: float | None = None) -> None:
        """Start the bot with its clock at ``simulated_start``: held while it starts (``held``
        in ``bot.support.wallclock``), unless ``real_start`` says when it started running; the
        clock the bot runs is read back from its log once it polls."""
        clock = WallClock(simulated_start, real_start, speed, pace)
        extra = {CLOCK_ENV: clock.encode()}
        await ran_until(self.db_path, simulated_start)
        if self.web_port:
            extra["PUZZLEBOT_WEB_PORT"] = str(self.web_port)
        since = len(self.bot.log)
        await self.bot.start(**extra)
        running = await self.bot.clock_since(since)
        if running is None:
            raise RuntimeError("the bot did not say when its clock started")
        self.clock = running

    async def stop_bot(self) -> str:
        await self.bot.stop()
        if self._peek is not None:
            self._peek.close()
            self._peek = None
        return self.log

    @property
    def log(self) -> str:
        return self.bot.log.decode(errors="replace")

    # -- talking ---------------------------------------------------------------------------

    async def send(self, who: Person, text: str, at: datetime) -> list[Call]:
        """``who`` sends ``text`` dated ``at``: the bot's answers to it (what quotes it). A
        ``PHOTO`` action sends a photo instead (a file id of the fake server's own)."""
        if text == PHOTO:
            file_id = f"AgACAgQ-rehearsal-{who.id}-{self._seq + 1}"
            return await self._play(who, at, lambda: self.api.photo_and_wait(
                who.user(), file_id, at, timeout=ANSWER_BOUND, done=self._all_said), text)
        return await self._play(who, at, lambda: self.api.reply_to(
            who.user(), text, at, timeout=ANSWER_BOUND, done=self._all_said), text)

    async def press(self, who: Person, data: str, at: datetime) -> list[Call]:
        return await self._play(who, at, lambda: self.api.press_and_wait(
            who.user(), data, at, timeout=ANSWER_BOUND, done=self._all_said), data, True)

    async def _play(self, who: Person, at: datetime, go: Callable[[], Awaitable[list[Call]]],
                    what: str, pressed: bool = False) -> list[Call]:
        self._seq += 1
        self.last_seq = self._seq
        holding = self._on_the_day and self.skips and self.bot.proc is not None
        if holding and not (self.clock is not None and self.clock.held):
            # the clock stands still while the message is played: a timer never goes off in
            # the middle of its answers, however long a busy machine takes to give them
            clock = await self.bot.hold()
            if clock is not None:
                self.clock = clock
        self._window = Window(who, at, self.api.last_message)
        try:
            calls = await go()
            # its handling over, not only its answer sent: what the handler does after
            # answering (the start signal's codes sent, the clock alerts scheduled) is done
            # before anything else is played or skipped; and on the day, all it made the bot
            # owe (the partner's copy, the volunteers' line) has reached the phones
            await self.api.wait_until(self.api.handled, 60)
            if holding:
                await self.api.wait_until(self._owed_nothing, 60)
        finally:
            self._window = None
            self._last_at = at
        message = self.api.last_message
        answers = [c for c in calls if c.method == "sendMessage" and c.replies_to == message]
        self.said.append(Said(who, what, at, self.api.last_update, answers, pressed))
        return answers

    def _all_said(self) -> bool:
        """The bot has handled every message played and owes nothing: no answer is coming."""
        return self.api.handled() and self._owed_nothing()

    def _owed_nothing(self) -> bool:
        """Whether the bot's outbox owes nothing (read from the file, as anyone may)."""
        if self._peek is None:
            self._peek = sqlite3.connect(self.db_path, isolation_level=None)
        row = self._peek.execute("SELECT COUNT(*) FROM outbox WHERE done_at IS NULL").fetchone()
        return not row[0]

    def new_person(self, name: str) -> Person:
        self._next_user += 1
        return Person(self._next_user, name, self.contest.language)

    # -- registration ------------------------------------------------------------------------

    def plan_teams(self) -> None:
        plan.plan_teams(self, self.entries, self.new_person)

    async def register(self, team: Team, alone: bool = False) -> None:
        """The /inscribir conversation for ``team`` (``alone``: its members so far, then "I
        have no partner: find me one")."""
        phone = team.phones[0]
        at = team.registered_at
        assert at is not None
        await self.send(phone, "/inscribir", at)
        await self.press(phone, f"reg:cat:{team.category.id}", at)
        await self._members(phone, team, at)
        if alone:
            await self.press(phone, "reg:alone", at)
        for i, q in enumerate(self.contest.questions):
            if q.per_entry and q.asks(team.category.id):
                pick = self.teams.index(team) if team in self.teams else len(self.teams)
                await self.answer(phone, i, q.id in team.answers[0], pick, at)
        if self.contest.meal is not None and team.meal == (0, 0):
            await self.press(phone, "reg:meal:no", at)  # one tap
        elif self.contest.meal is not None:
            await self.press(phone, f"reg:ma:{team.meal[0]}", at)
            await self.press(phone, f"reg:mc:{team.meal[1]}", at)
        self._registered(team, await self.press(phone, "reg:ok", at), at)

    async def _members(self, phone: Person, team: Team, at: datetime) -> None:
        """Each member's name, birth and answers, and whether another one follows."""
        full_date = team.category.checks_age
        for k, ((name, born), answers) in enumerate(zip(team.members, team.answers,
                                                        strict=True)):
            await self.send(phone, name, at)
            await self.send(phone, born.isoformat() if full_date else str(born.year), at)
            for i, q in enumerate(self.contest.questions):
                if not q.per_entry and q.asks(team.category.id):
                    await self.answer(phone, i, q.id in answers, len(team.members) + k, at)
            entered = k + 1
            if team.category.fewest <= entered < team.category.members:
                # "Another member?": yes while the team has more, else "that is the team"
                more = "y" if entered < len(team.members) else "n"
                await self.press(phone, f"reg:more:{more}", at)

    def _registered(self, team: Team, replies: list[Call], at: datetime) -> None:
        """The bot's answer to the summary confirmed: the entry's number and link, or why
        it was refused, in the transcript."""
        text = "\n".join(c.text for c in replies)
        found = re.search(r"#(\d+)", text)
        number = int(found.group(1)) if found else 0
        team.number = number
        link = next((w for w in text.split() if "?start=" in w), "")
        team.join_code = link.split("?start=")[-1].rstrip(".") if link else ""
        status = replies[0].text.splitlines()[0] if replies else "(no answer)"
        if not number:  # refused: say so, with the bot's reason
            self.line(at, f"{' / '.join(n for n, _ in team.members)} -> refused: {status}")
            return
        self.line(at, f"{self._names(team)} -> {status}")

    async def answer(self, phone: Person, index: int, yes: bool, pick: int,
                     at: datetime) -> None:
        """Question ``index`` of the registration: yes/no as planned, a choice picked by
        ``pick`` (no random draw: the seeded day stays the same), a made-up text."""
        q = self.contest.questions[index]
        if q.kind == "choice":
            await self.press(phone, f"reg:c:{index}:{pick % len(q.choices)}", at)
        elif q.kind == "text":
            await self.send(phone, f"Club {pick % 7 + 1}"[:q.max_length], at)
        else:
            await self.press(phone, f"reg:q:{index}:{'y' if yes else 'n'}", at)

    def _names(self, team: Team) -> str:
        return f"#{team.number or '?'} " + " / ".join(n for n, _ in team.members)

    async def registrations(self) -> list[Call]:
        """Every entry registers in the chat, partners open the link, entries pay; a waiting
        list moves (``_waiting_list_moves``); the organiser's ``/inscritos`` at the end (its
        answer, printed once all is said)."""
        self.say(f"Registrations ({len(self.teams)} entries, in the chat):")
        for team in sorted(self.teams, key=lambda t: t.registered_at or datetime.min):
            await self.register(team)
        for team in self.teams:
            if len(team.phones) > 1 and team.join_code and team.registered_at:
                await self.send(team.phones[1], f"/start {team.join_code}",
                                team.registered_at + timedelta(hours=2))
        if payments_rules(self.contest) is not None:
            await self._pay_in_the_chat()
        elif self.contest.registration.payment_required:
            await self._paid_at_the_desk()
        # the places once every registration and payment is in
        last = max([t.registered_at for t in self.teams if t.registered_at]
                   + [t.paid_at + timedelta(hours=10) for t in self.teams if t.paid_at]
                   ) + timedelta(days=1)
        await self._waiting_list_moves(last - timedelta(hours=20))
        await self._partner_found(last - timedelta(hours=12))
        return await self.send(self.organiser, "/inscritos", last)

    async def _paid_at_the_desk(self) -> None:
        """Most entries pay a few days after registering, each payment recorded by the
        organiser with ``/pagado`` as it comes in."""
        closes = self.contest.registration.closes
        payments = []
        for team in self.teams:
            assert team.registered_at is not None
            if self.rng.random() < 0.9:
                paid = team.registered_at + timedelta(days=self.rng.randint(1, 6))
                if closes is not None and paid >= closes:
                    paid = closes - timedelta(days=1)
                team.paid_at = paid
                payments.append((paid + timedelta(hours=10), team.number, paid))
        # the organiser records them as they come in: one chat's messages are in date order;
        # what each payment tells people is printed at its date, before the next is played
        for when, number, paid in sorted(payments):
            await self.send(self.organiser, f"/pagado {number} "
                            f"{paid.astimezone(self.tz):%Y-%m-%d}", when)
            await self._said()

    async def _waiting_list_moves(self, at: datetime) -> None:
        """A waiting list moving, once the day's entries are in (their numbers stay theirs): a
        teacher books the places left in the category of fewest places (at most
        ``MOST_FILLED`` left) for a school class; a family registers and waits; the school
        gives one place back and the family gets it (with ``[waiting_list]``: it is offered
        the place and accepts it with the offer's button); the school's trip is then
        cancelled, and the family can't come after all: every place is given back. Not played
        where a place is taken only once paid (the class's places would not fill it), or
        after the closing."""
        closes = self.contest.registration.closes
        if closes is not None:
            at = min(at, closes - timedelta(hours=6))
        if self.contest.registration.payment_required or max(
                [t.registered_at for t in self.teams if t.registered_at], default=at) >= at:
            return
        found = await self._small_category(at)
        if found is None:
            return
        free, like = found
        teacher = self.new_person("Lucía Gil")
        booked = [Team(like.category, [(f"{first} {surname}", born) for surname, (_, born)
                                       in zip(SCHOOL_SURNAMES, like.members, strict=False)],
                       [set() for _ in like.members], [teacher], registered_at=at)
                  for first in SCHOOL[:free]]
        for kid in booked:
            await self.register(kid)
        parent = self.new_person("Rosa Luna")
        # typed in a hurry: "Lina" for "Luna", corrected at once
        family = Team(like.category, [(f"{first} Lina", born) for first, (_, born)
                                      in zip(FAMILY, like.members, strict=False)],
                      [set() for _ in like.members], [parent],
                      registered_at=at + timedelta(hours=1))
        await self.register(family)
        kept = [k for k in booked if k.number]
        if not kept or not family.number:
            return
        await self._corrects(parent, family, at + timedelta(hours=1, minutes=5))
        await self._withdraw(teacher, kept[0], at + timedelta(hours=2))
        await self._family_gets_it(parent, family, at + timedelta(hours=2))
        for kid in kept[1:]:
            await self._withdraw(teacher, kid, at + timedelta(hours=4))
        await self._withdraw(parent, family, at + timedelta(hours=5))

    async def _partner_found(self, at: datetime) -> None:
        """With ``[partners]``, once the day's entries are in: two people come alone to a
        category of pairs and register looking for a partner; the second lists those looking,
        asks the first, who says yes with the request's button; matched, they have a place.
        Two days on they can't come after all, and give it back (the day stays the one
        planned). Not played after the closing, or without a category of pairs."""
        closes = self.contest.registration.closes
        if closes is not None:
            at = min(at, closes - timedelta(hours=4))
        like = next((t for t in self.teams if t.category.fewest == 2 == len(t.members)), None)
        if self.contest.settings("partners") is None or like is None or max(
                [t.registered_at for t in self.teams if t.registered_at], default=at) >= at:
            return
        people = [self.new_person(name) for name in ALONE]
        alone = [Team(like.category, [(name, born)], [set()], [phone], registered_at=at + k * (
            timedelta(minutes=30))) for k, (name, (_, born), phone) in enumerate(
                zip(ALONE, like.members, people, strict=True))]
        for team in alone:
            await self.register(team, alone=True)
        first, second = alone
        if not first.number or not second.number:
            return
        await self._matched(people, first, second, at)

    async def _matched(self, people: list[Person], first: Team, second: Team,
                       at: datetime) -> None:
        """The second of two people alone lists those looking and asks the first, who says
        yes with the request's button; two days on they give their place back."""
        later = at + timedelta(hours=1)
        listed = await self.send(people[1], f"/{PAIR}", later)
        self.line(later, f"{self._names(second)}: /{PAIR} -> "
                  + (listed[0].text.replace("\n", " ") if listed else "(no answer)"))
        await self.send(people[1], f"/{PAIR} {first.number}", later)
        told = next((d for c in reversed(self.api.calls) if c.chat_id == people[0].id
                     for _, d in c.buttons() if d.startswith("partner:yes:")), None)
        if told is None:
            return
        said = await self.press(people[0], told, later + timedelta(minutes=20))
        self.line(later + timedelta(minutes=20), f"{self._names(first)} says yes to "
                  f"#{second.number} -> " + (said[0].text.splitlines()[0] if said
                                              else "(no answer)"))
        await self._said()
        first.members += second.members
        await self._withdraw(people[0], first, at + timedelta(days=2))

    async def _corrects(self, phone: Person, team: Team, at: datetime) -> None:
        """``/corregir``: the first member's surname typed wrong, corrected as registration
        would take it, with the bot's answer in the transcript."""
        name, born = team.members[0]
        right = name.replace(" Lina", " Luna")
        typed = born.isoformat() if team.category.checks_age else str(born.year)
        said = await self.send(phone, f"/corregir {team.number} 1 {right} {typed}", at)
        self.line(at, f"{self._names(team)}: /corregir {team.number} 1 {right} {typed} -> "
                  + (said[0].text if said else "(no answer)"))
        team.members[0] = (right, born)

    async def _small_category(self, at: datetime) -> tuple[int, Team] | None:
        """The places left at ``at`` in the category of fewest left (1 to ``MOST_FILLED``),
        and one of the day's entries in it (its members' births, for the class's)."""
        taken = await self._taken(at)
        small = sorted((c.capacity - taken.get(c.id, 0), c.id) for c in self.contest.categories
                       if c.capacity is not None
                       and 0 < c.capacity - taken.get(c.id, 0) <= MOST_FILLED)
        for free, category in small:
            like = next((t for t in self.teams if t.category.id == category), None)
            if like is not None:
                return free, like
        return None

    async def _family_gets_it(self, parent: Person, family: Team, at: datetime) -> None:
        """What the family is told of the place freed up (given, or offered: then it accepts
        with the offer's button an hour later), in the transcript."""
        told = next((c for c in reversed(self.api.calls) if c.chat_id == parent.id
                     and c.method == "sendMessage"), None)
        if told is not None:
            self.line(at, f"bot -> {self._names(family)}: " + told.text.splitlines()[0])
        offer = next((d for c in reversed(self.api.calls) if c.chat_id == parent.id
                      for _, d in c.buttons() if d == f"offer:yes:{family.number}"), None)
        if offer is not None:
            answer = await self.press(parent, offer, at + timedelta(hours=1))
            self.line(at + timedelta(hours=1), f"{self._names(family)} accepts the place "
                      "offered -> " + (answer[0].text.splitlines()[0] if answer
                                       else "(no answer)"))

    async def _taken(self, at: datetime) -> dict[str, int]:
        """Per category, the entries holding a place at ``at``."""
        store = await Store.open(self.db_path)
        try:
            statuses = await Registrations(self.contest, store).statuses(at)
        finally:
            await store.close()
        out: dict[str, int] = {}
        for s in statuses:
            if s.place.status.value == "confirmed":
                out[s.entry.category] = out.get(s.entry.category, 0) + 1
        return out

    async def _withdraw(self, phone: Person, team: Team, at: datetime) -> None:
        """``/baja N`` and its Yes, with the bot's answer in the transcript."""
        asked = await self.send(phone, f"/baja {team.number}", at)
        yes = next((d for c in asked for _, d in c.buttons() if d.startswith("baja:y:")), None)
        if yes is not None:
            told = await self.press(phone, yes, at)
            self.line(at, f"{self._names(team)}: /baja {team.number} -> " + " ".join(
                c.text.replace("\n", " ") for c in told))
        await self._said()

    async def _pay_in_the_chat(self) -> None:
        """Most entries pay their invoice in the chat, a few days after registering (the
        payment counts at its message's date); one more entry pays and withdraws
        (``_withdraws_with_a_refund``)."""
        closes = self.contest.registration.closes
        # drawn apart from the day's randomness: the same seed plays the same day, with
        # payments in the chat or without
        rng = random.Random(f"payments {self.seed}")
        payments = []
        for team in self.teams:
            invoice = next((c for c in reversed(self.api.calls) if c.method == "sendInvoice"
                            and c.chat_id == team.phones[0].id), None)
            if invoice is None or team.registered_at is None or rng.random() >= 0.9:
                continue
            paid = team.registered_at + timedelta(days=rng.randint(1, 6))
            if closes is not None and paid >= closes:
                paid = closes - timedelta(hours=1)
            team.paid_at = paid
            payments.append((paid, team.number, team, invoice))
        for paid, _number, team, invoice in sorted(payments, key=lambda p: (p[0], p[1])):
            await self._pay(team, invoice, paid)
        if payments:
            await self._withdraws_with_a_refund(min(p[0] for p in payments))

    async def _pay(self, team: Team, invoice: Call, at: datetime) -> None:
        """The team's first phone pays ``invoice`` in the chat at ``at``: its line, with the
        bot's answer."""
        payload = str(invoice.params["payload"])
        amount = int(payload.split(":")[2])
        phone = team.phones[0]
        answers = await self._play(phone, at, partial(
            self.api.pay_and_wait, phone.user(), payload, amount, at,
            f"rehearsal-{team.number}", str(invoice.params["currency"]), ANSWER_BOUND,
            self._all_said), f"(pays {payload} in the chat)")
        shown = amount_text(self.contest.language, amount, self.contest.currency)
        self.line(at, f"{self._names(team)} pays {shown} in the chat -> "
                  + (answers[0].text.splitlines()[0] if answers else "(no answer)"))
        await self._said()

    async def _withdraws_with_a_refund(self, first_paid: datetime) -> None:
        """One more entry, not among the day's (its members named apart), registers when the
        first payment comes, pays in the chat, and withdraws the next day: told what it gets
        back under the contest's rules."""
        like = self.teams[0]
        phone = self.new_person("Carmen Vidal")
        team = Team(like.category, [(f"{name.split()[0]} Vidal", born)
                                    for name, born in like.members],
                    like.answers, [phone], registered_at=first_paid + timedelta(hours=1))
        await self.register(team)
        invoice = next((c for c in reversed(self.api.calls) if c.method == "sendInvoice"
                        and c.chat_id == phone.id), None)
        if not team.number or invoice is None:
            return
        at = first_paid + timedelta(hours=2)
        await self._pay(team, invoice, at)
        await self._withdraw(phone, team, at + timedelta(days=1))
        # the organiser gives the money back (a transfer) and records it
        given = await self.send(self.organiser, f"/reembolsado {team.number}",
                                at + timedelta(days=2))
        self.line(at + timedelta(days=2), f"organiser: /reembolsado {team.number} -> "
                  + (given[0].text if given else "(no answer)"))
        await self._said()

    # -- the day -----------------------------------------------------------------------------

    def start_moment(self) -> datetime:
        if self.contest.start is not None:
            return self.contest.start
        return datetime.combine(self.contest.date, dtime(10, 0), self.tz)

    def plan_day(self, start: datetime, confirmed: set[int]) -> list[Action]:
        return plan.plan_day(self, start, confirmed)

    async def kill_and_restart(self) -> None:
        """The laptop loses power: SIGKILL, no goodbye; then the bot starts again on the file."""
        assert self.clock is not None
        await self.bot.kill()
        self.kills_done += 1
        now = self.clock.now()
        if self._next_at is not None:
            now = min(now, self._next_at)
        self.line(now, "*** the bot is killed (SIGKILL) and restarted ***")
        # the day goes on from the moment it was killed: a restart that takes seconds on a
        # busy machine costs no simulated time
        await self.start_bot(now, self.clock.speed, pace=self.clock.pace_speed)

    async def play(self, actions: list[Action]) -> list[Call]:
        assert self.clock is not None
        final: list[Call] = []
        chaos = random.Random(self.seed * 7919 + 1)  # its own dice: the day stays the same
        kill_before = set(chaos.sample(range(1, max(2, len(actions) - 1)),
                                       min(self.kills, max(0, len(actions) - 2))))
        for index, action in enumerate(actions):
            self._next_at = action.at  # what the bot says meanwhile came before it
            if index in kill_before:
                await self._said()  # between two actions, as in the hall
                await self.kill_and_restart()
            await self.wait_until(action.at)
            if self.taps is not None and action.actor.id in VOLUNTEER_IDS:  # buttons mode
                await self._said()  # a button is pressed on a line arrived
                replies = await self.taps.play(action, self.api.calls, self.send, self.press)
            else:
                replies = await self.send(action.actor, action.text, action.at)
            if self.said:  # the message that played it (a button's: the last pressed)
                self.said[-1].action = action
            seq = self.last_seq
            who = self._who(action.actor)
            if action.text.startswith("/confirmar_ronda"):  # the next round's heats
                await self._confirm_round(action, replies, who, seq)
                continue
            if action.text.startswith("/clasificacion"):
                final = replies
                continue
            if action.text.startswith("/publicar"):
                await self._publish(action, replies, who, seq)
                continue
            answer = replies[0].text.splitlines() if replies else ["(no answer)"]
            shown = answer[0]
            if action.text.startswith(("/pista", "/solucion")) and len(answer) > 1:
                shown += " " + answer[-1]
            self.line(action.at, f"{who}: {action.label or action.text} -> {shown}", seq=seq)
        self._next_at = None
        await self.flush()
        return final

    async def wait_until(self, moment: datetime) -> None:
        """Until the clock shows ``moment``. Time where nobody does anything is skipped
        (``bot.chat.skips``): the bot jumps its clock once all it owes is sent, never over a
        timer, which then goes off at its moment; what is left is waited out, and then the
        bot's timers due by ``moment`` have gone off."""
        assert self.clock is not None
        if not (self.skips and self.bot.proc is not None):
            await asyncio.sleep(self.clock.seconds_until(moment))
            return
        while True:
            # a held clock runs again; the bot's timers due by now have gone off and what
            # they said is sent (on a busy machine they run late, never after the message of
            # ``moment``), then the clock jumps towards it, never over a timer
            clock = await self.bot.skip_to(moment, hold=self._on_the_day)
            if clock is None:
                await asyncio.sleep(self.clock.seconds_until(moment))
                return
            self.clock = clock
            left = clock.seconds_until(moment)
            if clock.held or left <= 0:  # held there for the message of ``moment``
                return
            # short of it: a timer first, at its own moment (1 simulated second on)
            await asyncio.sleep(min(left, 2 * MARGIN / clock.speed + 0.002))

    async def _publish(self, action: Action, replies: list[Call], who: str, seq: int) -> None:
        """/publicar asks; the organiser presses Publish (one tap) and every entry is told its
        place."""
        question = replies[0].text.splitlines() if replies else ["(no answer)"]
        self.line(action.at, f"{who}: {action.text} -> {question[0]}", *question[1:], seq=seq)
        await self._press_through(action, replies, who, "pub:", "Publish")

    async def _confirm_round(self, action: Action, replies: list[Call], who: str,
                             seq: int) -> None:
        """/confirmar_ronda confirms; or, when entries of the round have no result, it lists
        them first and the organiser, having checked, presses "Confirm anyway"."""
        lines = replies[0].text.splitlines() if replies else ["(no answer)"]
        self.line(action.at, f"{who}: {action.text} ->", *lines, seq=seq)
        await self._press_through(action, replies, who, "cr:", "Confirm anyway")

    async def _press_through(self, action: Action, replies: list[Call], who: str,
                             prefix: str, label: str) -> None:
        """The organiser's question answered 20 s later by its button that goes ahead (data
        ``prefix``..., never ``prefix-``), and what that answers, printed; no such button: the
        command did it at once."""
        data = next((d for c in replies for _, d in c.buttons() if d.startswith(prefix) and
                     d != f"{prefix}-"), None)
        if data is None:
            return
        pressed_at = action.at + timedelta(seconds=20)
        answers = await self.press(action.actor, data, pressed_at)
        lines = answers[0].text.splitlines() if answers else ["(answered below)"]
        self.line(pressed_at, f"{who}: [{label}] -> {lines[0]}", *lines[1:], seq=self.last_seq)

    def _who(self, person: Person) -> str:
        if person.id == ORGANISER_ID:
            return "organiser"
        if person.id in VOLUNTEER_IDS:
            return person.name.lower()
        team = next((t for t in self.teams if person in t.phones), None)
        return f"#{team.number} {person.name}" if team else person.name

    # -- the whole rehearsal -----------------------------------------------------------------

    async def run(self) -> int:
        started = time.monotonic()
        self.api.on_call = self._on_call
        await self.api.start()
        start, speed = self._start_and_speed()
        simulated_start = start - timedelta(minutes=30)
        self.say(f"Rehearsal of {self.contest.name} ({self.contest_path}), seed {self.seed}, "
                 f"{self.entries} entries; one simulated second is 1/{speed:.0f} s.")
        self.plan_teams()
        try:
            await self._weeks_before(simulated_start, speed)
            final = await self._the_day(start, simulated_start, speed)
        finally:
            log = await self.stop_bot()
            try:
                await self.flush()  # what it sent before it stopped
            finally:
                await self.api.stop()
                Path(f"{self.db_path}.skip").unlink(missing_ok=True)
        left = await self.left_without_result()
        refused = refusals(self.said, Records.read(self.db_path), self.contest.language)
        return self._report(final, log, started, left, refused)

    async def left_without_result(self) -> list[str]:
        """The verdict (issue 48): every entry of a clock that started has a result (a
        finish, pieces counted) or a stated reason (did not start, disqualified, a claim still
        waiting for its review); the ones that have none, named with their category."""
        store = await Store.open(self.db_path)
        try:
            day = ContestDay(self.contest, store, frozenset())
            left: list[str] = []
            for unit in await units(day):
                if (await day.clock(unit.id)).started is None:
                    continue
                for s in await day.states(unit, datetime(2100, 1, 1, tzinfo=UTC)):
                    if (s.finish is not None or s.pieces is not None or s.outcome is not None
                            or (unit.self_timed and s.ready is not None)
                            or (s.played_splits and "puzzles" in unit.unfinished_order)):
                        continue  # a result (puzzles done, where they rank it), or a reason
                    # (a claim waiting for its review, at home)
                    if unit.self_timed and not await day.store.events(
                            entry=s.entry.number, kinds=PLAYED):
                        continue  # at home, an entry that never started has not played
                    left.append(f"#{s.entry.number} ({unit.name})")
            return left
        finally:
            await store.close()

    def _start_and_speed(self) -> tuple[datetime, float]:
        """When the day starts, and how fast its clock runs to last ``day_seconds``."""
        start = self.start_moment()
        last_limit = max(c.time_limit for c in self.contest.categories)
        breaks = sum((b.end - b.start).total_seconds() for b in self.contest.breaks)
        day = 30 * 60 + last_limit + breaks + 15 * 60
        if self.contest.has_rounds():
            # heats one after the other, day after day: each day is played as long
            day = DAY_SPAN
            start = min([start] + [r.start for c in self.contest.categories for r in c.rounds
                                   if r.start is not None and r.date == self.contest.date])
        return start, max(1.0, day / self.day_seconds)

    async def _weeks_before(self, simulated_start: datetime, speed: float) -> None:
        """Registrations happen weeks before the day, at their own message dates, on the real
        clock; typed in seconds, so Telegram's pace for a chat (one message a second) is the
        day's pace, as if each person took their time."""
        # the bot's clock weeks before too, where its timers (payments lapsing, registrations
        # closing) are still to come: on the day's clock they would all fire at once, and the
        # organiser read "Registrations are closed" before anyone had registered
        hello = simulated_start - timedelta(days=60)
        first = min([hello] + [t.registered_at for t in self.teams if t.registered_at])
        await self.start_bot(first - timedelta(hours=1), 1.0, pace=speed)
        await self.send(self.organiser, "/start", hello)
        places = await self.registrations()
        # the laptop goes to the hall: the bot restarts with its clock on the day
        await self.stop_bot()
        await self.flush()
        self.say("Places:")
        for c in places:
            for line in c.text.splitlines():
                self.say(f"  {line}")

    async def _the_day(self, start: datetime, simulated_start: datetime,
                       speed: float) -> list[Call]:
        """The volunteers join, then the day is played; the final rankings' answer."""
        self._on_the_day = True
        await self.start_bot(simulated_start, speed)
        for v in self.volunteers:
            replies = await self.send(self.organiser, "/voluntario",
                                      simulated_start - timedelta(minutes=5))
            code = replies[0].text.split("start=")[-1].split()[0] if replies else ""
            await self.send(v, f"/start {code}", simulated_start - timedelta(minutes=4))
        confirmed = await self.confirmed_numbers(simulated_start)
        if self.contest.has_rounds():
            return await Championship(self, confirmed).run()
        self.say("")
        self.say(f"The day ({start:%Y-%m-%d}, clock times {self.contest.timezone}):")
        return await self.play(self.plan_day(start, confirmed))

    def _report(self, final: list[Call], log: str, started: float,
                left: list[str] | None = None, refused: list[Refused] | None = None) -> int:
        """The rankings, the checks of every call and of the bot's log, where the file is, the
        commands the bot refused by reason (``bot.rehearsal.refusals``), and the verdict."""
        self.say("")
        self.say("Rankings:")
        for c in final:
            for line in c.text.splitlines():
                self.say(f"  {line}")
        self.say("")
        problems = self.api.violations
        tracebacks = "Traceback" in log
        self.say(f"Bot API calls: {len(self.api.calls)}, all checked against the spec: "
                 f"{'OK' if not problems else f'{len(problems)} violations'}; "
                 f"errors in the bot's log: {'yes' if tracebacks else 'none'}; "
                 f"{time.monotonic() - started:.1f} s.")
        if self.taps is not None:
            self.say(self.taps.report())
        for p in problems[:10]:
            self.say(f"  violation: {p}")
        self.say(f"The database is left in {self.db_path}. Results as CSV:")
        self.say("  " + command_line("export", "results", env={
            "PUZZLEBOT_CONTEST": self.contest_path, "PUZZLEBOT_DB": self.db_path}))
        refused = refused or []
        for line in report(refused, not_refused(self.said, refused)):
            self.say(line)
        verdict = self._verdict(left or [], unexpected_results(refused))
        self.say(verdict)
        if tracebacks:
            self.say(log[-3000:])
        return 1 if problems or tracebacks or not final or verdict != VERDICT_OK else 0

    def _verdict(self, left: list[str], refused: list[Refused]) -> str:
        """The verdict (issue 48): every entry of a clock that started has a result or a stated
        reason, and no result command (a finish, a split, pieces) was refused but those the
        rehearsal meant; else what failed, named."""
        if not left and not refused:
            return VERDICT_OK
        said = []
        if left:
            said.append(("1 entry" if len(left) == 1 else f"{len(left)} entries")
                        + " played and " + ("was" if len(left) == 1 else "were")
                        + f" left without a result or a reason: {', '.join(left)}.")
        if refused:
            named = [f"{self._who(r.said.who)}'s {r.said.shown} at {self.stamp(r.said.at)} "
                     f"({r.name})" for r in refused[:MAX_NAMED]]
            more = f", and {len(refused) - MAX_NAMED} more" if len(refused) > MAX_NAMED else ""
            were = "result command was" if len(refused) == 1 else "result commands were"
            said.append(f"{len(refused)} {were} refused unexpectedly: {', '.join(named)}{more}.")
        return "Verdict: " + " ".join(said)

    async def confirmed_numbers(self, at: datetime) -> set[int]:

        store = await Store.open(self.db_path)
        try:
            places = await Registrations(self.contest, store).places(at)
        finally:
            await store.close()
        return {n for n, p in places.items() if p.status.value == "confirmed"}


VERDICT_OK = ("Verdict: every entry that played has a result or a stated reason. No result "
              "command was refused unexpectedly.")
MAX_NAMED = 10  # the refused commands a failing verdict names (then how many more)


# what an entry playing at home does (one of them: it played)
PLAYED = (EventKind.OWN_START, EventKind.READY, EventKind.PHOTO, EventKind.SPLIT,
          EventKind.FINISH, EventKind.PIECES)


def run_demo(contest: str, entries: int, seed: int, db: str, seconds: float = 22.0,
             web_port: int = 0, buttons: bool = False) -> int:
    path = Path(db)
    for suffix in ("", "-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    # the projector follows the day as it is played: no stretch skipped (nor on Windows, where
    # the bot cannot be signalled to skip: bot/chat/skips.py)
    rehearsal = Rehearsal(contest, entries, seed, str(path), day_seconds=seconds,
                          buttons=buttons, skips=not web_port and supported())
    rehearsal.web_port = web_port
    if web_port:
        print(f"The projector scoreboard follows the day at http://127.0.0.1:{web_port}/",
              flush=True)
    return asyncio.run(rehearsal.run())
