"""The ranking picture (bot/services/picture.py): what is written where, not pixels.

The layout is checked on the texts it places: the title block (contest, day, category), every
prize whole and distinct, the special prizes (Castrillo's best local pair), and no text wider
than its column, however long the names or the prizes.
"""

from __future__ import annotations

import io
from dataclasses import replace

from PIL import Image

from bot.domain.clock import parse_duration
from bot.domain.ranking import Competitor, Row, rank
from bot.services import picture
from bot.services.contest_file import load_contest
from bot.services.picture import Layout, ranking_layout, ranking_png, width_of
from tests.conftest import BILLOM, CASTRILLO

LONG = "Maximiliana Eugenia de los Ángeles Fernández-Villaverde y Santibáñez"


def castrillo_pairs() -> tuple[object, object, list[Row]]:
    contest = load_contest(CASTRILLO)
    pairs = contest.category("parejas")
    assert pairs is not None
    rows = rank(pairs, [
        Competitor(3, ("Ana", "Bea"), finish=parse_duration("1:30:00")),
        Competitor(7, (LONG, "Bea Gil"), finish=parse_duration("1:35:00")),
        Competitor(12, ("Eva", "Fran"), finish=parse_duration("1:40:00")),
        Competitor(20, ("Gil", "Hugo"), local=True, finish=parse_duration("1:50:00")),
        Competitor(21, ("Inés", "Jon"), pieces=800),
        Competitor(22, ("Kike", "Luz")),
    ])
    return contest, pairs, rows


def row_texts(layout: Layout, top: int, style: str) -> list[str]:
    """The lines of ``style`` of the row whose texts start at ``top``."""
    position = next(t for t in layout.texts if t.style == "position" and t.y == top)
    later = sorted({t.y for t in layout.texts if t.style == "position" and t.y > position.y})
    bottom = later[0] if later else layout.height
    return [t.text for t in layout.texts if t.style == style and top <= t.y < bottom]


def tops(layout: Layout) -> list[int]:
    return [t.y for t in layout.texts if t.style == "position"]


def columns_hold(layout: Layout, g: picture.Geometry = picture.PORTRAIT) -> None:
    """Every text inside its column (the title block: inside the margins)."""
    for t in layout.texts:
        if t.style == "header":
            continue  # each header starts its own column (checked below)
        x, w = g.column(t.style)
        assert t.x == x, t
        assert width_of(t.text, t.style) <= w, t
        assert t.x + width_of(t.text, t.style) <= layout.width - picture.MARGIN + 1, t
    heads = [t for t in layout.texts if t.style == "header"]
    if heads:
        assert [t.x for t in heads] == sorted(t.x for t in heads)
        assert all(t.y < min(tops(layout)) for t in heads)
    assert layout.height > max(t.y for t in layout.texts)


def test_title_block_names_the_contest_the_day_and_the_category():
    contest, pairs, rows = castrillo_pairs()
    layout = ranking_layout("es", contest, pairs, rows, "Adultos parejas - clasificación")
    # portrait: the name wraps, whole
    assert " ".join(layout.lines("contest")) == "II Concurso + Que Puzzles de Castrillo de la Vega"
    [day] = layout.lines("date")
    assert day.startswith("sábado, 22 de abril de 2023 · Frontón cubierto")
    assert layout.lines("title") == ["Adultos parejas - clasificación"]
    first_row = min(tops(layout))
    assert all(t.y < layout.rule < first_row for t in layout.texts
               if t.style in ("contest", "date", "title"))
    billom = load_contest(BILLOM)
    expert = billom.category("expert")
    assert expert is not None
    layout = ranking_layout("fr", billom, expert, [], "Expert - classement")
    assert layout.lines("date")[0].startswith("samedi 10 mars 2012")
    assert layout.lines("names") == ["Aucune inscription."] and layout.lines("position") == []


def test_the_three_prizes_are_whole_and_distinct():
    contest, pairs, rows = castrillo_pairs()
    layout = ranking_layout("es", contest, pairs, rows, "Adultos parejas - clasificación",
                            geometry=picture.LANDSCAPE)
    prizes = [" ".join(row_texts(layout, top, "prize")) for top in tops(layout)[:3]]
    assert prizes == list(pairs.prizes)  # every word of each, in order
    assert len(set(prizes)) == 3
    assert all(len(row_texts(layout, top, "prize")) >= 2 for top in tops(layout)[:3])  # wrapped
    assert [row_texts(layout, top, "result") + row_texts(layout, top, "status")
            for top in tops(layout)] == [["1:30:00"], ["1:35:00"], ["1:40:00"], ["1:50:00"],
                                         ["800 piezas"], ["aún sin resultado"]]
    columns_hold(layout, picture.LANDSCAPE)
    # rows never overlap: each starts below the last text of the one before
    for above, below in zip(tops(layout), tops(layout)[1:], strict=False):
        assert all(t.y < below for t in layout.texts if above <= t.y < below)


def test_a_prize_too_long_for_three_lines_ends_with_an_ellipsis():
    contest, pairs, rows = castrillo_pairs()
    prize = "Trofeo, " + ", ".join(f"puzzle número {i} de 1.000 piezas" for i in range(12))
    rows[0] = replace(rows[0], prize=prize)
    rows[1] = replace(rows[1], prize="X" * 80)  # one word wider than the column
    layout = ranking_layout("es", contest, pairs, rows, "t")
    lines = row_texts(layout, tops(layout)[0], "prize")
    assert len(lines) == picture.PRIZE_LINES and lines[-1].endswith("…")
    assert lines[0].startswith("Trofeo, puzzle número 0")
    [cut] = row_texts(layout, tops(layout)[1], "prize")
    assert cut.startswith("XXXX") and cut.endswith("…")
    columns_hold(layout)


def test_the_best_local_pair_is_shown_once_on_its_row():
    contest, pairs, rows = castrillo_pairs()
    assert rows[3].number == 20 and rows[3].extra_prizes == ("best_local",)
    for g in (picture.PORTRAIT, picture.LANDSCAPE):
        layout = ranking_layout("es", contest, pairs, rows, "t", geometry=g)
        extra = " ".join(row_texts(layout, tops(layout)[3], "extra"))
        assert extra == "★ Mejor pareja local: Dos trofeos y dos puzzles de 1.000 piezas"
        assert [row_texts(layout, top, "extra") for top in tops(layout)].count([]) == 5
        # each prize once: the special prize's name and text nowhere else
        every = " ".join(t.text for t in layout.texts)
        assert every.count("Mejor pareja local") == 1  # no list of special prizes below
        # (its prize reads as the 3rd place's: the 3rd row's, and the ★ line, nowhere else)
        assert every.count("Dos trofeos y dos puzzles de 1.000 piezas") == 2
        columns_hold(layout, g)
    layout = ranking_layout("es", contest, pairs, [r for r in rows if r.number != 20], "t")
    assert layout.lines("extra") == []


def test_portrait_for_phones_with_headers_landscape_on_request():
    contest, pairs, rows = castrillo_pairs()
    portrait = ranking_layout("es", contest, pairs, rows, "t")
    assert portrait.width == 1080  # a phone's screen across
    assert portrait.lines("header") == ["Pos.", "#", "Nombres", "Resultado"]
    # the prize under the names, below its row's first line
    [first_prize, *_] = row_texts(portrait, tops(portrait)[0], "prize")
    prize = next(t for t in portrait.texts if t.text == first_prize)
    assert prize.x == picture.PORTRAIT.names[0] and prize.y > tops(portrait)[0]
    wide = ranking_layout("fr", contest, pairs, rows, "t", geometry=picture.LANDSCAPE)
    assert wide.width == 1400
    assert wide.lines("header") == ["Pl.", "#", "Noms", "Résultat", "Prix"]
    columns_hold(portrait)
    columns_hold(wide, picture.LANDSCAPE)


def test_long_names_stay_in_their_column_and_both_members_show():
    contest, pairs, rows = castrillo_pairs()
    layout = ranking_layout("es", contest, pairs, rows, "t")
    long_pair = row_texts(layout, tops(layout)[1], "names")
    assert len(long_pair) == 2 and long_pair[0].startswith("Maximiliana Eugenia")
    assert long_pair[0].endswith("…") and long_pair[1] == "Bea Gil"
    assert row_texts(layout, tops(layout)[0], "names") == ["Ana / Bea"]  # short: one line
    columns_hold(layout)
    # a one-member entry with a huge name, and a very long contest name and title
    adults = contest.category("adultos")
    assert adults is not None
    solo = rank(adults, [Competitor(1, (LONG + " " + LONG,), finish=3600)])
    big = replace(contest, name="Gran Concurso " * 12)
    layout = ranking_layout("es", big, adults, solo, "Adultos individual - clasificación")
    assert len(layout.lines("contest")) == picture.TITLE_LINES
    assert layout.lines("contest")[-1].endswith("…")
    [name] = layout.lines("names")
    assert name.startswith("Maximiliana") and name.endswith("…")
    columns_hold(layout)


def test_the_png_is_the_layout_drawn():
    contest, pairs, rows = castrillo_pairs()
    png = ranking_png("fr", contest, pairs, rows, "Adultos parejas - classement")
    image = Image.open(io.BytesIO(png))
    layout = ranking_layout("fr", contest, pairs, rows, "Adultos parejas - classement")
    assert image.format == "PNG" and image.size == (layout.width, layout.height)
    assert layout.lines("date")[0].startswith("samedi 22 avril 2023")
    assert layout.lines("result")[-1] == "800 pièces"
    assert layout.lines("status") == ["pas encore de résultat"]
