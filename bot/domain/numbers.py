"""How the bot reads the numbers people type: one policy for every number and every time.

- A digit is 0-9 in any script Unicode counts as decimal: Arabic-Indic ٤٥٧, Persian ۴۵۷,
  Devanagari ४५७ and full-width ４５７ all read 457 (a phone's keyboard may give any of them).
- Nothing else belongs to a number: no sign (``+458``, ``-3``), no underscore (``4_5_7``), no
  space, dot or comma inside (``4 57``, ``4.57``), no superscript (``²``), circled (``①``) or
  fraction (``½``) character. What is not a number gets the command's usage as an answer.
- A whole number has at most 9 digits (leading zeros count: ``007`` is 7).
- An entry number, a stage or a count may be written with one leading ``#`` (``#12``).
- A time is ``h:mm:ss`` or ``m:ss`` with those digits (``bot.domain.clock.parse_duration``).
- A birth year has exactly 4 digits; a birth date is read from those digits too. Dates are read
  only between 1900 and 2199 (``YEARS``).
"""

from __future__ import annotations

from unicodedata import decimal

MAX_DIGITS = 9


def ascii_digits(text: str) -> str:
    """``text`` with every decimal digit of any script replaced by its 0-9 (nothing else
    changes, so whatever is not a digit still makes the number unreadable)."""
    if text.isascii():
        return text
    return "".join(str(decimal(c)) if c.isdecimal() else c for c in text)


def parse_whole(text: str, *, digits: int = MAX_DIGITS, hash_mark: bool = False) -> int | None:
    """A whole number of 1 to ``digits`` digits (none of ``+``, ``-``, ``_``, spaces inside);
    with ``hash_mark``, one leading ``#`` may come first. None when it is not one."""
    t = text.strip()
    if hash_mark and t.startswith("#"):
        t = t[1:]
    t = ascii_digits(t)
    if not t or len(t) > digits or not (t.isascii() and t.isdigit()):
        return None
    return int(t)


# Dates people give (a payment, a registration, a birth) are read only within these years:
# anything else is a typo, and a date near year 1 or 9999 cannot even be stored and read back.
YEARS = range(1900, 2200)


def parse_year(text: str) -> int | None:
    """A 4-digit year (``1980``, ``١٩٨٠``), or None."""
    t = ascii_digits(text.strip())
    return parse_whole(t) if len(t) == 4 else None
