"""Issue 30, a contest as one document: ``export document`` writes the whole contest as JSON
(docs/document.md, docs/document.schema.json), ``import document`` reads it into a fresh
database and gives back the same rankings; ``--public`` leaves out births, answers, Telegram ids
and the history; a newer document, a public one, a database that is not fresh and another
contest file are each refused with one line. The round trip of every shipped contest after a
rehearsal: here (Billom) and in tests/rehearsal/test_rehearsal.py (the others)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import BILLOM, CASTRILLO
from tests.documents import bot, round_trip, valid
from tests.rehearsal.test_rehearsal import rehearse


def test_billom_travels_as_one_document(tmp_path: Path) -> None:
    db = tmp_path / "billom.sqlite3"
    _, env = rehearse(BILLOM, db, "10", "2")
    doc = round_trip(BILLOM, db, env, tmp_path)
    assert doc["contest"]["name"] and doc["contest_file"]["text"] == BILLOM.read_text(
        encoding="utf-8")
    kinds = {e["kind"] for e in doc["history"]}
    assert {"registered", "clock_start", "finish"} <= kinds


def _env() -> dict[str, str]:
    import os

    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "PUZZLEBOT_"))}
    env["PYTHONIOENCODING"] = "utf-8"
    return env


def test_a_document_this_bot_cannot_import_is_refused_with_one_line(tmp_path: Path) -> None:
    env = {**_env(), "PUZZLEBOT_CONTEST": str(CASTRILLO),
           "PUZZLEBOT_DB": str(tmp_path / "empty.sqlite3")}
    exported = bot(["export", "document"], env)
    assert exported.returncode == 0, exported.stderr
    doc = json.loads(exported.stdout)
    valid(doc)
    assert doc["entries"] == [] and doc["history"] == []
    cases = {
        "newer.json": ({**doc, "version": 2}, "document version 2 is newer than this bot reads "
                       "(1): update the bot to import it"),
        "public.json": ({**doc, "public": True}, "a public document (--public) has no history "
                        "and no births: it can't be imported, only read"),
        "other.json": ({**doc, "document": "wcif"}, 'not a contest document (no "document": '
                       '"puzzlebot-contest")'),
    }
    for name, (content, line) in cases.items():
        path = tmp_path / name
        path.write_text(json.dumps(content), encoding="utf-8")
        out = bot(["import", "document", str(path)],
                  {**env, "PUZZLEBOT_DB": str(tmp_path / f"{name}.sqlite3")})
        assert out.returncode == 2
        assert out.stderr.strip() == f"error: {path}: {line}; nothing was imported", out.stderr
    # written for another contest file: refused; its own file can be written out
    path = tmp_path / "castrillo.json"
    path.write_text(exported.stdout, encoding="utf-8")
    other = bot(["import", "document", str(path)],
                {**env, "PUZZLEBOT_CONTEST": str(BILLOM),
                 "PUZZLEBOT_DB": str(tmp_path / "billom.sqlite3")})
    assert other.returncode == 2 and "written for another contest file" in other.stderr
    written = bot(["import", "document", str(path), "--write-contest",
                   str(tmp_path / "its.toml")], env)
    assert written.returncode == 0, written.stderr
    assert (tmp_path / "its.toml").read_text(encoding="utf-8") == CASTRILLO.read_text(
        encoding="utf-8")
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    out = bot(["import", "document", str(broken)], env)
    assert out.returncode == 2 and out.stderr.startswith(f"error: {broken}: is not JSON")
