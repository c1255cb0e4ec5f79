"""The list of feature packages, installed into the registry (bot/support/registry.py) when
this is imported: the app, the menus, the history and the contest file are built from it.

A new feature is a package beside these and one line here (docs/architecture.md). The list is
here rather than in ``bot/features/__init__.py``: importing a feature's ``rules.py`` (as the day's
state reads the escape's ledger) runs that file, and must not import every feature's handlers."""

from __future__ import annotations

from bot.features.escape.feature import FEATURE as ESCAPE
from bot.features.warnings.feature import FEATURE as WARNINGS
from bot.support.registry import REGISTRY, Feature

FEATURES: tuple[Feature, ...] = (
    ESCAPE,
    WARNINGS,
)

REGISTRY.install(FEATURES)
