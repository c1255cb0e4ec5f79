"""The invitations' names other features refer to: its commands as typed in Spanish (the
contract: ``bot/support/commands.py`` gives each language's)."""

from __future__ import annotations

ACCEPT = "acepto"
DECLINE = "renuncio"
