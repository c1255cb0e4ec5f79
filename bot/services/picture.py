"""The ranking as a picture (PNG), for sharing in the club's group (Pillow).

``ranking_layout`` places every text (the title block, the column headers, one row per entry)
and gives back what goes where; ``ranking_png`` draws that layout. Portrait by default (1080
pixels wide: a phone shows it across its screen, the prize on its own line under the names),
landscape on request (1400 wide, the prize in a column of its own). Each prize is written
once, on its winner's row: a special prize (Castrillo's best local pair) as "★ name: prize"
under the names. Texts never run out of their column: a prize wraps onto more lines (three
prizes that start alike stay distinct), a pair's names go one per line when they don't fit
together, and only a line that still doesn't fit ends with "…".
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from functools import cache
from pathlib import Path

from babel.dates import format_date
from PIL import Image, ImageDraw, ImageFont, ImageText

from bot.domain.clock import format_duration
from bot.domain.contest import Category, Contest, ExtraPrize
from bot.domain.ranking import Row, ranking_time
from bot.features.results.texts import outcome_text
from bot.support.i18n import tr
from bot.texts.common import names as joined_names
from bot.texts.pieces import pieces_result

FONT_DIRS = [Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/dejavu")]
MARGIN = 40
PAD = 10  # above and below the texts of a row

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

# style -> (size, bold, colour)
STYLES: dict[str, tuple[int, bool, str]] = {
    "contest": (40, True, "#111111"),
    "date": (24, False, "#555555"),
    "title": (32, True, "#1d4f91"),
    "position": (26, True, "#111111"),
    "number": (26, False, "#555555"),
    "names": (26, False, "#111111"),
    "result": (26, False, "#111111"),
    "status": (22, False, "#666666"),  # a result that is no time nor pieces: no result yet...
    "prize": (20, False, "#8a5a00"),
    "extra": (20, True, "#8a5a00"),
    "header": (20, True, "#555555"),
}

PRIZE_LINES = 3  # a prize longer than this many lines ends with "…"
TITLE_LINES = 2


@dataclass(frozen=True)
class Geometry:
    """The picture's width and its columns, each (x, width); ``prize_below``: the prize goes
    on its own line under the names (portrait) rather than in a column (landscape)."""

    width: int
    position: tuple[int, int]
    number: tuple[int, int]
    names: tuple[int, int]
    result: tuple[int, int]
    prize: tuple[int, int]
    prize_below: bool

    def column(self, style: str) -> tuple[int, int]:
        """Where a text of ``style`` goes in a row (title texts: the whole width)."""
        return {"position": self.position, "number": self.number, "names": self.names,
                "extra": self.prize if self.prize_below else self.names,
                "result": self.result, "status": self.result, "prize": self.prize,
                }.get(style, (MARGIN, self.width - 2 * MARGIN))


PORTRAIT = Geometry(1080, (MARGIN, 50), (MARGIN + 60, 90), (MARGIN + 160, 560),
                    (MARGIN + 740, 260), (MARGIN + 160, 840), True)
LANDSCAPE = Geometry(1400, (MARGIN, 50), (MARGIN + 60, 90), (MARGIN + 160, 500),
                     (MARGIN + 680, 270), (MARGIN + 970, 1400 - 2 * MARGIN - 970), False)


@dataclass(frozen=True)
class Placed:
    """One line of text at (x, y) (its top left corner) in a style of ``STYLES``."""

    x: int
    y: int
    text: str
    style: str


@dataclass(frozen=True)
class Layout:
    width: int
    height: int
    texts: tuple[Placed, ...]
    stripes: tuple[tuple[int, int], ...]  # (top, bottom) of every other row's background
    rule: int  # y of the line under the title block

    def lines(self, style: str) -> list[str]:
        return [t.text for t in self.texts if t.style == style]


@cache
def font(style: str) -> Font:
    size, bold, _ = STYLES[style]
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    for d in FONT_DIRS:
        if (d / name).exists():
            return ImageFont.truetype(str(d / name), size)
    return ImageFont.load_default(size=size)  # Pillow's own font when DejaVu is missing


def line_height(style: str) -> int:
    return round(STYLES[style][0] * 1.3)


def width_of(text: str, style: str) -> float:
    return font(style).getlength(text)


def fit(text: str, style: str, width: int) -> str:
    """``text`` on one line of ``width`` pixels: cut with "…" only when it doesn't fit."""
    if width_of(text, style) <= width:
        return text
    while text and width_of(text + "…", style) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def wrap(text: str, style: str, width: int, max_lines: int) -> list[str]:
    """``text`` in lines of ``width`` pixels (Pillow's word wrap), at most ``max_lines``: what
    doesn't fit ends the last line with "…"; a word wider than the column is cut with "…"."""
    block = ImageText.Text(text, font(style))
    try:
        block.wrap(width - 4)  # no height: nothing is left over; 4: room for the ink's edge
    except ValueError:  # one word wider than the column
        return [fit(text, style, width)]
    lines = str(block.text).split("\n")
    if len(lines) > max_lines:
        lines = lines[:max_lines - 1] + [fit(" ".join(lines[max_lines - 1:]) + " …", style,
                                             width)]
    return lines


def name_lines(row: Row, geometry: Geometry) -> list[str]:
    """The members on one line when they fit, else one member per line; answers shown in
    rankings (a country) after the names."""
    c = row.competitor
    shown = f" ({', '.join(c.shown)})" if c.shown else ""
    x, width = geometry.names
    one = joined_names(c.names) + shown
    if len(c.names) < 2 or width_of(one, "names") <= width:
        return [fit(one, "names", width)]
    members = list(c.names)
    members[-1] += shown
    return [fit(m, "names", width) for m in members]


def result_text(lang: str, row: Row) -> tuple[str, str]:
    """What the entry did, as the text ranking says it (shorter: no escape detail), and its
    style: "result" for a time or pieces, "status" for the rest."""
    c = row.competitor
    if c.outcome == "oc":
        t = ranking_time(c)
        done = (format_duration(t) if t is not None else
                pieces_result(lang, c) if c.pieces is not None
                else tr(lang, "no result yet"))
        return f"{done} ({outcome_text(lang, c.outcome, c.outcome_reason)})", "status"
    if c.outcome is not None:
        return outcome_text(lang, c.outcome, c.outcome_reason), "status"
    if row.finished and row.time is not None:
        return format_duration(row.time), "result"
    if c.pieces is not None:
        return pieces_result(lang, c), "result"
    return tr(lang, "no result yet"), "status"


def title_block(lang: str, contest: Contest, title: str, day: date,
                geometry: Geometry) -> list[Placed]:
    """The contest's name, the day (and the venue), then what the picture is."""
    placed: list[Placed] = []
    y = MARGIN
    width = geometry.width - 2 * MARGIN
    when = format_date(day, format="full", locale=lang)
    if contest.venue:
        when += f" · {contest.venue}"
    for text, style, most in ((contest.name, "contest", TITLE_LINES), (when, "date", 1),
                              (title, "title", TITLE_LINES)):
        for line in wrap(text, style, width, most):
            placed.append(Placed(MARGIN, y, line, style))
            y += line_height(style)
        y += 6
    return placed


def ranking_layout(lang: str, contest: Contest, category: Category, rows: Sequence[Row],
                   title: str, day: date | None = None,
                   geometry: Geometry = PORTRAIT) -> Layout:
    """Where each text of the picture goes. ``day``: the date shown (the contest's)."""
    g = geometry
    placed = title_block(lang, contest, title, day or contest.date, g)
    rule = placed[-1].y + line_height(placed[-1].style) + 10
    y = rule + 10
    stripes: list[tuple[int, int]] = []
    extras = {x.id: x for x in category.extra_prizes}
    if not rows:
        placed.append(Placed(MARGIN, y + PAD, tr(lang, "No entries."), "names"))
        y += line_height("names") + 2 * PAD
    else:
        placed += header_texts(lang, g, y)
        y += line_height("header") + 6
    for i, r in enumerate(rows):
        texts, bottom = row_texts(lang, r, extras, y + PAD, g)
        placed += texts
        if i % 2 == 0:
            stripes.append((y, bottom))
        y = bottom
    return Layout(g.width, y + MARGIN, tuple(placed), tuple(stripes), rule)


def header_texts(lang: str, g: Geometry, y: int) -> list[Placed]:
    """The columns' names over the rows."""
    heads = [("position", tr(lang, "Pos.")), ("number", "#"), ("names", tr(lang, "Names")),
             ("result", tr(lang, "Result"))]
    if not g.prize_below:
        heads.append(("prize", tr(lang, "Prize")))
    return [Placed(g.column(col)[0], y, fit(text, "header", g.column(col)[1]), "header")
            for col, text in heads]


def row_texts(lang: str, r: Row, extras: dict[str, ExtraPrize], top: int,
              g: Geometry = PORTRAIT) -> tuple[list[Placed], int]:
    """One entry's texts from ``top`` (``extras``: the special prizes by id), and the bottom
    of its row."""
    names = [Placed(g.names[0], top + k * line_height("names"), line, "names")
             for k, line in enumerate(name_lines(r, g))]
    below = top + len(names) * line_height("names")
    text, style = result_text(lang, r)
    shift = 3 if style == "status" else 0  # the smaller type on the same baseline
    result = [Placed(g.result[0], top + shift + k * line_height(style), line, style)
              for k, line in enumerate(wrap(text, style, g.result[1], 2))]
    # the place's prize: in its column, or (portrait) on its own lines under the names
    prize_top = below + 2 if g.prize_below else top + 3
    prize = [Placed(g.prize[0], prize_top + k * line_height("prize"), line, "prize")
             for k, line in enumerate(wrap(r.prize or "", "prize", g.prize[1], PRIZE_LINES))
             if line]
    if g.prize_below:
        below = max([below] + [p.y + line_height("prize") for p in prize])
    # a special prize: its name and what it is, once, under the names
    x, width = g.column("extra")
    for extra_id in r.extra_prizes:
        extra = extras.get(extra_id)
        tag = "★ " + (f"{extra.name}: {extra.prize}" if extra is not None and extra.prize
                      else extra.name if extra is not None else extra_id)
        for line in wrap(tag, "extra", width, PRIZE_LINES):
            names.append(Placed(x, below, line, "extra"))
            below += line_height("extra")
    position = str(r.position) if r.position is not None else "-"
    texts = [Placed(g.position[0], top, position, "position"),
             Placed(g.number[0], top, f"#{r.number}", "number"), *names, *result, *prize]
    bottom = max([below, top + line_height("names")]
                 + [p.y + line_height(p.style) for p in result + prize]) + PAD
    return texts, bottom


def ranking_png(lang: str, contest: Contest, category: Category, rows: Sequence[Row],
                title: str, day: date | None = None, landscape: bool = False) -> bytes:
    """The ranking of ``category`` as a PNG, its texts in ``lang``: portrait, or
    ``landscape``."""
    layout = ranking_layout(lang, contest, category, rows, title, day,
                            LANDSCAPE if landscape else PORTRAIT)
    image = Image.new("RGB", (layout.width, layout.height), "white")
    draw = ImageDraw.Draw(image)
    for top, bottom in layout.stripes:
        draw.rectangle([0, top, layout.width, bottom - 1], fill="#f1f3f7")
    draw.line([MARGIN, layout.rule, layout.width - MARGIN, layout.rule], fill="#1d4f91",
              width=3)
    for t in layout.texts:
        draw.text((t.x, t.y), t.text, fill=STYLES[t.style][2], font=font(t.style))
    buf = io.BytesIO()
    image.save(buf, format="PNG", optimize=True)
    return buf.getvalue()
