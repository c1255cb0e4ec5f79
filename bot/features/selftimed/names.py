"""The names of the contests played at home that other features refer to: its commands as
typed in Spanish (the contract: ``bot/support/commands.py`` gives each language's)."""

from __future__ import annotations

START = "empiezo"
