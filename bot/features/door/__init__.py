"""The door: who has come. A volunteer marks an entry present as its people arrive
(``/presente N``, or a tap on ``/puerta``'s list of those still to come); ``/puerta`` shows
organisers and volunteers, per category (or heat), who has not come yet; with
``[door] absent_after_minutes`` the organisers are told, that many minutes after a clock
started, which entries have still not come, with a "did not start" button for each.

- ``rules.py``: the rules, pure; ``settings.py``: its table of the contest file;
- ``day.py``: who is expected and who has come, read from the history;
- ``outcomes.py``: what marking an entry present gives back and what each reader reads;
- ``operations.py``: ``arrive``, one transaction; ``texts.py``: its other words;
- ``handlers.py``: the chat and the absent report's timers; ``feature.py``: ``FEATURE``."""
