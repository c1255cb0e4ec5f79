"""Issue 30, ratings across contests (bot/domain/ratings.py, after the USA Jigsaw Puzzle
Association's JPAR): the association's published worked example, a non-finisher's estimated
time, the window of months, people matched across contests as one entry per person matches
them, near matches reported, and ``python -m bot rating`` end to end on two documents."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from bot.domain.ratings import Event, Performance, Settings, estimate, months_before, ratings
from bot.services.ratings import RatingError, read_settings
from tests.conftest import ROOT

MIN = 60.0


def event(day: date, *times: tuple[str, float], kind: str = "individual",
          ident: str = "") -> Event:
    return Event(ident or f"e{day.isoformat()}", day, kind,
                 tuple(Performance(p, t * MIN) for p, t in times))


def test_the_published_jpar_example() -> None:
    # usajigsaw.org/jpar: "If Puzzler 1 finishes in 50 minutes, but the average time is 60
    # minutes, their JPAR is 0.833"; then with Puzzler 2 (JPAR 1.2) finishing in 54 minutes
    # beside Puzzler 1 in 50, the expected event averages are 60 and 45, the final one 52:30;
    # Puzzler 2's event JPAR is 1.029, averaged with 1.2 "their new ranking is 1.1..."
    first = event(date(2024, 1, 10), ("p2", 60), ("y", 40))  # p2: 60 / 50 = 1.2
    second = event(date(2024, 2, 10), ("p1", 50), ("x", 70))  # nobody rated: average 60
    third = event(date(2024, 3, 10), ("p1", 50), ("p2", 54))
    rated = ratings([first, second, third], Settings(), date(2024, 3, 31))["individual"]
    after_two = ratings([first, second], Settings(), date(2024, 3, 1))["individual"]
    assert round(after_two["p2"].value, 3) == 1.2 and round(after_two["p1"].value, 3) == 0.833
    assert round(rated["p2"].history[-1][1], 3) == 1.029  # 54 / 52.5
    assert round(rated["p2"].value, 3) == 1.114  # (1.2 + 1.029) / 2
    assert round(rated["p1"].value, 3) == 0.893  # (0.833 + 50 / 52.5) / 2
    assert rated["p1"].events == 2 and rated["x"].events == 1


def test_a_non_finisher_at_its_rate_and_the_window_of_months() -> None:
    assert estimate(3600, 400, 500) == 4500  # 400 of 500 pieces in the hour: 1:15:00
    assert estimate(3600, 0, 500) is None
    assert months_before(date(2024, 3, 31), 1) == date(2024, 2, 29)
    old = event(date(2023, 1, 5), ("a", 30), ("b", 90))
    new = event(date(2024, 1, 5), ("a", 60), ("b", 60))
    rated = ratings([old, new], Settings(window_months=12), date(2024, 1, 31))["individual"]
    assert rated["a"].value == 1.0 and rated["a"].events == 1  # 2023's is out of the window
    guessed = Event("e", date(2024, 1, 5), "individual",
                    (Performance("a", 3000), Performance("b", 4500, estimated=True)))
    kept = ratings([guessed], Settings(), date(2024, 1, 31))["individual"]
    left = ratings([guessed], Settings(unfinished="leave_out"), date(2024, 1, 31))["individual"]
    assert round(kept["a"].value, 3) == 0.8 and "b" in kept
    assert left["a"].value == 1.0 and "b" not in left


def test_the_settings_file_is_checked(tmp_path: Path) -> None:
    path = tmp_path / "rating.toml"
    path.write_text('window_months = 6\nunfinished = "leave_out"\nwho = "with_birth"\n',
                    encoding="utf-8")
    assert read_settings(str(path)) == Settings(6, "leave_out", "with_birth")
    for text, problem in (("window_months = 0\n", "window_months: must be a number of months "
                           "from 1 to 120"), ('unfinished = "guess"\n', "unfinished: must be "
                           "one of estimate, leave_out"), ("months = 3\n", "months: unknown "
                           "key (window_months, unfinished, who)")):
        path.write_text(text, encoding="utf-8")
        with pytest.raises(RatingError) as exc:
            read_settings(str(path))
        assert str(exc.value) == f"{path}: {problem}"


def document(name: str, day: str, rows: list[tuple[int, str, str, list[dict[str, Any]]]]
             ) -> dict[str, Any]:
    """A contest document with one individual category and one of pairs (500 pieces, one
    hour): each row (number, category, time or "pieces:N", members)."""
    categories = [{"id": "solo", "members": 1, "pieces": 500, "time_limit": "1:00:00"},
                  {"id": "pairs", "members": 2, "pieces": 500, "time_limit": "1:00:00"}]
    results = []
    for number, category, result, _ in rows:
        finished = not result.startswith("pieces:")
        results.append({"category": category, "number": number, "round": "",
                        "finished": "yes" if finished else "no",
                        "time": result if finished else "", "adjusted_time": "",
                        "pieces": "" if finished else int(result.split(":")[1]),
                        "outcome": ""})
    return {"document": "puzzlebot-contest", "version": 1, "public": False,
            "contest": {"name": name, "date": day, "timezone": "Europe/Madrid",
                        "language": "es"},
            "contest_file": {"text": "", "data": {"categories": categories}},
            "entries": [{"number": n, "category": c, "local": False, "members": m}
                        for n, c, _, m in rows],
            "rounds": [], "results": results}


def test_the_rating_command_matches_people_across_contests(tmp_path: Path) -> None:
    ana = {"name": "Ana Pérez", "born": "1990-04-02", "born_year": 1990}
    bea = {"name": "Bea Gil", "born": "1985-01-01", "born_year": 1985}
    spring = document("spring", "2024-04-06", [
        (1, "solo", "0:40:00", [ana]), (2, "solo", "0:50:00", [bea]),
        (3, "solo", "pieces:450", [{"name": "Carla Ruiz", "born_year": 1970}]),
        (4, "pairs", "0:45:00", [ana, bea])])
    autumn = document("autumn", "2024-10-05", [
        (1, "solo", "0:42:00", [{"name": "ANA  PEREZ", "born": "1990-04-02",
                                 "born_year": 1990}]),  # the same person, typed otherwise
        (2, "solo", "0:48:00", [{"name": "Bea Gil"}]),  # no birth: a near match, not joined
        (3, "solo", "0:54:00", [{"name": "Carla Ruis", "born_year": 1970}])])
    paths = []
    for doc in (spring, autumn):
        path = tmp_path / f"{doc['contest']['name']}.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        paths.append(str(path))
    out = subprocess.run([sys.executable, "-m", "bot", "rating", *paths, "--csv",
                          str(tmp_path / "r.csv"), "--png", str(tmp_path / "r.png")],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "Ratings on 2024-10-05 over 12 months (3 events):"
    # spring: 40, 50 and Carla's 450 of 500 pieces (1:06:40) average 52:13; autumn's
    # expected average from Ana's and Carla's ratings
    rows = list(csv.DictReader(io.StringIO((tmp_path / "r.csv").read_text(encoding="utf-8"))))
    solo = {r["name"]: r for r in rows if r["kind"] == "individual"}
    assert solo["Ana Pérez"]["events"] == "2"  # matched across both contests
    assert solo["Bea Gil"]["events"] == "1" and solo["Carla Ruiz"]["events"] == "1"
    assert {r["name"] for r in rows if r["kind"] == "pairs"} == {"Ana Pérez", "Bea Gil"}
    assert float(solo["Ana Pérez"]["rating"]) < float(solo["Carla Ruiz"]["rating"])
    assert "Near matches to confirm (rated apart; the same name and birth would join them):" \
        in lines
    assert "  Bea Gil: 2 rated apart (1985, no birth)" in lines  # a year, never the date
    assert "  Carla Ruis (1970) / Carla Ruiz (1970)" in lines
    assert (tmp_path / "r.png").read_bytes()[:4] == b"\x89PNG"
