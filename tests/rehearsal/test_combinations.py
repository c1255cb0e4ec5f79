"""Every combination the contest file allows (issue 48): hypothesis writes contest files
across the declared model — rounds × several puzzles × their order × team sizes × timing
(hall or home) × separate rankings × the escape — and for each: ``check-contest`` accepts it
and its summary says what the day will play; the rehearsal plays it at a small size with no
traceback and its verdict (every entry that played has a result or a stated reason); the
contest exported as a document and read back ranks the same.

``make test`` tries a few dozen files against the checks and one per format in a rehearsal;
``make soak`` (``PUZZLEBOT_FULL_TESTS=1``) many more."""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.domain.rounds import heats_of
from bot.services.contest_file import load_contest, parse_contest
from bot.services.summary import summary
from tests.documents import round_trip
from tests.rehearsal.test_rehearsal import rehearse

FULL = os.environ.get("PUZZLEBOT_FULL_TESTS") == "1"
CHECKED = 300 if FULL else 40
REHEARSED = 12 if FULL else 1  # per format


@dataclass
class Cat:
    id: str
    members: int
    fewest: int
    pieces: int
    limit: str
    puzzles: list[int] = field(default_factory=list)
    order: str = "fixed"
    play: int = 0
    rounds: int = 0  # 0: played once; 2: heats (1 or 2) and a final
    heats: int = 1
    advance: str = "best = 2"
    seating: str = ""
    youth: bool = False
    drawn: bool = False  # played once: its own start, its tables drawn
    age_by: str = "day"
    escape: bool = False
    self_timed: bool = False
    own_start: bool = False
    jokers: int = 0  # puzzles an entry may give up
    joker_bonus: int = 0

    def toml(self) -> str:
        lines = ["[[categories]]", f'id = "{self.id}"', f'name = "Category {self.id}"',
                 f"members = {self.members}", f'time_limit = "{self.limit}"', "fee = 5"]
        if self.fewest < self.members:
            lines.append(f"min_members = {self.fewest}")
        lines.append(f"pieces = {sum(self.puzzles) if self.puzzles else self.pieces}")
        if self.puzzles:
            lines.append(f"puzzles = {self.puzzles}")
            lines.append(f'puzzle_order = "{self.order}"')
            if self.play:
                lines.append(f"play = {self.play}")
        if self.jokers:
            lines.append(f"jokers = {self.jokers}")
            if self.joker_bonus:
                lines.append(f"joker_bonus = {self.joker_bonus}")
        if self.escape:
            lines.append("escape = true")
        if self.self_timed:
            lines.append('timing = "self"')
        if self.own_start:
            lines.append("own_start = true")
        if self.drawn:
            lines += ['start = "10:15"', 'seating = "draw"']
        if self.rounds:
            lines += ["", "[[categories.rounds]]", 'id = "heats"', 'name = "Heats"',
                      'start = "10:00"', f"heats = {self.heats}",
                      f"advance = {{ {self.advance} }}",
                      "", "[[categories.rounds]]", 'id = "final"', 'name = "Final"',
                      'start = "15:00"'] + ([f'seating = "{self.seating}"'] if self.seating
                                           else [])
        if self.youth:
            lines += ["", "[[categories.rankings]]", 'id = "youth"', 'name = "Youth"',
                      "max_age = 17", f'age_by = "{self.age_by}"']
        return "\n".join(lines) + "\n"


@st.composite
def categories(draw: st.DrawFn, cid: str, home: bool, escape: bool, need: str = "") -> Cat:
    """A category; ``need``: the format it must have (a rehearsal of each is sure to run)."""
    if escape:
        return Cat(cid, 2, 2, 500, "2:00:00", escape=True)
    members = 4 if need == "teams" else draw(st.integers(1, 4))
    fewest = 2 if need == "teams" else draw(st.integers(1, members))
    cat = Cat(cid, members, fewest, draw(st.sampled_from([300, 500])),
              draw(st.sampled_from(["1:00:00", "2:00:00"])))
    cat.self_timed = home
    if home:
        cat.own_start = need == "own_start" or draw(st.booleans())
    if need in ("own_start", "any", "jokers"):
        cat.puzzles = [300, 200, 100]
    elif not home or cat.own_start:
        cat.puzzles = draw(st.sampled_from([[], [], [200, 300], [300, 200, 100]]))
    if cat.puzzles:
        cat.order = "any" if need == "any" else draw(st.sampled_from(["fixed", "any"]))
        if cat.order == "any" and len(cat.puzzles) == 3 and need != "jokers":
            cat.play = 2 if need == "any" else draw(st.sampled_from([0, 2]))
    if not home and need != "jokers":
        cat.rounds = 2 if need == "rounds" else draw(st.sampled_from([0, 0, 2]))
    if cat.puzzles and not home and not cat.rounds and not cat.play:
        cat.jokers = 1 if need == "jokers" else draw(st.sampled_from([0, 0, 1]))
        cat.joker_bonus = draw(st.sampled_from([0, 100])) if cat.jokers else 0
    if cat.rounds:
        cat.limit = "1:00:00"
        cat.heats = draw(st.integers(1, 2))
        cat.advance = draw(st.sampled_from(["best = 2", "per_heat = 1", "top_percent = 50"]))
        cat.seating = draw(st.sampled_from(["", "draw", "seeded"]))
    cat.youth = draw(st.booleans())
    cat.drawn = not cat.rounds and not home and draw(st.booleans())
    cat.age_by = draw(st.sampled_from(["day", "year"]))
    return cat


@dataclass
class File:
    home: bool
    cats: list[Cat]
    tie_break: str
    see: str
    language: str

    def toml(self) -> str:
        head = ["[contest]", 'name = "Generated contest"', "date = 2027-06-05",
                'timezone = "Europe/Madrid"', f'language = "{self.language}"',
                'start = "10:00"', f'tie_break = "{self.tie_break}"',
                f'participants_see_ranking = "{self.see}"']
        if self.home:
            head.append('timing = "self"')
        text = "\n".join(head) + "\n\n"
        if any(c.escape for c in self.cats):
            text += ESCAPE
        return text + "\n".join(c.toml() for c in self.cats)


ESCAPE = """[escape]
stages = 3
initial_tickets = 2
hint_cost = 1
solution_cost = 2
cooldown = "5:00"
ticket_value = "10:00"
time_limit = "0:30:00"
cap_solved = 2
caps_by_stage = [0, 1, 2]
hint_ticket_penalty = "5:00"
solution_ticket_penalty = "10:00"

"""


NEEDS = ("rounds", "any", "own_start", "escape", "teams", "home", "jokers")


@st.composite
def contest_files(draw: st.DrawFn, need: str = "") -> File:
    """A contest file; ``need``: one of NEEDS it must have."""
    home = need in ("own_start", "home") or (need not in ("rounds", "escape", "any", "jokers")
                                             and draw(st.booleans()))
    n = draw(st.integers(1, 3))
    escape = need == "escape" or (not home and draw(st.booleans()))
    cats = [draw(categories(f"c{i + 1}", home, escape and i == 0, need if i == 0 else ""))
            for i in range(n)]
    if need == "escape" and n == 1:
        cats.append(draw(categories("c2", home, False)))
    tie = "earlier_round" if any(c.rounds for c in cats) and draw(st.booleans()) else "shared"
    return File(home, cats, tie, draw(st.sampled_from(["final", "always", "never"])),
                draw(st.sampled_from(["es", "en", "fr", "de"])))


def said_order(text: str, order: str, play: int) -> bool:
    if order != "any":
        return "in sequence" in text
    return "in any order" in text and ((f"each entry playing {play}" in text) == bool(play))


@settings(max_examples=CHECKED, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(contest_files())
def test_every_generated_file_is_accepted_and_summarised_as_the_day_plays_it(f: File) -> None:
    contest = parse_contest(tomllib.loads(f.toml()), "generated.toml")
    text = summary(contest)
    for cat, declared in zip(contest.categories, f.cats, strict=True):
        assert (cat.members, cat.fewest) == (declared.members, declared.fewest)
        assert cat.self_timed == declared.self_timed or f.home
        block = text.split(f"  {cat.id}: ", 1)[1].split("\n  c", 1)[0]
        for heat in heats_of(cat):
            played = heat.play
            # what the day plays is what the file says and what check-contest says
            assert (played.puzzles, played.puzzle_order) == (
                tuple(declared.puzzles), declared.order if declared.puzzles else "fixed")
            assert played.play == (declared.play if declared.play != len(declared.puzzles)
                                   else 0)
            if played.puzzles:
                line = next(line for line in block.splitlines()
                            if f"round {heat.round.id} " in line) if cat.rounds else block
                assert said_order(line, played.puzzle_order, played.play), line
        if not cat.rounds and cat.puzzles:
            assert said_order(block, cat.puzzle_order, cat.play), block
        assert (cat.jokers, cat.joker_bonus) == (declared.jokers, declared.joker_bonus)
        assert ("joker(s): a puzzle given up" in block) == bool(cat.jokers), block
        assert (f"+{cat.joker_bonus} pieces for each joker kept" in block) == bool(
            cat.joker_bonus), block


@pytest.mark.parametrize("need", NEEDS)
def test_every_generated_file_rehearses_to_a_verdict_and_round_trips(need: str,
                                                                      tmp_path_factory) -> None:
    """Each format in its own test (the workers share them out): rounds, puzzles in any
    order of which each entry plays some, each entry starting each puzzle at home, the
    escape, teams of varying size, a contest at home."""

    @settings(max_examples=REHEARSED, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(f=contest_files(need))
    def rehearsed(f: File) -> None:
        rehearse_one(f, tmp_path_factory)

    rehearsed()


def rehearse_one(f: File, tmp_path_factory: pytest.TempPathFactory) -> None:
    tmp = tmp_path_factory.mktemp("combo")
    path = tmp / "generated.toml"
    path.write_text(f.toml(), encoding="utf-8")
    load_contest(path)
    db = tmp / "generated.sqlite3"
    out, env = rehearse(path, db, "8", "1")  # exits 0: the verdict holds
    assert "Traceback" not in out
    assert "errors in the bot's log: none" in out, out[-3000:]
    assert "Verdict: every entry that played has a result or a stated reason." in out
    if re.search(r"/fin \d+", out):
        round_trip(path, db, env, tmp)


def test_the_generator_reaches_every_dimension() -> None:
    """The strategy can write each format (a generator that never writes one tests none)."""
    seen: set[str] = set()

    @settings(max_examples=300, deadline=None, derandomize=True, database=None)
    @given(contest_files())
    def collect(f: File) -> None:
        for c in f.cats:
            seen.update(k for k, on in {
                "home": f.home, "escape": c.escape, "rounds": bool(c.rounds),
                "puzzles": bool(c.puzzles), "any": c.order == "any", "play": bool(c.play),
                "own_start": c.own_start, "teams": c.members > 2,
                "smaller": c.fewest < c.members, "youth": c.youth,
                "two heats": c.heats == 2, "drawn": c.drawn, "jokers": bool(c.jokers),
                "joker_bonus": bool(c.joker_bonus)}.items() if on)

    collect()
    assert seen == {"home", "escape", "rounds", "puzzles", "any", "play", "own_start",
                    "teams", "smaller", "youth", "two heats", "drawn", "jokers",
                    "joker_bonus"}


def write_examples(folder: Path, n: int) -> list[Path]:  # pragma: no cover - a dev's tool
    """``python -c "from tests.rehearsal.test_combinations import write_examples as w;
    w(Path('/tmp/c'), 5)"``: files to rehearse by hand."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for i, f in enumerate(st.lists(contest_files(), min_size=n, max_size=n).example()):
        p = folder / f"generated-{i}.toml"
        p.write_text(f.toml(), encoding="utf-8")
        out.append(p)
    return out
