"""Final results and the rankings: ``/clasificacion`` (organisers, and an entry's people where
the contest lets them: text or pictures, a category, a heat, a round of heats) and
``/publicar`` (the organiser makes a category's results final once nobody plays in it, after a
question listing what a careful organiser checks; each entry is told its place, and again only
if it moved).

- ``rules.py``: what each entry is told, what moved since, who may read a ranking (pure);
- ``names.py``: its commands' names, for the features that refer to them;
- ``outcomes.py``: what publishing gives back and why a category is not made final;
- ``day.py``: what may be made final now, what is final, in the caller's transaction;
- ``operations.py``: ``publish``, one transaction with what it owes people;
- ``texts.py``: each entry's place, the question and the answer, the refusals;
- ``handlers.py`` (publishing) and ``rankings.py`` (reading a ranking); ``feature.py``:
  ``FEATURE``."""
