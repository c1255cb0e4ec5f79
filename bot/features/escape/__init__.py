"""The escape (docs/rules.md, section 3): a pair's hints and solutions for each stage, paid with
tickets (then with time), a cooldown between two requests; the volunteers confirm its stage and
record its solve. ``/pista``, ``/solucion`` (and their stage buttons), ``/billetes``, ``/etapa``
(and the stage buttons under the handover line), ``/escape``.

- ``rules.py``: the ticket ledger and why a request, a stage or a solve is refused, pure;
- ``outcomes.py``: what the operations give back and what each person reads of it;
- ``operations.py``: ``request``, ``confirm_stage``, ``solve``, one transaction each;
- ``texts.py``: its other words (/billetes, usage, stage buttons, the cooldown's notice);
- ``handlers.py``: the chat; ``feature.py``: ``FEATURE``, one line in bot/features/__init__.py.

The escape's table of the contest file (``[escape]``) is read with the contest
(``bot.domain.contest.EscapeRules``): the ledger lives in every entry's state, so the day's
shared queries read ``rules.py``."""
