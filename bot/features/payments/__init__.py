"""Paying in the chat (Telegram Payments): with ``[payments]`` in the contest file and a payment
provider's token in the settings (``PUZZLEBOT_PAYMENT_TOKEN``), an entry registered in the chat
gets an invoice for what it owes; ``/pagar`` (``/payer``, ``/pay``) sends it again. Telegram's
last question before charging (the pre-checkout query) is answered after checking the entry
still owes that amount and still has a place to pay for; the payment is recorded with the date
Telegram gave its message, once per charge, and a payment for a place that is gone is owed back
in full (the organisers' list of refunds). Where a place is held only once paid, a place free at
registration is held while its people pay (``hold_minutes``).

- ``rules.py``: the rules, pure (the invoice's payload, what a checkout may go on with);
- ``settings.py``: its table of the contest file;
- ``texts.py``: what people read; ``operations.py``: the invoice owed, the checkout's check,
  the payment recorded; ``handlers.py``: the chat; ``feature.py``: ``FEATURE``."""
