"""The offers' command, by its name (other features' texts name it through this)."""

ACCEPT_PLACE = "aceptar_plaza"
