"""What volunteers and organisers read about the history: an entry's (/historial), every
event with the corrections and what they replaced, and how its result is made up; what was
taken back (/deshacer), and why nothing was.

Nothing here imports bot/texts/common.py (its ``refusal`` calls ``history_refusal``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import assert_never
from zoneinfo import ZoneInfo

from bot.domain.clock import format_duration
from bot.domain.contest import Contest
from bot.domain.events import ENTRY_ROWS, EventKind
from bot.domain.ranking import Competitor, ranking_time
from bot.domain.rounds import heats_by_id
from bot.features.results.texts import outcome_text, penalty_name, result_detail
from bot.features.selftimed.rules import photo_of_key
from bot.services.history import HistoryRefusal, NothingToUndo, Undone, UndoOutdated
from bot.storage.store import Event
from bot.support.i18n import tr
from bot.support.registry import REGISTRY
from bot.texts.names import clock_time, day_text, heat_name, labelled, role_name
from bot.texts.pieces import pieces_result

_K = EventKind


def history_refusal(lang: str, refused: HistoryRefusal) -> str:
    """One line saying why nothing was taken back."""
    match refused:
        case NothingToUndo():
            return tr(lang, "You have nothing to undo.")
        case UndoOutdated():
            return tr(lang, "Your last record is not the one this question named any more: "
                      "nothing taken back. Send /deshacer again to see what it is now.")
        case _:
            assert_never(refused)


# -- /historial ------------------------------------------------------------------------------


def history_lines(lang: str, contest: Contest, number: int, events: Sequence[Event],
                  alive: set[int], people: dict[int, str],
                  times: dict[int, int | None]) -> list[str]:
    """Every event of an entry, corrections and what they replaced included. ``times``: the
    contest time each event stands for (typed by a volunteer, or the clock at its moment)."""
    lines = [tr(lang, "History of entry {entry}:", entry=number)]
    rounds_by_heat = {i: heat_name(lang, contest, h)
                      for i, h in heats_by_id(contest.categories).items()}
    for e in events:
        who = people.get(e.actor or 0, str(e.actor) if e.actor else "bot")
        what = _event_what(lang, contest, e, times)
        if e.category is not None and e.category in rounds_by_heat:
            what += f" ({rounds_by_heat[e.category]})"
        if e.supersedes is not None:
            what += " " + tr(lang, "(corrects #{id})", id=e.supersedes)
        if e.id not in alive:
            what += " " + tr(lang, "[replaced]")
        role = role_name(lang, e.role)
        local = e.at.astimezone(ZoneInfo(contest.timezone))
        when = clock_time(contest, e.at) if local.date() == contest.date else tr(
            lang, "{day} at {time}", day=day_text(lang, local.date()),
            time=clock_time(contest, e.at)[:5])
        lines.append(labelled(lang, f"#{e.id} {when} {who} ({role})", what))
    return lines


def _split_what(lang: str, e: Event, name: str) -> str:
    """A split's line: its puzzle, or the puzzle given up with a joker."""
    if e.data.get("joker"):
        return tr(lang, "joker: puzzle {puzzle} given up", puzzle=e.stage)
    return name + " " + tr(lang, "puzzle {puzzle}", puzzle=e.stage)


def _stage_what(lang: str, e: Event) -> str:
    """A stage's line: confirmed by a volunteer, or reached by a right answer in the chat
    (nobody confirmed it)."""
    if e.role == "participant":
        return tr(lang, "right answer: into stage {stage}", stage=e.stage)
    return tr(lang, "stage {stage} confirmed", stage=e.stage)


def _event_what(lang: str, contest: Contest, e: Event, times: dict[int, int | None]) -> str:
    """What a history's line says the event was: its name, stage or puzzle, and value."""
    what = event_name(lang, e.kind) if e.kind != EventKind.OUTCOME else outcome_text(
        lang, e.ref or "", str(e.data.get("reason", "")))
    if e.kind == EventKind.NOTICE and photo_of_key(e.ref) is not None:
        what = tr(lang, "photo held back sent on to the reviewers")
    if e.kind == EventKind.MEMBER_CHANGE:
        what = _member_change(lang, e) or what
    if e.stage is not None and e.kind == EventKind.SPLIT:
        what = _split_what(lang, e, what)
    elif e.stage is not None and e.kind == EventKind.STAGE:
        what = _stage_what(lang, e)
    elif e.stage is not None:
        stage_word = tr(lang, "stage")
        what += f" {stage_word} {e.stage}"
    if e.kind == EventKind.PIECES and e.value is not None:
        what += f" {e.value}"
    elif e.kind == EventKind.PENALTY and e.ref is not None:
        what += f" {penalty_name(lang, contest, e.ref)} ×{e.value}"
    elif e.kind == EventKind.REQUEST_REFUSED and e.value is not None:
        what += f" {format_duration(e.value)}"
    elif times.get(e.id) is not None:
        what += f" {format_duration(times[e.id] or 0)}"
    return _with_detail(what, e)


def _member_name(data: object) -> str:
    """A member's name as a change's event holds it ("" for nobody)."""
    name = data.get("name") if isinstance(data, dict) else None
    return str(name) if name else ""


def _member_change(lang: str, e: Event) -> str:
    """Who left and who came in a team's change of members ("" when the event names
    nobody)."""
    old, new = _member_name(e.data.get("old")), _member_name(e.data.get("new"))
    if old and new:
        return tr(lang, "member change: {new} replaces {old}", new=new, old=old)
    if new:
        return tr(lang, "member change: {new} joins the team", new=new)
    if old:
        return tr(lang, "member change: {old} leaves the team", old=old)
    return ""


def _with_detail(what: str, e: Event) -> str:
    """A feature's event with what it adds about it (a warning's reason)."""
    declared = REGISTRY.kinds.get(e.kind)
    detail = declared.detail(e) if declared is not None and declared.detail else ""
    return f"{what} ({detail})" if detail else what


def history_text(lang: str, contest: Contest, number: int, events: Sequence[Event],
                 alive: set[int], people: dict[int, str], times: dict[int, int | None],
                 competitor: Competitor | None) -> str:
    """/historial: every event of the entry (``history_lines``), then how its result is made
    up (``competitor``: its state, None if it has none)."""
    lines = history_lines(lang, contest, number, events, alive, people, times)
    if len(lines) == 1:
        lines.append(tr(lang, "Nothing recorded yet."))
    detail = result_detail(lang, competitor) if competitor is not None else ""
    if competitor is not None and detail:
        lines.append(_result_line(lang, competitor, detail))
    return "\n".join(lines)


def _result_line(lang: str, competitor: Competitor, detail: str) -> str:
    result = ranking_time(competitor)
    return tr(lang, "Result: {time} ({detail})", detail=detail,
              time=format_duration(result) if result is not None else
              pieces_result(lang, competitor)
              if competitor.pieces is not None else tr(lang, "no result yet"))


def event_name(lang: str, kind: str) -> str:
    names_: dict[str, str] = {
        _K.LINK: tr(lang, "linked a phone"),
        _K.HINT: tr(lang, "hint"),
        _K.SOLUTION: tr(lang, "solution"),
        _K.REQUEST_REFUSED: tr(lang, "request refused, may ask again at"),
        _K.NOTICE: tr(lang, "told they may ask again"),
        _K.STAGE: tr(lang, "stage confirmed"),
        _K.ESCAPE: tr(lang, "escape solved"),
        _K.READY: tr(lang, "said finished"),
        _K.NOT_FINISHED: tr(lang, "not finished (checked)"),
        _K.PHOTO: tr(lang, "photo sent"),
        _K.RETAKE: tr(lang, "another photo asked"),
        _K.FINISH: tr(lang, "finish"),
        _K.PIECES: tr(lang, "pieces"),
        _K.PENALTY: tr(lang, "penalty"),
        _K.SPLIT: tr(lang, "split time"),
        _K.OUTCOME: tr(lang, "did not start or disqualified"),
        _K.ROUND_FINAL: tr(lang, "round confirmed"),
        _K.INVITED: tr(lang, "invited to the next round"),
        _K.INVITE_REPLY: tr(lang, "answered its invitation"),
        _K.INVITE_LAPSED: tr(lang, "did not answer its invitation in time"),
        _K.UNDO: tr(lang, "taken back"),
        _K.CLOCK_START: tr(lang, "clock started"),
        _K.PAUSE: tr(lang, "break"),
        _K.RESUME: tr(lang, "clocks running again"),
        _K.VOLUNTEER_JOIN: tr(lang, "joined as volunteer"),
        _K.VOLUNTEER_INVITE: tr(lang, "volunteer invitation"),
        _K.ORGANISER_JOIN: tr(lang, "joined as organiser"),
        _K.ORGANISER_INVITE: tr(lang, "organiser invitation"),
        _K.HANDOVER: tr(lang, "escape handover"),
        ENTRY_ROWS: tr(lang, "registered"),
        _K.PAYMENT: tr(lang, "payment recorded"),
        _K.WITHDRAW: tr(lang, "withdrew"),
        _K.MEMBER_CHANGE: tr(lang, "a member changed"),
        _K.STATUS_NOTICE: tr(lang, "told of its place"),
        _K.ALERT: tr(lang, "clock alert"),
        _K.ANNOUNCEMENT: tr(lang, "announcement"),
        _K.CLAIM: tr(lang, "volunteer going"),
    }
    if kind in names_:
        return names_[kind]
    declared = REGISTRY.kinds.get(kind)
    return declared.name(lang) if declared is not None else kind


# -- /deshacer --------------------------------------------------------------------------------


def _undone_what(lang: str, ev: Event) -> str:
    target = f"#{ev.entry}" if ev.entry is not None else (ev.category or "")
    return f"{event_name(lang, ev.kind)} {target}".strip()


def undo_question(lang: str, contest: Contest, ev: Event) -> str:
    """/deshacer asks first: what it would take back, recorded when."""
    return tr(lang, "Take back your last record: {what}, recorded at {clock}? Nothing changes "
              "until you choose.", what=_undone_what(lang, ev), clock=clock_time(contest, ev.at))


def undo_button(lang: str) -> str:
    return tr(lang, "Take it back")


def keep_record_button(lang: str) -> str:
    return tr(lang, "Keep it")


def nothing_taken_back(lang: str) -> str:
    return tr(lang, "Nothing taken back.")


def undo_answer(lang: str, out: Undone) -> str:
    return tr(lang, "Taken back: {what}.", what=_undone_what(lang, out.event))


# what the entry's people were told when it was recorded, and so are told when it is taken back
TOLD_KINDS = (_K.FINISH, _K.PENALTY, _K.OUTCOME, _K.SPLIT, _K.ESCAPE, _K.NOT_FINISHED)


def told(kind: str) -> bool:
    """Whether the entry's people were told of an event of ``kind``, and so are told when it
    is taken back (``undo_notice``)."""
    declared = REGISTRY.kinds.get(kind)
    return kind in TOLD_KINDS or (declared is not None and declared.taken_back is not None)


def undo_notice(lang: str, contest: Contest, out: Undone, at_home: bool = False) -> str:
    """To the entry's phones: something they were told of (``TOLD_KINDS``) was taken back
    (``at_home``: a reviewer's decision on a claim of an entry playing at home)."""
    ev = out.event
    declared = REGISTRY.kinds.get(ev.kind)
    if declared is not None and declared.taken_back is not None:
        return declared.taken_back(lang)  # a feature's kind: its own words
    if at_home and ev.kind in (_K.FINISH, _K.SPLIT):
        return tr(lang, "The confirmation of your finish was taken back: your claim waits for "
                  "a reviewer again.")
    if at_home and ev.kind == _K.NOT_FINISHED:
        return tr(lang, "The reviewer's refusal of your finish was taken back: your claim "
                  "stands and waits for a reviewer again.")
    match ev.kind:
        case _K.PENALTY:
            return tr(lang, "A penalty recorded for your entry was taken back: {what} "
                      "×{count}.", what=penalty_name(lang, contest, ev.ref or ""), count=ev.value)
        case _K.FINISH:
            return tr(lang, "The finish recorded for your entry was taken back: a volunteer "
                      "will record the right one.")
        case _K.OUTCOME:
            return tr(lang, "Your entry is no longer recorded as {outcome}.",
                      outcome=outcome_text(lang, ev.ref or ""))
        case _K.SPLIT if ev.data.get("joker"):
            return tr(lang, "The joker recorded for your entry was taken back: puzzle {puzzle} "
                      "is yours to play again.", puzzle=ev.stage)
        case _K.SPLIT:
            return tr(lang, "A split time recorded for your entry was taken back: a volunteer "
                      "will record the right one.")
        case _K.ESCAPE:
            return tr(lang, "The escape recorded as solved for your entry was taken back: ask "
                      "a volunteer if this is wrong.")
        case _:
            return tr(lang, "The \"not finished\" check of your puzzle was taken back: your "
                      "/listo stands, and a volunteer is coming.")
