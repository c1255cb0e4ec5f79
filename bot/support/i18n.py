"""Translations: gettext catalogs in ``locales/<lang>/LC_MESSAGES/bot.po``, read with Babel.

Message ids are the English texts, so English needs no catalog. ``tr(lang, text, **kw)`` picks
the catalog (Spanish by default), writes the commands the text names in the reader's language
(``/ayuda`` reads ``/aide`` in French) and fills ``{placeholders}``; ``ntr`` does it for a
count, with the language's plural forms (the template is extracted with
``-k tr:2 -k ntr:2,3 -k N_``, as tests/day/test_i18n.py does; ``N_`` marks a message
translated where it is shown, a command's menu line).
"""

from __future__ import annotations

import gettext
import io
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from bot.support.commands import in_language

LOCALES = Path(__file__).resolve().parents[1] / "locales"
LANGUAGES = ("es", "fr", "en", "de", "it", "pt", "nl")
DEFAULT_LANGUAGE = "es"


@cache
def catalog(lang: str) -> gettext.NullTranslations:
    po = LOCALES / lang / "LC_MESSAGES" / "bot.po"
    if not po.exists():
        return gettext.NullTranslations()
    with po.open("rb") as fh:
        cat = read_po(fh, locale=lang)
    buf = io.BytesIO()
    write_mo(buf, cat)
    buf.seek(0)
    return gettext.GNUTranslations(buf)


def pick_language(chosen: str | None, telegram_code: str | None,
                  fallback: str = DEFAULT_LANGUAGE) -> str:
    """The person's language: their /idioma choice, else Telegram's, else ``fallback`` (the
    contest's language: a German phone at a French contest reads French)."""
    for code in (chosen, telegram_code):
        if code:
            base = code.split("-")[0].lower()
            if base in LANGUAGES:
                return base
    return fallback if fallback in LANGUAGES else DEFAULT_LANGUAGE


@cache
def _template(lang: str, message: str) -> str:
    lang = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
    return in_language(lang, catalog(lang).gettext(message))


def tr(lang: str, message: str, /, **params: Any) -> str:
    translated = _template(lang, message)
    return translated.format(**params) if params else translated


def ntr(lang: str, singular: str, plural: str, n: int, /, **params: Any) -> str:
    """``tr`` for a count: the catalog's plural form for ``n`` ("1 adult", "2 adults"; msgids
    are the English singular and plural), with ``{n}`` filled in besides ``params``."""
    lang = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
    return in_language(lang, catalog(lang).ngettext(singular, plural, n)).format(n=n, **params)
