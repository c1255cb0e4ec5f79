"""An organiser's backup of the database from the chat: ``/copia`` (``/sauvegarde``,
``/backup``), taken while the bot runs and sent as a document (``handlers.py``, its caption in
``texts.py``; ``feature.py``: ``FEATURE``). The backups on the machine itself are
``python -m bot backup`` (bot/storage/backup.py)."""
