"""The partners' command, by its name (other features' texts name it through this)."""

PAIR = "emparejar"
