"""Registration: the contest's entries, places and waiting list, fees and meals, and the
/inscribir conversation that takes an entry in the chat.

- ``rules.py``: who may enter which category, the fees, the registration window, places, the
  waiting list, lapses (pure: the layers below read it too);
- ``names.py``: its commands' names and /start's Register button, for the features that refer
  to them;
- ``day.py``: the registrations read model and its operations (register, pay, withdraw...);
- ``texts.py``: places, the summary, why an entry is refused, waiting-list moves, the
  conversation's questions and answers;
- ``handlers.py`` (the conversation), ``prompts.py`` (its questions), ``draft.py`` (its draft,
  stored and saved after every step); ``feature.py``: ``FEATURE``."""
