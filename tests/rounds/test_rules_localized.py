"""Which language a text of the contest file is read in (``localized``, pure): the reader's,
else English, else the contest's, else the first one written (issue 47: German phones read
Spanish). Fast: run against every mutant (setup.cfg)."""

from __future__ import annotations

from bot.domain.contest import localized


def test_the_reader_then_english_then_the_contest_then_the_first_written() -> None:
    names = {"es": "Series", "en": "Heats", "fr": "Séries"}
    assert localized(names, "fr", "es") == "Séries"
    assert localized(names, "de", "es") == "Heats"  # not the contest's Spanish
    assert localized({"es": "Series", "fr": "Séries"}, "de", "es") == "Series"
    assert localized({"fr": "Séries", "it": "Batterie"}, "de", "es") == "Séries"
    assert localized({}, "de", "es") is None
    assert localized({"es": "", "en": "Heats"}, "es", "es") == "Heats"  # an empty one is none
    assert localized({"es": "Series"}, "", "") == "Series"
