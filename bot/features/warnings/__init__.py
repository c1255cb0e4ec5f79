"""A volunteer's warning: ``/aviso N REASON`` (``/avertissement``, ``/warning``); with
``[warnings] disqualify_after = N`` in the contest file, the N-th warning of an entry in its
heat disqualifies it.

- ``rules.py``: the rule, pure; ``settings.py``: its table of the contest file;
- ``outcomes.py``: what the operation gives back and what each person reads of it;
- ``operations.py``: ``warn``, one transaction with what it owes people;
- ``texts.py``: its menu line, usage, name in a history; ``handlers.py``: the chat;
- ``feature.py``: ``FEATURE``, what it adds to the bot, one line in bot/features/installed.py."""
