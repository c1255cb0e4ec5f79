"""The long texts of results, on the shared formatting of bot/texts/common.py: a ranking's
lines (/clasificacion, a round's final classification) and an entry's history (/historial)."""

from __future__ import annotations

from collections.abc import Sequence
from zoneinfo import ZoneInfo

from bot.domain.clock import format_duration
from bot.domain.contest import Category, Contest, SeparateRanking
from bot.domain.events import EventKind
from bot.domain.ranking import Competitor, Row, ranking_time
from bot.domain.rounds import Heat, heats_by_id
from bot.storage.store import Event
from bot.support.i18n import tr
from bot.texts.common import (
    clock_time,
    day_text,
    heat_name,
    labelled,
    names,
    role_name,
    round_name,
    short,
)
from bot.texts.results import (
    event_name,
    outcome_text,
    penalties_text,
    penalty_name,
    result_detail,
)


def ranking_lines(
    lang: str, contest: Contest, category: Category, rows: Sequence[Row], title: str = ""
) -> list[str]:
    lines = [title or tr(lang, "{category} - ranking", category=category.name)]
    if not rows:
        lines.append(tr(lang, "No entries."))
    for r in rows:
        lines.append(_row_line(lang, contest, category, r))
    for extra in category.extra_prizes:
        winners = [r for r in rows if extra.id in r.extra_prizes]
        if winners:
            lines.append(
                labelled(lang, extra.name,
                         ", ".join(f"#{r.number} {names(r.competitor.names)}" for r in winners)
                         + f" - {extra.prize}")
            )
    return lines


def _row_line(lang: str, contest: Contest, category: Category, r: Row) -> str:
    """One entry's line: its place, number, names, result, round reached and prize."""
    pos = f"{r.position}." if r.position is not None else "-"
    c = r.competitor
    who = f"{pos} #{r.number} {names([short(n) for n in c.names])}" + (
        f" ({', '.join(c.shown)})" if c.shown else "")
    line = labelled(lang, who, _row_result(lang, contest, r))
    if c.outcome is None and r.finished and r.time is not None and c.time_penalty:
        line += " " + penalties_text(lang, contest, c.penalties, c.time_penalty)
    if r.round is not None and len(category.rounds) > 1:
        index = next((i for i, x in enumerate(category.rounds) if x.id == r.round), None)
        if index is not None and index < len(category.rounds) - 1:
            line += f" ({round_name(lang, contest, category, index)})"
    if r.prize:
        line += f" - {r.prize}"
    return line


def _pieces_or_nothing(lang: str, c: Competitor) -> str:
    return (tr(lang, "{pieces} pieces", pieces=c.pieces) if c.pieces is not None
            else tr(lang, "no result yet"))


def _row_result(lang: str, contest: Contest, r: Row) -> str:
    """What a ranking's line says of the entry's result (its penalties aside)."""
    c = r.competitor
    if c.outcome == "oc":  # its result, but no place
        t = ranking_time(c)
        result = format_duration(t) if t is not None else _pieces_or_nothing(lang, c)
        return f"{result} ({outcome_text(lang, c.outcome, c.outcome_reason)})"
    if c.outcome is not None:
        return outcome_text(lang, c.outcome, c.outcome_reason)
    if r.finished and r.time is not None:
        # one short line a phone shows whole: how the time was made up (escape, bonus,
        # splits) is in /historial and in the exports
        return format_duration(r.time)
    if c.finish is not None and c.time_penalty:
        return tr(lang, "finished at {time}, but its penalties take it past the time limit",
                  time=format_duration(c.finish)) + " " + penalties_text(
            lang, contest, c.penalties, c.time_penalty)
    return _pieces_or_nothing(lang, c)


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


def _event_what(lang: str, contest: Contest, e: Event, times: dict[int, int | None]) -> str:
    """What a history's line says the event was: its name, stage or puzzle, and value."""
    what = event_name(lang, e.kind) if e.kind != EventKind.OUTCOME else outcome_text(
        lang, e.ref or "", str(e.data.get("reason", "")))
    if e.stage is not None and e.kind == EventKind.SPLIT:
        what += " " + tr(lang, "puzzle {puzzle}", puzzle=e.stage)
    elif e.stage is not None and e.kind == EventKind.STAGE:
        what = tr(lang, "stage {stage} confirmed", stage=e.stage)
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
    return what


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
              tr(lang, "{pieces} pieces", pieces=competitor.pieces)
              if competitor.pieces is not None else tr(lang, "no result yet"))


# -- /clasificacion --------------------------------------------------------------------------


def ranking_title(lang: str, name: str) -> str:
    """"Open - ranking" (a picture's caption too)."""
    return tr(lang, "{category} - ranking", category=name)


def rankings_text(lang: str, lines: Sequence[str]) -> str:
    """The rankings asked for, or "No entries." when there is none to show."""
    return "\n".join(lines) or no_entries(lang)


def no_entries(lang: str) -> str:
    return tr(lang, "No entries.")


def unknown_category(lang: str, ids: Sequence[str]) -> str:
    return tr(lang, "Unknown category. Categories: {ids}", ids=", ".join(ids))


def round_of_heats_text(lang: str, contest: Contest, category: Category, index: int,
                        rows: Sequence[Row]) -> str:
    """The ranking over all the heats of a round of several ("pairs-heats")."""
    title = f"{category.name} — {round_name(lang, contest, category, index)}"
    return "\n".join(ranking_lines(lang, contest, Heat(category, index, 1).play, rows,
                                    ranking_title(lang, title)))


def separate_lines(lang: str, contest: Contest, category: Category,
                   separate: Sequence[tuple[SeparateRanking, Sequence[Row]]]) -> list[str]:
    """The category's rankings of their own (under 18s...), each after a blank line."""
    lines: list[str] = []
    for sr, rows in separate:
        name = sr.name.get(lang) or sr.name.get(contest.language) or sr.id
        title = ranking_title(lang, f"{category.name} — {name}")
        lines += [""] + ranking_lines(lang, contest, category, rows, title)
    return lines


def round_ranking_lines(lang: str, contest: Contest, category: Category,
                        heats: Sequence[tuple[Heat, Sequence[Row]]],
                        classification: Sequence[Row]) -> list[str]:
    """A category played in rounds: ``heats``, those of the round being played (while it is
    not confirmed) with their rankings, then the classification over the rounds so far."""
    lines: list[str] = []
    for heat, rows in heats:
        title = f"{category.name} — {heat_name(lang, contest, heat)}"
        lines.extend(ranking_lines(lang, contest, heat.play, rows, ranking_title(lang, title)))
        lines.append("")
    lines.extend(ranking_lines(lang, contest, category, classification,
                               tr(lang, "{category} - classification", category=category.name)))
    return lines


def final_classification_text(lang: str, contest: Contest, category: Category, index: int,
                              rows: Sequence[Row]) -> str:
    """/confirmar_ronda after the last round: the final classification."""
    return "\n".join(ranking_lines(lang, contest, category, rows,
                                    tr(lang, "{category}: {round} confirmed. Final "
                                       "classification:", category=category.name,
                                       round=round_name(lang, contest, category, index))))
