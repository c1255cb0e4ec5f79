"""An answer to an enigma, compared as people type it (docs/rules.md, "The escape in the
chat"): capitals, accents, spaces and punctuation don't count ("Saragossa!" is "saragossa"),
and where the organiser says so a whole number is right in digits or in words in any language
the bot speaks ("12", "doce", "twelve", "douze", "zwölf"). Pure: no clock, no storage."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from num2words import num2words  # type: ignore[import-untyped]

from bot.domain.contest import Enigma

# the languages numbers are accepted in, written out (the bot's own: bot/support/i18n.py, and
# how Brazil, Belgium and Switzerland say them: "dezesseis", "septante", "nonante")
NUMBER_LANGUAGES = ("es", "fr", "en", "de", "it", "pt", "nl", "pt_BR", "fr_BE", "fr_CH")
# the feminine of a number, said of pieces (piezas, peças): "quinientas", "duzentas"
FEMININE = {
    "es": ((r"uno\b", "una"), (r"ientos\b", "ientas")),
    "pt": ((r"\bum\b", "uma"), (r"\bdois\b", "duas"), (r"entos\b", "entas")),
    "pt_BR": ((r"\bum\b", "uma"), (r"\bdois\b", "duas"), (r"entos\b", "entas")),
}
MAX_NUMBER = 10**12  # larger numbers are compared as they are typed
# a number as people type one: digits, maybe a sign, maybe thousands grouped by "." "," or a
# space ("1.000", "1,000", "1 000"); anything else with digits ("2.5", "1/2") is no whole number
_SIGN = r"+\u2212\-"
_WHOLE = re.compile(rf"[{_SIGN}]?\s*(\d{{1,3}}(?:[.,\s\u00a0\u202f]\d{{3}})+|\d+)")
_NUMERIC = re.compile(rf"[{_SIGN}\d.,/\s\u00a0\u202f]+")


def normalize(text: str) -> str:
    """``text`` as answers are compared: its letters and digits, lowercase (ß as ss), without
    accents, everything else left out."""
    folded = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in folded if ch.isalnum() and not unicodedata.combining(ch))


def whole_number(text: str) -> int | None:
    """``text`` as a whole number people type ("24", "-5", "1.000", "1 000"); None if it is
    not one (a decimal, a fraction, words)."""
    found = _WHOLE.fullmatch(unicodedata.normalize("NFKC", text).strip())
    if found is None:
        return None
    digits = re.sub(r"\D", "", found.group(1))
    if len(digits) > 13:
        return None
    value = int(digits)
    return -value if text.strip()[:1] in ("-", "\u2212") else value


def _spellings(n: int, lang: str) -> set[str]:
    """``n`` in words in ``lang`` as people write it: num2words' own, its feminine, and the
    shorter forms said as often ("one hundred five", German "hundertfünf")."""
    out: set[str] = set()
    for to in ("cardinal", "year"):
        try:
            words = str(num2words(n, lang=lang, to=to))
        except (NotImplementedError, OverflowError, ValueError, TypeError, AttributeError):
            continue
        out.add(words)
        feminine = words
        for pattern, said in FEMININE.get(lang, ()):
            feminine = re.sub(pattern, said, feminine)
        out.add(feminine)
        if lang == "es":  # "veintiún", said before a noun
            out.add(re.sub(r"uno\b", "ún", words))
        if lang == "en":
            out.add(re.sub(r"\band\b|,", " ", words))
        if lang == "de":
            out.add(re.sub(r"^(minus\s*)?ein(hundert|tausend)", r"\1\2", words))
    return out


def number_words(n: int) -> frozenset[str]:
    """The number ``n`` written in words in each language, as compared (also as a year where
    the language says years apart: "nineteen eighty-four")."""
    out = {normalize(w) for lang in NUMBER_LANGUAGES for w in _spellings(n, lang)}
    out.discard("")
    return frozenset(out)


@lru_cache(maxsize=256)
def _accepted(answers: tuple[str, ...], numbers: bool) -> tuple[frozenset[str], frozenset[int]]:
    """The forms ``answers`` are right in: as compared (words, and the numbers in words where
    ``numbers``), and the whole numbers among them."""
    forms: set[str] = set()
    values: set[int] = set()
    for a in answers:
        value = whole_number(a) if numbers else None
        if value is None or abs(value) > MAX_NUMBER:
            forms.add(normalize(a))
            continue
        values.add(value)
        forms |= number_words(value)
    forms.discard("")
    return frozenset(forms), frozenset(values)


def accepted_forms(answers: tuple[str, ...], numbers: bool) -> frozenset[str]:
    """Every form, as compared, an answer of ``answers`` is right in (its numbers aside)."""
    return _accepted(answers, numbers)[0]


def is_right(enigma: Enigma, typed: str) -> bool:
    """Whether ``typed`` answers ``enigma``. With ``numbers``, what is typed as a number
    ("24", "-5", "1.000") is compared as one, with its sign: "2.5" is not 25, nor "1/2" 12."""
    forms, values = _accepted(enigma.answers, enigma.numbers)
    if enigma.numbers and _NUMERIC.fullmatch(typed.strip()) and any(
            ch.isdigit() for ch in typed):
        value = whole_number(typed)
        if value is not None:
            return value in values
        # a decimal or a fraction: right only where the organiser wrote that answer itself
        shown = re.sub(r"\s", "", typed).replace(",", ".")
        return any(re.sub(r"\s", "", a).replace(",", ".") == shown for a in enigma.answers)
    form = normalize(typed)
    return bool(form) and form in forms
