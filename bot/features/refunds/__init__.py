"""Refunds made: ``/reembolsado N [AMOUNT]`` (``/rembourse``, ``/refunded``) records that the
organisers gave money back to an entry (by transfer, in cash, in the payment provider's
dashboard): a ``refund`` event with the cents given. What is still to give back is what the
contest's rules owe the entry less what was given, so a refund made leaves the organisers' list
(``/inscritos``) and the entry's phones are told; one recorded by mistake is taken back with
``/deshacer``. Telegram refunds only Stars: the bot never moves money itself.

- ``rules.py``: an amount as typed, pure;
- ``outcomes.py``: what recording a refund gives back and what people read of it;
- ``operations.py``: ``mark_refunded``, one transaction with what it owes people;
- ``texts.py``: its other words; ``handlers.py``: the chat; ``feature.py``: ``FEATURE``."""
