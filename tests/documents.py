"""The contest document's checks shared by the tests: the schema, the round trip of a
rehearsal's database through ``export document`` and ``import document``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema

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


def round_trip(contest: Path, db: Path, env: dict[str, str], tmp_path: Path) -> dict[str, Any]:
    """The rehearsal's database as a document, read into a fresh one: the same results and
    entries exports; the document (and its public form) as the schema says."""
    here = {**env, "PUZZLEBOT_CONTEST": str(contest), "PUZZLEBOT_DB": str(db)}
    path = tmp_path / "contest.json"
    out = bot(["export", "document", "--out", str(path)], here)
    assert out.returncode == 0, out.stderr
    doc = json.loads(path.read_text(encoding="utf-8"))
    valid(doc)
    fresh = {**here, "PUZZLEBOT_DB": str(tmp_path / "fresh.sqlite3")}
    loaded = bot(["import", "document", str(path)], fresh)
    assert loaded.returncode == 0, loaded.stderr
    for what in ("results", "entries"):
        before, after = bot(["export", what], here), bot(["export", what], fresh)
        assert before.returncode == after.returncode == 0, before.stderr + after.stderr
        assert before.stdout == after.stdout and before.stdout.count("\n") > 1, what
    public = bot(["export", "document", "--public"], here)
    assert public.returncode == 0, public.stderr
    shown = json.loads(public.stdout)
    valid(shown)
    assert "history" not in shown and "people" not in shown
    assert all(set(m) == {"name"} for e in shown["entries"] for m in e["members"])
    assert all("join_code" not in e and "registered_by" not in e for e in shown["entries"])
    assert shown["results"] == doc["results"]
    again = bot(["import", "document", str(path)], fresh)  # not fresh any more
    assert again.returncode == 2
    assert again.stderr.strip().endswith("the database is not empty: a document is imported "
                                         "into a fresh one (PUZZLEBOT_DB naming a file that "
                                         "does not exist yet); nothing was imported")
    return doc
