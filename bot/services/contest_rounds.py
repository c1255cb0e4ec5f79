"""Reading a category's ``[[categories.rounds]]`` of a contest file: heats, their days,
times and venues, who advances, how they are seated, the puzzles each round plays."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import date, datetime, time
from typing import Any
from zoneinfo import ZoneInfo

from bot.domain.contest import (
    FALLBACK_LANGUAGE,
    Advancement,
    Category,
    Contest,
    HeatSchedule,
    Invite,
    Question,
    Round,
)
from bot.features.invitations.rules import begins_at
from bot.features.registration.rules import heat_begins
from bot.services.contest_toml import Table, lang_texts, new_id, one_based

ROUND_ID = re.compile(r"[a-z0-9_]{1,24}")
MAX_DAYS = 366  # rounds within a year of the contest's first day (a series of events)


def _advancement(t: Table, qids: set[str]) -> Advancement:
    """``advance = { per_heat = 2, best = 8, max_per = 2, by = "country" }``."""
    rule = Advancement(
        per_heat=t.int("per_heat", None),
        best=t.int("best", None),
        top_percent=t.int("top_percent", None),
        better_than=t.duration("better_than", None),
        max_per=t.int("max_per", None),
        by=t.get("by", str, None),
        invite=_invite(t.table("invite")),
    )
    t.done()
    if (rule.per_heat, rule.best, rule.top_percent, rule.better_than) == (None,) * 4:
        raise t.ctx.error(t.where, "needs per_heat, best, top_percent or better_than")
    if (rule.max_per is None) != (rule.by is None):
        raise t.ctx.error(t.key("by" if rule.by is None else "max_per"),
                          "is required with " + ("max_per" if rule.by is None else "by"))
    if rule.by is not None and rule.by not in qids:
        raise t.ctx.error(t.key("by"), f"must be a choice or text question (or a yes/no "
                          f"one asked per entry), not {rule.by!r}")
    return rule


def _invite(t: Table | None) -> Invite | None:
    """``invite = { by = 2024-11-01T18:00:00, within = "3 days" }``: the qualifiers are
    invited and confirm (``by`` or ``within``, or both); ``remind = "1 day"``: those still
    silent are reminded this long before their deadline ("0:00": never)."""
    if t is None:
        return None
    invite = Invite(by=t.moment("by", None), within=t.duration("within", None),
                    remind=t.duration("remind", None))
    t.done()
    if invite.by is None and invite.within is None:
        raise t.ctx.error(t.where, 'needs by (a date-time the qualifiers answer by) or within '
                          '(how long they have to answer once told, like "3 days")')
    if invite.within is not None and invite.within <= 0:
        raise t.ctx.error(t.key("within"), "must be longer than nothing")
    if invite.remind is not None and invite.within is not None and \
            invite.remind >= invite.within:
        # a reminder as early as being told, or earlier, would never come
        raise t.ctx.error(t.key("remind"), "must be shorter than within (the time to answer), "
                          'or "0:00" for no reminder')
    return invite


def _check_invite(r: Table, rnd: Round, after: Round) -> None:
    """An invitation answered by ``by`` must leave the qualifiers time before the next round
    (each heat of it) begins."""
    invite = rnd.advance.invite if rnd.advance is not None else None
    if invite is None or invite.by is None:
        return
    first = min(begins_at(after, h, r.ctx.tz) for h in range(1, after.heats + 1))
    if invite.by > first:
        raise r.ctx.error(f"{r.key('advance')}.invite.by",
                          f"is after the next round begins ({first:%Y-%m-%d %H:%M}): the "
                          "qualifiers must answer before they play")


def read_puzzles(t: Table) -> tuple[int, ...]:
    """``puzzles = [500, 500]``: puzzles played one after the other (split times)."""
    v = t.get("puzzles", list, [])
    for i, n in enumerate(v):
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise t.ctx.error(f"{t.key('puzzles')}[{i}]", "must be a number of pieces (1 or more)")
    if len(v) == 1:
        raise t.ctx.error(t.key("puzzles"), "needs two puzzles or more (one puzzle: pieces)")
    return tuple(v)


def _heat_schedule(h: Table, day: date, before: Round | None,
                   round_start: datetime | None = None) -> HeatSchedule:
    """``[[categories.rounds.heat]]``: one heat's own ``date``, ``start``, ``venue``,
    ``closes`` (its registration deadline, before it begins) and, in a later round, ``from``
    (the heats of the round ``before`` whose qualifiers play it)."""
    when = h.get("date", date, day)
    if not h.ctx.day <= when <= h.ctx.day.fromordinal(h.ctx.day.toordinal() + MAX_DAYS):
        raise h.ctx.error(h.key("date"), f"must be from the contest's date ({h.ctx.day}) to "
                          f"{MAX_DAYS} days after it, not {when}")
    start = h.clock_time("start", when, None)
    if start is None and round_start is not None:  # the round's hour, on the heat's day
        start = datetime.combine(when, round_start.timetz())
    closes = h.moment("closes", None)
    if closes is not None and before is not None:
        raise h.ctx.error(h.key("closes"), "is for the first round's heats (registration "
                          "closes; a later round's entrants are its qualifiers)")
    begins = start or datetime.combine(when, time(0), h.ctx.tz)
    if closes is not None and closes > begins:
        raise h.ctx.error(h.key("closes"), f"is after the heat begins ({begins:%Y-%m-%d %H:%M}): "
                          "registration for a heat closes before it, or when it begins")
    schedule = HeatSchedule(when, start, h.get("venue", str, ""), closes,
                            _takes(h, before), lang_texts(h, "name", False))
    h.done()
    return schedule


def _takes(h: Table, before: Round | None) -> tuple[int, ...]:
    """``from = ["fitchburg", "oregon"]`` (the round before's heat choices) or ``[1, 2]``
    (its heat numbers): the heat numbers, 1-based."""
    items = h.get("from", list, None)
    if items is None:
        return ()
    where = h.key("from")
    if before is None:
        raise h.ctx.error(where, "is for a later round (the heats of the round before)")
    choices = [c.lower() for c in before.heat_choices]
    out: list[int] = []
    for i, item in enumerate(items):
        if isinstance(item, int) and not isinstance(item, bool) and 1 <= item <= before.heats:
            heat = item
        elif isinstance(item, str) and item.lower() in choices:
            heat = choices.index(item.lower()) + 1
        else:
            known = (f"one of {', '.join(before.heat_choices)} or " if choices else "")
            raise h.ctx.error(f"{where}[{i}]", f"must be a heat of round {before.id!r}: "
                              f"{known}a number from 1 to {before.heats}, not {item!r}")
        if heat in out:
            raise h.ctx.error(f"{where}[{i}]", f"names heat {heat} twice")
        out.append(heat)
    if not out:
        raise h.ctx.error(where, "needs one heat of the round before or more")
    return tuple(out)


def _check_schedule(r: Table, schedule: tuple[HeatSchedule, ...], before: Round | None,
                    heats_by: str | None) -> None:
    """The heats' own deadlines (only where chosen at registration), what they take of the
    round before, and their days (none before the round before ends)."""
    _check_takes(r, schedule, before, heats_by)
    if heats_by is None and any(h.closes for h in schedule):
        k = next(k for k, h in enumerate(schedule) if h.closes)
        raise r.ctx.error(f"{r.key('heat')}[{k}].closes", "is for heats chosen at "
                          "registration (heats_by): this round's entrants are seated together")
    if before is not None:
        ends = max([before.date] + [h.date for h in before.schedule])
        for k, h in enumerate(schedule):
            if h.date < ends:
                raise r.ctx.error(f"{r.key('heat')}[{k}].date", f"is before the round before "
                                  f"ends ({ends}): a round is confirmed once all its heats "
                                  "are played")


def _check_takes(r: Table, schedule: tuple[HeatSchedule, ...], before: Round | None,
                 heats_by: str | None) -> None:
    """Heats taking the qualifiers of given heats (``from``) take all of them, each heat of
    the round before in exactly one: no qualifier is left without a heat."""
    taking = [s for s in schedule if s.takes]
    if not taking or before is None:
        return
    if heats_by is not None:
        raise r.ctx.error(r.key("heats_by"), "and the heats' from are two ways to split the "
                          "round: give one of them")
    if len(taking) != len(schedule):
        raise r.ctx.error(r.key("heat"), "give from in every heat of the round, or in none")
    seen: dict[int, int] = {}
    for k, s in enumerate(schedule):
        for heat in s.takes:
            if heat in seen:
                raise r.ctx.error(f"{r.key('heat')}[{k}].from", f"names heat {heat} of "
                                  f"{before.id!r}, already in heat {seen[heat] + 1}'s from")
            seen[heat] = k
    missing = [h for h in range(1, before.heats + 1) if h not in seen]
    if missing:
        raise r.ctx.error(r.key("heat"), f"no heat takes the qualifiers of heat "
                          f"{missing[0]} of {before.id!r} (from): they would play nowhere")


def puzzle_rules(t: Table, puzzles: tuple[int, ...]) -> dict[str, Any]:
    """``puzzle_order = "any"`` and ``play = N`` (N of the listed puzzles, chosen by each
    entry), for puzzles in sequence."""
    order = t.get("puzzle_order", str, "fixed")
    play = t.int("play", None) or 0
    if (order != "fixed" or play) and not puzzles:
        raise t.ctx.error(t.key("puzzle_order" if order != "fixed" else "play"),
                          "needs puzzles (two or more)")
    if play > len(puzzles):
        raise t.ctx.error(t.key("play"), f"is more than the {len(puzzles)} puzzles")
    if play and order != "any":
        raise t.ctx.error(t.key("play"), 'needs puzzle_order = "any" (each entry chooses)')
    return {"puzzle_order": order, "play": play if play != len(puzzles) else 0}


def read_pieces(t: Table, puzzles: tuple[int, ...], default: Any = ...) -> int:
    """``pieces``: the puzzles' total when they are listed (and then it may be left out)."""
    if puzzles and not t.has("pieces"):
        t.seen.add("pieces")
        return sum(puzzles)
    pieces: int = t.int("pieces", default)
    if puzzles and pieces != sum(puzzles):
        raise t.ctx.error(t.key("pieces"), f"is {pieces}, but the puzzles add up to "
                          f"{sum(puzzles)}")
    return pieces


def read_rounds(t: Table, pieces: int, time_limit: int, qids: set[str],
                cat_puzzles: tuple[int, ...], questions: dict[str, Question],
                cat_rules: dict[str, Any] | None = None) -> tuple[Round, ...]:
    """``[[categories.rounds]]``: heats, semi-finals, the final, each on its own day. A round
    playing the category's puzzles plays them as the category says (``cat_rules``: its
    ``puzzle_order`` and ``play``) unless it says otherwise: a setting of the category is
    never dropped silently once it has rounds (issue 48)."""
    rounds: list[Round] = []
    items = t.tables("rounds")
    for i, r in enumerate(items):
        rounds.append(_round(r, rounds, i == len(items) - 1, pieces, time_limit, qids,
                             cat_puzzles, questions, cat_rules or {}))
    for r, rnd, after in zip(items, rounds, rounds[1:], strict=False):
        _check_invite(r, rnd, after)
    return tuple(rounds)


def _round(r: Table, rounds: list[Round], last: bool, pieces: int, time_limit: int,
           qids: set[str], cat_puzzles: tuple[int, ...], questions: dict[str, Question],
           cat_rules: dict[str, Any]) -> Round:
    """One round, after ``rounds`` (``last``: the category's final)."""
    rid = new_id(r, ROUND_ID, "lowercase letters, digits or _ (at most 24)",
                 {x.id for x in rounds})
    day, start = _round_day(r, rounds)
    a = _round_advance(r, last)
    own = read_puzzles(r)
    puzzles = own or (cat_puzzles if not r.has("pieces") else ())
    # the category's puzzles, played as the category says unless the round says otherwise
    inherit = bool(puzzles) and not own and not (r.has("puzzle_order") or r.has("play"))
    heats, heats_by = _round_heats(r, rounds, questions)
    before = rounds[-1] if rounds else None
    schedule = tuple(_heat_schedule(h, day, before, start) for h in r.tables("heat"))
    if schedule and len(schedule) != heats:
        raise r.ctx.error(r.key("heat"), f"lists {len(schedule)} heats, but the round "
                          f"has {heats}")
    _check_schedule(r, schedule, before, heats_by)
    seating = _seating(r, rounds)
    rnd = Round(
        id=rid, name=lang_texts(r, "name", True), date=day, start=start,
        pieces=read_pieces(r, puzzles, pieces),
        puzzles=puzzles,
        time_limit=r.duration("time_limit", None) or time_limit,
        heats=heats, heats_by=heats_by, schedule=schedule,
        heat_choices=tuple(c.id for c in questions[heats_by].choices) if heats_by else (),
        advance=_advancement(a, qids) if a is not None else None,
        seating=seating,
        per_table=r.int("per_table", 1),
        **(cat_rules if inherit and cat_rules else puzzle_rules(r, puzzles)),
    )
    r.done()
    return rnd


def _round_day(r: Table, rounds: list[Round]) -> tuple[date, datetime | None]:
    """The round's ``date`` and ``start``: within the contest's month, after the round before."""
    day = r.get("date", date, r.ctx.day)
    if not r.ctx.day <= day <= r.ctx.day.fromordinal(r.ctx.day.toordinal() + MAX_DAYS):
        raise r.ctx.error(r.key("date"), f"must be from the contest's date ({r.ctx.day}) "
                          f"to {MAX_DAYS} days after it, not {day}")
    if rounds and day < max([rounds[-1].date] + [h.date for h in rounds[-1].schedule]):
        raise r.ctx.error(r.key("date"), "is before the round before (or one of its heats)")
    start = r.clock_time("start", day, None)
    if start is not None and rounds and rounds[-1].start is not None \
            and start <= rounds[-1].start:
        raise r.ctx.error(r.key("start"), "is not after the round before's start")
    return day, start


def _round_advance(r: Table, last: bool) -> Table | None:
    """``advance``: required before the last round, not in it."""
    a = r.table("advance")
    if a is None and not last:
        raise r.ctx.error(r.key("advance"), "is required (who goes to the next round)")
    if a is not None and last:
        raise r.ctx.error(r.key("advance"), "is for rounds before the last")
    return a


def _round_heats(r: Table, rounds: list[Round], questions: dict[str, Question]
                 ) -> tuple[int, str | None]:
    """``heats``, or ``heats_by``: a choice question asked once per entry, a heat per choice
    (the first round: chosen at registration; a later one: its qualifiers by their answer)."""
    heats_by = r.get("heats_by", str, None)
    heats: int = r.int("heats", 1)
    if heats_by is None:
        return heats, None
    q = questions.get(heats_by)
    if q is None or not q.choices or not q.per_entry:
        raise r.ctx.error(r.key("heats_by"), "must be a choice question asked once "
                          f"per entry (per = \"entry\"), not {heats_by!r}")
    if r.has("heats") and heats != len(q.choices):
        raise r.ctx.error(r.key("heats"), f"is {heats}, but {heats_by} has "
                          f"{len(q.choices)} choices (one heat each)")
    return len(q.choices), heats_by


def _seating(r: Table, rounds: list[Round]) -> str:
    """``seating``: one of ``SEATINGS``; seeded only after a round (its results)."""
    seating: str = r.get("seating", str, "")
    if seating == "seeded" and not rounds:
        raise r.ctx.error(r.key("seating"), "seeded needs a round before (its results); "
                          "the first round is seated in blocks or drawn")
    return seating


def check_split_questions(root: Table, categories: Sequence[Category],
                          questions: dict[str, Question]) -> None:
    """A round split by a question needs every entry of its category to answer it."""
    for i, cat in enumerate(categories):
        for k, rnd in enumerate(cat.rounds):
            q = questions.get(rnd.heats_by or "")
            if q is not None and not q.asks(cat.id):
                raise root.ctx.error(f"categories[{i}].rounds[{k}].heats_by",
                                     f"{q.id} is not asked in {cat.id} (questions.categories):"
                                     " its entries would play in no heat")


def contest_warnings(contest: Contest, path: str) -> list[str]:
    """What a valid file may still get wrong, one line each (``check-contest`` prints them):
    registration closing after a category's first heat begins (unless its heats have their own
    deadlines, ``closes``: the organiser said when each one closes). The round's entrants are set
    when its heats begin, so the chat and the import refuse a later entry (or, where heats
    are chosen at registration, offer only the heats still to come)."""
    out = language_warnings(contest, path)
    closes = contest.registration.closes
    if closes is None:
        return out
    for i, cat in enumerate(contest.categories):
        if not cat.rounds or (cat.rounds[0].heats_by is not None
                              and any(h.closes for h in cat.rounds[0].schedule)):
            continue  # played once, or heats chosen with their own deadlines (a series)
        rnd = cat.rounds[0]
        begins = min(heat_begins(contest, cat, h) for h in range(1, rnd.heats + 1))
        if closes <= begins:
            continue
        said = (f"{path}: registration.closes: {_on_the_hall_clock(closes, contest)} is after "
                f"{cat.id}'s first heat begins ({_on_the_hall_clock(begins, contest)}, "
                f"categories[{i + 1}].rounds[1]): ")
        if rnd.heats_by is not None:
            out.append(said + "from then on an entry can choose only a heat still to come")
        else:
            out.append(said + f"from then on {cat.id} takes no more entries")
    return out


LANGUAGE_NAMES = {"es": "Spanish", "fr": "French", "en": "English", "de": "German",
                  "it": "Italian", "pt": "Portuguese", "nl": "Dutch"}


def _texts(contest: Contest) -> list[tuple[str, Mapping[str, str]]]:
    """Every text of the file written per language, with where it is."""
    out: list[tuple[str, Mapping[str, str]]] = []
    for i, cat in enumerate(contest.categories):
        for k, rnd in enumerate(cat.rounds):
            out.append((f"categories[{i}].rounds[{k}].name", rnd.name))
            out += [(f"categories[{i}].rounds[{k}].heat[{h}].name", slot.name)
                    for h, slot in enumerate(rnd.schedule) if slot.name]
        out += [(f"categories[{i}].rankings[{k}].name", sr.name)
                for k, sr in enumerate(cat.separate)]
    for i, q in enumerate(contest.questions):
        out.append((f"questions[{i}].text", q.text))
        if q.label:
            out.append((f"questions[{i}].label", q.label))
        out += [(f"questions[{i}].choices[{k}].label", c.label)
                for k, c in enumerate(q.choices) if c.label]
    out += [(f"penalties[{i}].name", p.name) for i, p in enumerate(contest.penalties)]
    return out


def language_warnings(contest: Contest, path: str) -> list[str]:
    """The languages the file writes its texts in (and the contest's own): a text missing one
    of them is read in another by those readers (English first, then the contest's language):
    one line per language, naming the texts."""
    # a text written once (a library's name) is every language's: it offers none
    texts = [(where, t) for where, t in _texts(contest) if len(set(t.values())) > 1]
    offered = {contest.language} | {code for _, t in texts for code, v in t.items() if v}
    out = []
    for code in sorted(offered, key=lambda c: list(LANGUAGE_NAMES).index(c)
                       if c in LANGUAGE_NAMES else 99):
        missing = [where for where, t in texts if not t.get(code)]
        if not missing:
            continue
        more = f" and {len(missing) - 8} more" if len(missing) > 8 else ""
        shown = ", ".join(one_based(w) for w in missing[:8]) + more
        out.append(f"{path}: no {LANGUAGE_NAMES.get(code, code)} ({code}) text for {shown}: "
                   f"its readers read another language there ({FALLBACK_LANGUAGE} where there "
                   f"is one, else {contest.language})")
    return out


def _on_the_hall_clock(moment: datetime, contest: Contest) -> str:
    return moment.astimezone(ZoneInfo(contest.timezone)).strftime("%Y-%m-%d %H:%M")
