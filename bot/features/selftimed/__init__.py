"""Contests played at home, self-timed (``timing = "self"``): each entry's code at the start,
``/listo`` with a photo of the puzzle and the code, reviewers who confirm or turn the finish
down (``/rechazar N [reason]``, the review's buttons), ``/empiezo`` where each entry starts each
puzzle itself (``own_start``).

- ``rules.py``: the codes, what a photo is for, the pace, pure;
- ``day.py``: the start's codes, photos, reviews and the claims waiting, as the contest day
  reads and writes them (standings, rounds and the escape's /listo call it);
- ``texts.py``: the code, what a photo is kept as, the reviewers' caption and buttons, a
  decision told, and why not;
- ``handlers.py``: the commands, photos, the review's buttons, the held photos' jobs;
  ``feature.py``: ``FEATURE``."""
