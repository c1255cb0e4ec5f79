"""Contest documents made up for the ratings (``python -m bot rating``): a league of contests
whose players come back from one to the next, as the export writes them, for the tests on a
few of them and bench/ratings.py on 1,000 (about 22,000 people).

Each contest has ten individual entries, four pairs and one team of four (22 people). Its
people carry full dates of birth (most contests) or years only (a contest that checks birth
years), and in one contest in ten the team's none (a category that checks no age); a few are
typed with a letter off or in capitals, and some players share a name and year of birth with
another (namesakes), so that people are matched, kept apart and listed as near matches as a
real league's would be. ``births`` other than "mixed" gives every member of every contest
"full" dates, "year"s only or "none" (as public documents: the rating refuses them).
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from typing import Any

FIRST = ["Ana", "Bea", "Carla", "Daniel", "Elena", "Fernando", "Gloria", "Héctor", "Inés",
         "Jorge", "Lucía", "Manuel", "Nuria", "Óscar", "Pilar", "Raúl", "Sofía", "Tomás",
         "Úrsula", "Víctor", "Marie", "Jean", "Chloé", "Lukas", "Giulia", "João", "Eva", "Iris"]
LAST = ["García", "Pérez", "López", "Martín", "Sánchez", "Gómez", "Ruiz", "Díaz", "Moreno",
        "Álvarez", "Romero", "Navarro", "Torres", "Domínguez", "Vázquez", "Ramos", "Gil",
        "Serrano", "Blanco", "Molina", "Dupont", "Lefèvre", "Müller", "Rossi", "Silva"]

CATEGORIES = [{"id": "solo", "members": 1, "pieces": 500, "time_limit": "1:30:00"},
              {"id": "pairs", "members": 2, "pieces": 1000, "time_limit": "2:00:00"},
              {"id": "teams", "members": 4, "pieces": 2000, "time_limit": "3:00:00"}]
SIZES = {"solo": 10, "pairs": 4, "teams": 1}


def players(count: int, rng: random.Random) -> list[tuple[str, date, float]]:
    """The league's players: (name, full date of birth, how fast: a time factor). One in
    twenty shares a name and a year of birth with the player before (another day)."""
    out: list[tuple[str, date, float]] = []
    while len(out) < count:
        if out and rng.random() < 0.05:
            name, born, _ = out[-1]
            other = date(born.year, 1, 1) + timedelta(days=rng.randrange(365))
            if other != born:
                out.append((name, other, rng.uniform(0.6, 1.6)))
            continue
        name = f"{rng.choice(FIRST)} {rng.choice(LAST)} {rng.choice(LAST)}"
        born = date(rng.randrange(1950, 2012), 1, 1) + timedelta(days=rng.randrange(365))
        out.append((name, born, rng.uniform(0.6, 1.6)))
    return out


def _typed(name: str, rng: random.Random) -> str:
    """The name as one contest's organiser typed it: mostly as it is, sometimes in capitals
    without accents (the same name), sometimes with a letter off (a near match)."""
    roll = rng.random()
    if roll < 0.05:
        return name.upper()
    if roll < 0.08:
        i = rng.randrange(1, len(name))
        return name[:i] + rng.choice("aeiourst") + name[i + 1:]
    return name


def _member(player: tuple[str, date, float], births: str, rng: random.Random
            ) -> dict[str, Any]:
    name, born, _ = player
    return {"name": _typed(name, rng),
            "born": born.isoformat() if births == "full" else None,
            "born_year": born.year if births != "none" else None,
            "answers": [], "values": {}}


def document(index: int, day: date, league: list[tuple[str, date, float]],
             rng: random.Random, births: str = "mixed") -> dict[str, Any]:
    """One contest of the league, as ``export document`` writes it (the parts the rating
    reads, and the rest left short)."""
    teams = births
    if births == "mixed":
        births = "year" if rng.random() < 0.3 else "full"
        teams = "none" if rng.random() < 0.1 else births
    chosen = rng.sample(league, sum(SIZES[c["id"]] * c["members"] for c in CATEGORIES))
    entries, results = [], []
    for c in CATEGORIES:
        for _ in range(SIZES[str(c["id"])]):
            team = [chosen.pop() for _ in range(int(c["members"]))]
            number = len(entries) + 1
            entries.append({"number": number, "category": c["id"], "local": False,
                            "members": [_member(p, teams if c["id"] == "teams" else births,
                                                rng) for p in team]})
            pace = sum(p[2] for p in team) / len(team) * rng.uniform(0.85, 1.15)
            limit = {"solo": 5400, "pairs": 7200, "teams": 10800}[str(c["id"])]
            seconds = int(limit * 0.6 * pace)
            finished = seconds <= limit
            results.append({
                "category": c["id"], "position": "", "number": number,
                "names": "; ".join(m["name"] for m in entries[-1]["members"]),
                "finished": "yes" if finished else "no",
                "time": f"{seconds // 3600}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"
                if finished else "", "adjusted_time": "",
                "pieces": "" if finished else int(int(c["pieces"]) * limit / seconds),
                "prize": "", "round": "", "outcome": ""})
    return {"document": "puzzlebot-contest", "version": 1, "public": False,
            "exported_at": f"{day.isoformat()}T20:00:00+01:00",
            "contest": {"name": f"League {index + 1}", "date": day.isoformat(),
                        "timezone": "Europe/Madrid", "language": "es"},
            "contest_file": {"text": "", "data": {"categories": CATEGORIES}},
            "entries": entries, "people": [], "history": [], "rounds": [], "results": results}


def league(documents: int, players_count: int, seed: int = 1, births: str = "mixed"
           ) -> list[dict[str, Any]]:
    """``documents`` contests of a league of ``players_count`` players, over two years."""
    rng = random.Random(seed)
    pool = players(players_count, rng)
    return [document(i, date(2023, 1, 7) + timedelta(days=730 * i // documents), pool, rng,
                     births) for i in range(documents)]


def namesakes(documents: int, name: str = "Ana García") -> list[dict[str, Any]]:
    """``documents`` contests of the league's shape in which everyone is ``name`` and only the
    first member of each has a birth (a date of its own: 1990, a day apart): the rest can't be
    told apart, so each is a person of its own and every two of them a near match (100
    documents: 2,200 people of one name, 2.4 million pairs)."""
    rng = random.Random(1)
    docs = []
    for i in range(documents):
        day = date(2023, 1, 7) + timedelta(days=7 * i)
        doc = document(i, day, players(22, rng), rng, births="none")
        for entry in doc["entries"]:
            for member in entry["members"]:
                member["name"] = name
        first = doc["entries"][0]["members"][0]
        born = date(1990, 1, 1) + timedelta(days=i % 365)
        first["born"], first["born_year"] = born.isoformat(), born.year
        docs.append(doc)
    return docs
