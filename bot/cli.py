"""Command line: ``python -m bot <subcommand>``, or ``puzzlebot <subcommand>`` once installed.

check-contest FILE          validate a contest file and print its summary
contest-reference [--check] write docs/contest-file.md and contests/contest.schema.json from
                            the contest file's declaration (--check: say whether they are
                            up to date, write nothing)
setup [--contest F] [--db F] ask for the token and the contest file, check them (the token with
                            Telegram), print the organiser link, write the settings file
demo [--contest F] [--entries N] [--seed S]
                            rehearse a contest day against a fake Telegram, in seconds
run                         run the bot (long polling); settings from the environment and the
                            settings file beside the database (the environment wins); one
                            process per database (<db>.lock)
import entries FILE.csv     load entries registered elsewhere
backup FILE                 a consistent copy of the database, while the bot runs
cards [--category C]        table cards (number, names, QR code of the join link) as PDF
                            on stdout
tables [--category C]       table lists of the round being played (contests in rounds) as
                            PDF on stdout
export entries              entries as CSV on stdout
export document [--public] [--out FILE]
                            the whole contest as one JSON document (docs/document.md)
rating DOC... [--settings F] [--at DATE] [--csv F] [--png F]
                            ratings across contests (docs/rules.md)
import document DOC [--write-contest FILE]
                            a document read into a fresh database (or its contest file
                            written out)
export results [--category C] [--xlsx FILE [--lang L]] [--excel]
                            results as CSV on stdout (--excel: BOM and ';'), or a spreadsheet
                            in the contest's language (or --lang es/fr/en/de/it/pt/nl)
examples [NAME [DEST]]      the shipped example contests, or one copied to start from
service [--user] [--db F]   a systemd unit that keeps the bot running (docs/service.md)
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import logging
import os
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

from telegram import Bot
from telegram.error import InvalidToken, NetworkError, TelegramError

from bot.chat.app import build_application, organiser_link
from bot.chat.polling import PollingConflict, TokenRejected, serve
from bot.domain.contest import Contest
from bot.features.registration.day import Registrations
from bot.features.tables.sheets import category_sheets, tables_pdf
from bot.rehearsal.demo import run_demo
from bot.rehearsal.trial import trial_setup
from bot.services.access import standing_organiser_invite
from bot.services.contest_day import ContestDay
from bot.services.contest_file import ContestFileError, load_contest
from bot.services.contest_reference import (
    DOC_PATH,
    SCHEMA_PATH,
    reference_markdown,
    reference_schema_text,
)
from bot.services.contest_rounds import contest_warnings
from bot.services.csvio import (
    ImportError_,
    check_import,
    import_entries,
    read_entries,
    refuse_entries_too_late,
    refuse_people_entered_twice,
    write_csv,
)
from bot.services.exports import (
    Printable,
    entry_rows,
    printed_ranking,
    result_rows,
    results_by_category,
    xlsx,
)
from bot.services.handouts import day_plan_pdf, volunteer_sheet_pdf
from bot.services.summary import summary
from bot.storage.store import Store, StoreError, copy_database, where_it_can_live
from bot.support import program
from bot.support.config import (
    Config,
    ConfigError,
    base_url,
    database_path,
    load_settings,
    parse_settings,
    read_settings_file,
    settings_file_warning,
    settings_path,
    write_settings_file,
)
from bot.support.examples import contest_path, missing_hint
from bot.support.files import LockHeld, ProcessLock, lock_path
from bot.support.i18n import LANGUAGES, tr
from bot.support.logsetup import setup_logging
from bot.support.loop import use_uvloop
from bot.support.outputs import OutputRefused, check_output, write_output
from bot.support.shipped import CHECKOUT
from bot.support.wallclock import CLOCK
from bot.tools.cards import cards_command
from bot.tools.documents import (
    load_document,
    rating,
    write_contest_file,
    write_document,
)
from bot.tools.install import examples_command, service_command
from bot.tools.scoreboard import ScoreboardSettingsError, settings_from_env
from bot.tools.upkeep import doctor_command, restore_command


def fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def _check_contest(args: argparse.Namespace) -> int:
    try:
        contest = load_contest(contest_path(args.file))
    except ContestFileError as exc:
        return fail(str(exc))
    print(summary(contest))
    for warning in contest_warnings(contest, str(args.file)):
        print(f"warning: {warning}", file=sys.stderr)
    return 0


def _contest_reference(args: argparse.Namespace) -> int:
    """The reference and the JSON Schema, written from the declaration (in a checkout)."""
    root = CHECKOUT
    if not (root / "pyproject.toml").is_file():
        return fail("contest-reference writes the checkout's docs: run it in a checkout")
    stale = []
    for name, text in ((DOC_PATH, reference_markdown()), (SCHEMA_PATH, reference_schema_text())):
        path = root / name
        if path.exists() and path.read_text(encoding="utf-8") == text:
            continue
        stale.append(name)
        if not args.check:
            path.write_text(text, encoding="utf-8")
    if args.check and stale:
        return fail(f"out of date: {', '.join(stale)} ({program.name()} contest-reference)")
    print("up to date" if not stale else f"written: {', '.join(stale)}")
    return 0


def _settings(need_token: bool) -> tuple[Config, Contest]:
    config = load_settings(need_token=need_token)
    path = settings_path(config.db_path)
    warning = None if path.resolve() == Path(config.contest_file).resolve() else \
        settings_file_warning(path)
    if warning:
        print(f"warning: {warning}", file=sys.stderr)
    return config, load_contest(config.contest_file)


def _with_store(need_token: bool,
                work: Callable[[Config, Contest, Store], Awaitable[int]]) -> int:
    try:
        config, contest = _settings(need_token)
    except (ConfigError, ContestFileError) as exc:
        return fail(str(exc))

    async def go() -> int:
        try:
            store = await Store.open(config.db_path)
        except StoreError as exc:
            return fail(f"{config.db_path}: {exc}")
        try:
            await _rehearsed_day(store)
            return await work(config, contest, store)
        finally:
            await store.close()

    return asyncio.run(go())


async def _rehearsed_day(store: Store) -> None:
    """A rehearsal's database of a day still to come (its events dated after now): read as
    it stood at its last event, not as today, when none of its entries had registered yet
    (``export results`` then gave no row)."""
    last = await store.last_at()
    if last is not None and CLOCK.simulated_start is None and last > CLOCK.now():
        CLOCK.simulated_start, CLOCK.real_start = last, None


def _run(args: argparse.Namespace) -> int:

    try:
        config, contest = _settings(need_token=True)
        settings_from_env()
    except (ConfigError, ContestFileError, ScoreboardSettingsError) as exc:
        return fail(str(exc))
    setup_logging(config.token)
    use_uvloop()

    async def check_and_serve() -> str | None:
        """The database checked before anything talks to Telegram, and that same store the
        one the bot runs on (a big file's check and its reads at open are paid once)."""
        try:
            store = await Store.open(config.db_path)
        except StoreError as exc:
            return f"{config.db_path}: {exc}"
        try:
            app = build_application(config, contest, store=store)
        except BaseException:
            await store.close()
            raise
        await serve(app)  # long polling; each update confirmed once handled
        return None

    try:
        where_it_can_live(Path(config.db_path))
    except StoreError as exc:
        return fail(f"{config.db_path}: {exc}")
    try:  # one process per database, for its whole life: before anything talks to Telegram
        lock = ProcessLock.acquire(config.db_path)
    except LockHeld as exc:
        pid = str(exc.pid) if exc.pid is not None else "unknown"
        return fail(f"{config.db_path}: another bot process (pid {pid}) is already running "
                    "this contest; only one may run at a time: stop it first (Ctrl+C in its "
                    f"terminal{f', or kill {pid}' if exc.pid is not None else ''})")
    except OSError as exc:
        return fail(f"{lock_path(config.db_path)}: the lock file cannot be created "
                    f"({exc.strerror or exc})")
    try:
        try:
            problem = asyncio.run(check_and_serve())
        except (TokenRejected, PollingConflict) as exc:
            return fail(str(exc))
        return fail(problem) if problem else 0
    finally:
        lock.release()


def _import_entries(args: argparse.Namespace) -> int:
    if args.what == "document":
        if args.write_contest:
            return write_contest_file(args.file, args.write_contest)
        return _with_store(False, lambda config, _contest, store: load_document(
            config, store, args.file))

    async def work(config: Config, contest: Contest, store: Store) -> int:
        try:
            with open(args.file, newline="", encoding="utf-8-sig") as fh:
                rows = read_entries(contest, fh, args.file)
            regs = Registrations(contest, store)
            await refuse_people_entered_twice(contest, regs, rows)
            await refuse_entries_too_late(contest, regs, rows, CLOCK.now())
            check = await check_import(contest, regs, rows, CLOCK.now())
            if args.check:  # the list before the step: every problem and note, nothing written
                for problem in check.problems:
                    print(f"{'forced' if args.force else 'error'}: {problem}", file=sys.stderr)
                for note in check.notes:
                    print(f"note: {note}", file=sys.stderr)
                refused = bool(check.problems) and not args.force
                print(f"would import {0 if refused else len(rows)} entries"
                      + (" (the errors above refuse the file)" if refused else "")
                      + "; nothing was written (--check)")
                if not refused:
                    print(_unreachable_note(len(rows)), file=sys.stderr)
                return 2 if refused else 0
            if check.problems and not args.force:
                for problem in check.problems:
                    print(f"error: {problem}", file=sys.stderr)
                return fail("nothing was imported (--force imports these anyway)")
            numbers = await import_entries(store, rows)
        except OSError as exc:
            return fail(f"{args.file}: cannot be read ({exc.strerror or exc})")
        except ImportError_ as exc:
            *first, last = str(exc).split("\n")  # every bad line, each on its own
            for line in first:
                print(f"error: {line}", file=sys.stderr)
            return fail(f"{last}; nothing was imported")
        for problem in check.problems:
            print(f"forced: {problem}", file=sys.stderr)
        for note in check.notes:
            print(f"note: {note}", file=sys.stderr)
        print(f"imported {len(numbers)} entries"
              + (f": numbers {numbers[0]}-{numbers[-1]}" if numbers else ""))
        if numbers:
            print(_unreachable_note(len(numbers)), file=sys.stderr)
        return 0

    return _with_store(False, work)


def _unreachable_note(count: int) -> str:
    """After an import: entries come in with no phone, and nobody in them hears from the bot
    (invitations, reminders, tables) until one is linked (issue 47: imported teams were
    "invited" and lapsed without a word)."""
    what = "the entry has" if count == 1 else f"the {count} entries have"
    return (f"note: {what} no phone linked yet: nobody in them hears from the bot "
            "(invitations, reminders, tables) until one is. Give each its link (export "
            "entries: the join_code column) or its table card (cards); /inscritos names the "
            "entries no phone is linked to")


def _export(args: argparse.Namespace) -> int:

    if args.lang is not None and not args.xlsx:
        return fail("--lang is for the spreadsheet (--xlsx FILE): the CSV keeps its codes")
    try:  # before the database is opened: a refused path writes nothing
        for out in (args.out, args.xlsx):
            if out:
                check_output(out)
    except OutputRefused as exc:
        return fail(str(exc))

    async def work(config: Config, contest: Contest, store: Store) -> int:
        if args.what == "document":
            return await write_document(config, contest, store, args.public, args.out)
        day = ContestDay(contest, store, config.organisers)
        words = Printable(contest, args.lang)
        if args.what == "entries":
            title = tr(words.lang, "Entries") if args.xlsx else "entries"
            tables = {title: await entry_rows(contest, store)}
        else:
            if args.category is not None and contest.category(args.category) is None \
                    and args.category not in day.heats and args.category not in day.rounds:
                known = [c.id for c in contest.categories] + list(day.rounds) + list(day.heats)
                return fail(f"unknown category {args.category!r} (known: {', '.join(known)})")
            if args.xlsx and contest.category(args.category or "") is None and args.category:
                tables = {args.category: await result_rows(contest, day, args.category)}
            elif args.xlsx:  # one sheet per category
                tables = await results_by_category(contest, day, category=args.category)
            else:
                tables = {"results": await result_rows(contest, day, args.category)}
        if args.xlsx:
            # the whole results: the ranking to pin on the wall first, as /exportar's
            to_print = (tr(words.lang, "Results"), await printed_ranking(contest, day, words.lang)
                        ) if args.what == "results" and args.category is None else None
            try:  # names, births, answers: readable by its owner only
                write_output(args.xlsx, xlsx(tables, words, to_print))
            except OutputRefused as exc:
                return fail(str(exc))
            except OSError as exc:
                return fail(f"{args.xlsx}: cannot be written ({exc.strerror or exc})")
            print(f"written to {args.xlsx}: "
                  f"{', '.join(([to_print[0]] if to_print else []) + list(tables))}")
            return 0
        if args.excel:  # what Spanish and French spreadsheets open directly
            sys.stdout.write("\ufeff")
        for rows in tables.values():
            write_csv(sys.stdout, rows, ";" if args.excel else ",")
        return 0

    return _with_store(False, work)


def _demo(args: argparse.Namespace) -> int:

    args.contest = contest_path(args.contest)  # a shipped example, from any folder
    try:
        load_contest(args.contest)
    except ContestFileError as exc:
        return fail(str(exc))
    if args.entries < 1 or args.entries > 500:
        return fail("--entries must be between 1 and 500")
    db = args.db or f"rehearsal-{Path(args.contest).stem}.sqlite3"
    try:  # the rehearsal removes and rewrites its database: never the contest's own
        check_output(db, replaces_database=True)
    except OutputRefused as exc:
        return fail(str(exc))
    if not 2 <= args.seconds <= 600:
        return fail("--seconds must be between 2 and 600")
    if not 0 <= args.web_port <= 65535:
        return fail("--web-port must be a TCP port")
    return run_demo(args.contest, args.entries, args.seed, db, args.seconds, args.web_port,
                    args.buttons)


def _backup(args: argparse.Namespace) -> int:
    """A consistent copy of the database, safe while the bot runs: ``copy_database`` (its own
    read-only connection, one snapshot of what is committed, the copy's integrity checked);
    the bot's writer neither waits for it nor makes it wait."""
    db = database_path()
    if not Path(db).exists():
        return fail(f"{db}: no such database (set PUZZLEBOT_DB)")
    dest = Path(args.file)
    try:  # never over the database, what is beside it, the settings or the contest file
        check_output(args.file, replaces_database=True)
    except OutputRefused as exc:
        return fail(str(exc))
    if dest.exists():
        return fail(f"{dest}: already exists; choose a new file name")
    try:
        events = copy_database(db, dest)
    except StoreError as exc:
        return fail(str(exc))
    print(f"backup written to {dest}: {events} events, integrity ok")
    return 0


def _cards(args: argparse.Namespace) -> int:
    return cards_command(args)


def _tables(args: argparse.Namespace) -> int:

    async def work(config: Config, contest: Contest, store: Store) -> int:
        chosen = [c for c in contest.categories
                  if args.category is None or c.id == args.category]
        if not chosen:
            known = ", ".join(c.id for c in contest.categories)
            return fail(f"no such category: {args.category} (categories: {known})")
        if sys.stdout.isatty():
            return fail("the PDF goes to standard output: redirect it, e.g. > tables.pdf")
        day = ContestDay(contest, store, config.organisers)
        sheets = [s for c in chosen
                  for s in await category_sheets(day, c, contest.language)]
        sys.stdout.buffer.write(tables_pdf(contest, sheets, contest.language))
        sys.stdout.buffer.flush()
        return 0

    return _with_store(False, work)


def _handout(make: Callable[[Contest, str], bytes]) -> Callable[[argparse.Namespace], int]:
    """A printed handout of the contest (no database needed), PDF on standard output."""

    def command(args: argparse.Namespace) -> int:
        try:
            _, contest = _settings(need_token=False)
        except (ConfigError, ContestFileError) as exc:
            return fail(str(exc))
        lang = args.lang or contest.language
        if lang not in LANGUAGES:
            return fail(f"--lang must be one of {', '.join(LANGUAGES)}, not {lang!r}")
        if sys.stdout.isatty():
            return fail("the PDF goes to standard output: redirect it, e.g. > handout.pdf")
        sys.stdout.buffer.write(make(contest, lang))
        sys.stdout.buffer.flush()
        return 0

    return command


def _ask(prompt: str, secret: bool = False) -> str:
    """One answer from the terminal (``secret``: not shown as typed), or one line of standard
    input when it is not a terminal (``... | python -m bot setup``)."""
    if sys.stdin.isatty():
        try:
            return (getpass.getpass(prompt) if secret else input(prompt)).strip()
        except EOFError:
            return ""
    print(prompt, flush=True)
    return sys.stdin.readline().strip()


async def _bot_username(token: str, url: str | None) -> str:
    """Telegram's getMe with this token: the bot's username (ConfigError: refused, or
    Telegram out of reach; the token never in the message)."""
    where = base_url(url).replace(token, "[token]")
    try:
        async with Bot(token, base_url=base_url(url)) as bot:
            return str(bot.username)
    except InvalidToken:
        raise ConfigError("Telegram refused this token: copy it again from @BotFather "
                          "(/mybots, then API Token)") from None
    except NetworkError as exc:
        problem = str(exc).replace(token, "[token]")
        raise ConfigError(f"could not reach Telegram at {where} to check the token "
                          f"({problem}): check the connection and run setup again") from None
    except TelegramError as exc:
        problem = str(exc).replace(token, "[token]")
        raise ConfigError(f"Telegram did not check the token ({problem})") from None


async def _standing_link(db: str, contest: Contest, username: str) -> str:
    store = await Store.open(db)
    try:
        day = ContestDay(contest, store, frozenset())
        code = await standing_organiser_invite(day, CLOCK.now(), create=True)
    finally:
        await store.close()
    assert code is not None
    return organiser_link(username, code)


class _SetupFailed(Exception):
    """What ``setup`` stops on: its message, as ``fail`` prints it."""


def _setup_contest(args: argparse.Namespace, saved: dict[str, str]) -> tuple[str, Contest]:
    """The contest file (the option, the environment, else asked) and the contest in it."""
    contest_file = args.contest or os.environ.get("PUZZLEBOT_CONTEST", "").strip()
    if not contest_file:
        default = saved.get("PUZZLEBOT_CONTEST", "")
        contest_file = _ask(f"Contest file{f' [{default}]' if default else ''}: ") or default
    if not contest_file:
        raise _SetupFailed("no contest file given (e.g. contests/castrillo-2023.toml)")
    try:
        return contest_file, load_contest(contest_file)
    except ContestFileError as exc:
        hint = missing_hint(contest_file)
        raise _SetupFailed(f"{exc}{f' ({hint})' if hint else ''}") from None


def _setup_token(saved: dict[str, str]) -> str:
    token = os.environ.get("TELEGRAM_BOT_TOKEN", "").strip()
    if not token:
        keep = saved.get("TELEGRAM_BOT_TOKEN", "")
        token = _ask("Bot token from @BotFather (not shown)"
                     + (" [Enter keeps the saved one]" if keep else "") + ": ",
                     secret=True) or keep
    if not token:
        raise _SetupFailed("no token given: get one from @BotFather (/newbot)")
    return token


def _setup_username(values: dict[str, str], token: str, url: str | None) -> str:
    """Every setting as the bot will read it (the environment winning), then Telegram's word
    on the token."""
    try:
        parse_settings({**values, **{k: v for k, v in os.environ.items() if v.strip()},
                        "TELEGRAM_BOT_TOKEN": token})
        return asyncio.run(_bot_username(token, url))
    except ConfigError as exc:
        raise _SetupFailed(str(exc).replace(token, "[token]")) from None


def _setup(args: argparse.Namespace) -> int:
    """Ask for what the bot needs, check it, and write the settings file beside the database:
    the contest file (read as ``check-contest`` does), the token (getMe at Telegram, or at
    ``TELEGRAM_BASE_URL``); then print the bot's username and the one-time organiser link."""
    setup_logging(level=logging.CRITICAL)  # python-telegram-bot's own lines would say more
    db = args.db or database_path()
    path = settings_path(db)
    try:
        saved = read_settings_file(path)
        contest_file, contest = _setup_contest(args, saved)
        print(f"contest: {contest.name}, {contest.date.isoformat()} (file checked)")
        token = _setup_token(saved)
        url = os.environ.get("TELEGRAM_BASE_URL", "").strip() or \
            saved.get("TELEGRAM_BASE_URL", "").strip() or None
        values = {**saved, "TELEGRAM_BOT_TOKEN": token,
                  "PUZZLEBOT_CONTEST": str(Path(contest_file).resolve())}
        if url is not None:
            values["TELEGRAM_BASE_URL"] = url
        username = _setup_username(values, token, url)
        print(f"bot: @{username} (Telegram accepted the token)")
        try:
            link = asyncio.run(_standing_link(db, contest, username))
        except StoreError as exc:
            raise _SetupFailed(f"{db}: {exc}") from None
        write_settings_file(path, values)
    except (ConfigError, _SetupFailed) as exc:
        return fail(str(exc))
    print("organiser link (it works once: open it on the organiser's phone, who can then "
          "invite others with /organizador):")
    print(f"  {link}")
    print(f"settings written to {path} (readable by you only: it holds the token); the "
          "environment wins over it")
    db_env = {} if db == database_path() else {"PUZZLEBOT_DB": db}
    print(f"start the bot with: {program.command_line('run', env=db_env)}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=program.name(), description="Puzzle contest bot")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("check-contest", help="validate a contest file and print its summary")
    p.add_argument("file")
    p.set_defaults(func=_check_contest)
    p = sub.add_parser("contest-reference", help="write docs/contest-file.md and "
                       "contests/contest.schema.json from the contest file's declaration")
    p.add_argument("--check", action="store_true", help="only say whether they are stale")
    p.set_defaults(func=_contest_reference)
    p = sub.add_parser("setup", help="ask for the token and the contest file, check them, "
                       "print the organiser link and write the settings file")
    p.add_argument("--contest", default=None, help="the contest file (else asked)")
    p.add_argument("--db", default=None,
                   help="the database (default PUZZLEBOT_DB, or puzzlebot.sqlite3); the "
                        "settings file goes beside it, with .toml")
    p.add_argument("--try", dest="trial", action="store_true",
                   help="walk through it against a pretend Telegram on this computer, before "
                        "you have a token (nothing is kept)")
    p.set_defaults(func=lambda a: trial_setup(
        lambda db: _setup(argparse.Namespace(**{**vars(a), "db": db})),
        lambda db: settings_path(db)) if a.trial else _setup(a))
    p = sub.add_parser("run", help="run the bot (settings from the environment and the "
                       "settings file)")
    p.set_defaults(func=_run)
    p = sub.add_parser("demo", help="rehearse a whole contest day in seconds, with no token")
    p.add_argument("--contest", default="contests/castrillo-2023.toml")
    p.add_argument("--entries", type=int, default=24)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--db", default=None, help="SQLite file to leave behind")
    p.add_argument("--seconds", type=float, default=22.0,
                   help="the pace: the contest day's clock runs as if it lasted this many real "
                   "seconds (stretches where nobody does anything are skipped, unless "
                   "--web-port is given)")
    p.add_argument("--web-port", type=int, default=0,
                   help="serve the projector scoreboard on this port during the rehearsal")
    p.add_argument("--buttons", action="store_true",
                   help="volunteers tap the buttons the bot offers instead of typing (same "
                        "day, same results)")
    p.set_defaults(func=_demo)
    p = sub.add_parser("backup", help="copy the database safely, even while the bot runs")
    p.add_argument("file")
    p.set_defaults(func=_backup)
    p = sub.add_parser("restore", help="put a backup back in the database's place (the bot "
                       "stopped; the database it replaces is kept aside)")
    p.add_argument("file", help="a backup: a copy, or the .gz the organisers received")
    p.set_defaults(func=lambda a: restore_command(a.file))
    p = sub.add_parser("doctor", help="whether the bot can run and keeps its data safe: the "
                       "token, Telegram, the database, the disk, the backups, the clock")
    p.set_defaults(func=lambda a: doctor_command())
    p = sub.add_parser("import", help="import entries from a CSV file, or a contest document "
                                      "into a fresh database")
    p.add_argument("what", choices=["entries", "document"])
    p.add_argument("file")
    p.add_argument("--write-contest", default=None, metavar="FILE",
                   help="document: write its contest file to FILE (and import nothing)")
    p.add_argument("--force", action="store_true",
                   help="import entries the registration rules would refuse (after the "
                        "closing, unpaid where payment is required, beyond the places); "
                        "eligibility is never forced")
    p.add_argument("--check", action="store_true",
                   help="entries: list every problem and note the import would meet, and "
                        "write nothing")
    p.set_defaults(func=_import_entries)
    p = sub.add_parser("export", help="write entries or results as CSV to stdout, or the "
                                      "whole contest as one JSON document")
    p.add_argument("what", choices=["entries", "results", "document"])
    p.add_argument("--public", action="store_true",
                   help="document: for publishing results (no births, answers, Telegram ids "
                        "or history)")
    p.add_argument("--out", default=None, metavar="FILE",
                   help="document: write it to FILE instead of stdout")
    p.add_argument("--category", default=None)
    p.add_argument("--xlsx", default=None, metavar="FILE",
                   help="write a spreadsheet to FILE instead (results: a sheet per category)")
    p.add_argument("--excel", action="store_true",
                   help="CSV for Spanish and French spreadsheets: a BOM and ';' between cells")
    p.add_argument("--lang", default=None, choices=LANGUAGES,
                   help="the spreadsheet's language (headers, yes/no, categories); default: "
                        "the contest's")
    p.set_defaults(func=_export)
    p = sub.add_parser("rating", help="ratings across contests from their documents")
    p.add_argument("documents", nargs="+", metavar="DOC")
    p.add_argument("--settings", default=None, metavar="FILE",
                   help="rating.toml: window_months, unfinished, who")
    p.add_argument("--at", default=None, metavar="DATE", help="the day rated (default: the "
                   "last event's)")
    p.add_argument("--csv", default=None, metavar="FILE")
    p.add_argument("--png", default=None, metavar="FILE")
    p.set_defaults(func=lambda a: rating(a.documents, a.settings, a.at, a.csv, a.png))
    p = sub.add_parser("cards", help="table cards with QR codes to link phones, PDF on stdout")
    p.add_argument("--category", default=None, help="only this category's entries")
    p.set_defaults(func=_cards)
    p = sub.add_parser("tables", help="table lists (each category's, or its round being "
                       "played), PDF on stdout")
    p.add_argument("--category", default=None, help="only this category")
    p.set_defaults(func=_tables)
    for name, help_text, make in (
            ("volunteer-sheet", "the volunteers' one-page sheet (commands, buttons, examples)",
             volunteer_sheet_pdf),
            ("day-plan", "the organiser's day plan (starts, breaks, alerts, results)",
             day_plan_pdf)):
        p = sub.add_parser(name, help=help_text + ", PDF on stdout")
        p.add_argument("--lang", default=None, help="es, fr or en (default: the contest's)")
        p.set_defaults(func=_handout(make))
    p = sub.add_parser("examples", help="list the example contest files shipped with the bot, "
                       "or copy one to start from")
    p.add_argument("name", nargs="?", default=None, metavar="NAME",
                   help="the example to copy (e.g. castrillo-2023.toml)")
    p.add_argument("dest", nargs="?", default=".", metavar="DEST",
                   help="where to copy it: a file, or a folder (default: this one)")
    p.set_defaults(func=examples_command)
    p = sub.add_parser("service", help="print a systemd unit that keeps the bot running "
                       "(docs/service.md)")
    p.add_argument("--user", action="store_true",
                   help="a unit of your own (systemctl --user), not a system one")
    p.add_argument("--db", default=None,
                   help="the database (default PUZZLEBOT_DB, or puzzlebot.sqlite3 here); the "
                        "service runs in its folder, beside its settings file")
    p.set_defaults(func=service_command)
    return parser


def main(argv: list[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")  # a non-UTF-8 terminal gets "?" not a traceback
    if sys.platform == "win32" and hasattr(sys.stdout, "reconfigure"):
        # what is written goes out as written: a CSV's \r\n is not made \r\r\n
        sys.stdout.reconfigure(newline="")
    args = build_parser().parse_args(argv)
    try:
        result: int = args.func(args)
    except BrokenPipeError:
        # the reader went away (`... export results | head`): stop quietly, as cat does
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # Python's own flush at exit must not fail too
        return 141
    return result


