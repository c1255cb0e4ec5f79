"""The words a contest file's declaration is written in: a ``Section`` (one TOML table, or a
list of them: ``[[categories]]``) holds its ``Key``s, each with its kind, default, limits and
meaning. ``bot/services/contest_model.py`` declares the file with them (a feature declares its
own table beside its settings, ``Feature.keys``); the reader (``bot/services/contest_toml.py``)
reads every key through its declaration, and ``docs/contest-file.md`` and
``contests/contest.schema.json`` are written from it (``python -m bot contest-reference``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time
from typing import Any


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


class _Depends:
    def __repr__(self) -> str:
        return "DEPENDS"


REQUIRED: Any = _Required()  # a key the file must give
DEPENDS: Any = _Depends()  # a default worked out from other keys (``default_doc`` says how)

# kind -> the TOML values it takes (as ``tomllib`` reads them)
KINDS: dict[str, tuple[type, ...]] = {
    "text": (str,),
    "choice": (str,),
    "int": (int,),
    "number": (int, float),
    "bool": (bool,),
    "money": (int, float),
    "duration": (str,),
    "moment": (datetime, date, str),
    "date": (date,),
    "time": (str, time),
    "texts": (str, dict),
    "strings": (list,),
    "ints": (list,),
    "table": (dict,),
    "tables": (list,),
}
# what each kind is called in the reference
KIND_NAMES = {
    "text": "text",
    "choice": "one of the values",
    "int": "whole number",
    "number": "number",
    "bool": "true or false",
    "money": "amount (2 decimals at most)",
    "duration": 'duration ("1:30:00", "5:00", "3 days")',
    "moment": "local date-time or date",
    "date": "date",
    "time": 'time of day ("15:15")',
    "texts": "text, or one per language",
    "strings": "list of texts",
    "ints": "list of whole numbers",
    "table": "table",
    "tables": "list of tables",
}


@dataclass(frozen=True)
class Key:
    name: str
    kind: str  # one of KINDS
    doc: str
    default: Any = REQUIRED
    default_doc: str = ""  # the default in words, where it is DEPENDS or reads better
    minimum: int | float | None = None
    maximum: int | float | None = None
    limits_doc: str = ""  # limits in words, where they depend on other keys
    choices: tuple[Any, ...] = ()
    example: str = ""  # a value as written in a file
    section: str = ""  # table or tables: the declared path of its section
    also: tuple[type, ...] = ()  # values taken besides the kind's (true/false beside a choice)
    extra_schema: tuple[tuple[str, Any], ...] = ()  # JSON Schema for what a kind can't say

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"{self.name}: unknown kind {self.kind!r}")
        if self.kind in ("table", "tables") and not self.section:
            raise ValueError(f"{self.name}: a {self.kind} names its section")

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

    @property
    def accepts(self) -> tuple[type, ...]:
        return KINDS[self.kind] + self.also


@dataclass(frozen=True)
class Section:
    path: str  # dotted, without positions: "categories.rounds.heat"
    doc: str
    keys: tuple[Key, ...]
    many: bool = False  # a list of tables ([[categories]])
    example: str = ""  # a short piece of a file (TOML)

    def key(self, name: str) -> Key | None:
        return next((k for k in self.keys if k.name == name), None)

    @property
    def title(self) -> str:
        return f"[[{self.path}]]" if self.many else f"[{self.path}]"


class DeclarationError(AssertionError):
    """The reader and the declaration disagree: a bug of the bot, never of a file."""
