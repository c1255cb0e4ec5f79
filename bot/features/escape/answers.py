"""An answer to an enigma, compared as people type it (docs/rules.md, "The escape in the
chat"): capitals, accents, spaces and punctuation don't count ("Saragossa!" is "saragossa"),
and where the organiser says so a whole number is right in digits or in words in any language
the bot speaks ("12", "doce", "twelve", "douze", "zwölf"). Pure: no clock, no storage."""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from num2words import num2words  # type: ignore[import-untyped]

from bot.domain.contest import Enigma

# the languages numbers are accepted in, written out (the bot's own: bot/support/i18n.py)
NUMBER_LANGUAGES = ("es", "fr", "en", "de", "it", "pt", "nl")
MAX_NUMBER = 10**9  # a longer run of digits is compared as it is typed


def normalize(text: str) -> str:
    """``text`` as answers are compared: its letters and digits, lowercase (ß as ss), without
    accents, everything else left out."""
    folded = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in folded if ch.isalnum() and not unicodedata.combining(ch))


def number_words(n: int) -> frozenset[str]:
    """The number ``n`` written in words in each language, as compared (also as a year where
    the language says years apart: "nineteen eighty-four")."""
    out: set[str] = set()
    for lang in NUMBER_LANGUAGES:
        for to in ("cardinal", "year"):
            try:
                out.add(normalize(str(num2words(n, lang=lang, to=to))))
            except (NotImplementedError, OverflowError, ValueError, TypeError):
                continue
    out.discard("")
    return frozenset(out)


@lru_cache(maxsize=256)
def accepted_forms(answers: tuple[str, ...], numbers: bool) -> frozenset[str]:
    """Every form an answer of ``answers`` is right in."""
    forms = {normalize(a) for a in answers}
    if numbers:
        for form in list(forms):
            if form.isdigit() and form.isascii() and int(form) <= MAX_NUMBER:
                forms.add(str(int(form)))
                forms |= number_words(int(form))
    forms.discard("")
    return frozenset(forms)


def is_right(enigma: Enigma, typed: str) -> bool:
    """Whether ``typed`` answers ``enigma``."""
    form = normalize(typed)
    if enigma.numbers and form.isdigit() and form.isascii() and len(form) < 12:
        form = str(int(form))  # "007" is 7
    return bool(form) and form in accepted_forms(enigma.answers, enigma.numbers)
