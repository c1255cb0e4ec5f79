"""What a rehearsal plays, drawn from its seed: the teams it registers and, for a contest
played once, the messages of the day. The same seed draws the same day."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import date, datetime, timedelta
from datetime import time as dtime

from num2words import num2words  # type: ignore[import-untyped]

from bot.domain.clock import CategoryClock, Pause, format_duration
from bot.domain.contest import Contest, Enigma, EscapeRules, Slot
from bot.features.escape.answers import is_right
from bot.features.escape.rules import Cooldown, CooldownPastEnd, StageSame
from bot.features.results.names import JOKER
from bot.rehearsal.actions import PHOTO, Action, Person, Stage, Team

# the refusals the day means (``Action.expect``): a hint asked too soon, to show the bot's
# answer; the stage an unsolved pair reached, confirmed at the handover when it already was
TOO_SOON = (Cooldown.code, CooldownPastEnd.code)
STAGE_AGAIN = (StageSame.code,)

FIRST_NAMES = ["Ana", "Bruno", "Carla", "David", "Elena", "Fernando", "Gloria", "Hugo", "Inés",
               "Javier", "Lucía", "Mario", "Nuria", "Óscar", "Paula", "Raúl", "Sara", "Tomás",
               "Úrsula", "Víctor", "Chloé", "Louis", "Manon", "Théo", "Camille", "Léa"]
LAST_NAMES = ["García", "López", "Martín", "Sánchez", "Pérez", "Gómez", "Ruiz", "Díaz",
              "Moreno", "Álvarez", "Dubois", "Lefèvre", "Bernard", "Roux", "Fournier"]


def birth(contest: Contest, rng: random.Random, slot: Slot) -> date:
    """A birth date that fits ``slot`` on the contest's day."""
    day = contest.date
    if slot.born_from is not None or slot.born_to is not None:
        low = slot.born_from if slot.born_from is not None else 1950
        high = slot.born_to if slot.born_to is not None else day.year - 8
        year = rng.randint(max(low, high - 45) if slot.born_from is None else low, high)
        return date(year, rng.randint(1, 12), rng.randint(1, 28))
    low_age = slot.min_age if slot.min_age is not None else 7
    high_age = slot.max_age if slot.max_age is not None else 70
    if slot.max_age is None:
        high_age = max(low_age + 1, min(70, low_age + 40))
    age = rng.randint(low_age, high_age)
    born = date(day.year - age - 1, 1, 1) + timedelta(days=rng.randint(0, 360))
    if day.year - born.year - ((day.month, day.day) < (born.month, born.day)) != age:
        born = date(day.year - age - 1, day.month, 1) + timedelta(days=rng.randint(0, 27))
    return born


def plan_teams(reh: Stage, entries: int, new_person: Callable[[str], Person]) -> None:
    """``entries`` teams in ``reh.teams``, each with its members, answers, phones and the
    moment it registers."""
    contest, rng = reh.contest, reh.rng
    cats = list(contest.categories)
    weights = [3 if c.escape else (2 if c.members > 1 else 1) for c in cats]
    for i in range(entries):
        category = cats[i] if i < len(cats) else rng.choices(cats, weights)[0]
        members, answers, phones = [], [], []
        family = rng.choice(LAST_NAMES)
        size = len(category.slots)
        if category.fewest < category.members:  # teams of varying size
            size = rng.randint(category.fewest, category.members)
        slots = category.slots[:size]
        firsts = rng.sample(FIRST_NAMES, size)
        for slot, first in zip(slots, firsts, strict=True):
            last = family if rng.random() < 0.5 else rng.choice(LAST_NAMES)
            name = f"{first} {last}"
            members.append((name, birth(contest, rng, slot)))
            ans = {q.id for q in contest.questions if rng.random() < 0.25}
            answers.append(ans)
        phones.append(new_person(members[0][0].split()[0]))
        if len(members) > 1:  # a team of varying size may be drawn with one member
            phones.append(new_person(members[1][0].split()[0]))
        meal = (0, 0)
        if contest.meal is not None and rng.random() < 0.6:
            meal = (rng.randint(1, 3), rng.randint(0, 2))
        reh.teams.append(Team(category, members, answers, phones, meal=meal))
    rules = contest.registration
    closes = rules.closes or datetime.combine(contest.date, dtime(0), reh.tz)
    opens = rules.opens or closes - timedelta(days=45)
    span = (closes - opens).total_seconds()
    moments = sorted(opens + timedelta(seconds=rng.uniform(0.02, 0.9) * span)
                     for _ in reh.teams)
    for team, moment in zip(reh.teams, moments, strict=True):
        team.registered_at = moment.replace(microsecond=0)


def category_clock(contest: Contest, start: datetime) -> CategoryClock:
    return CategoryClock.build(start, [Pause(b.start, b.end) for b in contest.breaks])


def _at_home(add: Callable[[datetime, Person, str], None], real: Callable[[float], datetime],
             rng: random.Random, team: Team, reviewer: Person, finish: float) -> None:
    """A self-timed entry's day at home: /listo and a photo of the finished puzzle, which the
    reviewer confirms (``/fin N``: the /listo's moment) or, now and then, turns down (the
    entry then finishes a little later and claims again); past the limit, a photo at time's
    up and the reviewer's count of its pieces."""
    n, limit, phone = team.number, team.category.time_limit, rng.choice(team.phones)
    if rng.random() < 0.5:  # the code on paper beside the open box
        add(real(rng.uniform(20, 120)), phone, PHOTO)
    if finish > limit - 30:
        add(real(limit + rng.uniform(10, 60)), phone, PHOTO)
        pieces = int(team.category.pieces * rng.uniform(0.55, 0.97))
        add(real(limit + rng.uniform(120, 300)), reviewer, f"/piezas {n} {pieces}")
        return
    photo = finish + rng.uniform(20, 90)
    add(real(finish), phone, "/listo")
    add(real(photo), phone, PHOTO)
    review = photo + rng.uniform(60, 240)
    if rng.random() < 0.12 and review + 600 < limit - 30:
        add(real(review), reviewer, f"/rechazar {n}")  # the puzzle in the photo not done
        finish = review + rng.uniform(120, 480)
        photo = finish + rng.uniform(20, 60)
        add(real(finish), phone, "/listo")
        add(real(photo), phone, PHOTO)
        review = photo + rng.uniform(60, 120)
    add(real(review), reviewer, f"/fin {n}")


DAY = 24 * 3600.0


def _season(add: Callable[[datetime, Person, str], None], real: Callable[[float], datetime],
            rng: random.Random, team: Team, reviewers: list[Person]) -> None:
    """An entry's season at home, each puzzle started when it wants (``own_start``): the
    puzzles in an order of its own, on days of its own, each claimed with /listo and a photo
    and confirmed by a reviewer some hours later (``/fin N``) before the next is started;
    some entries stop before the last."""
    cat = team.category
    n, phone, limit = team.number, rng.choice(team.phones), cat.time_limit
    order = list(range(1, len(cat.puzzles) + 1))
    rng.shuffle(order)
    t = rng.uniform(0.1, 4) * DAY
    for puzzle in order[:cat.puzzles_played]:
        pieces = cat.puzzles[puzzle - 1]
        took = pieces * rng.uniform(3.5, 9.0)  # seconds a piece, at home
        review = t + took + rng.uniform(1, 12) * 3600
        if review > limit - DAY or rng.random() < 0.08:
            return  # the season ends (or the entry stops) before this puzzle
        add(real(t), phone, f"/empiezo {puzzle}" if len(order) > 1 else "/empiezo")
        add(real(t + 60), phone, PHOTO)  # the code beside the open box
        add(real(t + took), phone, "/listo")
        add(real(t + took + rng.uniform(30, 300)), phone, PHOTO)
        add(real(review), rng.choice(reviewers), f"/fin {n}")
        t = review + rng.uniform(0.3, 6) * DAY


def _in_the_hall(add: Callable[[datetime, Person, str], None],
                 real: Callable[[float], datetime], rng: random.Random, team: Team,
                 vol: list[Person], begin: float, finish: float) -> None:
    """An entry's puzzle in the hall, from ``begin`` (past its escape): /listo and a volunteer's
    /fin, or its pieces counted at time's up. With several puzzles in sequence, a volunteer
    records each puzzle's split as the entry finishes it (``/parcial N TIME``, naming the puzzle
    where the entry chooses their order), before the last one's finish or count."""
    cat, n, limit = team.category, team.number, team.category.time_limit
    left = cat.pieces
    if cat.puzzles_played > 1:
        order = list(range(1, len(cat.puzzles) + 1))
        if cat.puzzle_order == "any":
            rng.shuffle(order)
        splitter = rng.choice(vol)
        played = cat.puzzles_played
        # about a third of the entries of a category with jokers give one puzzle up
        joker = rng.randrange(1, played) if cat.jokers and rng.random() < 0.35 else 0
        for k in range(1, played):
            split = begin + (min(finish, limit) - begin) * k / played
            which = f" {order[k - 1]}" if cat.puzzle_order == "any" else ""
            if k == joker:  # given up as the clock shows then
                add(real(split), splitter, f"/{JOKER} {n}{which}")
                continue
            add(real(split + 30), splitter, f"/parcial {n}{which} {format_duration(int(split))}")
        left = cat.puzzles[order[played - 1] - 1]  # the one being played at time's up
    if finish <= limit - 30:
        phone = rng.choice(team.phones)
        add(real(finish), phone, "/listo")
        add(real(finish + rng.uniform(30, 150)), rng.choice(vol), f"/fin {n}")
    else:
        pieces = int(left * rng.uniform(0.55, 0.97))
        add(real(limit + 120), rng.choice(vol), f"/piezas {n} {pieces}")


def _escape_by_volunteers(add: Callable[..., None], real: Callable[[float], datetime],
                          rng: random.Random, team: Team, rules: EscapeRules,
                          vol: list[Person]) -> int:
    """A pair playing an escape the volunteers run: its hints and solutions by stage, the
    volunteers' stages, its solve or the stage confirmed at the handover. Returns when the
    escape ended for it (contest seconds)."""
    n = team.number
    solve = rng.uniform(0.3, 1.15) * rules.time_limit
    solved = solve <= rules.time_limit
    stage_time = (min(solve, rules.time_limit) / rules.stages)
    last_request = -10_000.0
    reached = last_confirmed = 1
    for stage in range(1, rules.stages + 1):
        begin = (stage - 1) * stage_time + 60
        if begin >= rules.time_limit:
            break
        reached = stage
        if rng.random() < 0.45:
            t = max(begin + rng.uniform(60, stage_time * 0.6),
                    last_request + rules.cooldown + 5)
            if t < rules.time_limit - 60:
                phone = rng.choice(team.phones)
                if rng.random() < 0.3 and last_request > 0:
                    # too early: the bot refuses and tells them when
                    add(real(last_request + 120), phone, f"/pista {stage}", TOO_SOON)
                add(real(t), phone, f"/pista {stage}")
                last_request = t
                if rng.random() < 0.35:
                    t2 = t + rules.cooldown + rng.uniform(10, 120)
                    if t2 < min(stage * stage_time, rules.time_limit - 30):
                        add(real(t2), phone, f"/solucion {stage}")
                        last_request = t2
        if stage > 1 and rng.random() < 0.7:
            add(real(begin + 90), rng.choice(vol), f"/etapa {n} {stage}")
            last_confirmed = stage
    if solved:
        add(real(solve), rng.choice(vol), f"/escape {n}")
        return int(solve)
    add(real(rules.time_limit + 60), rng.choice(vol), f"/etapa {n} {reached}",
        STAGE_AGAIN if reached == last_confirmed else ())
    return rules.time_limit


WRONG_GUESSES = ("no sé", "la mesa", "42", "¿otra vez?", "norte")


def _escape_in_chat(add: Callable[..., None], real: Callable[[float], datetime],
                    rng: random.Random, team: Team, rules: EscapeRules) -> int:
    """A pair playing the escape in the chat: in each stage a wrong guess now and then (one at
    most: no wait), a clue and sometimes its solution (``/pista``, ``/solucion``: the stage the
    pair is in), then the right answer from one of its phones, typed as people type it (a
    number in words, a choice as its button sends it); unsolved pairs stop where the time
    limit finds them. Returns when the escape ended for it (contest seconds)."""
    solve = rng.uniform(0.3, 1.15) * rules.time_limit
    stage_time = min(solve, rules.time_limit) / rules.stages
    last_request = -10_000.0
    for g in rules.enigmas:
        begin = (g.stage - 1) * stage_time + 20
        right = g.stage * stage_time
        if right >= rules.time_limit - 5:
            return rules.time_limit
        phone = rng.choice(team.phones)
        guess = rng.choice(WRONG_GUESSES)
        if rng.random() < 0.4 and not is_right(g, guess):
            add(real(begin + rng.uniform(5, stage_time * 0.3)), phone, guess)
        t = max(begin + stage_time * 0.4, last_request + rules.cooldown + 5)
        if rng.random() < 0.4 and t < right - 10:
            add(real(t), phone, "/pista")
            last_request = t
            t2 = t + rules.cooldown + 5
            if rng.random() < 0.3 and t2 < right - 10:
                add(real(t2), phone, "/solucion")
                last_request = t2
        add(real(right), rng.choice(team.phones), _typed_answer(g, rng))
    return int(rules.stages * stage_time)


def _typed_answer(g: Enigma, rng: random.Random) -> str:
    """A right answer as a person types it: the first accepted, a number sometimes in
    Spanish words, a choice as its button sends it."""
    right = [c for c in g.choices if is_right(g, c)]
    if right:
        return right[0]
    first = g.answers[0]
    if g.numbers and first.isdigit() and rng.random() < 0.5:
        return str(num2words(int(first), lang="es"))
    return first.upper() if rng.random() < 0.3 else first


def plan_day(reh: Stage, start: datetime, confirmed: set[int]) -> list[Action]:
    """The messages of a contest played once: the organiser's start, the escape's hints and
    stages, finishes and pieces, the rankings at the end."""
    contest, rng = reh.contest, reh.rng
    actions: list[Action] = []

    def add(at: datetime, who: Person, text: str, expect: tuple[str, ...] = ()) -> None:
        actions.append(Action(at.replace(microsecond=0), reh.next_order(), who, text,
                              expect=expect))

    add(start, reh.organiser, "/inicio")
    clock = category_clock(contest, start)

    def real(contest_seconds: float) -> datetime:
        moment = clock.instant_at(int(contest_seconds))
        assert moment is not None
        return moment

    vol = reh.volunteers
    rules = contest.escape
    for team in reh.teams:
        if team.number not in confirmed:
            continue
        cat = team.category
        limit = cat.time_limit
        escape_end = 0
        if cat.escape and rules is not None and rules.in_chat:
            escape_end = _escape_in_chat(add, real, rng, team, rules)
        elif cat.escape and rules is not None:
            escape_end = _escape_by_volunteers(add, real, rng, team, rules, vol)
        finish = escape_end + rng.uniform(0.45, 1.2) * (limit - escape_end)
        if cat.own_start:
            _season(add, real, rng, team, vol)
            continue
        if cat.self_timed:
            _at_home(add, real, rng, team, rng.choice(vol), finish)
        else:
            _in_the_hall(add, real, rng, team, vol, escape_end, finish)
    end = max(real(c.time_limit) for c in contest.categories)
    # the results read out: made final, each entry told its place (the demo presses Publish),
    # then the rankings as the hall reads them, final (before /publicar they are provisional)
    add(end + timedelta(minutes=10), reh.organiser, "/publicar")
    add(end + timedelta(minutes=12), reh.organiser, "/clasificacion")
    return sorted(actions)
