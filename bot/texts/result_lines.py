"""The long texts of results, on the shared formatting of bot/texts/common.py: a ranking's
lines (the rankings, a round's final classification); an entry's history (/historial) is
bot/texts/history.py's."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.domain.clock import format_duration
from bot.domain.contest import Category, Contest, SeparateRanking, localized
from bot.domain.ranking import Competitor, Row, ranking_time
from bot.domain.rounds import Heat, heats_by_id
from bot.features.results.texts import (
    outcome_text,
    penalties_text,
)
from bot.support.i18n import tr
from bot.texts.common import (
    heat_name,
    labelled,
    names,
    round_name,
    short,
)
from bot.texts.pieces import pieces_result


def ranked_name(lang: str, contest: Contest, category: Category) -> str:
    """What a ranking is titled with: the category's name, and a heat's own ranking the
    heat's too ("Individual — Heats 2"; issue 26: a heat's was titled "Individual")."""
    heat = heats_by_id(contest.categories).get(category.id)
    return f"{category.name} — {heat_name(lang, contest, heat)}" if heat else category.name


def provisional(rows: Sequence[Row]) -> list[Row]:
    """A ranking not final yet, as people read it: its places, no prize (a trophy beside a
    provisional leader, "Season champion" on the season's first day, read as won)."""
    return [replace(r, prize=None, extra_prizes=()) if r.prize or r.extra_prizes else r
            for r in rows]


def provisional_title(lang: str, title: str) -> str:
    """"Adultos - clasificación (provisional)": a ranking whose places may still change."""
    return tr(lang, "{title} (provisional)", title=title)


def ranking_lines(
    lang: str, contest: Contest, category: Category, rows: Sequence[Row], title: str = "",
    final: bool = True,
) -> list[str]:
    """A ranking's lines under its title; not ``final``: titled provisional, no prize."""
    title = title or tr(lang, "{category} - ranking", category=ranked_name(lang, contest,
                                                                           category))
    if not final and rows:
        title, rows = provisional_title(lang, title), provisional(rows)
    lines = [title]
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


# Each row's line after its place, by what it depends on (language, the entry's result, its
# prize): a ranking taking in one new result moves the places below it, not their lines, so a
# 10,000-entry ranking asked again formats only what changed. Rows whose line needs the contest
# (penalties, rounds) are not kept. Emptied when full, never stale: the key is the whole value.
_TAILS: dict[tuple[object, ...], str] = {}
TAILS_KEPT = 50_000


def _row_line(lang: str, contest: Contest, category: Category, r: Row) -> str:
    """One entry's line: its place, number, names, result, round reached and prize."""
    pos = f"{r.position}." if r.position is not None else "-"
    c = r.competitor
    if c.time_penalty or (r.round is not None and len(category.rounds) > 1):
        return f"{pos} {_row_tail(lang, contest, category, r)}"
    key = (lang, c, r.finished, r.time, r.prize)
    tail = _TAILS.get(key)
    if tail is None:
        if len(_TAILS) >= TAILS_KEPT:
            _TAILS.clear()
        tail = _TAILS[key] = _row_tail(lang, contest, category, r)
    return f"{pos} {tail}"


def _row_tail(lang: str, contest: Contest, category: Category, r: Row) -> str:
    """A row's line after its place."""
    c = r.competitor
    who = f"#{r.number} {names([short(n) for n in c.names])}" + (
        f" ({', '.join(c.shown)})" if c.shown else "")
    c_splits = c.splits if category.own_start and not r.finished and c.outcome is None else ()
    line = labelled(lang, who, _own_puzzles(lang, category, c) if c_splits
                    else _row_result(lang, contest, r))
    if c.outcome is None and r.finished and r.time is not None and c.time_penalty:
        line += " " + penalties_text(lang, contest, c.penalties, c.time_penalty)
    if r.round is not None and len(category.rounds) > 1:
        index = next((i for i, x in enumerate(category.rounds) if x.id == r.round), None)
        if index is not None and index < len(category.rounds) - 1:
            line += f" ({round_name(lang, contest, category, index)})"
    if r.prize:
        line += f" - {r.prize}"
    return line


def _own_puzzles(lang: str, category: Category, c: Competitor) -> str:
    """An entry that started each puzzle itself and did not finish them all: the puzzles it
    finished and its time for them, and, where pieces place it (``unfinished_order``), the
    pieces placed first: what decided its place is on its line."""
    done = tr(lang, "{done} of {puzzles} puzzles, {time}", done=len(c.splits),
              puzzles=category.puzzles_played, time=format_duration(c.splits[-1]))
    if "pieces" not in category.unfinished_order:
        return done
    pieces = pieces_result(lang, c) if c.pieces is not None else \
        tr(lang, "no pieces counted")
    return f"{pieces}, {done}"


def _pieces_or_nothing(lang: str, c: Competitor) -> str:
    return pieces_result(lang, c) if c.pieces is not None else tr(lang, "no result yet")


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


# -- the rankings -----------------------------------------------------------------------------


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
                        rows: Sequence[Row], final: bool = True) -> str:
    """The ranking over all the heats of a round of several ("pairs-heats"), provisional
    until the round is confirmed (``final``)."""
    title = f"{category.name} — {round_name(lang, contest, category, index)}"
    return "\n".join(ranking_lines(lang, contest, Heat(category, index, 1).play, rows,
                                    ranking_title(lang, title), final))


def separate_lines(lang: str, contest: Contest, category: Category,
                   separate: Sequence[tuple[SeparateRanking, Sequence[Row]]],
                   final: bool = True) -> list[str]:
    """The category's rankings of their own (under 18s...), each after a blank line."""
    lines: list[str] = []
    for sr, rows in separate:
        name = localized(sr.name, lang, contest.language) or sr.id
        title = ranking_title(lang, f"{category.name} — {name}")
        lines += [""] + ranking_lines(lang, contest, category, rows, title, final)
    return lines


def round_ranking_lines(lang: str, contest: Contest, category: Category,
                        heats: Sequence[tuple[Heat, Sequence[Row]]],
                        classification: Sequence[Row], final: bool = True) -> list[str]:
    """A category played in rounds: ``heats``, those of the round being played (while it is
    not confirmed) with their rankings (provisional), then the classification over the rounds
    so far (provisional until the last round is confirmed: ``final``)."""
    lines: list[str] = []
    for heat, rows in heats:
        title = f"{category.name} — {heat_name(lang, contest, heat)}"
        lines.extend(ranking_lines(lang, contest, heat.play, rows, ranking_title(lang, title),
                                   final=False))
        lines.append("")
    lines.extend(ranking_lines(lang, contest, category, classification,
                               tr(lang, "{category} - classification", category=category.name),
                               final))
    return lines


def final_classification_text(lang: str, contest: Contest, category: Category, index: int,
                              rows: Sequence[Row]) -> str:
    """/confirmar_ronda after the last round: the final classification."""
    return "\n".join(ranking_lines(lang, contest, category, rows,
                                    tr(lang, "{category}: {round} confirmed. Final "
                                       "classification:", category=category.name,
                                       round=round_name(lang, contest, category, index))))
