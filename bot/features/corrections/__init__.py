"""A participant corrects their own entry: ``/corregir [N] M NAME BIRTH`` (``/corriger``,
``/correct``) sets member M's name and birth as registration would take them, while
registration is open and before the entry plays; an organiser may correct any entry until it
plays. A correction is the same person written right (a typo in a name, a wrong birth year),
not a change of the team: it is a ``member_fix`` event, never counted against
``keep_originals`` as the organisers' change of members (``member_change``) is.

- ``rules.py``: how it is typed, and whether a correction may be made, pure;
- ``outcomes.py``: what a correction gives back and what people read of it;
- ``operations.py``: ``fix_member``, one transaction with what it owes people;
- ``texts.py``: its other words; ``handlers.py``: the chat; ``feature.py``: ``FEATURE``."""
