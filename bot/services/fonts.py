"""Fonts for the PDFs the bot prints (table cards, table lists).

reportlab ships no TrueType font that covers accents *and* other scripts, so the PDFs use
DejaVu Sans, looked for in reportlab's own fonts folder and then in the usual system places
(``/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf`` on Debian and Ubuntu: package
fonts-dejavu-core). Without it they fall back to Helvetica.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics  # type: ignore[import-untyped]
from reportlab.pdfbase.ttfonts import TTFError, TTFont  # type: ignore[import-untyped]

FONT_DIRS = (
    Path(pdfmetrics.__file__).resolve().parent.parent / "fonts",  # reportlab's own
    Path("/usr/share/fonts/truetype/dejavu"),  # Debian, Ubuntu
    Path("/usr/share/fonts/dejavu"),  # Fedora
    Path("/usr/share/fonts/TTF"),  # Arch
    Path("/usr/share/fonts/dejavu-sans-fonts"),
    Path("/usr/local/share/fonts"),
    Path("/Library/Fonts"),  # macOS
    Path.home() / "Library" / "Fonts",
)


@dataclass(frozen=True)
class Fonts:
    regular: str
    bold: str
    unicode: bool  # False: Helvetica, other scripts than Latin print as boxes


@lru_cache(maxsize=4)
def find_fonts(dirs: tuple[Path, ...] = FONT_DIRS) -> Fonts:
    """DejaVu Sans (regular and bold) from the first folder that has it, else Helvetica."""
    for folder in dirs:
        regular = folder / "DejaVuSans.ttf"
        if not regular.is_file():
            continue
        try:
            pdfmetrics.registerFont(TTFont("PuzzleCards", str(regular)))
        except (TTFError, OSError):
            continue
        bold_name = "PuzzleCards"
        bold = folder / "DejaVuSans-Bold.ttf"
        if bold.is_file():
            try:
                pdfmetrics.registerFont(TTFont("PuzzleCards-Bold", str(bold)))
                bold_name = "PuzzleCards-Bold"
            except (TTFError, OSError):
                pass
        return Fonts("PuzzleCards", bold_name, True)
    return Fonts("Helvetica", "Helvetica-Bold", False)


