"""The privacy feature's commands, by their names (other features' texts name them through
this)."""

KEEP_DATA = "conservar_datos"
ERASE_DATA = "borrar_datos"
