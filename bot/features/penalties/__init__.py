"""Penalties (``[[penalties]]`` in the contest file): ``/penalizacion N KIND [COUNT]`` adds them
to an entry's ranking time; ``/penalizacion N`` asks which kind, a button each.

The kinds are part of the contest (``bot.domain.contest.PenaltyKind``) and of every entry's
state and ranking; what is here is recording them:

- ``outcomes.py``: what recording gives back and what people read of it;
- ``operations.py``: ``add_penalties``, one transaction with what it owes people;
- ``texts.py``: how it is typed, its question, its line in the volunteers' sheet;
- ``handlers.py``: the command and its buttons; ``feature.py``: ``FEATURE``."""
