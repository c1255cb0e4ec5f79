"""The contest document's shape, declared once: ``SCHEMA`` is what ``import document`` reads
through (``shape_problem``) and what docs/document.schema.json publishes for other tools (a
test holds the two equal: change both). Also what every document value must be before any
shape is looked at (``value_problem``: no nesting deeper than a contest file needs, integers
JSON's exact ones, text that is text), and the document's name, version and refusal.

The checks here are JSON Schema 2020-12's, for the keywords ``SCHEMA`` uses (any other is a
programming error, refused at once), with ``integer`` meaning an integer (not 1.0) and
``date-time`` one with its offset (as RFC 3339 says).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, time
from typing import Any

FORMAT = "puzzlebot-contest"
VERSION = 1
LANGUAGES = ["es", "fr", "en", "de", "it", "pt", "nl"]


class DocumentError(Exception):
    """A document that can't be read into this database: one line saying why."""


def plain(value: Any) -> Any:
    """TOML's values as JSON's: dates and times as ISO text."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    return value


# -- the shape ------------------------------------------------------------------------------------


def _t(*types: str, **more: Any) -> dict[str, Any]:
    return {"type": types[0] if len(types) == 1 else list(types), **more}


def _obj(required: list[str], properties: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {"type": "object", "required": required, "properties": properties,
            "additionalProperties": False, **more}


def _array(items: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": items}


def _none_of(*keys: str) -> dict[str, Any]:
    return {"not": {"anyOf": [{"required": [k]} for k in keys]}}


_STR, _INT, _TEXTS = _t("string"), _t("integer"), _t("object", additionalProperties=_t("string"))
_DATE, _MOMENT = _t("string", format="date"), _t("string", format="date-time")

_MEMBER = _obj(["name"], {
    "name": _STR,
    "born": _t("string", "null", format="date"),
    "born_year": _t("integer", "null"),
    "answers": _t("array", items=_STR, description="the yes/no questions answered yes; in the "
                  "public form only those marked public = true"),
    "values": {**_TEXTS, "description": "choice and text answers; in the public form only to "
               "the questions marked public = true"},
})
_ENTRY = _obj(["number", "category", "local", "members"], {
    "number": _t("integer", minimum=1),
    "category": _STR,
    "local": _t("boolean"),
    "members": _array({"$ref": "#/$defs/member"}),
    "registered_at": _MOMENT,
    "source": _STR,
    "join_code": _t("string", description="never written: a join code is a key (whoever has "
                    "it links a phone to the entry); documents written before carried it"),
    "registered_by": _t("integer", "null"),
    "meal_adults": _t("integer", minimum=0),
    "meal_children": _t("integer", minimum=0),
    "answers": {**_TEXTS, "description": "the questions asked once per entry; in the public "
                "form only those marked public = true"},
})
_PERSON = _obj(["id", "name"], {
    "id": _INT, "name": _STR, "language": _t("string", "null"),
    "tg_language": _t("string", "null"),
})
_EVENT = _obj(
    ["id", "at", "recorded_at", "actor", "role", "kind", "entry", "category", "stage", "value",
     "ref", "data", "supersedes"], {
        "id": _t("integer", minimum=1),
        "at": {**_MOMENT, "description": "Telegram's date of the message"},
        "recorded_at": _MOMENT,
        "actor": _t("integer", "null"),
        "role": _STR,
        "kind": _STR,
        "entry": _t("integer", "null"),
        "category": _t("string", "null"),
        "stage": _t("integer", "null"),
        "value": _t("integer", "null"),
        "ref": _t("string", "null", description="null for link (but a registration's own: "
                  "\"registration\"), volunteer_invite, volunteer_join, organiser_invite and "
                  "organiser_join: their codes are keys and never written"),
        "data": _t("object", "null", description="the details; a self-timed start's secret "
                   "(seed) is never written"),
        "supersedes": _t("integer", "null"),
    })
_HEAT = _obj(["heat", "number", "name", "date", "start", "venue", "entries"], {
    "heat": _STR, "number": _t("integer", minimum=1), "name": _TEXTS, "date": _DATE,
    "start": _t("string", "null"), "venue": _STR,
    "entries": _array(_obj(["number", "table"], {"number": _INT,
                                                 "table": _t("integer", minimum=1)})),
})
_ROUND = _obj(["category", "round", "name", "heats"], {
    "category": _STR, "round": _STR, "name": _TEXTS, "heats": _array(_HEAT)})
_RESULT = {
    "type": "object",
    "description": "one row of the results export, its columns as README's Results columns "
                   "list them; in the public form without the columns of questions not marked "
                   "public = true",
    "required": ["category", "position", "number", "names", "finished", "time", "pieces",
                 "prize", "round", "outcome"],
}

SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://puzzlebot.example/document/v1.schema.json",
    "title": "A puzzle contest as one document (version 1)",
    "description": "What `python -m bot export document` writes and `import document` reads: "
                   "see docs/document.md.",
    **_obj(["document", "version", "public", "exported_at", "contest", "contest_file",
            "entries", "rounds", "results"], {
        "document": {"const": FORMAT},
        "version": _t("integer", minimum=1),
        "public": _t("boolean"),
        "exported_at": _MOMENT,
        "contest": _obj(["name", "date", "timezone", "language"], {
            "name": _STR, "date": _DATE, "timezone": _STR, "language": {"enum": LANGUAGES}}),
        "contest_file": _obj(["text", "data"], {
            "text": _t("string", description="the contest file as written (TOML)"),
            "data": _t("object", description="the same, read: dates and times as ISO text")}),
        "entries": _array({"$ref": "#/$defs/entry"}),
        "people": _array({"$ref": "#/$defs/person"}),
        "history": _array({"$ref": "#/$defs/event"}),
        "rounds": _array({"$ref": "#/$defs/round"}),
        "results": _array({"$ref": "#/$defs/result"}),
    }),
    "if": {"properties": {"public": {"const": False}}},
    "then": {"required": ["people", "history"]},
    "else": {
        **_none_of("people", "history"),
        "properties": {"entries": {"items": {
            **_none_of("join_code", "registered_by", "registered_at", "source", "meal_adults",
                       "meal_children"),
            "properties": {"members": {"items": _none_of("born", "born_year")}},
        }},
            # no reason typed for an outcome; the contest file without its text, hints, solutions
            "results": {"items": _none_of("outcome_reason")},
            "contest_file": {"properties": {"text": {"const": ""}, "data": {"properties": {
                "escape": _none_of("hints", "solutions")}}}},
        },
    },
    "$defs": {"member": _MEMBER, "entry": _ENTRY, "person": _PERSON, "event": _EVENT,
              "round": _ROUND, "result": _RESULT},
}


# -- checking a value against it ------------------------------------------------------------------

ANNOTATIONS = frozenset({"$schema", "$id", "title", "description", "$defs"})
KEYWORDS = frozenset({"$ref", "type", "const", "enum", "minimum", "format", "required",
                      "properties", "additionalProperties", "items", "if", "then", "else",
                      "not", "anyOf"})
_TYPES: dict[str, tuple[str, Callable[[Any], bool]]] = {
    "null": ("null", lambda v: v is None),
    "boolean": ("true or false", lambda v: isinstance(v, bool)),
    "integer": ("an integer", lambda v: isinstance(v, int) and not isinstance(v, bool)),
    "number": ("a number", lambda v: isinstance(v, int | float) and not isinstance(v, bool)),
    "string": ("text", lambda v: isinstance(v, str)),
    "array": ("a list", lambda v: isinstance(v, list)),
    "object": ("an object", lambda v: isinstance(v, dict)),
}


def _what(value: Any) -> str:
    """A value as a message shows it: text quoted and cut short, a list or object by kind."""
    if isinstance(value, list | dict):
        return "a list" if isinstance(value, list) else "an object"
    if isinstance(value, bool) or value is None:
        return "null" if value is None else str(value).lower()
    shown = repr(value) if isinstance(value, str) else str(value)
    return shown if len(shown) <= 40 else shown[:37] + "..."


def _at(path: str) -> str:
    """Where a value is, as one line shows it: keys are the document's own text, so what
    would break the line (a line break, a control character) is written escaped, and a long
    path is cut short."""
    if not path:
        return "the document"
    shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in path)
    return shown if len(shown) <= 120 else shown[:117] + "..."


def _same(a: Any, b: Any) -> bool:
    """JSON's equality: true is not 1, 1.0 is not 1 here (nor is a list a tuple)."""
    return type(a) is type(b) and a == b


def _date(text: str) -> bool:
    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return len(text) == 10


def _moment(text: str) -> bool:
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        return False
    return "T" in text.upper() and parsed.utcoffset() is not None


FORMATS: dict[str, tuple[str, Callable[[str], bool]]] = {
    "date": ("a date (2024-05-17)", _date),
    "date-time": ("a date and time with its offset (2024-05-17T10:00:00+00:00)", _moment),
}


class _Checker:
    def __init__(self, root: dict[str, Any], formats: bool) -> None:
        self.root = root
        self.formats = formats

    def first(self, value: Any, schema: dict[str, Any], path: str) -> str | None:
        """The first way ``value`` (at ``path``) departs from ``schema``; None: it doesn't."""
        unknown = set(schema) - KEYWORDS - ANNOTATIONS
        if unknown:
            raise ValueError(f"the document's schema uses {sorted(unknown)}: not checked here")
        for check in (self._ref, self._type, self._values, self._object, self._items,
                      self._logic):
            found = check(value, schema, path)
            if found is not None:
                return found
        return None

    def _ref(self, value: Any, schema: dict[str, Any], path: str) -> str | None:
        ref = schema.get("$ref")
        if ref is None:
            return None
        prefix = "#/$defs/"
        if not ref.startswith(prefix):
            raise ValueError(f"the document's schema refers to {ref}: not checked here")
        return self.first(value, self.root["$defs"][ref[len(prefix):]], path)

    def _type(self, value: Any, schema: dict[str, Any], path: str) -> str | None:
        wanted = schema.get("type")
        if wanted is None:
            return None
        names = [wanted] if isinstance(wanted, str) else list(wanted)
        if any(_TYPES[n][1](value) for n in names):
            return None
        return f"{_at(path)}: {_what(value)} where {' or '.join(_TYPES[n][0] for n in names)} " \
               "is expected"

    def _values(self, value: Any, schema: dict[str, Any], path: str) -> str | None:
        if "const" in schema and not _same(value, schema["const"]):
            return f"{_at(path)}: {_what(value)} where {_what(schema['const'])} is expected"
        if "enum" in schema and not any(_same(value, v) for v in schema["enum"]):
            listed = ", ".join(map(str, schema["enum"]))
            return f"{_at(path)}: {_what(value)} is not one of {listed}"
        low = schema.get("minimum")
        if low is not None and _TYPES["number"][1](value) and value < low:
            return f"{_at(path)}: {_what(value)} is below {low}"
        form = schema.get("format")
        if form is not None and self.formats and isinstance(value, str):
            words, test = FORMATS[form]
            if not test(value):
                return f"{_at(path)}: {_what(value)} is not {words}"
        return None

    def _object(self, value: Any, schema: dict[str, Any], path: str) -> str | None:
        if not isinstance(value, dict):
            return None
        where = _at(path)
        for key in schema.get("required", ()):
            if key not in value:
                return f"{where}: no \"{key}\""
        known = schema.get("properties", {})
        for key, sub in known.items():
            if key in value:
                found = self.first(value[key], sub, f"{path}.{key}" if path else key)
                if found is not None:
                    return found
        extra = schema.get("additionalProperties", True)
        for key in value:
            if key in known or extra is True:
                continue
            if extra is False:
                return f"{where}: unknown key {_what(key)}"
            found = self.first(value[key], extra, f"{path}.{key}" if path else key)
            if found is not None:
                return found
        return None

    def _items(self, value: Any, schema: dict[str, Any], path: str) -> str | None:
        sub = schema.get("items")
        if sub is None or not isinstance(value, list):
            return None
        for i, item in enumerate(value):
            found = self.first(item, sub, f"{path}[{i}]")
            if found is not None:
                return found
        return None

    def _logic(self, value: Any, schema: dict[str, Any], path: str) -> str | None:
        where = _at(path)
        if "if" in schema:
            branch = "then" if self.first(value, schema["if"], path) is None else "else"
            if branch in schema:
                found = self.first(value, schema[branch], path)
                if found is not None:
                    return found
        if "not" in schema and self.first(value, schema["not"], path) is None:
            return f"{where}: has what its kind of document may not have"
        if "anyOf" in schema and all(self.first(value, s, path) is not None
                                     for s in schema["anyOf"]):
            return f"{where}: is none of the forms allowed there"
        return None


def shape_problem(doc: Any, formats: bool = True, schema: dict[str, Any] = SCHEMA) -> str | None:
    """Where ``doc`` first departs from the document's shape (``SCHEMA``), as one line
    ("history[3].value: '1:00:00' where an integer or null is expected"); None: nowhere.
    ``formats``: dates and date-times are checked as such too."""
    return _Checker(schema, formats).first(doc, schema, "")


# -- every value, whatever its place --------------------------------------------------------------

DEEPEST = 32  # a contest file's tables and an event's details are a few levels deep
LARGEST = 2**53 - 1  # JSON's exact integers (and far inside SQLite's)


def value_problem(doc: Any) -> str | None:
    """Whether any value of ``doc`` is one no document holds: nested deeper than ``DEEPEST``,
    an integer beyond ``LARGEST``, a number that is not finite, text that is not Unicode
    (a lone surrogate). One line naming where; None: none. Looked at without recursion."""
    stack: list[tuple[Any, str, int]] = [(doc, "", 0)]
    while stack:
        value, path, depth = stack.pop()
        where = _at(path)
        if depth > DEEPEST:
            return f"{where}: nested deeper than {DEEPEST} levels"
        if isinstance(value, dict):
            for key, item in value.items():
                if not _text(key):
                    return f"{where}: a key that is not Unicode text"
                stack.append((item, f"{path}.{key}" if path else key, depth + 1))
        elif isinstance(value, list):
            stack.extend((item, f"{path}[{i}]", depth + 1) for i, item in enumerate(value))
        elif isinstance(value, bool) or value is None:
            continue
        elif isinstance(value, int) and abs(value) > LARGEST:
            return f"{where}: a number too large ({len(str(abs(value)))} digits)"
        elif isinstance(value, float) and not -1e300 < value < 1e300:
            return f"{where}: a number that is not finite"
        elif isinstance(value, str) and not _text(value):
            return f"{where}: text that is not Unicode (a lone surrogate)"
    return None


def _text(value: object) -> bool:
    if not isinstance(value, str):
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
