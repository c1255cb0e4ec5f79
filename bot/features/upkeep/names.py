"""The upkeep's command as typed in Spanish (the contract)."""

from __future__ import annotations

DOCTOR = "diagnostico"
