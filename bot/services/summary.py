"""A readable summary of a contest file (``python -m bot check-contest``)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from bot.domain.clock import format_duration
from bot.domain.contest import (
    Advancement,
    Category,
    Contest,
    EscapeRules,
    Question,
    Round,
    SeparateRanking,
    Slot,
)
from bot.features.results.names import JOKER, SPLIT
from bot.features.selftimed.names import START
from bot.support.commands import CHANGES, command_for
from bot.support.registry import REGISTRY


def money(cents: int, currency: str = "EUR") -> str:
    symbol = {"EUR": "€"}.get(currency, currency)
    whole, rest = divmod(cents, 100)
    return f"{whole} {symbol}" if rest == 0 else f"{whole}.{rest:02d} {symbol}"


def describe_slot(slot: Slot) -> str:
    if slot.alternatives:
        return " or ".join([describe_slot(replace(slot, alternatives=())),
                            *(describe_slot(a) for a in slot.alternatives)])
    if slot.with_adult is not None:
        rest = replace(slot, with_adult=None)
        adult = f"with a member aged {slot.with_adult}+"
        return adult if rest.is_open else f"{describe_slot(rest)}, {adult}"
    if slot.is_open:
        return "anyone"
    parts = []
    if slot.born_from is not None and slot.born_to is not None:
        parts.append(f"born {slot.born_from}-{slot.born_to}")
    elif slot.born_from is not None:
        parts.append(f"born {slot.born_from} or later")
    elif slot.born_to is not None:
        parts.append(f"born {slot.born_to} or earlier")
    if slot.min_age is not None and slot.max_age is not None:
        parts.append(f"aged {slot.min_age}-{slot.max_age} on the day")
    elif slot.min_age is not None:
        parts.append(f"aged {slot.min_age}+ on the day")
    elif slot.max_age is not None:
        parts.append(f"under {slot.max_age + 1} on the day")
    return ", ".join(parts)


def _when(dt: object) -> str:
    return dt.strftime("%Y-%m-%d %H:%M") if isinstance(dt, datetime) else "(not set)"


def summary(contest: Contest) -> str:
    lines = [*_heading(contest), *_registration(contest), *_questions(contest),
             *_day(contest), "Categories:"]
    for c in contest.categories:
        lines += _category(contest, c)
    lines += _escape(contest)
    for feature in REGISTRY.features:  # what each feature read from its table of the file
        if feature.describe is not None:
            lines += feature.describe(contest)
    if contest.results_at is not None:
        lines.append(f"Results announced at {contest.results_at.strftime('%H:%M')}")
    return "\n".join(lines)


def _heading(contest: Contest) -> list[str]:
    """The name, the day, where and when it starts."""
    lines = [
        f"{contest.name}",
        f"  date {contest.date.isoformat()}, time zone {contest.timezone}, "
        f"language {contest.language}",
    ]
    if contest.venue:
        lines.append(f"  venue: {contest.venue}")
    if contest.start is not None:
        lines.append(f"  scheduled start {contest.start.strftime('%H:%M')}")
    return lines


def _registration(contest: Contest) -> list[str]:
    """When registration opens and closes, how places are held, payments and refunds."""
    reg = contest.registration
    lines = [
        f"Registration: opens {_when(reg.opens)}, closes {_when(reg.closes)}; "
        + (
            "places held once paid, by payment date then registration date"
            if reg.priority == "payment"
            else "first come, first served"
        )
        + ("" if reg.shared_capacity is None else f"; {reg.shared_capacity} places in all")
        + ("" if reg.shared_people_capacity is None else
           f"; at most {reg.shared_people_capacity} people in all")
    ]
    if reg.members_open is not None:
        lines.append(f"  entries with a member answering yes to {' or '.join(reg.members_if)} "
                     f"may register from {_when(reg.members_open)}")
    if reg.pay_within is not None:
        lines.append(f"  an entry not paid within {reg.pay_within.days} day(s) of registering "
                     "lapses (loses its place or its turn on the waiting list)")
    if reg.withdrawal_refund_until is not None:
        lines.append(f"  withdrawals refunded until {_when(reg.withdrawal_refund_until)}")
    if reg.refunds:
        tiers = ", ".join(f"{t.percent} % until {_when(t.until)}" for t in reg.refunds)
        lines.append(f"  withdrawals giving up a place refunded {tiers}, then 0 %")
    if reg.one_entry_per_person:
        lines.append("  one entry per person " + ("in the whole contest" if
                     reg.one_entry_scope == "contest" else "per category")
                     + " (same name and birth)")
    if reg.left_out_refund:
        lines.append(f"  entries left without a place are refunded {reg.left_out_refund}")
    return lines


def _questions(contest: Contest) -> list[str]:
    """The discount, what makes an entry local, the questions asked and the meal."""
    cur = contest.currency
    lines = []
    if contest.discount is not None:
        lines.append(
            f"Discount: {money(contest.discount.amount, cur)} per member who answers yes to "
            f"{' or '.join(contest.discount.any_of)} (once per person)"
        )
    if contest.local_if_any:
        lines.append(f"Local entry: a member answers yes to {' or '.join(contest.local_if_any)}")
    for asked in contest.questions:
        if asked.yes_no and not asked.per_entry:
            continue  # the usual kind: named by the discount and local lines
        lines.append(_question(asked))
    if contest.meal is not None:
        lines.append(
            f"Meal: {money(contest.meal.adult, cur)} per adult, "
            f"{money(contest.meal.child, cur)} per child"
        )
    return lines


def _question(asked: Question) -> str:
    what = (f"one of {', '.join(c.id for c in asked.choices)}" if asked.choices else
            f"a line of text (at most {asked.max_length} characters)"
            if asked.kind == "text" else "yes or no")
    places = [f"{c.id} {c.places}" for c in asked.choices if c.places is not None]
    return (f"Question {asked.id}: {what}, "
            + ("once per entry" if asked.per_entry else "per member")
            + (f" (only in {', '.join(asked.categories)})" if asked.categories else "")
            + (f"; places per answer: {', '.join(places)}" if places else "")
            + (f"; at most {asked.quota} entries with the same answer hold a place "
               "in a category" if asked.quota is not None else "")
            + ("; shown in rankings" if asked.show else "")
            + ("; public (in published documents)" if asked.public else ""))


def _day(contest: Contest) -> list[str]:
    """The breaks, the penalties and how ties are ranked."""
    lines = []
    for b in contest.breaks:
        lines.append(
            f"Break: {b.start.strftime('%H:%M')}-{b.end.strftime('%H:%M')} (clocks paused)"
        )
    for k in contest.penalties:
        name = k.name.get(contest.language) or next(iter(k.name.values()))
        lines.append(f"Penalty {k.id}: {name}, +{format_duration(k.seconds)} each")
    if contest.penalties:
        lines.append("  a finish within the limit " + (
            "stays a finish whatever its penalties" if contest.penalised_finish_counts else
            "whose penalties take it past the limit ranks as not finished, every piece placed"))
    if contest.tie_break != "shared" or contest.shared_prizes != "each" or \
            contest.has_rounds():
        lines.append("Ties: " + ("the better time in the round before first, then "
                                 if contest.tie_break == "earlier_round" else "")
                     + "a shared place; " + ("each entry of a shared place gets its prize"
                                             if contest.shared_prizes == "each" else
                                             "a shared place's entries share the prizes of "
                                             "the places they take up"))
    return lines


def _places(c: Category) -> str:
    """A category's places (in entries, in people), and, played once, its own start and
    drawn tables."""
    out = "no own limit" if c.capacity is None else f"{c.capacity} places"
    if c.people_capacity is not None:
        out += f", at most {c.people_capacity} people"
    if c.at_table is not None:
        out += f", {c.at_table} of an entry's members at the table at a time"
    if c.start is not None:
        out += f", starts {c.start.strftime('%H:%M')}"
    return out + (", tables drawn" if c.seating == "draw" else "")


def _category(contest: Contest, c: Category) -> list[str]:
    """A category's line, then its reserved places, rounds, separate rankings and prizes."""
    who = "; ".join(describe_slot(s) for s in c.slots)
    lines = [
        f"  {c.id}: {c.name} - "
        + (f"{c.members}" if c.fewest == c.members else f"{c.fewest} to {c.members}")
        + f" member(s) ({who}), {c.pieces} pieces, "
        f"limit {format_duration(c.time_limit)}, {_places(c)}, "
        f"fee {money(c.fee, contest.currency)}"
        + (", escape stage" if c.escape else "")
        + ("" if c.keep_originals is None else
           f", members may change before it plays (/{command_for(CHANGES)}), keeping "
           f"{c.keep_originals} original(s)")
        + (", self-timed at home (/listo, a photo with the start's code, a reviewer "
           "confirms)" if c.self_timed and not c.own_start else "")
        + (f", self-timed at home, each entry starting each puzzle itself (/{START}; its "
           "time the sum of its puzzles' own times; not done at the end: "
           f"{' then '.join(c.unfinished_order)})" if c.own_start else "")
    ]
    for q in c.reserved:
        lines.append(
            f"    {q.places} places kept for {q.for_kind} entries until {_when(q.until)}"
        )
    for i, r in enumerate(c.rounds):
        lines.append(_round(contest, r, i == 0))
    for sr in c.separate:
        lines.append(_separate(contest, sr))
    if c.puzzles:
        lines.append(f"    puzzles{_order(c.puzzle_order, c.play)}"
                     f": {' + '.join(str(p) for p in c.puzzles)} pieces "
                     + ("(each claimed by the entry)" if c.own_start else
                        f"(split times with /{SPLIT})"))
    if c.jokers:
        lines.append(f"    {c.jokers} joker(s): a puzzle given up with /{JOKER} counts nothing, "
                     "and the entry is then ranked by pieces"
                     + (f"; +{c.joker_bonus} pieces for each joker kept" if c.joker_bonus
                        else ""))
    for i, p in enumerate(c.prizes, 1):
        lines.append(f"    prize {i}: {p}")
    for x in c.extra_prizes:
        lines.append(f"    {x.name} ({x.among}): {x.prize}")
    return lines


def _order(order: str, play: int) -> str:
    """How a category's or a round's puzzles are played, as the day plays them."""
    if order != "any":
        return " in sequence"
    return " in any order" + (f", each entry playing {play} of them" if play else "")


def _round(contest: Contest, r: Round, first: bool) -> str:
    seating = {"blocks": "seated by entry number", "draw": "seated by a draw",
               "seeded": "seeded by the round before, fastest at the front"}[
        r.seating_rule(first)]
    return (f"    round {r.id} ({_round_name(contest, r)}): {_round_heats(r, contest.language)}"
            + (f"each entry in the heat of its answer to {r.heats_by}, "
               if r.heats_by else "")
            + f"{seating}, "
            + (f"{r.per_table} entries per table, " if r.per_table > 1 else "")
            + (f"puzzles {' + '.join(str(p) for p in r.puzzles)} pieces"
               + _order(r.puzzle_order, r.play) if r.puzzles else f"{r.pieces} pieces")
            + f", limit {format_duration(r.time_limit)}"
            + (f"; advance: {describe_advance(r.advance)}" if r.advance else ""))


def _round_heats(r: Round, language: str) -> str:
    """When a round's heats are played, as the round's line says it (ending ", ")."""
    if r.schedule:  # heats of their own days (qualifiers held as events)
        heats = "; ".join(
            (f"{h.name.get(language) or next(iter(h.name.values()))}: " if h.name else
             f"{r.heat_choices[k]}: " if r.heat_choices else f"heat {k + 1}: ")
            + f"{h.date}" + (f" {h.start.strftime('%H:%M')}" if h.start else "")
            + (f" at {h.venue}" if h.venue else "")
            + (f" (registration closes {h.closes.strftime('%Y-%m-%d %H:%M')})"
               if h.closes else "")
            + (f" (qualifiers of heats {', '.join(str(n) for n in h.takes)} of the round "
               "before)" if h.takes else "") for k, h in enumerate(r.schedule))
        return f"heats {heats}, "
    return f"{_round_when(r)}, " + (
        f"{r.heats} heats one after the other, " if r.heats > 1 else "")


def _separate(contest: Contest, sr: SeparateRanking) -> str:
    who_in = ", ".join(part for part in (
        f"aged {sr.min_age}+" if sr.min_age is not None and sr.max_age is None else "",
        f"aged {sr.max_age} or less" if sr.max_age is not None and sr.min_age is None
        else "",
        f"aged {sr.min_age}-{sr.max_age}" if None not in (sr.min_age, sr.max_age)
        else "",
        f"{sr.question} {'/'.join(sr.answers)}" if sr.question else "") if part)
    prizes = f"; prizes {', '.join(sr.prizes)}" if sr.prizes else ""
    by_year = " (the age reached in the contest's year)" if sr.age_by == "year" and (
        sr.min_age is not None or sr.max_age is not None) else ""
    return (f"    ranking {sr.id} ({sr.name.get(contest.language) or sr.id}): "
            f"{who_in}{by_year}{prizes}")


def _escape(contest: Contest) -> list[str]:
    e = contest.escape
    if e is None:
        return []
    return [
        f"Escape: {e.stages} stages, {e.initial_tickets} tickets, hint {e.hint_cost} / "
        f"solution {e.solution_cost} ticket(s), {format_duration(e.cooldown)} between "
        f"requests, ends at {format_duration(e.time_limit)}",
        f"  unused ticket worth {format_duration(e.ticket_value)}, cap {e.cap_solved} if "
        f"solved, else by confirmed stage {list(e.caps_by_stage)}; bought ticket "
        f"+{format_duration(e.hint_ticket_penalty)} (hint) / "
        f"+{format_duration(e.solution_ticket_penalty)} (solution)",
        *_in_chat(contest, e),
    ]


def _in_chat(contest: Contest, e: EscapeRules) -> list[str]:
    """How the game is run; played in the chat, what each enigma offers (never its answers:
    the summary is shown to whoever checks the file)."""
    if not e.in_chat:
        return ["  run by the volunteers (they hand clues over and confirm stages)"]
    langs = sorted({lang for g in e.enigmas for lang in g.text})
    lines = [f"  played in the chat: {len(e.enigmas)} enigmas (texts in {', '.join(langs)}); "
             f"{e.pause_after} wrong answers in a row -> a wait of {format_duration(e.pause)}; "
             f"volunteers told of clues: {'yes' if e.tell_volunteers else 'no'}"]
    for g in e.enigmas:
        extras = [f"{len(g.answers)} answer(s)"]
        if len(g.text) < len(langs) or contest.language not in g.text:
            # a phone reading another language gets the contest's (else the first given)
            extras.append(f"text in {', '.join(sorted(g.text))} only")
        if g.numbers:
            extras.append("numbers in words too")
        if g.choices:
            extras.append(f"{len(g.choices)} buttons")
        if g.picture:
            extras.append(f"picture {g.picture.rsplit('/', 1)[-1]}")
        lines.append(f"    stage {g.stage}: {', '.join(extras)}")
    return lines


def _round_name(contest: Contest, r: Round) -> str:
    return r.name.get(contest.language) or next(iter(r.name.values()))


def _round_when(r: Round) -> str:
    return f"{r.date}" + (f" {r.start.strftime('%H:%M')}" if r.start is not None else "")


def _span(seconds: int) -> str:
    """"3 days", "1 week", or "12:00:00" when it is not whole days."""
    days, rest = divmod(seconds, 86400)
    if rest or not days:
        return format_duration(seconds)
    if days % 7 == 0:
        weeks = days // 7
        return f"{weeks} week" + ("s" if weeks > 1 else "")
    return f"{days} day" + ("s" if days > 1 else "")


def describe_advance(a: Advancement) -> str:
    """"the top 4 of each heat, then the best up to 16; at most 5 per country"."""
    parts = []
    if a.per_heat is not None:
        parts.append(f"the top {a.per_heat} of each heat")
    if a.best is not None:
        parts.append(("then " if parts else "") + f"the best up to {a.best} in all")
    if a.top_percent is not None:
        parts.append(f"the best {a.top_percent} %")
    if a.better_than is not None:
        parts.append(f"every finish under {format_duration(a.better_than)}")
    text = ", ".join(parts)
    if a.max_per is not None:
        text += f"; at most {a.max_per} per {a.by}"
    if a.invite is not None:
        when = [f"by {_when(a.invite.by)}"] if a.invite.by is not None else []
        if a.invite.within is not None:
            when.append(f"within {_span(a.invite.within)} of being told")
        text += ("; invited: each answers " + " (the next in line: ".join(when)
                 + (")" if len(when) > 1 else "") + ", a place given up goes to the next in line")
        remind = a.invite.remind
        text += ("; no reminder" if remind == 0 else
                 f"; reminded {_span(remind)} before the deadline" if remind is not None else
                 "; reminded a day before the deadline (a quarter of the time when shorter)")
    return text
