"""The commands the bot refused in a rehearsal, and why (issue 48): a day where every finish
was refused ("no split yet for puzzles 1, 2 of 3") must not read as a success.

Whether a command was refused is the bot's own record first: a command that recorded something
has an event stamped with its update (``events.update_id``); an escape's request refused for
its cooldown is recorded as such, with its reason's code. Why it was refused is read from the
answer: every refusal of the bot is typed (``bot.domain.outcomes.Refusal``, one class per
reason, named by its ``code``) and rendered by its feature's texts, one ``case`` (or
``isinstance``) per class, each line a catalogue message whose id is the English text (``tr``,
``ntr``). ``refusal_texts`` reads those renderers in the bot's source once: each message with
the reasons it says. ``reason_of`` matches an answer against them in the reader's language (the
catalogue's translation, its placeholders standing for anything): the reason's code, the same
in every language. No list of the bot's texts is kept here: a new refusal, or a line reworded,
is read from the source as it is.

The rehearsal sends some wrong input on purpose (a hint asked too soon, a stage confirmed
twice at the handover): its plan says which reasons it means (``Action.expect``). Any other
refusal of a result command (``/fin``, ``/parcial``, ``/piezas`` and their buttons) fails the
rehearsal's verdict."""

from __future__ import annotations

import ast
import importlib
import json
import re
import sqlite3
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import closing
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from pathlib import Path
from string import Formatter
from types import ModuleType
from typing import get_args

import bot.features.installed  # noqa: F401 - every feature's commands, named in each language
from bot.domain.events import EventKind
from bot.domain.outcomes import Refusal
from bot.features.registration.names import REGISTER, REGISTER_BUTTON
from bot.features.results.names import (
    FINISH,
    FINISH_BUTTON,
    JOKER,
    PIECES,
    READY_BUTTON,
    SPLIT,
)
from bot.features.standings.handlers import PUBLISH_BUTTON
from bot.handlers.rounds import CONFIRM_BUTTON
from bot.rehearsal.actions import PHOTO, Action, Person
from bot.rehearsal.fakeapi import Call
from bot.support.commands import in_language
from bot.support.i18n import catalog, pick_language
from bot.texts.alerts import STAGE_BUTTON

BOT = Path(__file__).resolve().parents[1]
# where the refusals are rendered: the texts, the features' outcomes and texts, the handlers
RENDERERS = ("texts", "features", "handlers")
# a line with fewer letters of its own than this, in English, says too little to be told from
# another (a fragment such as "born {year}", part of a longer line)
SHORTEST = 12

# the commands that record a result: refused unexpectedly, they fail the verdict
RESULTS = frozenset(f"/{name}" for name in (FINISH, SPLIT, PIECES, JOKER))
# a button by the command it stands for (its data's prefix); others by their prefix
BUTTONS = ((f"{READY_BUTTON}ok:", f"/{FINISH}"), (FINISH_BUTTON, f"/{FINISH}"),
           (STAGE_BUTTON, "/etapa"), (PUBLISH_BUTTON, "/publicar"),
           (CONFIRM_BUTTON, "/confirmar_ronda"),
           (REGISTER_BUTTON.split(":")[0] + ":", f"/{REGISTER}"))  # the registration's
UNRECOGNISED = ""  # the code of a result command refused by a line not read as a refusal

# the reasons in English, for the report (a reason not named here reads as its code)
NAMES = {
    "finish_before_splits": "no split yet for the earlier puzzles",
    "which_puzzle": "which puzzle was finished was not said",
    "splits_done": "every split is in: the last puzzle's finish is /fin",
    "no_splits": "the entry plays one puzzle: no split to record",
    "before_split": "earlier than the entry's previous split",
    "no_joker": "the entry's category gives no joker",
    "jokers_used": "the entry has used its jokers",
    "joker_on_last": "a joker asked on the entry's last puzzle",
    "already_recorded": "that time is already recorded",
    "already_recorded_pieces": "those pieces are already recorded",
    "already_finished": "the entry has already finished",
    "past_limit": "past the category's time limit",
    "in_the_future": "later than the clock shows",
    "no_time": "0:00:00 is no finish time",
    "clock_not_started": "the entry's clock has not started",
    "unknown_entry": "no such entry",
    "not_escape": "the entry has no escape",
    "escape_not_over": "the escape is not solved yet",
    "before_escape": "before the escape was solved",
    "pieces_range": "more pieces than the puzzle has",
    "entry_disqualified": "the entry is disqualified",
    "nothing_claimed": "no /listo waits for review",
    "own_times": "the entry times its own puzzles",
    "question_outdated": "the question is out of date",
    "ready_line_outdated": "the FINISHED? line is out of date",
    "round_closed": "the round is confirmed",
    "cooldown": "asked too soon after the last request",
    "cooldown_past_end": "asked too soon, and the escape ends first",
    "stage_same": "that stage was already confirmed",
    "stage_back": "a stage back",
    "stage_passed": "that stage is behind them",
    "stage_invalid": "no such stage",
    "hint_taken": "that hint was already given",
    "solution_taken": "that solution was already given",
    "solution_needs_hint": "a solution before its hint",
    "escape_over": "the escape is over",
    "confirmation_closed": "too late to confirm a stage",
    "already_solved": "the escape is already solved",
    "past_escape_limit": "past the escape's time limit",
    "no_claim": "nothing waits for review",
    "claim_waiting": "a claim already waits for review",
    "already_started": "that clock is already running",
    "nothing_to_start": "no clock is waiting to start",
    "heat_started": "every heat of the round has begun",
    "registration_shut": "registrations are not open",
    "already_entered": "a person is in the entry twice",
    "ineligible": "a member does not fit the category",
}


# -- the bot's refusal lines, read from its source ------------------------------------------

Message = tuple[str, ...]  # a catalogue message: its id, and its plural's


def _classes(pattern: ast.pattern) -> Iterator[ast.expr]:
    """The classes a ``case`` pattern names (``case A() | B(x=1)``)."""
    if isinstance(pattern, ast.MatchClass):
        yield pattern.cls
    elif isinstance(pattern, ast.MatchOr):
        for alternative in pattern.patterns:
            yield from _classes(alternative)
    elif isinstance(pattern, ast.MatchAs) and pattern.pattern is not None:
        yield from _classes(pattern.pattern)


def _tested(test: ast.expr) -> Iterator[ast.expr]:
    """The classes an ``isinstance(x, A | B)`` (or ``(A, B)``) test names."""
    if (isinstance(test, ast.Call) and isinstance(test.func, ast.Name)
            and test.func.id == "isinstance" and len(test.args) == 2):
        yield from _union(test.args[1])


def _union(node: ast.expr) -> Iterator[ast.expr]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        yield from _union(node.left)
        yield from _union(node.right)
    elif isinstance(node, ast.Tuple):
        for element in node.elts:
            yield from _union(element)
    else:
        yield node


def _resolve(module: object, node: ast.expr) -> object:
    if isinstance(node, ast.Name):
        return getattr(module, node.id, None)
    if isinstance(node, ast.Attribute):
        return getattr(_resolve(module, node.value), node.attr, None)
    return None


def _codes(module: ModuleType, nodes: Iterable[ast.expr]) -> frozenset[str]:
    """The reason codes of the refusal classes ``nodes`` name (a union alias: its members)."""
    codes: set[str] = set()
    for node in nodes:
        found = _resolve(module, node)
        for cls in (found, *get_args(found)):
            if isinstance(cls, type) and issubclass(cls, Refusal) and cls.code:
                codes.add(cls.code)
    return frozenset(codes)


class _Renderers:
    """One module's refusal lines: each ``tr``/``ntr`` line said where the code has narrowed
    what it renders to refusal classes (a ``case`` of them, an ``isinstance`` test), followed
    into the module's own functions it calls to say the whole line."""

    def __init__(self, module: ModuleType, tree: ast.Module,
                 found: dict[Message, set[str]]) -> None:
        self.module = module
        self.found = found
        self.functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
        self.followed: set[tuple[str, frozenset[str]]] = set()

    def walk(self, node: ast.AST, codes: frozenset[str], part: bool = False) -> None:
        """``codes``: what ``node`` renders (none: not known to be a refusal); ``part``: it is
        an argument of a call (a piece of a longer line, not a line of its own)."""
        if isinstance(node, ast.Match):
            self.walk(node.subject, codes)
            for case in node.cases:
                self._body(case.body, self._narrowed(_classes(case.pattern), codes))
        elif isinstance(node, ast.If):
            self.walk(node.test, codes)
            self._body(node.body, self._narrowed(_tested(node.test), codes))
            self._body(node.orelse, codes)
        elif isinstance(node, ast.Call):
            self._call(node, codes, part)
        else:
            for child in ast.iter_child_nodes(node):
                self.walk(child, codes, part)

    def _narrowed(self, classes: Iterable[ast.expr], codes: frozenset[str]) -> frozenset[str]:
        return _codes(self.module, classes) or codes

    def _body(self, body: list[ast.stmt], codes: frozenset[str]) -> None:
        for statement in body:
            self.walk(statement, codes)
            if (isinstance(statement, ast.If) and not statement.orelse and statement.body
                    and isinstance(statement.body[-1], ast.Return)):
                # ``if isinstance(x, A): return ...``: what follows renders the others
                codes = codes - _codes(self.module, _tested(statement.test)) or codes

    def _call(self, call: ast.Call, codes: frozenset[str], part: bool) -> None:
        name = call.func.id if isinstance(call.func, ast.Name) else ""
        if codes and not part and name in ("tr", "ntr"):
            ids = call.args[1:3] if name == "ntr" else call.args[1:2]
            message = tuple(a.value for a in ids
                            if isinstance(a, ast.Constant) and isinstance(a.value, str))
            if message:
                self.found.setdefault(message, set()).update(codes)
        elif codes and not part and name in self.functions and (name, codes) not in self.followed:
            self.followed.add((name, codes))
            self._body(self.functions[name].body, codes)
        self.walk(call.func, codes, part)
        for argument in (*call.args, *(k.value for k in call.keywords)):
            self.walk(argument, codes, True)


@cache
def refusal_texts() -> dict[Message, frozenset[str]]:
    """Every line the bot refuses with (its catalogue message), with the reasons (codes) it
    says, read from the renderers in the bot's source."""
    found: dict[Message, set[str]] = {}
    for folder in RENDERERS:
        for path in sorted((BOT / folder).rglob("*.py")):
            source = path.read_text(encoding="utf-8")
            if "tr(" not in source:
                continue
            name = ".".join(path.relative_to(BOT.parent).with_suffix("").parts)
            module = importlib.import_module(name.removesuffix(".__init__"))
            tree = ast.parse(source)
            renderers = _Renderers(module, tree, found)
            for node in tree.body:
                renderers.walk(node, frozenset())
    return {message: frozenset(codes) for message, codes in found.items()}


def _pattern(template: str) -> tuple[re.Pattern[str], int] | None:
    """A line as a pattern (its placeholders stand for anything), and how many letters of its
    own it has; None for a template that is not one."""
    parts: list[str] = []
    own = 0
    try:
        for text, placeholder, _, _ in Formatter().parse(template):
            parts.append(re.escape(text))
            own += len(text.strip())
            if placeholder is not None:
                parts.append(".*?")
    except ValueError:
        return None
    return re.compile("".join(parts), re.S), own


@cache
def refusal_patterns(lang: str) -> tuple[tuple[re.Pattern[str], frozenset[str]], ...]:
    """Each refusal line in ``lang`` as a pattern, with the reasons it says (two lines that
    read the same but for their placeholders say both), the most specific first."""
    found: dict[str, tuple[int, re.Pattern[str], frozenset[str]]] = {}
    texts = catalog(lang)
    for message, codes in refusal_texts().items():
        english = _pattern(message[0])
        if english is None or english[1] < SHORTEST:
            continue
        forms = ({texts.gettext(message[0])} if len(message) == 1 else
                 {texts.ngettext(message[0], message[1], n) for n in (0, 1, 2, 5)})
        for form in forms:
            made = _pattern(in_language(lang, form))
            if made is not None:
                same = found.get(made[0].pattern)
                found[made[0].pattern] = (made[1], made[0],
                                          codes | (same[2] if same else frozenset()))
    ordered = sorted(found.items(), key=lambda f: (-f[1][0], f[0]))
    return tuple((pattern, codes) for _, (_, pattern, codes) in ordered)


def reasons_of(lang: str, answer: str) -> frozenset[str]:
    """The reasons (codes) of the bot's refusal line ``answer`` is, read in ``lang`` (any of
    the bot's languages): one, or the few that share that line; none when it is no refusal
    line of the bot's."""
    for pattern, codes in refusal_patterns(lang):
        if pattern.match(answer):
            return codes
    return frozenset()


def reason_of(lang: str, answer: str) -> str | None:
    """The reason ``answer`` refuses for (of a line several share, the first by name); None
    when it is no refusal."""
    return min(reasons_of(lang, answer), default=None)


# -- what the simulated people sent, and what the bot refused ------------------------------


@dataclass
class Said:
    """A message a simulated person sent: ``what`` (its text, ``PHOTO``, or the data of the
    button ``pressed``), dated ``at``, the update that carried it, the bot's answers to it
    (what quotes it); the action of the day it played, if it was one."""

    who: Person
    what: str
    at: datetime
    update: int
    answers: list[Call]
    pressed: bool = False
    action: Action | None = None

    @property
    def command(self) -> str:
        """What it was, for the report: ``/fin``, ``/fin (button)``, ``[photo]``."""
        if self.action is not None:
            word = self.action.text.split()[0] if self.action.text.split() else "?"
            return f"{word} (button)" if self.pressed else word
        if self.pressed:
            named = next((c for prefix, c in BUTTONS if self.what.startswith(prefix)), None)
            return f"{named} (button)" if named else f"a button ({self.what.split(':')[0]}:…)"
        if self.what == PHOTO or self.what.startswith("/"):
            return self.what.split()[0]
        return "(an answer typed)"

    @property
    def shown(self) -> str:
        """As the transcript shows it (the action's label, else what was sent)."""
        if self.action is not None:
            return self.action.label or self.action.text
        return self.what

    @property
    def result(self) -> bool:
        """Whether it records a result (a finish, a split, pieces; typed or a button)."""
        return self.command.split()[0] in RESULTS

    @property
    def answer(self) -> str:
        return self.answers[0].text if self.answers else ""

    @property
    def asked(self) -> bool:
        """Whether the bot answered with a question (its buttons choose): nothing refused."""
        return any(c.buttons() for c in self.answers)


@dataclass(frozen=True)
class Refused:
    said: Said
    reason: str  # its code; ``UNRECOGNISED`` for a result command refused by another line
    expected: bool  # the rehearsal meant it (``Action.expect``)

    @property
    def name(self) -> str:
        """The reason in English."""
        if self.reason == UNRECOGNISED:
            first = self.said.answer.splitlines()[0] if self.said.answer else ""
            return f'nothing recorded: "{first}"' if first else "nothing recorded, no answer"
        return NAMES.get(self.reason, self.reason.replace("_", " "))


@dataclass
class Records:
    """What the bot recorded, by update: the updates that recorded something, and the
    requests it refused for a reason it records (the escape's cooldown)."""

    recorded: set[int] = field(default_factory=set)
    refused: dict[int, str] = field(default_factory=dict)

    @classmethod
    def read(cls, db_path: str) -> Records:
        out = cls()
        with closing(sqlite3.connect(db_path)) as conn:
            rows = conn.execute("SELECT update_id, kind, data FROM events "
                                "WHERE update_id IS NOT NULL").fetchall()
        for update, kind, data in rows:
            if kind == EventKind.REQUEST_REFUSED:
                out.refused[int(update)] = str(json.loads(data or "{}").get("reason", ""))
            else:
                out.recorded.add(int(update))
        return out


def refusals(said: Iterable[Said], records: Records, language: str) -> list[Refused]:
    """Every message the bot refused, with its reason, and whether the rehearsal meant it
    (each answer read in its reader's language: the contest's ``language`` by default)."""
    out: list[Refused] = []
    for s in said:
        lang = pick_language(None, s.who.lang, language)
        reason = records.refused.get(s.update)
        if reason is None and s.update in records.recorded:
            continue  # something recorded: whatever the line says, nothing was refused
        if reason is None:
            reason = reason_of(lang, s.answer)
        if reason is None and s.result and not s.asked:
            reason = UNRECOGNISED  # a result command that recorded nothing, nor asked
        if reason is not None:
            expect = s.action.expect if s.action is not None else ()
            out.append(Refused(s, reason, reason in expect))
    return out


def not_refused(said: Iterable[Said], refused: Iterable[Refused]) -> list[Said]:
    """The messages the rehearsal meant to be refused and the bot took."""
    taken = {id(r.said) for r in refused}
    return [s for s in said if s.action is not None and s.action.expect
            and id(s) not in taken]


def unexpected_results(refused: Iterable[Refused]) -> list[Refused]:
    """The result commands refused that the rehearsal did not mean: the verdict fails."""
    return [r for r in refused if r.said.result and not r.expected]


def report(refused: list[Refused], meant: list[Said]) -> list[str]:
    """The report's lines: how many commands were refused, then a count per command and
    reason, the rehearsal's own wrong input said so."""
    if not refused:
        head = "Refused commands: 0."
    else:
        wrong = sum(1 for r in refused if not r.expected)
        head = (f"Refused commands: {len(refused)} ("
                + ("all meant by the rehearsal" if not wrong else
                   f"{len(refused) - wrong} meant by the rehearsal, {wrong} unexpected") + "):")
    counts = Counter((r.said.command, r.name, r.expected) for r in refused)
    lines = [head]
    for (command, name, expected), n in sorted(counts.items(), key=lambda c: (c[0][2], -c[1],
                                                                               c[0][0])):
        lines.append(f"  {n} × {command}: {name}{' (meant)' if expected else ''}")
    for s in meant:
        assert s.action is not None
        reasons = " or ".join(NAMES.get(c, c) for c in s.action.expect)
        lines.append(f"  {s.shown} was meant to be refused ({reasons}); the bot took it")
    return lines
