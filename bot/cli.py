"""Command line: ``python -m bot <subcommand>``."""

from __future__ import annotations

import argparse
import sys

from bot.contest_file import ContestFileError, load_contest
from bot.summary import summary


def _check_contest(args: argparse.Namespace) -> int:
    try:
        contest = load_contest(args.file)
    except ContestFileError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(summary(contest))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Puzzle contest bot")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("check-contest", help="validate a contest file and print its summary")
    p.add_argument("file")
    p.set_defaults(func=_check_contest)
    return parser


def main(argv: list[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")  # a non-UTF-8 terminal gets "?" not a traceback
    args = build_parser().parse_args(argv)
    result: int = args.func(args)
    return result
