"""Finding a partner: someone alone registers in a category of pairs or teams, looking for a
partner, and is matched with another such entry, by the organisers (``/emparejar A B``) or by
both entries asking for each other (``/emparejar N``, and the button sent with the request).

``rules.py`` (the ``[partners]`` settings, which entries may be matched, pure), ``settings.py``
(the contest file's table), ``operations.py`` (a match and a request, each in its own
transaction), ``outcomes.py`` (what they give back and what each reader reads), ``texts.py``,
``handlers.py`` (the command and the buttons), ``names.py``, ``feature.py`` (``FEATURE``)."""
