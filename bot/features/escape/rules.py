"""The escape stage (docs/rules.md): a pair's ticket ledger folded from its events, and why a
request, a stage or a solve is refused (each reason declared here once).

Every time here is contest time in seconds (see ``clock``). The ledger is rebuilt from the
accepted events each time; ``check_*`` functions say whether a new event is allowed and, for a
request, what it would cost.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import ClassVar

from bot.domain.contest import EscapeRules
from bot.domain.outcomes import Refusal

# the outcomes that take a pair out of the escape: did not start, disqualified ("oc", out of
# competition, still plays)
OUT_OF_PLAY = ("dns", "dsq")

# a wrong answer typed to an enigma in the chat (a right one is the stage or the solve it
# gives: recorded as those are)
ATTEMPT = "attempt"


class Kind(StrEnum):
    HINT = "hint"
    SOLUTION = "solution"


@dataclass(frozen=True)
class Request:
    kind: Kind
    stage: int
    at: int


@dataclass(frozen=True)
class StageConfirmed:
    stage: int
    at: int


@dataclass(frozen=True)
class Solved:
    at: int


EscapeEvent = Request | StageConfirmed | Solved


@dataclass(frozen=True)
class Charge:
    kind: Kind
    stage: int
    at: int
    tickets_used: int  # taken from the pair's tickets
    tickets_bought: int  # paid with time
    penalty: int  # seconds added by the bought tickets


@dataclass(frozen=True)
class Ledger:
    rules: EscapeRules
    tickets_left: int
    penalty: int
    reported_stage: int  # the furthest stage the pair asked about (1 with no request)
    confirmed_stage: int  # the furthest stage a volunteer confirmed (1 with none)
    hints: frozenset[int]
    solutions: frozenset[int]
    charges: tuple[Charge, ...]
    solved_at: int | None
    passed_at: int | None = None  # when the latest stage was reached (confirmed, or answered)

    @property
    def stage(self) -> int:
        """The stage the pair is in: it can't go back before this one."""
        return max(self.reported_stage, self.confirmed_stage)

    @property
    def last_request_at(self) -> int | None:
        return self.charges[-1].at if self.charges else None

    @property
    def tickets_used(self) -> int:
        return sum(c.tickets_used for c in self.charges)

    @property
    def tickets_bought(self) -> int:
        return sum(c.tickets_bought for c in self.charges)

    @property
    def next_request_at(self) -> int | None:
        """When the cooldown allows the next request (None: no request yet)."""
        last = self.last_request_at
        return None if last is None else last + self.rules.cooldown

    def over(self, at: int) -> bool:
        """Whether the escape has ended at contest time ``at`` (solved, or time limit reached)."""
        return self.solved_at is not None or at >= self.rules.time_limit

    def answers_over(self, at: int) -> bool:
        """Whether an answer in the chat at contest time ``at`` is too late: solved, or past
        the time limit (an answer at the limit itself counts, as a volunteer's solve does)."""
        return self.solved_at is not None or at > self.rules.time_limit


def empty_ledger(rules: EscapeRules) -> Ledger:
    return Ledger(
        rules=rules,
        tickets_left=rules.initial_tickets,
        penalty=0,
        reported_stage=1,
        confirmed_stage=1,
        hints=frozenset(),
        solutions=frozenset(),
        charges=(),
        solved_at=None,
        passed_at=None,
    )


def price(rules: EscapeRules, request: Request, tickets_left: int) -> Charge:
    """What a request costs given the tickets left: tickets first, then tickets bought with time."""
    kind = request.kind
    cost = rules.hint_cost if kind is Kind.HINT else rules.solution_cost
    per_ticket = rules.hint_ticket_penalty if kind is Kind.HINT else rules.solution_ticket_penalty
    used = min(cost, max(tickets_left, 0))
    bought = cost - used
    return Charge(kind, request.stage, request.at, used, bought, bought * per_ticket)


def apply_event(ledger: Ledger, event: EscapeEvent) -> Ledger:
    """The ledger after one more accepted event (no rule is checked here: see ``check_*``).

    Built field by field rather than with ``dataclasses.replace``: every entry's state is this
    fold over its events, and ``replace`` looks up the fields again at every step."""
    rules = ledger.rules
    if isinstance(event, Request):
        charge = price(rules, event, ledger.tickets_left)
        return Ledger(
            rules=rules,
            tickets_left=ledger.tickets_left - charge.tickets_used,
            penalty=ledger.penalty + charge.penalty,
            reported_stage=max(ledger.reported_stage, event.stage),
            confirmed_stage=ledger.confirmed_stage,
            hints=ledger.hints | {event.stage} if event.kind is Kind.HINT else ledger.hints,
            solutions=(ledger.solutions | {event.stage} if event.kind is Kind.SOLUTION
                       else ledger.solutions),
            charges=ledger.charges + (charge,),
            solved_at=ledger.solved_at,
            passed_at=ledger.passed_at,
        )
    if isinstance(event, StageConfirmed):
        if event.at > rules.time_limit + rules.confirmation_grace:
            return ledger
        return Ledger(
            rules=rules, tickets_left=ledger.tickets_left, penalty=ledger.penalty,
            reported_stage=ledger.reported_stage,
            confirmed_stage=max(ledger.confirmed_stage, event.stage), hints=ledger.hints,
            solutions=ledger.solutions, charges=ledger.charges, solved_at=ledger.solved_at,
            passed_at=max(event.at, ledger.passed_at or 0),
        )
    if ledger.solved_at is not None:
        return ledger
    return Ledger(
        rules=rules, tickets_left=ledger.tickets_left, penalty=ledger.penalty,
        reported_stage=ledger.reported_stage,
        confirmed_stage=max(ledger.confirmed_stage, rules.stages), hints=ledger.hints,
        solutions=ledger.solutions, charges=ledger.charges, solved_at=event.at,
        passed_at=ledger.passed_at,
    )


def fold(rules: EscapeRules, events: Iterable[EscapeEvent]) -> Ledger:
    """The ledger after the given accepted events, taken in order of contest time."""
    ledger = empty_ledger(rules)
    for ev in sorted(events, key=lambda e: e.at):
        ledger = apply_event(ledger, ev)
    return ledger


# -- why a request, a confirmation or a solve is not allowed: one class per reason --------------
# Each reason is declared here once, and is what the operations give back as it is (the entry
# the command was about is the reader's: bot/features/escape/outcomes.py renders each one).


@dataclass(frozen=True)
class EscapeOver(Refusal):
    """The escape has ended (solved, or its time limit reached)."""

    code: ClassVar[str] = "escape_over"


@dataclass(frozen=True)
class StageInvalid(Refusal):
    """No such stage (stages go from 1 to the contest's ``stages``)."""

    code: ClassVar[str] = "stage_invalid"


@dataclass(frozen=True)
class StagePassed(Refusal):
    """The pair is already in ``stage``, beyond the one asked about."""

    code: ClassVar[str] = "stage_passed"
    stage: int


@dataclass(frozen=True)
class HintTaken(Refusal):
    code: ClassVar[str] = "hint_taken"
    stage: int


@dataclass(frozen=True)
class SolutionNeedsHint(Refusal):
    code: ClassVar[str] = "solution_needs_hint"
    stage: int


@dataclass(frozen=True)
class SolutionTaken(Refusal):
    code: ClassVar[str] = "solution_taken"
    stage: int


@dataclass(frozen=True)
class Cooldown(Refusal):
    """Too soon after the last request: allowed again at contest time ``next_at``, the real
    instant ``moment`` (the operation tells it from the clock; None if it can't)."""

    code: ClassVar[str] = "cooldown"
    next_at: int
    moment: datetime | None = None


@dataclass(frozen=True)
class CooldownPastEnd(Refusal):
    """Too soon, and the cooldown ends at ``next_at``, when the escape is over."""

    code: ClassVar[str] = "cooldown_past_end"
    next_at: int


@dataclass(frozen=True)
class AlreadySolved(Refusal):
    code: ClassVar[str] = "already_solved"


@dataclass(frozen=True)
class ConfirmationClosed(Refusal):
    """After the escape time limit and its grace."""

    code: ClassVar[str] = "confirmation_closed"


@dataclass(frozen=True)
class StageBack(Refusal):
    """Below the stage already confirmed (``stage``)."""

    code: ClassVar[str] = "stage_back"
    stage: int


@dataclass(frozen=True)
class StageSame(Refusal):
    """Already confirmed in ``stage`` (stage 1 may always be confirmed)."""

    code: ClassVar[str] = "stage_same"
    stage: int


@dataclass(frozen=True)
class PastEscapeLimit(Refusal):
    code: ClassVar[str] = "past_escape_limit"


@dataclass(frozen=True)
class BeforeRequest(Refusal):
    """A request was accepted at ``next_at``, after the moment given: not solved then."""

    code: ClassVar[str] = "before_request"
    next_at: int


@dataclass(frozen=True)
class StageAhead(Refusal):
    """Played in the chat: a clue or solution of a stage the pair has not reached (it is in
    ``stage``): nothing of a stage is given before its time."""

    code: ClassVar[str] = "stage_ahead"
    stage: int


@dataclass(frozen=True)
class StagesInChat(Refusal):
    """Played in the chat: the bot knows each pair's stage from its answers; nobody confirms
    one."""

    code: ClassVar[str] = "stages_in_chat"


@dataclass(frozen=True)
class NotInChat(Refusal):
    """The escape is run by volunteers: there is no enigma in the chat to answer."""

    code: ClassVar[str] = "not_in_chat"


@dataclass(frozen=True)
class Paused(Refusal):
    """Too many wrong answers in a row: the next is taken from contest time ``until``, the
    real instant ``moment``."""

    code: ClassVar[str] = "paused"
    until: int
    moment: datetime | None = None


@dataclass(frozen=True)
class PassedByPartner(Refusal):
    """The answer is right for ``stage``, which the pair has passed already (its other phone
    was quicker): nothing counted."""

    code: ClassVar[str] = "passed_by_partner"
    stage: int


@dataclass(frozen=True)
class NotNextStage(Refusal):
    """A stage passed by an answer that is not the one after the pair's (``stage``)."""

    code: ClassVar[str] = "not_next_stage"
    stage: int


@dataclass(frozen=True)
class NotAnAnswer(Refusal):
    """A message with no letter or digit (an emoji, a "?"): it can't answer anything, so it
    is not counted."""

    code: ClassVar[str] = "not_an_answer"


@dataclass(frozen=True)
class OutOfPlay(Refusal):
    """The pair did not start (``outcome`` "dns"), was disqualified ("dsq") or withdrew and
    holds no place any more ("withdrawn"): nothing it answers is taken."""

    code: ClassVar[str] = "out_of_play"
    outcome: str


@dataclass(frozen=True)
class ClockStopped(Refusal):
    """The clocks are stopped (a general pause, a break): nobody plays, no answer is taken."""

    code: ClassVar[str] = "clock_stopped"


@dataclass(frozen=True)
class PassedMeanwhile(Refusal):
    """An answer Telegram dated before the other phone passed ``stage`` (it was meant for
    that stage), and not right for it: not counted against the stage after."""

    code: ClassVar[str] = "passed_meanwhile"
    stage: int


@dataclass(frozen=True)
class BeforeStage(Refusal):
    """Played in the chat: the pair's right answer took it into ``stage`` at ``passed_at``,
    after the moment given: not solved then."""

    code: ClassVar[str] = "before_stage"
    stage: int
    passed_at: int


RequestRefused = (EscapeOver | StageInvalid | StagePassed | HintTaken | SolutionNeedsHint
                  | SolutionTaken | Cooldown | CooldownPastEnd | StageAhead)
ConfirmationRefused = (StageInvalid | AlreadySolved | ConfirmationClosed | StageBack | StageSame
                       | StagesInChat)
SolveRefused = AlreadySolved | PastEscapeLimit | BeforeRequest | BeforeStage
AttemptRefused = (EscapeOver | NotInChat | Paused | PassedByPartner | NotAnAnswer | OutOfPlay
                  | PassedMeanwhile | ClockStopped)
# the reasons of the escape played in the chat (NotNextStage: a document's, below)
ChatRefusal = (StageAhead | StagesInChat | NotInChat | Paused | PassedByPartner | NotNextStage
               | NotAnAnswer | OutOfPlay | PassedMeanwhile | ClockStopped)
# every reason of the escape's own
EscapeRefusal = RequestRefused | ConfirmationRefused | SolveRefused | AttemptRefused | ChatRefusal


@dataclass(frozen=True)
class Accepted:
    charge: Charge
    ledger: Ledger  # the ledger with this request applied


def check_request(ledger: Ledger, kind: Kind, stage: int, at: int) -> Accepted | RequestRefused:
    """Decide a hint or solution request for ``stage`` at contest time ``at``."""
    rules = ledger.rules
    if ledger.over(at):
        return EscapeOver()
    if not 1 <= stage <= rules.stages:
        return StageInvalid()
    if stage < ledger.stage:
        return StagePassed(ledger.stage)
    if rules.in_chat and stage > ledger.stage:
        return StageAhead(ledger.stage)
    if kind is Kind.HINT and stage in ledger.hints:
        return HintTaken(stage)
    if kind is Kind.SOLUTION and stage not in ledger.hints:
        return SolutionNeedsHint(stage)
    if kind is Kind.SOLUTION and stage in ledger.solutions:
        return SolutionTaken(stage)
    nxt = ledger.next_request_at
    if nxt is not None and at < nxt:
        if nxt >= rules.time_limit:
            return CooldownPastEnd(nxt)
        return Cooldown(nxt)
    new = apply_event(ledger, Request(kind, stage, at))
    return Accepted(new.charges[-1], new)


def check_confirmation(ledger: Ledger, stage: int, at: int) -> ConfirmationRefused | None:
    """Whether a volunteer may confirm the pair in ``stage`` at contest time ``at`` (None: it
    may)."""
    rules = ledger.rules
    if rules.in_chat:
        return StagesInChat()
    if not 1 <= stage <= rules.stages:
        return StageInvalid()
    if ledger.solved_at is not None:
        return AlreadySolved()
    if at > rules.time_limit + rules.confirmation_grace:
        return ConfirmationClosed()
    if stage < ledger.confirmed_stage:
        return StageBack(ledger.confirmed_stage)
    if stage == ledger.confirmed_stage and stage > 1:
        return StageSame(stage)
    return None


def check_solve(ledger: Ledger, at: int) -> SolveRefused | None:
    """Whether the escape may be recorded as solved at contest time ``at`` (None: it may)."""
    if ledger.solved_at is not None:
        return AlreadySolved()
    if at > ledger.rules.time_limit:
        return PastEscapeLimit()
    last = ledger.last_request_at
    if last is not None and at < last:
        return BeforeRequest(last)
    passed = ledger.passed_at
    if ledger.rules.in_chat and passed is not None and at < passed:
        return BeforeStage(ledger.stage, passed)  # its answers show it still playing then
    return None


@dataclass(frozen=True)
class EscapeResult:
    solved: bool
    escape_time: int  # E: solve time, or the escape time limit when unsolved
    tickets_left: int
    cap: int  # how many unused tickets may be compensated
    compensation: int  # seconds actually subtracted (never more than E)
    penalty: int  # seconds added by bought tickets
    adjusted_escape: int  # max(0, E - value * min(left, cap)) + penalty

    def adjusted_total(self, finish: int) -> int:
        """Adjusted total for a pair that finished the puzzle at contest time ``finish``."""
        return self.adjusted_escape + (finish - self.escape_time)


def compensation_cap(ledger: Ledger) -> int:
    rules = ledger.rules
    if ledger.solved_at is not None:
        return rules.cap_solved
    stage = min(max(ledger.confirmed_stage, 1), rules.stages)
    return rules.caps_by_stage[stage - 1]


def result(ledger: Ledger) -> EscapeResult:
    """The escape figures (final once the escape is over)."""
    rules = ledger.rules
    e = ledger.solved_at if ledger.solved_at is not None else rules.time_limit
    cap = compensation_cap(ledger)
    nominal = rules.ticket_value * min(max(ledger.tickets_left, 0), cap)
    compensation = min(e, nominal)
    return EscapeResult(
        solved=ledger.solved_at is not None,
        escape_time=e,
        tickets_left=ledger.tickets_left,
        cap=cap,
        compensation=compensation,
        penalty=ledger.penalty,
        adjusted_escape=e - compensation + ledger.penalty,
    )


def pause_until(rules: EscapeRules, wrong: Iterable[int]) -> int | None:
    """Played in the chat: after every ``pause_after`` wrong answers in a row in one stage
    (``wrong``: their contest times, that stage's, all of them taken), the pair waits
    ``pause`` from the last; the contest time the next answer is taken from (None: no
    wait). Answers sent while waiting are not taken, so the count only grows outside one."""
    times = sorted(wrong)
    if not times or len(times) % rules.pause_after:
        return None
    return times[-1] + rules.pause


def check_attempt(ledger: Ledger, wrong: Iterable[int], at: int
                  ) -> EscapeOver | NotInChat | Paused | None:
    """Whether an answer typed at contest time ``at`` is taken (None: it is judged)."""
    rules = ledger.rules
    if not rules.in_chat:
        return NotInChat()
    if ledger.answers_over(at):
        return EscapeOver()
    until = pause_until(rules, wrong)
    if until is not None and at < until:
        return Paused(until)
    return None


def check_passed(ledger: Ledger, stage: int, at: int
                 ) -> EscapeOver | NotInChat | NotNextStage | None:
    """Whether a right answer at contest time ``at`` may take the pair into ``stage`` (one
    past the last: the escape solved), as a document's history is checked (None: it may)."""
    if not ledger.rules.in_chat:
        return NotInChat()
    if ledger.answers_over(at):
        return EscapeOver()
    if stage != ledger.stage + 1:
        return NotNextStage(ledger.stage)
    return None
