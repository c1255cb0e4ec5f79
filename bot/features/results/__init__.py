"""Results: what volunteers record for an entry on the day: a finish (``/fin N [h:mm:ss]``, the
question a doubtful one asks first, a "FINISHED?" line's buttons), the pieces placed when time
is up (``/piezas N P``), a split time (``/parcial``), did not start, disqualified or out of
competition (``/estado``). Taking one back and an entry's history are /deshacer's.

- ``rules.py``: what each may record, pure (a finish against the limit, the clock, the escape,
  the split times, a correction or a time faster than plausible that asks first);
- ``names.py``: its commands' and buttons' names, for the features that refer to them;
- ``outcomes.py``: what recording gives back, each outcome declared once;
- ``day.py``: each record checked against the entry's state and appended, in the caller's
  transaction (the contests played at home confirm a claim through it);
- ``operations.py``: each operation's own transaction (``Work``) and who is told what;
- ``texts.py``: what volunteers and the entries' people read, usage lines, the sheet's lines;
- ``handlers.py``: the commands and buttons; ``feature.py``: ``FEATURE``."""
