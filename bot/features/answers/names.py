"""The answers' command, by its name (other features' texts name it through this)."""

ANSWERS = "respuestas"
