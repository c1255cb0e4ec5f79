"""A waiting list that moves itself: with ``[waiting_list]`` in the contest file, a place that
frees up is not taken at once by the next in line but offered to it, held for it for
``offer_hours`` from when its people are told; they accept it (a button, or ``/aceptar``;
``/accepter``, ``/accept``) or give it up (the button asks as ``/baja`` does). Unanswered by the
deadline, the offer passes to the one after, and the entry is out of the waiting list, refunded
in full. A pair or a team waits and moves as one entry.

- ``rules.py``: the rules, pure (the deadline of an offer told at a moment);
- ``settings.py``: its table of the contest file;
- ``texts.py``: what people read; ``operations.py``: an offer accepted;
  ``handlers.py``: the chat and the deadlines' timers; ``feature.py``: ``FEATURE``.

The places themselves (who is offered what, when an offer ends) are replayed with every other
change of places in ``bot/domain/places.py``; the offer is told, and its deadline recorded, by
the registrations' announcement of changed places (``bot/handlers/desk.py``)."""
