"""The registration's names other features refer to: its commands as typed in Spanish (the
contract: ``bot/support/commands.py`` gives each language's), and the data of /start's
Register button, which opens the conversation."""

from __future__ import annotations

REGISTER = "inscribir"
CANCEL = "cancelar"
REGISTER_BUTTON = "reg:new"
