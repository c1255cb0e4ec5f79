"""Qualifiers invited to the next round instead of seated (``advance = { ..., invite = {...} }``):
``/acepto [N]``, ``/renuncio [N]`` and the invitation's buttons, the deadlines' timers, the next
in line invited when a place is given up or lapses.

- ``rules.py``: deadlines, answers, who is next in line, pure;
- ``day.py``: the invitations as the contest day reads and writes them (``/confirmar_ronda``
  invites through ``invite_qualifiers``; the answers, the lapses);
- ``texts.py``: the invitation and its buttons, answers, places given up or lapsed, and why
  not;
- ``handlers.py``: the commands, the buttons, the deadlines' jobs; ``feature.py``:
  ``FEATURE``."""
