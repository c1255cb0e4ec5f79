"""Your data yours: ``/mis_datos`` (``/mes_donnees``, ``/my_data``) shows a person what the bot
keeps about them and about the entries they follow (names, births, answers, meals, payments),
who sees it and how to have it removed (docs/privacy.md).

- ``texts.py``: what the person reads; ``handlers.py``: the chat; ``feature.py``: ``FEATURE``."""
