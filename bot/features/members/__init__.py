"""A team's members changed by an organiser before it plays: ``/sustituir N M NAME BIRTH``
(member M replaced), ``/sustituir N + NAME BIRTH`` (a member added), ``/sustituir N M -``
(member M removed), with ``keep_originals`` in the category.

- ``rules.py``: the originals, what a change may do, pure (a document's import replays member
  changes through them too);
- ``outcomes.py``: what a change gives back and what people read of it;
- ``operations.py``: ``change_members``, one transaction with what it owes people;
- ``texts.py``: how it is typed; ``handlers.py``: the chat; ``feature.py``: ``FEATURE``."""
