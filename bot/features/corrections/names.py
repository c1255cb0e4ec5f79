"""The corrections' command, by its name (other features' texts name it through this)."""

CORRECT = "corregir"
