"""The refunds' command, by its name (other features' texts name it through this)."""

REFUNDED = "reembolsado"
