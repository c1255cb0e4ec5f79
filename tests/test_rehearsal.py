"""The rehearsal (`python -m bot demo`): a whole day against the fake Bot API, same seed same
day, and the SQLite file it leaves behind."""

from __future__ import annotations

import csv
import io
import os
import subprocess
import sys
from datetime import datetime
from zoneinfo import ZoneInfo

from bot.harness.rehearsal import Rehearsal
from tests.conftest import BILLOM, CASTRILLO, ROOT


def plan(seed: int, contest=CASTRILLO):
    r = Rehearsal(str(contest), 16, seed, "unused.sqlite3", out=io.StringIO())
    r.plan_teams()
    for i, team in enumerate(r.teams, 1):
        team.number = i
    start = r.start_moment()
    actions = r.plan_day(start, {t.number for t in r.teams})
    return ([(t.category.id, t.members, t.registered_at) for t in r.teams],
            [(a.at, a.actor.id, a.text) for a in actions])


def test_same_seed_same_day():
    assert plan(7) == plan(7)
    assert plan(7) != plan(8)
    assert plan(3, BILLOM) == plan(3, BILLOM)


def test_planned_castrillo_day_follows_the_rules():
    teams, actions = plan(5)
    start = datetime(2023, 4, 22, 10, 0, tzinfo=ZoneInfo("Europe/Madrid"))
    assert actions[0] == (start, 1, "/inicio")
    assert actions[-1][2] == "/clasificacion"
    assert actions == sorted(actions, key=lambda a: a[0])
    for when, _, text in actions:
        if text.startswith(("/pista", "/solucion")):
            assert (when - start).total_seconds() < 90 * 60  # only during the escape


def test_demo_runs_a_whole_day_and_leaves_the_database(tmp_path):
    db = tmp_path / "rehearsal.sqlite3"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "PUZZLEBOT_"))}
    env["PYTHONIOENCODING"] = "utf-8"
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "demo", "--contest", str(CASTRILLO), "--entries", "8",
         "--seed", "2", "--seconds", "6", "--db", str(db)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    out = proc.stdout
    assert "Registrations (8 entries, in the chat):" in out
    assert "/inicio" in out and "Rankings:" in out
    assert "Adultos parejas - clasificación" in out
    assert "all checked against the spec: OK" in out and "errors in the bot's log: none" in out
    assert db.exists()
    env.update({"PUZZLEBOT_CONTEST": str(CASTRILLO), "PUZZLEBOT_DB": str(db)})
    export = subprocess.run([sys.executable, "-m", "bot", "export", "results"], cwd=ROOT,
                            env=env, capture_output=True, text=True, timeout=60)
    rows = list(csv.DictReader(io.StringIO(export.stdout)))
    assert len(rows) == 8
    assert any(r["position"] == "1" for r in rows)


def test_the_championship_rehearsal_plays_every_round_and_advances(tmp_path):
    """``make demo DEMO_ARGS="--contest contests/championship-2027.toml"``: every round of
    every category over three days, qualifiers decided by the bot and played in turn."""
    contest = ROOT / "contests" / "championship-2027.toml"
    db = tmp_path / "championship.sqlite3"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "PUZZLEBOT_"))}
    env["PYTHONIOENCODING"] = "utf-8"
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "demo", "--contest", str(contest), "--entries", "16",
         "--seed", "3", "--seconds", "4", "--db", str(db)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    out = proc.stdout
    for day in ("Day 2027-07-01", "Day 2027-07-02", "Day 2027-07-03"):
        assert day in out, out[-3000:]
    for text in ("/inicio solo-heats1", "/inicio solo-semi", "/inicio solo-final",
                 "/inicio pairs-final", "/inicio teams-final", "Individual: Heats confirmed.",
                 "Individual: Semi-final confirmed.", "Individual: Final confirmed. Final "
                 "classification:", "Teams: Final confirmed.", "goes through to Final",
                 "/parcial", "dns -> Entry", "dsq pieces taken from another table -> Entry",
                 ": did not start", ": disqualified (pieces taken from another table)",
                 "/inicio teams-qualifier1", "/inicio teams-qualifier2",
                 "Teams: Qualifier confirmed.", "Individual — Under 18 - ranking"):
        assert text in out, (text, out[-3000:])
    assert "Individual - classification\n  1. #" in out
    assert "all checked against the spec: OK" in out and "errors in the bot's log: none" in out
    env.update({"PUZZLEBOT_CONTEST": str(contest), "PUZZLEBOT_DB": str(db)})
    export = subprocess.run([sys.executable, "-m", "bot", "export", "results"], cwd=ROOT,
                            env=env, capture_output=True, text=True, timeout=60)
    rows = list(csv.DictReader(io.StringIO(export.stdout)))
    firsts = {r["category"] for r in rows if r["position"] == "1"}
    assert firsts == {"solo", "pairs", "teams"}, rows
