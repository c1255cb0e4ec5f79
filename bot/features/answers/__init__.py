"""A participant changing their own answers to the contest file's questions (a club's name, a
T-shirt size, a team's name asked as a question): ``/respuestas [N] [R ANSWER]``.

``rules.py`` (which answers may change, a change applied, pure), ``operations.py`` (one change
in its transaction), ``outcomes.py``, ``texts.py``, ``handlers.py`` (the command and its
buttons), ``names.py``, ``feature.py`` (``FEATURE``)."""
