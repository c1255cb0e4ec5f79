"""Following an entry by its table card: the card's QR code (``python -m bot cards``) carries
a code of its own, derived from the entry's join code, and whoever scans it only asks to follow
the entry. The entry's phones (and the organisers) get the request with Allow / Refuse; once
someone decides, every copy of that line closes, saying who did, and the phone is told.

- ``rules.py``: the card's code, the buttons' data, who decides, pure;
- ``settings.py``: the contest file's ``[following]`` table (``first_phone``);
- ``outcomes.py``: what a scan and a decision give back, and what each reader reads of them;
- ``operations.py``: ``ask_to_follow`` and ``decide``, each one transaction;
- ``handlers.py``: the scan (``/start`` with a card's code) and the buttons;
  ``feature.py``: ``FEATURE``."""
