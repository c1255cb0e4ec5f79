"""The contest document's checks shared by the tests: the schema, the round trip of a
rehearsal's database through ``export document`` and ``import document``, and the keys of the
running bot (join codes, link codes, self-timed secrets) found nowhere in a document."""

from __future__ import annotations

import csv
import io
import json
import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path
from typing import Any

import jsonschema

from bot.services.contest_file import load_contest
from tests.conftest import ROOT

SCHEMA = json.loads((ROOT / "docs" / "document.schema.json").read_text(encoding="utf-8"))


def bot(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def valid(doc: Any) -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    validator = jsonschema.Draft202012Validator(
        SCHEMA, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
    errors = [f"{e.json_path}: {e.message[:120]}" for e in validator.iter_errors(doc)]
    assert not errors, errors[:5]


CODE_KINDS = ("link", "volunteer_invite", "volunteer_join", "organiser_invite", "organiser_join")


def secrets_in(db: Path) -> set[str]:
    """Every key to the running bot the database holds: the entries' join codes, the codes of
    the phones', volunteers' and organisers' links, the self-timed starts' secrets."""
    with closing(sqlite3.connect(db)) as conn:
        codes = {r[0] for r in conn.execute("SELECT join_code FROM entries")}
        codes |= {r[0] for r in conn.execute(
            f"SELECT ref FROM events WHERE kind IN ({','.join('?' * len(CODE_KINDS))})",
            CODE_KINDS) if r[0] and r[0] != "registration"}  # a registration's link: no code
        for (data,) in conn.execute("SELECT data FROM events WHERE data IS NOT NULL"):
            seed = json.loads(data).get("seed") if data.startswith("{") else None
            if isinstance(seed, str):
                codes.add(seed)
    return codes


def without_join_codes(exported: str) -> tuple[str, set[str]]:
    """``export entries`` with its join_code column emptied, and the codes it held."""
    rows = list(csv.reader(io.StringIO(exported)))
    column = rows[0].index("join_code")
    codes = {row[column] for row in rows[1:]}
    for row in rows[1:]:
        row[column] = ""
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue(), codes


def round_trip(contest: Path, db: Path, env: dict[str, str], tmp_path: Path) -> dict[str, Any]:
    """The rehearsal's database as a document, read into a fresh one: the same results and
    entries exports; the document (and its public form) as the schema says; the document of
    the fresh one read into another: the same results again."""
    here = {**env, "PUZZLEBOT_CONTEST": str(contest), "PUZZLEBOT_DB": str(db)}
    path = tmp_path / "contest.json"
    out = bot(["export", "document", "--out", str(path)], here)
    assert out.returncode == 0, out.stderr
    text = path.read_text(encoding="utf-8")
    doc = json.loads(text)
    valid(doc)
    keys = secrets_in(db)
    assert keys and not [k for k in keys if k in text]  # no key to the running bot
    assert all("join_code" not in e for e in doc["entries"])
    fresh = {**here, "PUZZLEBOT_DB": str(tmp_path / "fresh.sqlite3")}
    loaded = bot(["import", "document", str(path)], fresh)
    assert loaded.returncode == 0, loaded.stderr
    for what in ("results", "entries"):
        before, after = bot(["export", what], here), bot(["export", what], fresh)
        assert before.returncode == after.returncode == 0, before.stderr + after.stderr
        assert before.stdout.count("\n") > 1, what
        if what == "results":
            assert before.stdout == after.stdout
        else:  # the same entries, each with a new join code (the document had none)
            (old, old_codes), (new, new_codes) = map(without_join_codes,
                                                     (before.stdout, after.stdout))
            assert old == new and all(new_codes) and not old_codes & new_codes
    # and again: the document of the imported database (no links, no joins: never imported)
    # imports as well, with the same results
    path2 = tmp_path / "contest-again.json"
    out = bot(["export", "document", "--out", str(path2)], fresh)
    assert out.returncode == 0, out.stderr
    twice = {**here, "PUZZLEBOT_DB": str(tmp_path / "twice.sqlite3")}
    loaded = bot(["import", "document", str(path2)], twice)
    assert loaded.returncode == 0, loaded.stderr
    again_results = bot(["export", "results"], twice)
    assert again_results.returncode == 0, again_results.stderr
    assert again_results.stdout == bot(["export", "results"], here).stdout
    public = bot(["export", "document", "--public"], here)
    assert public.returncode == 0, public.stderr
    shown = json.loads(public.stdout)
    valid(shown)
    assert "history" not in shown and "people" not in shown
    published = {q.id for q in load_contest(contest).questions if q.public}
    assert all(set(m) <= {"name", "answers", "values"} for e in shown["entries"]
               for m in e["members"])
    assert all(set(m.get("values", {})) | set(m.get("answers", [])) <= published
               for e in shown["entries"] for m in e["members"])
    assert all(set(e.get("answers", {})) <= published for e in shown["entries"])
    assert all("join_code" not in e and "registered_by" not in e for e in shown["entries"])
    # no reason typed for an outcome; the contest file's rules, not its text
    private = {q.id for q in load_contest(contest).questions} - published | {"outcome_reason"}
    assert shown["results"] == [{k: v for k, v in row.items() if k not in private}
                                for row in doc["results"]]
    assert shown["contest_file"]["text"] == "" and doc["contest_file"]["text"]
    assert not [k for k in keys if k in public.stdout]
    again = bot(["import", "document", str(path)], fresh)  # not fresh any more
    assert again.returncode == 2
    assert again.stderr.strip().endswith("the database is not empty: a document is imported "
                                         "into a fresh one (PUZZLEBOT_DB naming a file that "
                                         "does not exist yet); nothing was imported")
    return doc


def entries_survive(contest: Path, db: Path, tmp_path: Path) -> list[str]:
    """The database as a document (``export document``) read into a fresh one (``import
    document``): the same entries export, but for the join codes (a document has none).
    Returns the kinds of the document's history, in order."""
    env = {**os.environ, "PUZZLEBOT_CONTEST": str(contest), "PUZZLEBOT_DB": str(db)}
    path = tmp_path / "contest.json"
    out = bot(["export", "document", "--out", str(path)], env)
    assert out.returncode == 0, out.stderr
    fresh = {**env, "PUZZLEBOT_DB": str(tmp_path / "fresh.sqlite3")}
    loaded = bot(["import", "document", str(path)], fresh)
    assert loaded.returncode == 0, loaded.stderr
    before, after = bot(["export", "entries"], env), bot(["export", "entries"], fresh)
    assert without_join_codes(before.stdout)[0] == without_join_codes(after.stdout)[0]
    return [e["kind"] for e in json.loads(path.read_text(encoding="utf-8"))["history"]]
