"""What the contest file's declaration (``contest_model``) publishes: the reference an
organiser reads (``docs/contest-file.md``) and the JSON Schema an editor checks a file with
while it is typed (``contests/contest.schema.json``). Both are written by
``python -m bot contest-reference``; a test fails when either is stale."""

from __future__ import annotations

import json
from typing import Any

from bot.services.contest_model import sections
from bot.services.contest_toml import LANGUAGES, MAX_DURATION_DAYS
from bot.support.contest_keys import DEPENDS, KIND_NAMES, REQUIRED, Key, Section

DOC_PATH = "docs/contest-file.md"
SCHEMA_PATH = "contests/contest.schema.json"
SCHEMA_ID = "https://puzzlebot.example/contest.schema.json"


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return str(value)


def _default(key: Key) -> str:
    if key.default is REQUIRED:
        return "**required**"
    if key.default_doc:
        return key.default_doc
    if key.default is None or key.default is DEPENDS:
        return "none"
    if key.default in ((), []):
        return "none"
    if key.default == "":
        return '""'
    return f"`{_toml(key.default)}`"


def _limits(key: Key) -> str:
    parts = []
    if key.choices:
        shown = [*(("true", "false") if bool in key.also else ()),
                 *(f"`{_toml(c)}`" for c in key.choices)]
        parts.append(" / ".join(s if s.startswith("`") else f"`{s}`" for s in shown))
    if key.minimum is not None and key.maximum is not None:
        parts.append(f"{key.minimum} to {key.maximum}")
    elif key.minimum is not None:
        parts.append(f"at least {key.minimum}")
    elif key.maximum is not None:
        parts.append(f"at most {key.maximum}")
    if key.limits_doc:
        parts.append(key.limits_doc)
    return "; ".join(parts)


def _kind(key: Key) -> str:
    if key.kind in ("table", "tables"):
        return f"[{key.section}](#{_anchor(key.section)})" + (" (list)" if key.kind == "tables"
                                                                else "")
    return KIND_NAMES[key.kind]


def _anchor(path: str) -> str:
    return path.replace(".", "") or "the-file"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _section_md(s: Section) -> list[str]:
    out = [f'<a id="{_anchor(s.path)}"></a>', "", f"## `{s.title}`" if s.path else
           "## The file's tables", "", s.doc, ""]
    out += ["| key | kind | default | values | meaning | example |",
            "|---|---|---|---|---|---|"]
    for k in s.keys:
        example = f"`{k.name} = {k.example}`" if k.example else (
            f"`{k.name} = {_toml(k.choices[0])}`" if k.choices else "")
        out.append(f"| `{k.name}` | {_cell(_kind(k))} | {_cell(_default(k))} | "
                   f"{_cell(_limits(k))} | {_cell(k.doc)} | {_cell(example)} |")
    if s.example:
        out += ["", "```toml", s.example, "```"]
    out.append("")
    return out


def reference_markdown() -> str:
    """``docs/contest-file.md``: every table and key, in the order of the file."""
    found = sections()
    out = [
        "# The contest file, key by key",
        "",
        "<!-- Written by `python -m bot contest-reference` from bot/services/contest_model.py;"
        " do not edit by hand (a test fails when it is stale). -->",
        "",
        "A contest file is TOML. `python -m bot check-contest FILE` checks it and says what the "
        "day will do; an error names the key as written, positions counted from 1 "
        "(`categories[2]` is the second `[[categories]]`). Start from the shipped file closest "
        "to yours (README, \"Contest files\"); the sections of the README explain what each "
        "rule does on the day.",
        "",
        "Kinds: a *duration* is text: `\"1:30:00\"`, `\"5:00\"` (five minutes), `\"3 days\"`, "
        f"`\"8 weeks\"` (at most {MAX_DURATION_DAYS} days). A *local date-time* has its seconds "
        "(`2027-03-01T10:00:00`, no offset: the contest's time zone). A *text, or one per "
        f"language* is `\"...\"` (every language's) or `{{ es = \"...\", en = \"...\" }}` "
        f"({', '.join(LANGUAGES)}).",
        "",
        "## Checking a file while you type it",
        "",
        "`contests/contest.schema.json` is the file's JSON Schema. With the *Even Better TOML* "
        "extension (VS Code, or any editor using the Taplo language server), put this first "
        "line in the contest file (the path relative to it):",
        "",
        "```toml",
        "#:schema ./contest.schema.json",
        "```",
        "",
        "or, for every contest file of a folder, a `.taplo.toml` beside them:",
        "",
        "```toml",
        "[[rule]]",
        'include = ["*.toml"]',
        'schema = { path = "./contest.schema.json" }',
        "```",
        "",
        "The editor then completes keys, shows each key's meaning, and marks an unknown key "
        "or a wrong kind as you type. `check-contest` checks more (a round's date after the "
        "one before, a question named where it exists...): run it before the day.",
        "",
    ]
    for path in _order(found):
        out += _section_md(found[path])
    return "\n".join(out).rstrip() + "\n"


def _order(found: dict[str, Section]) -> list[str]:
    """The root, then each table where the one above names it (depth first)."""
    order: list[str] = []

    def visit(path: str) -> None:
        if path in order or path not in found:
            return
        order.append(path)
        for k in found[path].keys:
            if k.section:
                visit(k.section)

    visit("")
    return order + [p for p in found if p not in order]


_PLAIN = {"text": "string", "int": "integer", "number": "number", "bool": "boolean",
          "money": "number", "duration": "string", "moment": "string", "date": "string",
          "time": "string"}


def _kind_schema(key: Key) -> dict[str, Any]:
    """What the key's kind takes, as JSON Schema (dates and times are text to an editor)."""
    kind = key.kind
    if kind in ("table", "tables"):
        ref = {"$ref": f"#/$defs/{key.section}"}
        return ref if kind == "table" else {"type": "array", "items": ref}
    if kind == "texts":
        return {"anyOf": [{"type": "string"}, {"$ref": "#/$defs/texts"}]}
    if kind == "choice":
        return {"enum": [*((True, False) if bool in key.also else ()), *key.choices]}
    if kind in ("strings", "ints"):
        listed = {"type": "array", "items": {"type": "string" if kind == "strings"
                                             else "integer"}}
        return {"anyOf": [{"type": "string"}, listed]} if str in key.also else listed
    out: dict[str, Any] = {"type": _PLAIN[kind]}
    if kind == "money":
        out["minimum"] = 0
    if key.minimum is not None and kind in ("int", "number"):
        out["minimum"] = key.minimum
    if key.maximum is not None and kind in ("int", "number"):
        out["maximum"] = key.maximum
    return out


def _key_schema(key: Key) -> dict[str, Any]:
    doc = key.doc + (" (a local date-time with seconds, or a date)" if key.kind == "moment"
                     else "")
    out: dict[str, Any] = {"description": doc, **_kind_schema(key)}
    for name, value in key.extra_schema:
        target = out["anyOf"][1] if "anyOf" in out and name == "items" else out
        target[name] = value
    if key.default is not REQUIRED and key.default is not DEPENDS \
            and key.default is not None and not isinstance(key.default, tuple):
        out["default"] = key.default
    return out


def _section_schema(s: Section) -> dict[str, Any]:
    return {
        "type": "object",
        "description": s.doc,
        "properties": {k.name: _key_schema(k) for k in s.keys},
        "required": [k.name for k in s.keys if k.required],
        "additionalProperties": False,
    }


def reference_schema() -> dict[str, Any]:
    """The contest file's JSON Schema (draft 2020-12): keys, kinds, values and limits. The
    rules between keys are check-contest's."""
    found = sections()
    root = _section_schema(found[""])
    defs = {p: _section_schema(found[p]) for p in _order(found) if p}
    defs["texts"] = {"type": "object", "minProperties": 1, "additionalProperties": False,
                     "properties": {lang: {"type": "string"} for lang in LANGUAGES}}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": SCHEMA_ID,
            "title": "puzzlebot contest file", **root, "$defs": defs}


def reference_schema_text() -> str:
    return json.dumps(reference_schema(), indent=2, ensure_ascii=False) + "\n"
