"""Final results in words: what each entry is told of its place, the organiser's question
before publishing and its answer, and why a category can't be made final yet."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import assert_never

from bot.domain.clock import format_duration
from bot.domain.contest import Contest, SeparateRanking
from bot.domain.ranking import Row
from bot.features.results.names import PIECES
from bot.features.results.texts import outcome_text, penalties_text, result_detail
from bot.features.standings.outcomes import (
    ClaimsToReview,
    InRounds,
    NoEntries,
    NothingNew,
    NotStarted,
    Publishable,
    StandingsRefusal,
    StillPlaying,
)
from bot.features.standings.rules import Standing
from bot.support.commands import typed
from bot.support.i18n import ntr, tr
from bot.texts.names import clock_time, span_text
from bot.texts.titles import title_lines


def standing_text(lang: str, contest: Contest, category: str, s: Standing, row: Row,
                  again: bool, may_see: bool, separate: Sequence[SeparateRanking] = ()) -> str:
    """To an entry's people when its category's results are final (``again``: corrected
    after they were first told), with its places in the category's separate rankings
    (``separate``: a national title...). Escape pairs read how their ranking time is made
    up."""
    c = row.competitor
    if s.position is None:
        result = _no_place(lang, s)
    elif s.time is not None:
        result = tr(lang, "place {position} of {of}, with {time}", position=s.position,
                    of=s.of, time=format_duration(s.time))
    elif s.pieces is None and c.splits:  # placed by the puzzles it finished, then time
        result = ntr(lang, "place {position} of {of}, with {done} puzzle done in {time}",
                     "place {position} of {of}, with {done} puzzles done in {time}",
                     len(c.splits), position=s.position, of=s.of, done=len(c.splits),
                     time=format_duration(c.splits[-1]))
    else:
        result = tr(lang, "place {position} of {of}, with {pieces} pieces",
                    position=s.position, of=s.of, pieces=s.pieces or 0)
    head = (tr(lang, "The final results of {category} were corrected: {result}.",
               category=category, result=result) if again else
            tr(lang, "Final results of {category}: {result}.", category=category,
               result=result))
    lines = [head]
    detail = result_detail(lang, c) if s.time is not None else ""
    if detail:
        lines.append(tr(lang, "How it is made up: {detail}.", detail=detail))
    if s.time is not None and c.time_penalty:
        lines.append(penalties_text(lang, contest, c.penalties, c.time_penalty))
    if s.prizes:
        lines.append(tr(lang, "Prize: {prizes}.", prizes="; ".join(s.prizes)))
    lines.extend(title_lines(lang, contest, separate, s.titles))
    if s.position is not None and not again:
        lines.append(tr(lang, "Thank you for taking part, and well done!"))
    if may_see:
        lines.append(tr(lang, "The whole ranking: /clasificacion"))
    return "\n".join(lines)


def _no_place(lang: str, s: Standing) -> str:
    if s.outcome == "oc" and s.time is not None:
        return tr(lang, "{time}, out of competition (not placed)", time=format_duration(s.time))
    if s.outcome is not None:
        return tr(lang, "recorded as {outcome}, so no place",
                  outcome=outcome_text(lang, s.outcome))
    return tr(lang, "no result recorded, so no place")


@dataclass(frozen=True)
class Gaps:
    """A category's entries a publication would leave out: ``missing`` (number, name) with no
    result recorded (no place), ``unreachable`` those it would tell with no phone linked."""

    missing: tuple[tuple[int, str], ...] = ()
    unreachable: tuple[tuple[int, str], ...] = ()


def no_result(s: Standing) -> bool:
    """Nothing recorded for the entry: no finish, no pieces, no outcome (so no place)."""
    return s.position is None and s.outcome is None and s.time is None and s.pieces is None


def _entries(entries: Sequence[tuple[int, str]]) -> str:
    shown = [f"#{n} {name}".strip() for n, name in entries[:20]]
    return ", ".join(shown) + (", …" if len(entries) > 20 else "")


def publish_question(lang: str, contest: Contest, ready: Sequence[Publishable],
                     refused: Sequence[StandingsRefusal], people: int,
                     gaps: Mapping[str, Gaps] | None = None) -> str:
    """/publicar asks first: which categories, how many entries each tells, who it reaches,
    and who would be left out: entries with no result (no place), entries nobody can tell."""
    lines = [tr(lang, "Make these results final and tell each entry its place?")]
    for p in ready:
        told = len(p.tell)
        lines.append("· " + (
            ntr(lang, "{category}: again, to the {n} entry whose result changed",
                "{category}: again, to the {n} entries whose result changed", told,
                category=p.category.name) if p.again else
            ntr(lang, "{category}: {n} entry", "{category}: {n} entries", told,
                category=p.category.name)))
        gap = (gaps or {}).get(p.category.id)
        if gap is not None and gap.missing:
            lines.append("  ⚠️ " + ntr(
                lang, "{n} entry has no result and would get no place: {entries}. Record its "
                "pieces ({pieces} N P) or that it did not start, or publish anyway.",
                "{n} entries have no result and would get no place: {entries}. Record their "
                "pieces ({pieces} N P) or that they did not start, or publish anyway.",
                len(gap.missing), entries=_entries(gap.missing), pieces=typed(lang, PIECES)))
        if gap is not None and gap.unreachable:
            lines.append("  ⚠️ " + ntr(
                lang, "{n} entry has no phone linked and will not be told: {entries}.",
                "{n} entries have no phone linked and will not be told: {entries}.",
                len(gap.unreachable), entries=_entries(gap.unreachable)))
    lines.append(ntr(lang, "It reaches {n} person.", "It reaches {n} people.", people))
    if refused:
        lines.append(tr(lang, "Not yet:"))
        lines.extend("· " + standings_refusal(lang, r, contest) for r in refused)
    return "\n".join(lines)


def published_text(lang: str, contest: Contest, ready: Sequence[Publishable],
                   refused: Sequence[StandingsRefusal]) -> str:
    """The organiser's answer once published."""
    lines = []
    if ready:
        lines.append(tr(lang, "Results final. Each entry is told its place:"))
        lines.extend("· " + ntr(lang, "{category}: {n} entry told",
                                "{category}: {n} entries told", len(p.tell),
                                category=p.category.name) for p in ready)
    else:
        lines.append(tr(lang, "Nothing published."))
    if refused:
        lines.append(tr(lang, "Not yet:"))
        lines.extend("· " + standings_refusal(lang, r, contest) for r in refused)
    return "\n".join(lines)


def nothing_to_publish(lang: str, contest: Contest, refused: Sequence[StandingsRefusal]) -> str:
    lines = [tr(lang, "No results can be made final now:")]
    lines.extend("· " + standings_refusal(lang, r, contest) for r in refused)
    return "\n".join(lines)


def not_published(lang: str) -> str:
    return tr(lang, "Nothing published.")


def publish_button(lang: str) -> str:
    return tr(lang, "Publish")


def publish_anyway_button(lang: str) -> str:
    return tr(lang, "Publish anyway")


def cancel_button(lang: str) -> str:
    return tr(lang, "Cancel")


def standings_refusal(lang: str, refused: StandingsRefusal, contest: Contest) -> str:
    match refused:
        case NotStarted(category=name):
            return tr(lang, "{category}: its clock has not started.", category=name)
        case NoEntries(category=name):
            return tr(lang, "{category} has no entries.", category=name)
        case ClaimsToReview(category=name, waiting=waiting):
            return tr(lang, "{category}: finishes claimed at home still wait for review "
                      "({entries}): confirm or turn each down first.", category=name,
                      entries=", ".join(f"#{n}" for n in waiting[:20]))
        case StillPlaying(category=name, playing=n, time_left=left):
            return ntr(lang, "{category}: {n} entry still playing, {left} of its time left.",
                       "{category}: {n} entries still playing, {left} of its time left.", n,
                       category=name, left=span_text(lang, left))
        case InRounds(category=name):
            return tr(lang, "{category} is played in rounds: its results are final once its "
                      "last round is confirmed (/confirmar_ronda).", category=name)
        case NothingNew(category=name, moment=when):
            return tr(lang, "{category}: made final at {time}, and nothing has changed since.",
                      category=name, time=clock_time(contest, when)[:5])
        case _:
            assert_never(refused)


def ranking_not_yet(lang: str, category: str) -> str:
    """A participant's /clasificacion before their category's results are final."""
    return tr(lang, "The ranking of {category} is shown here once its results are final.",
              category=category)


def ranking_for_organisers(lang: str) -> str:
    """A participant's /clasificacion where the contest shows rankings to organisers only."""
    return tr(lang, "In this contest the organisers give out the rankings.")


def final_note(lang: str, category: str) -> str:
    """After a change to a category whose results were already made final."""
    return tr(lang, "The results of {category} were already final: /publicar again tells the "
              "entries whose result changed.", category=category)
