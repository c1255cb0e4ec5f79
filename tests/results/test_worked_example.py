"""RULES.md section 5, exactly: the worked example of Castrillo pairs."""

from __future__ import annotations

from bot.domain.clock import format_duration, parse_duration
from bot.domain.contest import Contest
from bot.domain.ranking import Competitor, rank
from bot.features.escape.rules import Kind, Request, Solved, StageConfirmed, fold, result

H, S = Kind.HINT, Kind.SOLUTION


def t(text: str) -> int:
    return parse_duration(text)


def worked_example(castrillo: Contest):
    rules = castrillo.escape
    assert rules is not None
    pair12 = []
    clock = 0
    for stage in (1, 2, 3):
        pair12 += [Request(H, stage, clock), Request(S, stage, clock + 300)]
        clock += 900
    pair12 += [Request(H, 4, clock), Request(S, 4, clock + 300), Request(H, 5, clock + 600)]
    pair12 += [Solved(t("1:20:00"))]
    ledgers = {
        3: fold(rules, [Solved(t("25:00"))]),
        7: fold(rules, [Request(H, 2, t("20:00")), Solved(t("42:00"))]),
        20: fold(
            rules,
            [Request(H, 2, t("30:00")), Request(H, 4, t("70:00")), StageConfirmed(4, t("80:00"))],
        ),
        12: fold(rules, pair12),
        21: fold(rules, []),
    }
    finishes = {3: "1:30:00", 7: "1:47:30", 20: "2:55:00", 12: "2:40:00"}
    competitors = [
        Competitor(
            number=n,
            names=(f"pair {n} a", f"pair {n} b"),
            finish=t(finishes[n]) if n in finishes else None,
            pieces=312 if n == 21 else None,
            escape=result(led),
        )
        for n, led in ledgers.items()
    ]
    category = castrillo.category("parejas")
    assert category is not None
    return ledgers, rank(category, competitors)


def test_worked_example_table(castrillo: Contest):
    ledgers, rows = worked_example(castrillo)
    expected = {
        # pair: tickets left, penalty, cap, adjusted escape, adjusted total, position
        3: (11, "0:00:00", 10, "0:00:00", "1:05:00", 1),
        7: (10, "0:00:00", 10, "0:12:00", "1:17:30", 2),
        20: (9, "0:00:00", 6, "1:12:00", "2:37:00", 3),
        12: (0, "0:30:00", 10, "1:50:00", "3:10:00", 4),
        21: (11, "0:00:00", 0, "1:30:00", None, 5),
    }
    by_number = {r.number: r for r in rows}
    for n, (left, penalty, cap, adj_escape, total, position) in expected.items():
        r = result(ledgers[n])
        assert r.tickets_left == left, n
        assert format_duration(r.penalty) == penalty, n
        assert r.cap == cap, n
        assert format_duration(r.adjusted_escape) == adj_escape, n
        row = by_number[n]
        assert row.position == position, n
        assert (format_duration(row.time) if row.time is not None else None) == total, n
    assert [r.number for r in rows] == [3, 7, 20, 12, 21]
    assert by_number[21].competitor.pieces == 312 and not by_number[21].finished


def test_worked_example_pair_12_charges(castrillo: Contest):
    ledgers, _ = worked_example(castrillo)
    charges = ledgers[12].charges
    assert [(c.kind.value, c.stage, c.tickets_used, c.tickets_bought) for c in charges][-3:] == [
        ("hint", 4, 1, 0),
        ("solution", 4, 1, 1),
        ("hint", 5, 0, 1),
    ]


def test_worked_example_prizes_shown_with_positions(castrillo: Contest):
    _, rows = worked_example(castrillo)
    assert rows[0].prize == "Dos trofeos y dos puzzles de 2.000 piezas"
    assert rows[2].prize == "Dos trofeos y dos puzzles de 1.000 piezas"
    assert rows[3].prize is None
