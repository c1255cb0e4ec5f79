"""The hall's tables and the paper for it: which table each entry of a category played in one
round sits at, and ``/mesas [CATEGORY]`` (the table lists to print) and ``/imprimir`` (the
volunteers' sheet and the day plan).

- ``rules.py``: the tables through the hall, pure (``seating`` in the contest file);
- ``sheets.py``: each category's and heat's sheet, the hall's seats (the scoreboard and the
  table cards read them too) and the table lists' PDF;
- ``handlers.py``: the chat; ``feature.py``: ``FEATURE``."""
