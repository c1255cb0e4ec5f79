"""Translations: gettext catalogs in ``locales/<lang>/LC_MESSAGES/bot.po``, read with Babel.

Message ids are the English texts, so English needs no catalog. ``tr(lang, text, **kw)`` picks
the catalog (Spanish by default), writes the commands the text names in the reader's language
(``/ayuda`` reads ``/aide`` in French) and fills ``{placeholders}``; ``ntr`` does it for a
count, with the language's plural forms (the template is extracted with
``-k tr:2 -k ntr:2,3 -k N_``, as tests/day/test_i18n.py does; ``N_`` marks a message
translated where it is shown, a command's menu line).
"""

from __future__ import annotations

import contextlib
import gettext
import hashlib
import io
import os
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
    source = po.read_bytes()
    try:
        return gettext.GNUTranslations(io.BytesIO(_compiled(po, source, lang)))
    except (OSError, ValueError, LookupError):  # a kept file damaged: compiled again
        return gettext.GNUTranslations(io.BytesIO(_compiled(po, source, lang, fresh=True)))


def _compiled(po: Path, source: bytes, lang: str, fresh: bool = False) -> bytes:
    """The catalog compiled (``.mo``), kept beside its ``.po`` under the name of the text it
    was compiled from (``bot.<hash>.mo``): Babel reads the seven ``.po`` files in about 0.3 s,
    a third of a restart's budget on the day, so only a changed catalog is read again. Where
    the folder cannot be written (an installation owned by another user), compiled in memory
    at each start as before."""
    digest = hashlib.sha256(source).hexdigest()[:16]
    kept = po.with_name(f"bot.{digest}.mo")
    if not fresh:
        with contextlib.suppress(OSError):
            return kept.read_bytes()
    cat = read_po(io.BytesIO(source), locale=lang)
    buf = io.BytesIO()
    write_mo(buf, cat)
    compiled = buf.getvalue()
    with contextlib.suppress(OSError):
        part = kept.with_name(f"{kept.name}.{os.getpid()}.part")
        part.write_bytes(compiled)
        os.replace(part, kept)  # whole or not at all, whoever else is compiling it
        for old in po.parent.glob("bot.*.mo"):
            if old != kept:
                old.unlink(missing_ok=True)
    return compiled


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
