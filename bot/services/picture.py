"""The ranking as a picture (PNG), for sharing in the club's group (Pillow)."""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from bot.domain.clock import format_duration
from bot.domain.contest import Category
from bot.domain.ranking import Row

FONT_DIRS = [Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/dejavu")]
WIDTH = 1400
ROW = 46
MARGIN = 30


def _font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    for d in FONT_DIRS:
        if (d / name).exists():
            return ImageFont.truetype(str(d / name), size)
    return ImageFont.load_default(size=size)  # Pillow's own font when DejaVu is missing


def _fit(draw: ImageDraw.ImageDraw, text: str, font: object, width: int) -> str:
    if draw.textlength(text, font=font) <= width:  # type: ignore[arg-type]
        return text
    while text and draw.textlength(text + "…", font=font) > width:  # type: ignore[arg-type]
        text = text[:-1]
    return text + "…"


def ranking_png(title: str, category: Category, rows: Sequence[Row],
                labels: dict[str, str]) -> bytes:
    """``labels``: translated words (pieces, no result yet) keyed by their English ids."""
    height = MARGIN * 2 + 70 + ROW * max(1, len(rows)) + 20
    image = Image.new("RGB", (WIDTH, height), "white")
    draw = ImageDraw.Draw(image)
    head, big, small = _font(34, bold=True), _font(26), _font(20)
    draw.text((MARGIN, MARGIN), _fit(draw, title, head, WIDTH - 2 * MARGIN), fill="#111",
              font=head)
    y = MARGIN + 70
    for i, r in enumerate(rows):
        if i % 2 == 0:
            draw.rectangle([0, y - 6, WIDTH, y + ROW - 6], fill="#f1f3f7")
        pos = str(r.position) if r.position is not None else "-"
        draw.text((MARGIN, y), pos, fill="#111", font=big)
        draw.text((MARGIN + 70, y), f"#{r.number}", fill="#555", font=big)
        names = " / ".join(r.competitor.names)
        if r.competitor.shown:
            names += f" ({', '.join(r.competitor.shown)})"
        draw.text((MARGIN + 170, y), _fit(draw, names, big, 700), fill="#111", font=big)
        if r.finished and r.time is not None:
            result = format_duration(r.time)
        elif r.competitor.pieces is not None:
            result = f"{r.competitor.pieces} {labels.get('pieces', 'pieces')}"
        else:
            result = labels.get("no result yet", "no result yet")
        draw.text((MARGIN + 900, y), result, fill="#111", font=big)
        if r.prize:
            draw.text((MARGIN + 1090, y + 4), _fit(draw, r.prize, small, 250), fill="#8a5a00",
                      font=small)
        y += ROW
    buf = io.BytesIO()
    image.save(buf, format="PNG", optimize=True)
    return buf.getvalue()
