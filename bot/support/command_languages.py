"""The command names of the languages that have none of their own (German, Italian, Portuguese,
Dutch): Spanish names the commands (the contract); French and English have their own aliases;
any other language types the English aliases (``ALIASES_OF``). Every menu line is in the
catalogs (``bot/locales``)."""

from __future__ import annotations

# a language -> the language whose command aliases it types
ALIASES_OF = {"de": "en", "it": "en", "pt": "en", "nl": "en"}
