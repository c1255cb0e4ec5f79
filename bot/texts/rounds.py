"""What people read about rounds: the names of rounds and heats, when and where a heat is
played, who goes through, the heats' lists, and why a rounds operation was refused."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import assert_never

from bot.domain.contest import Category, Contest, localized
from bot.domain.ranking import Row, Title
from bot.domain.rounds import Heat, heats_by_id, table_number
from bot.features.invitations.names import ACCEPT
from bot.features.results.names import PIECES
from bot.features.standings.names import RANKING
from bot.services.contest_day import RoundClosed
from bot.services.rounds import (
    HeatNotStarted,
    NoQualifiers,
    QualifiersWithoutHeat,
    RoundClaimsToReview,
    RoundConfirmed,
    RoundGaps,
    RoundNotOver,
    RoundQuestionOutdated,
    RoundsOver,
    RoundsRefusal,
)
from bot.support.commands import typed
from bot.support.i18n import ntr, tr
from bot.texts.names import clock_time, day_text, heat_by_id, names
from bot.texts.names import heat_name as heat_name  # re-exported: rounds' names live in names.py
from bot.texts.names import round_name as round_name
from bot.texts.titles import title_lines


def when_text(lang: str, contest: Contest, heat: Heat) -> str:
    """"Saturday 3 July at 10:00", and the heat's own venue when it has one."""
    when = heat.round.when(heat.number)
    text = day_text(lang, when.date) if when.start is None else tr(
        lang, "{day} at {time}", day=day_text(lang, when.date),
        time=clock_time(contest, when.start)[:5])
    return f"{text}, {when.venue}" if when.venue else text


def qualified_text(lang: str, contest: Contest, number: int, heat: Heat, table: int) -> str:
    return tr(lang, "Entry #{entry} goes through to {round} ({category}): {when}, table "
              "{table}. Well done!", entry=number, round=heat_name(lang, contest, heat),
              category=heat.category.name, when=when_text(lang, contest, heat), table=table)


def plays_text(lang: str, contest: Contest, number: int, heat: Heat, table: int) -> str:
    return tr(lang, "Entry #{entry} plays {round} ({category}): {when}, table {table}.",
              entry=number, round=heat_name(lang, contest, heat), category=heat.category.name,
              when=when_text(lang, contest, heat), table=table)


def out_text(lang: str, contest: Contest, number: int, category: Category, index: int,
             row: Row | None, played: bool = False,
             cap: tuple[int, str, str] | None = None,
             in_heat: tuple[Heat, int] | None = None) -> str:
    """To an entry that did not go through to the next round (``played``: its place there
    is not at hand, as for /series; ``cap``: (K, question, answer) when it was placed well
    enough but K entries with its answer already went through; ``in_heat``: in a round of
    several heats, its heat and its place there, said first: "third at its library")."""
    name = round_name(lang, contest, category, index)
    if played and index == len(category.rounds) - 1:
        return tr(lang, "Entry #{entry}: {round} of {category} is over; its results are "
                  "final.", entry=number, round=name, category=category.name)
    if played:
        return tr(lang, "Entry #{entry} did not go through after {round} of {category}. "
                  "Thank you for taking part!", entry=number, round=name,
                  category=category.name)
    if row is None or row.position is None:
        return tr(lang, "Entry #{entry}: {round} of {category} is over, and it has no result "
                  "in it. Thank you for taking part!", entry=number, round=name,
                  category=category.name)
    if cap is not None:
        most, question, answer = cap
        return tr(lang, "Entry #{entry}: {round} of {category} is over. Place {position} in "
                  "it, but the contest lets at most {most} entries with the same {what} "
                  "({answer}) go through, and {most} already do: the next best goes instead. "
                  "Thank you for taking part!", entry=number, round=name,
                  category=category.name, position=row.position, most=most,
                  what=_question_label(lang, contest, question), answer=answer)
    if in_heat is not None:
        heat, place = in_heat
        return tr(lang, "Entry #{entry}: {round} of {category} is over. Place {place} in "
                  "{heat} (place {position} across the round's {heats} heats); not enough to "
                  "go through this time. Thank you for taking part!", entry=number,
                  round=name, category=category.name, place=place,
                  heat=heat_name(lang, contest, heat), position=row.position,
                  heats=heat.round.heats)
    return tr(lang, "Entry #{entry}: {round} of {category} is over. Place {position} in it; "
              "not enough to go through this time. Thank you for taking part!", entry=number,
              round=name, category=category.name, position=row.position)


def _question_label(lang: str, contest: Contest, question_id: str) -> str:
    """A question's short name ("country") in the reader's language, else its id."""
    q = contest.question(question_id)
    if q is None:
        return question_id
    return (localized(q.label, lang, contest.language) or question_id).lower()


def final_place_text(lang: str, category: Category, number: int, row: Row,
                     contest: Contest | None = None, titles: Sequence[Title] = ()) -> str:
    """Each entry placed, once the last round is confirmed: its place, and its places in the
    category's separate rankings (``titles``: the best under 18s...)."""
    text = tr(lang, "Entry #{entry}: final classification of {category}: place {position}.",
              entry=number, category=category.name, position=row.position)
    text += f" {row.prize}" if row.prize else ""
    if contest is None or not titles:
        return text
    return "\n".join([text, *title_lines(lang, contest, category.separate, titles)])


def lineup_lines(lang: str, contest: Contest, category: Category, index: int,
                 heats: Sequence[Sequence[int]], who: Mapping[int, Sequence[str]]) -> list[str]:
    """The heats of a round, each entry with its table."""
    lines = []
    for h, numbers in enumerate(heats, 1):
        heat = Heat(category, index, h)
        lines.append(tr(lang, "{heat} ({when}):", heat=heat_name(lang, contest, heat),
                        when=when_text(lang, contest, heat)))
        for i, n in enumerate(numbers):
            lines.append(tr(lang, "  table {table}: #{entry} {names}",
                            table=table_number(i, heat.round.per_table), entry=n,
                            names=names(who.get(n, ()))))
        if not numbers:
            lines.append("  " + tr(lang, "No entries."))
    return lines


def _round_by_heat(lang: str, contest: Contest, heat_id: str) -> str:
    heat = heats_by_id(contest.categories).get(heat_id)
    return round_name(lang, contest, heat.category, heat.round_index) if heat else heat_id


def rounds_refusal(lang: str, refused: RoundsRefusal, contest: Contest) -> str:
    """One line saying why a rounds operation (or a result in a confirmed round) was
    refused."""
    match refused:
        case RoundClaimsToReview(heat=heat, waiting=waiting):
            return tr(lang, "{heat}: finishes claimed at home still wait for review "
                      "({entries}): confirm or turn each down first.",
                      heat=heat_by_id(lang, contest, heat),
                      entries=", ".join(f"#{n}" for n in waiting[:20]))
        case RoundNotOver(heat=heat, waiting=waiting):
            return tr(lang, "{heat} is not over: no result yet for {entries}. Record their "
                      "finish or pieces first (or wait for the time limit).",
                      heat=heat_by_id(lang, contest, heat),
                      entries=", ".join(f"#{n}" for n in waiting[:20]))
        case RoundClosed(heat=heat):
            return tr(lang, "{heat} is confirmed: its results can't change any more.",
                      heat=heat_by_id(lang, contest, heat))
        case HeatNotStarted(heat=heat):
            return tr(lang, "{heat} has not been played: start its clock with /inicio {id} "
                      "first.", heat=heat_by_id(lang, contest, heat), id=heat)
        case QualifiersWithoutHeat(heat=heat, question=question, entries=entries):
            return tr(lang, "Not confirmed: {entries} would go through from {heat}, but their "
                      "answer to {question}, which decides their heat in the next round, is "
                      "missing or not one of its choices: they would play in no heat. Check "
                      "the question's choices in the contest file.",
                      entries=", ".join(f"#{n}" for n in entries),
                      heat=_round_by_heat(lang, contest, heat), question=question)
        case NoQualifiers(heat=heat):
            return tr(lang, "Nobody goes through from {heat} by the contest file's rule "
                      "(advance): check the results, or the rule, before confirming.",
                      heat=_round_by_heat(lang, contest, heat))
        case RoundsOver(category=category):
            return tr(lang, "Every round of {category} is already confirmed.",
                      category=category)
        case RoundQuestionOutdated(category=category):
            return tr(lang, "{category}: that question was about a round confirmed since. "
                      "Nothing changed.", category=category)
        case _:
            assert_never(refused)


# -- /confirmar_ronda, /series, the table lists ---------------------------------------------


def no_rounds(lang: str) -> str:
    return tr(lang, "This contest has no rounds: each category is played once, and "
              "{ranking} gives its ranking.", ranking=typed(lang, RANKING))


def which_category(lang: str, with_rounds: Sequence[Category]) -> str:
    return tr(lang, "Which category? Categories with rounds: "
              "{ids}", ids=", ".join(c.name for c in with_rounds))


def confirmed_text(lang: str, contest: Contest, out: RoundConfirmed,
                   who: Mapping[int, Sequence[str]]) -> str:
    """To the organiser, a round confirmed with a next one: who goes through, in its heats."""
    category, index = out.category, out.round_index
    lines = [tr(lang, "{category}: {round} confirmed. {count} go through to "
                "{next}:", category=category.name,
                round=round_name(lang, contest, category, index),
                count=len(out.qualifiers),
                next=round_name(lang, contest, category, index + 1))]
    lines += lineup_lines(lang, contest, category, index + 1, out.heats, who)
    return "\n".join(lines)


def lineup_text(lang: str, contest: Contest, category: Category, index: int,
                heats: Sequence[Sequence[int]], who: Mapping[int, Sequence[str]]) -> str:
    """/series: the round being played, its heats and their tables."""
    lines = [tr(lang, "{category}: {round}", category=category.name,
                round=round_name(lang, contest, category, index))]
    lines += lineup_lines(lang, contest, category, index, heats, who)
    return "\n".join(lines)


def entries_heats_text(lang: str, lines: Sequence[str]) -> str:
    """/series for a participant: each followed entry's heat and table (``plays_text``,
    ``out_text``)."""
    return "\n".join(lines) or tr(
        lang, "Your entry is not in a heat: heats are for categories played in "
        "rounds.")


def round_gaps_question(lang: str, contest: Contest, out: RoundGaps) -> str:
    """/confirmar_ronda asks first when entries of the round have no result (confirmed, they
    would be ranked nowhere in it and never go through), or when qualifiers invited to the
    next round have no phone linked (their invitation would reach nobody and lapse)."""
    round_ = round_name(lang, contest, out.category, out.round_index)
    lines = []
    if out.missing:
        lines.append(ntr(
            lang, "{category}, {round}: {n} entry has no result and would be left out of "
            "the round's ranking: {entries}. Record its pieces ({pieces} N P) or that it "
            "did not start, or confirm the round anyway.",
            "{category}, {round}: {n} entries have no result and would be left out of "
            "the round's ranking: {entries}. Record their pieces ({pieces} N P) or that "
            "they did not start, or confirm the round anyway.", len(out.missing),
            category=out.category.name, round=round_, entries=_listed(out.missing),
            pieces=typed(lang, PIECES)))
    if out.unreachable:
        lines.append(ntr(
            lang, "{category}, {round}: {n} qualifier has no phone linked, so its invitation "
            "to the next round would reach nobody and lapse: {entries}. Give it its link, "
            "or once the round is confirmed answer for it ({accept} N).",
            "{category}, {round}: {n} qualifiers have no phone linked, so their invitations "
            "to the next round would reach nobody and lapse: {entries}. Give them their "
            "link, or once the round is confirmed answer for them ({accept} N).",
            len(out.unreachable), category=out.category.name, round=round_,
            entries=_listed(out.unreachable), accept=typed(lang, ACCEPT)))
    return "\n".join(lines)


def _listed(entries: Sequence[tuple[int, str]]) -> str:
    return ", ".join(f"#{n} {who}".rstrip() for n, who in entries)


def confirm_anyway_button(lang: str) -> str:
    return tr(lang, "Confirm anyway")


def cancel_confirm_button(lang: str) -> str:
    return tr(lang, "Not yet")


def not_confirmed(lang: str) -> str:
    return tr(lang, "Nothing confirmed: the round is still open.")
