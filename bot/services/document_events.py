"""One event of a contest document's history as the bot writes it, before any rule of the day:
its kind known, recorded by the role that records that kind (bot/services/*.py: volunteers'
kinds by a volunteer or an organiser, the bot's own by nobody), with the fields that kind has
and details (``data``) of the types the bot reads back. ``event_problem`` says what is wrong
with one; the history's rules over time are bot/services/document_history.py's.

Also the words an import's error line gives for each of the domain's refusals (``why``).

The kinds of who is who (``WHO_IS_WHO``: a phone following an entry, the volunteers' and
organisers' links and who opened them) are never imported: a document makes nobody an
organiser, a volunteer or a team's phone, and carries no code that opens the running bot."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

import bot.features.members.rules as mem
from bot.domain.clock import format_duration
from bot.domain.events import EventKind as K
from bot.domain.rounds import Disqualified, SplitsMissing
from bot.features.escape import rules as esc
from bot.features.registration.texts import ineligible_text
from bot.features.results import rules as res
from bot.support.registry import REGISTRY

PARTICIPANT, VOLUNTEER, ORGANISER, SYSTEM = "participant", "volunteer", "organiser", "system"
STAFF = frozenset({VOLUNTEER, ORGANISER})

WHO_IS_WHO = frozenset({K.LINK, K.VOLUNTEER_INVITE, K.VOLUNTEER_JOIN, K.ORGANISER_INVITE,
                        K.ORGANISER_JOIN})

# the details that are secrets: a self-timed start's seed, from which every entry's code is
# worked out (an older document's is not imported: the new bot's codes are its own)
SECRET_DATA = frozenset({"seed"})
# events are dated from 1970 (Telegram's dates are Unix times) to well before year 10000 (a
# date the database can read back in any time zone)
EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)
LATEST = datetime(9000, 1, 1, tzinfo=UTC)
FIELDS = ("entry", "category", "stage", "value", "ref", "supersedes")


@dataclass(frozen=True)
class Rule:
    """Who records a kind (``roles``) and its fields: for each of ``FIELDS`` in turn, "+" it
    has one, "-" it has none (null), "?" either. ``data``: its details, key -> type ("int",
    "str", "bool", "ints", "moment", "member", "told"; "?" after it: or null; "!" before it:
    always there)."""

    roles: frozenset[str]
    fields: str
    data: Mapping[str, str] = field(default_factory=dict)
    no_actor: bool = False  # recorded without anyone's id at times (a payment from a file)

    def required(self) -> set[str]:
        return {k for k, t in self.data.items() if t.startswith("!")}


def _r(roles: frozenset[str] | str, fields: str, data: Mapping[str, str] | None = None,
       no_actor: bool = False) -> Rule:
    return Rule(frozenset({roles}) if isinstance(roles, str) else roles, fields, data or {},
                no_actor)


_TICKETS = {"tickets_used": "!int", "tickets_bought": "!int"}
_INVITED = {"answer": "!str"}
RULES: dict[str, Rule] = {
    K.CLOCK_START: _r(ORGANISER, "-+----", {"seed": "str"}),
    K.PAUSE: _r(ORGANISER, "------"),
    K.RESUME: _r(ORGANISER, "------"),
    K.HINT: _r(PARTICIPANT, "+?+---", _TICKETS),
    K.SOLUTION: _r(PARTICIPANT, "+?+---", _TICKETS),
    K.REQUEST_REFUSED: _r(PARTICIPANT, "+?+++-", {"request": "!str", "reason": "!str"}),
    K.READY: _r(PARTICIPANT, "+?-+--"),
    K.NOT_FINISHED: _r(STAFF, "+?----", {"ready_event": "!int", "reason": "str"}),
    K.PHOTO: _r(PARTICIPANT, "+?----", {"file_id": "!str", "unique_id": "!str", "use": "!str",
                                        "ready_event": "int?", "forwarded": "bool",
                                        "repeat_of": "int"}),
    K.RETAKE: _r(STAFF, "+?----", {"ready_event": "!int"}),
    K.OWN_START: _r(PARTICIPANT, "+?+---", {"seed": "str"}),
    # a participant's: a right answer to an enigma played in the chat
    K.STAGE: _r(STAFF | {PARTICIPANT}, "+?+---"),
    K.ESCAPE: _r(STAFF | {PARTICIPANT}, "+?-+-?"),
    K.HANDOVER: _r(SYSTEM, "-+--+-"),
    K.FINISH: _r(STAFF, "+?-?-?", {"moment": "int", "ready_event": "int"}),
    K.PIECES: _r(STAFF, "+?-+-?"),
    K.PENALTY: _r(STAFF, "+?-++-"),
    K.SPLIT: _r(STAFF, "+?++--", {"joker": "bool"}),
    K.OUTCOME: _r(STAFF, "+?--+-", {"reason": "str"}),
    K.UNDO: _r(STAFF, "??---+", {"kind": "!str"}),
    K.RESULTS_FINAL: _r(ORGANISER, "-+--+-", {"told": "!told"}),
    K.ROUND_FINAL: _r(ORGANISER, "----+-", {"qualifiers": "!ints", "invite": "bool",
                                            "order": "ints"}),
    K.INVITED: _r(frozenset({ORGANISER, SYSTEM}), "++--+-",
                  {"deadline": "!moment", "heat": "!int", "replaces": "int?"}),
    K.INVITE_REPLY: _r(frozenset({PARTICIPANT, ORGANISER}), "++--+-", _INVITED),
    K.INVITE_LAPSED: _r(SYSTEM, "++--+-", _INVITED),
    K.REGISTERED: _r(PARTICIPANT, "++----"),
    # an organiser's (/pagado, a file's) or one paid in the chat (its charge; ref "extra":
    # paid twice, owed back)
    K.PAYMENT: _r(frozenset({ORGANISER, PARTICIPANT}), "+--???",
                  {"amount": "int", "currency": "str", "charge": "str",
                   "provider_charge": "str", "via": "str"}, no_actor=True),
    # the bot's own when the entry joined another, matched with it (bot/features/partners)
    K.WITHDRAW: _r(frozenset({PARTICIPANT, SYSTEM}), "+-----", {"joined": "int"}),
    K.MEMBER_CHANGE: _r(ORGANISER, "++----", {"position": "!int?", "old": "!member?",
                                              "new": "!member?"}),
    K.ALERT: _r(SYSTEM, "-?--+-"),
    K.NOTICE: _r(SYSTEM, "+---+-"),
    K.STATUS_NOTICE: _r(SYSTEM, "+---+-"),
    K.ANNOUNCEMENT: _r(ORGANISER, "----+-", {"text": "!str", "recipients": "int",
                                            "channel": "int"}),
    K.CLAIM: _r(VOLUNTEER, "----+-", {"by": "str", "user": "int", "entry": "int?",
                                      "several": "bool"}),
    K.CLOSING_REPORT: _r(SYSTEM, "----+-"),
}


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _moment(v: Any) -> bool:
    try:
        return isinstance(v, str) and datetime.fromisoformat(v).utcoffset() is not None
    except ValueError:
        return False


def _member(v: Any) -> bool:
    """A member as a change's details hold one (bot/domain/members.py, ``member_data``)."""
    if not isinstance(v, dict) or not isinstance(v.get("name"), str) or \
            set(v) - {"name", "born", "year"}:
        return False
    born, year = v.get("born"), v.get("year")
    try:
        born_ok = born is None or (isinstance(born, str) and bool(date.fromisoformat(born)))
    except ValueError:
        born_ok = False
    return born_ok and (year is None or _int(year))


def _told(v: Any) -> bool:
    """What each entry was told when results were made final: entry number -> its line."""
    return isinstance(v, dict) and all(k.isdigit() and len(k) < 10 and isinstance(x, list)
                                       for k, x in v.items())


TYPES: dict[str, tuple[str, Callable[[Any], bool]]] = {
    "int": ("an integer", _int),
    "str": ("text", lambda v: isinstance(v, str)),
    "bool": ("true or false", lambda v: isinstance(v, bool)),
    "ints": ("a list of integers", lambda v: isinstance(v, list) and all(map(_int, v))),
    "moment": ("a date and time with its offset", _moment),
    "member": ("a member (name, born, year)", _member),
    "told": ("entry numbers with what each was told", _told),
}


def _field_problem(ev: Mapping[str, Any], rule: Rule) -> str | None:
    for name, has in zip(FIELDS, rule.fields, strict=True):
        given = ev[name] is not None
        if has == "+" and not given:
            return f"no {name}: a {ev['kind']} has one"
        if has == "-" and given:
            return f"a {name} ({ev[name]!r}): a {ev['kind']} has none"
    return None


def _data_problem(data: Mapping[str, Any] | None, rule: Rule) -> str | None:
    have = data or {}
    missing = sorted(rule.required() - set(have))
    if missing:
        return f"its details (data) have no {missing[0]!r}"
    unknown = sorted(set(have) - set(rule.data))
    if unknown:
        return f"its details (data) have {unknown[0][:40]!r}, which the bot never writes there"
    for key, kind in rule.data.items():
        if key not in have:
            continue
        name = kind.strip("!?")
        words, test = TYPES[name]
        value = have[key]
        if not (test(value) or (kind.endswith("?") and value is None)):
            return f"its details (data): {key} is not {words}"
    return None


def _dated(ev: Mapping[str, Any]) -> str | None:
    for name in ("at", "recorded_at"):
        moment = datetime.fromisoformat(ev[name])
        if not EARLIEST <= moment < LATEST:
            return f"{name} {ev[name]} is not a date the bot records (1970 to 9000)"
    return None


def _a(role: str) -> str:
    if role == SYSTEM:
        return "the bot itself (system)"
    return f"an {role}" if role[:1] in "aeiou" else f"a {role}"


def rule_of(kind: str) -> Rule | None:
    """The rule of a kind: the bot's own, or a feature's (bot/support/registry.py)."""
    rule = RULES.get(kind)
    if rule is None and (declared := REGISTRY.kinds.get(kind)) is not None:
        rule = Rule(declared.roles, declared.fields, declared.data)
    return rule


def event_problem(ev: Mapping[str, Any], unlinked: bool = False) -> str | None:
    """What is wrong with one event of a history (one of the document's shape), taken alone:
    an unknown kind, a role that never records it, a field it never has or lacks, details of
    the wrong type. None: nothing. Not for the kinds of who is who (never imported).
    ``unlinked``: its entry's phones were removed (bot/features/privacy), so a participant's
    event of it names nobody."""
    rule = rule_of(ev["kind"])
    if rule is None:
        return f"unknown kind {ev['kind']!r}"
    if ev["role"] not in rule.roles:
        return f"recorded by {_a(ev['role'][:40])}: a {ev['kind']} is recorded by " + \
            " or ".join(_a(r) for r in sorted(rule.roles))
    actor = ev["actor"]
    if ev["role"] == SYSTEM and actor is not None:
        return f"the bot's own event, with an actor ({actor})"
    if ev["role"] != SYSTEM and actor is None and not rule.no_actor and not (
            unlinked and ev["role"] == "participant"):
        return f"no actor: {_a(ev['role'])}'s event names who recorded it"
    if actor is not None and actor < 1:
        return f"actor {actor} is not a Telegram id"
    return _field_problem(ev, rule) or _data_problem(ev["data"], rule) or _dated(ev)


# -- the domain's refusals as the words of an import's error line ---------------------------------


def clock_text(seconds: int) -> str:
    return format_duration(seconds)


_WHY: dict[type, Callable[[Any], str]] = {
    res.ZeroTime: lambda d: "a time of 0:00:00",
    res.TooLate: lambda d: f"{clock_text(d.time)} is past the time limit ({clock_text(d.limit)})",
    res.Ahead: lambda d: f"{clock_text(d.time)} is later than its clock showed then",
    res.EscapeOpen: lambda d: "before the entry's escape was over",
    res.BeforeSolve: lambda d: f"before its escape was solved ({clock_text(d.solved_at)})",
    res.NotAfterSplit: lambda d: f"not after its last split time ({clock_text(d.split)})",
    res.Unchanged: lambda d: f"the same as recorded already ({d.value})",
    res.Ask: lambda d: "a change the volunteer must confirm",
    res.OutOfRange: lambda d: f"{d.count} pieces, not between 0 and {d.most}",
    res.Finished: lambda d: "after the entry's finish",
    res.OnePuzzle: lambda d: "a split time where one puzzle is played",
    res.AllSplit: lambda d: f"every puzzle but the last already has its split ({d.played})",
    res.Which: lambda d: f"not the puzzle to split now ({', '.join(map(str, d.left))})",
    res.NoJokers: lambda d: "a joker where the category gives none",
    res.JokersUsed: lambda d: f"a joker past the {d.jokers} the category gives",
    res.OnLast: lambda d: f"a joker on the last of {d.played} puzzles",
    res.Counted: lambda d: "a joker after the entry's pieces were counted",
    res.NeedsReason: lambda d: "a disqualification without its reason",
    res.SameOutcome: lambda d: "the same outcome as recorded already",
    esc.EscapeOver: lambda d: "after the escape was over",
    esc.StageInvalid: lambda d: "a stage the escape does not have",
    esc.StagePassed: lambda d: f"about a stage behind the one the entry was in ({d.stage})",
    esc.HintTaken: lambda d: f"a second hint for stage {d.stage}",
    esc.SolutionNeedsHint: lambda d: f"a solution for stage {d.stage} before its hint",
    esc.SolutionTaken: lambda d: f"a second solution for stage {d.stage}",
    esc.Cooldown: lambda d: f"too soon after the last request: the next one is allowed at "
                            f"{clock_text(d.next_at)} (the escape's cooldown)",
    esc.CooldownPastEnd: lambda d: "too soon after the last request (the escape's cooldown)",
    esc.AlreadySolved: lambda d: "after the escape was solved",
    esc.ConfirmationClosed: lambda d: "after the escape's time limit and its grace",
    esc.StageBack: lambda d: f"below the stage confirmed already ({d.stage})",
    esc.StageSame: lambda d: f"stage {d.stage}, confirmed already",
    esc.PastEscapeLimit: lambda d: "past the escape's time limit",
    esc.BeforeRequest: lambda d: f"before a request accepted at {clock_text(d.next_at)}",
    esc.StageAhead: lambda d: f"about a stage the entry had not reached (it was in {d.stage})",
    esc.StagesInChat: lambda d: "a stage confirmed by a volunteer, where the bot hosts the "
                                "enigmas",
    esc.NotInChat: lambda d: "an answer in the chat, where volunteers run the escape",
    esc.NotNextStage: lambda d: f"an answer that does not pass stage {d.stage}",
    esc.Paused: lambda d: f"an answer while the pair waited (until {clock_text(d.until)})",
    esc.PassedByPartner: lambda d: f"stage {d.stage} passed already",
    esc.NotAnAnswer: lambda d: "an answer with no letter or digit",
    esc.OutOfPlay: lambda d: f"an answer of an entry recorded as {d.outcome}",
    esc.PassedMeanwhile: lambda d: f"an answer meant for stage {d.stage}, passed already",
    esc.ClockStopped: lambda d: "an answer while the clocks were stopped",
    esc.BeforeStage: lambda d: f"before the answer that reached stage {d.stage} at "
                               f"{clock_text(d.passed_at)}",
    Disqualified: lambda d: "for an entry disqualified",
    SplitsMissing: lambda d: "before the split times of the puzzles before the last",
    mem.NoChanges: lambda d: "a member changed where the category takes no changes (no "
                             "keep_originals)",
    mem.NoSuchMember: lambda d: f"member {d.position + 1} of a team of {d.count}",
    mem.SameMember: lambda d: f"member {d.position + 1} replaced by the same person",
    mem.Full: lambda d: f"a member added to a team of {d.most}, the most it may have",
    mem.TooFew: lambda d: f"a member removed from a team of {d.fewest}, the fewest it may have",
    mem.TooFewOriginals: lambda d: f"it leaves fewer than {d.needed} of the members the team "
                                   "registered with",
    mem.NotEligible: lambda d: "the team as changed is not eligible: " + ineligible_text(
        "en", d.problem).removeprefix("Not possible: "),
}


def why(refusal: object) -> str:
    words = _WHY.get(type(refusal))
    return words(refusal) if words is not None else type(refusal).__name__
