"""The results' names other features refer to: its commands as typed in Spanish (the
contract: ``bot/support/commands.py`` gives each language's), and the prefixes of its buttons'
data."""

from __future__ import annotations

FINISH = "fin"
PIECES = "piezas"
OUTCOME = "estado"
SPLIT = "parcial"
JOKER = "comodin"

# under a finish's question: "fin:<entry>:<time or ->:<the finish it was asked on>"
FINISH_BUTTON = "fin:"
# under a "FINISHED?" line: "ready:ok|no:<entry>:<the /listo's event id>"
READY_BUTTON = "ready:"
# under a reviewer's photo of a finish claimed at home: "rev:again|nocode:<entry>:<the /listo>"
REVIEW_BUTTON = "rev:"
# an outcome's buttons (under the outcome command's question, and under the final results'
# question): "st:<entry>:dns|oc"
OUTCOME_BUTTON = "st:"
