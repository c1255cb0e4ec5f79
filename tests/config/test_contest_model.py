"""The contest file's declaration (bot/services/contest_model.py) is what the reader reads,
what docs/contest-file.md says and what contests/contest.schema.json checks: one model, three
views that can't drift apart."""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from bot.services import contest_toml
from bot.services.contest_file import ContestFileError, load_contest, parse_contest
from bot.services.contest_model import sections
from bot.services.contest_reference import (
    DOC_PATH,
    SCHEMA_PATH,
    reference_markdown,
    reference_schema,
    reference_schema_text,
)
from bot.services.document_schema import plain
from bot.support.contest_keys import DeclarationError, Key, Section
from tests.clirun import bot_main
from tests.config.test_contest_file import MINIMAL, edit

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted((ROOT / "contests").glob("*.toml"))


def as_json(value: Any) -> Any:
    """A TOML document as an editor's schema check sees it (dates and times as text)."""
    return plain(value)


def validator() -> jsonschema.Draft202012Validator:
    schema = json.loads((ROOT / SCHEMA_PATH).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_the_reference_and_the_schema_are_written_from_the_declaration() -> None:
    assert (ROOT / DOC_PATH).read_text(encoding="utf-8") == reference_markdown(), \
        "docs/contest-file.md is stale: python -m bot contest-reference"
    assert (ROOT / SCHEMA_PATH).read_text(encoding="utf-8") == reference_schema_text(), \
        "contests/contest.schema.json is stale: python -m bot contest-reference"
    done = bot_main(["contest-reference", "--check"], os.environ)
    assert (done.returncode, done.stdout) == (0, "up to date\n")


def test_the_reference_names_every_declared_key() -> None:
    text = reference_markdown()
    for section in sections().values():
        assert f"## `{section.title}`" in text or not section.path
        for key in section.keys:
            assert f"| `{key.name}` |" in text


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_every_shipped_contest_passes_the_schema(path: Path) -> None:
    data = as_json(tomllib.loads(path.read_text(encoding="utf-8")))
    errors = [f"{'.'.join(map(str, e.absolute_path))}: {e.message}"
              for e in validator().iter_errors(data)]
    assert errors == []


@pytest.mark.parametrize(("change", "key"), [
    (("time_limit = ", "time_limt = "), "time_limit"),  # misspelt: unknown and missing
    (("members = 1", 'members = "one"'), "members"),
    (("members = 1", "members = 31"), "members"),
    (('timezone = "Europe/Paris"', 'timezone = "Europe/Paris"\nlanguage = "ja"'),
     "language"),
    (("[contest]", "[contest]\nseating = \"random\""), "seating"),
])
def test_the_schema_and_check_contest_refuse_the_same_slips(change: tuple[str, str],
                                                             key: str, tmp_path: Path) -> None:
    text = edit(MINIMAL, *change)
    errors = list(validator().iter_errors(as_json(tomllib.loads(text))))
    assert errors, "the editor would not mark it"
    path = tmp_path / "c.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ContestFileError) as err:
        load_contest(path)
    assert key in err.value.key


def read_keys(monkeypatch: pytest.MonkeyPatch, texts: list[str]) -> set[tuple[str, str]]:
    """(section, key) of every key the reader read, declared, over these files."""
    seen: set[tuple[str, str]] = set()
    original = contest_toml.Table.declared

    def declared(self: contest_toml.Table, name: str, *args: Any, **kw: Any) -> Key | None:
        if self.section is not None:
            seen.add((self.section.path, name))
        return original(self, name, *args, **kw)

    monkeypatch.setattr(contest_toml.Table, "declared", declared)
    for text in texts:
        # beside the shipped files: a picture an enigma names is looked for there
        parse_contest(tomllib.loads(text), str(ROOT / "contests" / "x.toml"))
    return seen


# keys the shipped files and the reader's every-key reads leave out, in a file of their own
EXTRA = '''
[[questions]]
id = "country"
text = "Country?"
kind = "choice"
per = "entry"
choices = ["ES", { id = "FR", label = "France", places = 3 }]

[following]
first_phone = "anyone"

[warnings]
disqualify_after = 3

[payments]
hold_minutes = 20

[waiting_list]
offer_hours = 12

[partners]
self_service = false

[privacy]
keep_days = 60

[door]
absent_after_minutes = 10

[registration]
[[registration.refunds]]
until = 2024-04-01T00:00:00
percent = 50
'''
ESCAPE_TEXTS = '''
[[escape.hints]]
stage = 1
text = "Under the table"

[[escape.solutions]]
stage = 1
text = "42"
'''


def test_every_declared_key_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """A key declared and documented but never read would be a setting silently dropped."""
    texts = [p.read_text(encoding="utf-8") for p in SHIPPED]
    texts.append(MINIMAL.replace("[[categories]]", EXTRA + "\n[[categories]]", 1))
    texts.append(texts[[p.name for p in SHIPPED].index("castrillo-2023.toml")] + ESCAPE_TEXTS)
    seen = read_keys(monkeypatch, texts)
    declared = {(s.path, k.name) for s in sections().values() for k in s.keys}
    assert sorted(declared - seen) == []


def test_a_key_read_but_not_declared_is_a_bug_found_at_once() -> None:
    ctx = contest_toml.Ctx("x.toml", {"t": Section("t", "", (Key("a", "int", "", default=1),))})
    t = contest_toml.Table(ctx, {"a": 2}, "t")
    assert t.int("a", 1) == 2
    with pytest.raises(DeclarationError):
        t.get("b", int, 0)
    with pytest.raises(DeclarationError):
        t.get("a", str, "x")  # read as another kind
    with pytest.raises(DeclarationError):
        t.int("a", 5)  # another default
    with pytest.raises(DeclarationError):
        t.int("a", 1, minimum=3)  # other limits


def test_limits_come_from_the_declaration() -> None:
    ctx = contest_toml.Ctx("x.toml", {"t": Section("t", "", (
        Key("a", "int", "", default=1, minimum=1, maximum=4),
        Key("c", "choice", "", default="x", choices=("x", "y")),))})
    t = contest_toml.Table(ctx, {"a": 5, "c": "z"}, "t")
    with pytest.raises(ContestFileError, match="a: must be at most 4, not 5"):
        t.int("a", 1)
    with pytest.raises(ContestFileError, match="""c: must be "x" or "y", not 'z'"""):
        t.get("c", str, "x")


def test_positions_count_from_one() -> None:
    second = MINIMAL.split("[[categories]]", 1)[1].replace('id = "', 'id = "b', 1)
    text = MINIMAL + "\n[[categories]]" + second.replace("time_limit", "time_limt")
    with pytest.raises(ContestFileError) as err:
        parse_contest(tomllib.loads(text), "x.toml")
    assert str(err.value).startswith("x.toml: categories[2].time_limit: is required")


def test_an_unknown_key_lists_the_keys_the_table_takes() -> None:
    text = edit(MINIMAL, "[contest]", "[contest]\nstart_time = \"10:00\"")
    with pytest.raises(ContestFileError) as err:
        parse_contest(tomllib.loads(text), "x.toml")
    declared = [k.name for k in sections()["contest"].keys]
    assert err.value.problem == (f"unknown key (did you mean start? the keys here: "
                                 f"{', '.join(declared)})")


def test_the_schema_describes_every_key() -> None:
    schema = reference_schema()
    for path, section in sections().items():
        node = schema if not path else schema["$defs"][path]
        assert set(node["properties"]) == {k.name for k in section.keys}
        assert all(node["properties"][k.name]["description"] for k in section.keys)


def test_a_capacity_in_people_takes_at_least_one_whole_entry() -> None:
    text = edit(MINIMAL, "members = 1", "members = 4\npeople_capacity = 3")
    with pytest.raises(ContestFileError) as err:
        parse_contest(tomllib.loads(text), "x.toml")
    assert str(err.value) == ("x.toml: categories[1].people_capacity: is less than one full "
                              "entry (4 members)")
    ok = parse_contest(tomllib.loads(edit(MINIMAL, "members = 1",
                                          "members = 4\npeople_capacity = 40")), "x.toml")
    assert ok.categories[0].people_capacity == 40
