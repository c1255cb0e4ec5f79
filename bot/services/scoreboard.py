"""What the projector scoreboard shows (``bot.tools.scoreboard`` serves it): every category's
clock and ranking as the database holds them at a moment, JSON-able, with the small fixed texts
of the page in the contest's language.

Where the day stands: a clock's scheduled start and the time to it (within a day; further
away, its day and time), a break's end and the time to it, a ranking provisional while a place
may change and final once published (rounds: once confirmed), prizes and medals only then,
rounds still to come, the round before kept until the next one starts, the tables before the
start; no place for a pieces count while others still play. Only today's clocks: another day's
heats and rounds are left off, the first of them in one line ("Next: ...").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from functools import partial
from typing import Any
from zoneinfo import ZoneInfo

from bot.domain.clock import CategoryClock, format_duration, wall_clock_limit
from bot.domain.contest import Category, Contest, SeparateRanking, localized
from bot.domain.ranking import Row
from bot.domain.rounds import Heat, table_number
from bot.features.standings.day import is_final
from bot.features.tables.sheets import hall_seats
from bot.services.contest_day import ContestDay, separate_of
from bot.services.state import EntryState, standings
from bot.support.i18n import ntr
from bot.texts.names import day_text, heat_name, round_name

# Small fixed texts, in the contest's language. Category names come from the contest file.
LABELS: dict[str, dict[str, str]] = {
    "es": {
        "running": "En marcha",
        "paused": "Pausa",
        "paused_until": "Pausa hasta las {time}",
        "left": "Quedan {time}",
        "time_up": "Tiempo",
        "not_started": "Sin empezar",
        "limit": "Límite {time}",
        "ranking": "Clasificación",
        "no_entries": "Sin inscritos",
        "offline": "Sin conexión",
        "escape_left": "Escape: quedan {time}",
        "finished_count": "{finished}/{entries} terminados",
        "playing": "En juego",
        "table": "mesa",
        "waiting": "Esperando",
        "pending": "Sin resultado",
        "ready": "¡Listo!",
        "pieces": "{pieces} piezas",
        "stage": "Etapa {stage}/{stages}",
        "escape_solved": "Escape {time} ✓",
        "escape_over": "Escape: etapa {stage}/{stages}",
        "real_time": "reloj {time}",
        "starts_at": "Empieza a las {time}",
        "starts_on": "Empieza el {day} a las {time}",
        "next": "Próximo: {name}, el {day} a las {time}",
        "starts_in": "en {time}",
        "resumes_in": "sigue en {time}",
        "paused_row": "En pausa",
        "provisional": "Provisional",
        "final": "Definitiva",
        "pos_header": "Pos.",
        "number_header": "Nº",
        "names_header": "Nombres",
        "clock_header": "Reloj",
        "result_header": "Tiempo",
        "seating": "Mesas",
    },
    "fr": {
        "running": "En cours",
        "paused": "Pause",
        "paused_until": "Pause jusqu'à {time}",
        "left": "Reste {time}",
        "time_up": "Temps écoulé",
        "not_started": "Pas commencé",
        "limit": "Limite {time}",
        "ranking": "Classement",
        "no_entries": "Aucune inscription",
        "offline": "Hors ligne",
        "escape_left": "Escape : reste {time}",
        "finished_count": "{finished}/{entries} terminés",
        "playing": "En jeu",
        "table": "table",
        "waiting": "En attente",
        "pending": "Sans résultat",
        "ready": "Fini !",
        "pieces": "{pieces} pièces",
        "stage": "Étape {stage}/{stages}",
        "escape_solved": "Escape {time} ✓",
        "escape_over": "Escape : étape {stage}/{stages}",
        "real_time": "chrono {time}",
        "starts_at": "Début à {time}",
        "starts_on": "Début le {day} à {time}",
        "next": "Ensuite : {name}, le {day} à {time}",
        "starts_in": "dans {time}",
        "resumes_in": "reprise dans {time}",
        "paused_row": "En pause",
        "provisional": "Provisoire",
        "final": "Définitif",
        "pos_header": "Pl.",
        "number_header": "N°",
        "names_header": "Noms",
        "clock_header": "Chrono",
        "result_header": "Temps",
        "seating": "Tables",
    },
    "en": {
        "running": "Running",
        "paused": "Paused",
        "paused_until": "Paused until {time}",
        "left": "{time} left",
        "time_up": "Time's up",
        "not_started": "Not started",
        "limit": "Limit {time}",
        "ranking": "Ranking",
        "no_entries": "No entries",
        "offline": "Offline",
        "escape_left": "Escape: {time} left",
        "finished_count": "{finished}/{entries} finished",
        "playing": "Playing",
        "table": "table",
        "waiting": "Waiting",
        "pending": "No result",
        "ready": "Done!",
        "pieces": "{pieces} pieces",
        "stage": "Stage {stage}/{stages}",
        "escape_solved": "Escape {time} ✓",
        "escape_over": "Escape: stage {stage}/{stages}",
        "real_time": "clock {time}",
        "starts_at": "Starts at {time}",
        "starts_on": "Starts {day} at {time}",
        "next": "Next: {name}, {day} at {time}",
        "starts_in": "in {time}",
        "resumes_in": "resumes in {time}",
        "paused_row": "Paused",
        "provisional": "Provisional",
        "final": "Final",
        "pos_header": "Pos.",
        "number_header": "No.",
        "names_header": "Names",
        "clock_header": "Clock",
        "result_header": "Time",
        "seating": "Tables",
    },
    "de": {
        "running": "Läuft",
        "paused": "Pause",
        "paused_until": "Pause bis {time}",
        "left": "Noch {time}",
        "time_up": "Zeit abgelaufen",
        "not_started": "Nicht gestartet",
        "limit": "Limit {time}",
        "ranking": "Rangliste",
        "no_entries": "Keine Anmeldungen",
        "offline": "Offline",
        "escape_left": "Escape: noch {time}",
        "finished_count": "{finished}/{entries} fertig",
        "playing": "Im Spiel",
        "table": "Tisch",
        "waiting": "Wartet",
        "pending": "Kein Ergebnis",
        "ready": "Fertig!",
        "pieces": "{pieces} Teile",
        "stage": "Etappe {stage}/{stages}",
        "escape_solved": "Escape {time} ✓",
        "escape_over": "Escape: Etappe {stage}/{stages}",
        "real_time": "Uhr {time}",
        "starts_at": "Beginn um {time}",
        "starts_on": "Beginn am {day} um {time}",
        "next": "Als Nächstes: {name}, am {day} um {time}",
        "starts_in": "in {time}",
        "resumes_in": "weiter in {time}",
        "paused_row": "Pausiert",
        "provisional": "Vorläufig",
        "final": "Endgültig",
        "pos_header": "Pl.",
        "number_header": "Nr.",
        "names_header": "Namen",
        "clock_header": "Uhr",
        "result_header": "Zeit",
        "seating": "Tische",
    },
    "it": {
        "running": "In corso",
        "paused": "In pausa",
        "paused_until": "In pausa fino alle {time}",
        "left": "Mancano {time}",
        "time_up": "Tempo scaduto",
        "not_started": "Non iniziato",
        "limit": "Limite {time}",
        "ranking": "Classifica",
        "no_entries": "Nessuna iscrizione",
        "offline": "Offline",
        "escape_left": "Escape: mancano {time}",
        "finished_count": "{finished}/{entries} hanno finito",
        "playing": "In gioco",
        "table": "tavolo",
        "waiting": "In attesa",
        "pending": "Nessun risultato",
        "ready": "Finito!",
        "pieces": "{pieces} pezzi",
        "stage": "Tappa {stage}/{stages}",
        "escape_solved": "Escape {time} ✓",
        "escape_over": "Escape: tappa {stage}/{stages}",
        "real_time": "crono {time}",
        "starts_at": "Inizio alle {time}",
        "starts_on": "Inizio {day} alle {time}",
        "next": "Prossimo: {name}, {day} alle {time}",
        "starts_in": "tra {time}",
        "resumes_in": "riprende tra {time}",
        "paused_row": "In pausa",
        "provisional": "Provvisoria",
        "final": "Definitiva",
        "pos_header": "Pos.",
        "number_header": "N.",
        "names_header": "Nomi",
        "clock_header": "Crono",
        "result_header": "Tempo",
        "seating": "Tavoli",
    },
    "pt": {
        "running": "A decorrer",
        "paused": "Em pausa",
        "paused_until": "Em pausa até às {time}",
        "left": "Faltam {time}",
        "time_up": "Tempo esgotado",
        "not_started": "Ainda não começou",
        "limit": "Limite {time}",
        "ranking": "Classificação",
        "no_entries": "Sem inscrições",
        "offline": "Sem ligação",
        "escape_left": "Escape: faltam {time}",
        "finished_count": "{finished}/{entries} terminaram",
        "playing": "A jogar",
        "table": "mesa",
        "waiting": "À espera",
        "pending": "Sem resultado",
        "ready": "Terminado!",
        "pieces": "{pieces} peças",
        "stage": "Etapa {stage}/{stages}",
        "escape_solved": "Escape {time} ✓",
        "escape_over": "Escape: etapa {stage}/{stages}",
        "real_time": "relógio {time}",
        "starts_at": "Início: {time}",
        "starts_on": "Início: {day} às {time}",
        "next": "A seguir: {name}, {day} às {time}",
        "starts_in": "daqui a {time}",
        "resumes_in": "recomeça daqui a {time}",
        "paused_row": "Em pausa",
        "provisional": "Provisória",
        "final": "Definitiva",
        "pos_header": "Pos.",
        "number_header": "N.º",
        "names_header": "Nomes",
        "clock_header": "Relógio",
        "result_header": "Tempo",
        "seating": "Mesas",
    },
    "nl": {
        "running": "Loopt",
        "paused": "Pauze",
        "paused_until": "Pauze tot {time}",
        "left": "Nog {time}",
        "time_up": "Tijd is om",
        "not_started": "Nog niet gestart",
        "limit": "Limiet {time}",
        "ranking": "Klassement",
        "no_entries": "Geen inschrijvingen",
        "offline": "Offline",
        "escape_left": "Escape: nog {time}",
        "finished_count": "{finished}/{entries} klaar",
        "playing": "Speelt",
        "table": "tafel",
        "waiting": "Wacht",
        "pending": "Geen resultaat",
        "ready": "Klaar!",
        "pieces": "{pieces} stukjes",
        "stage": "Etappe {stage}/{stages}",
        "escape_solved": "Escape {time} ✓",
        "escape_over": "Escape: etappe {stage}/{stages}",
        "real_time": "klok {time}",
        "starts_at": "Begint om {time}",
        "starts_on": "Begint {day} om {time}",
        "next": "Volgende: {name}, {day} om {time}",
        "starts_in": "over {time}",
        "resumes_in": "verder over {time}",
        "paused_row": "Gepauzeerd",
        "provisional": "Voorlopig",
        "final": "Definitief",
        "pos_header": "Pl.",
        "number_header": "Nr.",
        "names_header": "Namen",
        "clock_header": "Klok",
        "result_header": "Tijd",
        "seating": "Tafels",
    },
}


def labels(language: str) -> dict[str, str]:
    return LABELS.get(language[:2].lower(), LABELS["en"])


COUNTDOWN_MOST = 86400  # a start further away is given as its day and time, not counted down


def clock_data(category: Category, clock: CategoryClock, now: datetime,
               rate: float, timezone: str = "UTC",
               scheduled: datetime | None = None, language: str = "en") -> dict[str, Any]:
    """A category's clock at ``now``: ``state`` is ``not_started``, ``running``, ``paused`` or
    ``time_up``; ``seconds`` the contest time (with its fraction, for the page to tick from);
    ``rate`` how many contest seconds pass per real second (0 unless running); ``left`` the
    contest seconds before the time limit (and ``left_text``); ``resumes_at`` the hall's time
    (``timezone``, ``15:30``) a pause ends, when it is known (a break of the contest file), None
    otherwise (an organiser's ``/pausa`` lasts until ``/reanudar``), and ``resumes_in`` the
    seconds until then. Before the start: ``starts_at``, the ``scheduled`` start on the hall's
    clock (``10:00``), ``starts_day`` its day in ``language`` when it is not today ("sábado
    3 de julio", None today), and ``starts_in`` the seconds until then, for a countdown: None
    once it is past, and None too when it is more than a day away (a countdown of weeks read
    "in 2056:17:58"; the day and the time say it). ``wall_rate``: how fast those countdowns
    run (a rehearsal runs fast)."""
    zone = ZoneInfo(timezone)
    whole = now.replace(microsecond=0)
    elapsed = clock.elapsed(whole)
    base: dict[str, Any] = {"starts_at": None, "starts_day": None, "starts_in": None,
                            "resumes_in": None, "wall_rate": rate}
    if elapsed is None:
        if scheduled is not None:
            local = scheduled.astimezone(zone)
            base["starts_at"] = local.strftime("%H:%M")
            if local.date() != now.astimezone(zone).date():
                base["starts_day"] = day_text(language, local.date())
            ahead = (scheduled - now).total_seconds()
            base["starts_in"] = round(ahead, 3) if 0 < ahead <= COUNTDOWN_MOST else None
        return {"state": "not_started", "seconds": None, "text": None, "rate": 0.0,
                "left": None, "left_text": None, "resumes_at": None, **base}
    pause = next((p for p in clock.pauses
                  if p.start <= now and (p.end is None or now < p.end)), None)
    seconds = float(elapsed) if pause else elapsed + now.microsecond / 1_000_000
    resumes_at = None
    limit = wall_clock_limit(category.time_limit, clock, timezone)
    if seconds >= limit:
        state_ = "time_up"
        text = format_duration(limit)
    else:
        state_ = "paused" if pause else "running"
        text = format_duration(int(seconds))
        if pause is not None and pause.end is not None:
            resumes_at = pause.end.astimezone(zone).strftime("%H:%M")
            base["resumes_in"] = round((pause.end - now).total_seconds(), 3)
    left = max(0, limit - int(seconds))
    return {
        "state": state_,
        "seconds": round(seconds, 3),
        "text": text,
        "rate": rate if state_ == "running" else 0.0,
        "left": left,
        "left_text": format_duration(left),
        "resumes_at": resumes_at,
        **base,
    }


def _escape_data(state: EntryState, now_t: int | None) -> dict[str, Any] | None:
    led = state.ledger
    if led is None:
        return None
    return {
        "stages": led.rules.stages,
        "stage": led.stage,
        "confirmed_stage": led.confirmed_stage,
        "solved": led.solved_at is not None,
        "solved_at": format_duration(led.solved_at) if led.solved_at is not None else None,
        "over": now_t is not None and led.over(now_t),
        "tickets_left": led.tickets_left,
        "penalty": led.penalty,
    }


def _status(row: Row, state: EntryState | None, escape: dict[str, Any] | None,
            clock: dict[str, Any], words: dict[str, str]) -> tuple[str, str]:
    """A short code for the page's styling and the line shown for it."""
    c = row.competitor
    if row.finished:
        if escape is not None and c.finish is not None:
            return "finished", words["real_time"].format(time=format_duration(c.finish))
        return "finished", ""
    if c.pieces is not None:
        return "pieces", words["pieces"].format(pieces=c.counted)
    if state is not None and state.ready is not None:
        return "ready", words["ready"]
    if clock["state"] == "not_started":
        return "waiting", words["waiting"]
    if clock["state"] == "time_up":
        return "pending", words["pending"]
    if clock["state"] == "paused":
        return "paused", words["paused_row"]
    if escape is not None:
        if escape["solved"]:
            return "puzzle", words["escape_solved"].format(time=escape["solved_at"])
        if escape["over"]:
            return "escape_over", words["escape_over"].format(**escape)
        return "escape", words["stage"].format(**escape)
    return "playing", words["playing"]


def _still_playing(row: Row, category: Category) -> bool:
    """Whether the row is of an entry still at its puzzles, in a category (or heat) played in
    several: no finish (not even one past the limit) and no outcome (did not start...)."""
    c = row.competitor
    return (category.puzzles_played > 1 and not row.finished and c.finish is None
            and c.outcome is None)


def _progress(row: Row, state: EntryState | None, category: Category, language: str
              ) -> dict[str, Any] | None:
    """How far an entry still playing several puzzles is: ``done`` puzzles of the ``of`` it
    plays (``play = N``: N of those listed), ``last`` the contest seconds its latest split
    time says (None: no puzzle done yet; an own start's: the sum of its puzzles' own times)
    and ``text`` ("2/3 puzzles", in ``language``). None for one puzzle, a finisher, an
    outcome."""
    if state is None or not _still_playing(row, category):
        return None
    played = state.played_splits  # a puzzle given up with a joker is not one done
    done, of = len(played), category.puzzles_played
    return {"done": done, "of": of, "last": played[-1] if played else None,
            "text": ntr(language, "{done}/{n} puzzle", "{done}/{n} puzzles", of, done=done)}


def by_progress(rows: list[Row], states: Mapping[int, EntryState], category: Category
                ) -> list[Row]:
    """``rows`` with the entries still playing and without a result yet (no place, no pieces
    count) by how far they are: more puzzles done first, then the one whose latest puzzle was
    done earlier, then by number. Every other row keeps its place: finishers, counts and
    outcomes stay where the ranking put them, so no entry still playing goes above a
    finisher. The ranking's own list is left as it is (it is cached)."""
    slots = [i for i, r in enumerate(rows) if r.position is None
             and r.competitor.pieces is None and _still_playing(r, category)]
    if len(slots) < 2:
        return rows

    def key(r: Row) -> tuple[int, int, int, int]:
        state = states.get(r.number)
        splits = state.played_splits if state is not None else ()
        return (-len(splits), 0 if splits else 1, splits[-1] if splits else 0, r.number)

    out = list(rows)
    for i, r in zip(slots, sorted((rows[i] for i in slots), key=key), strict=True):
        out[i] = r
    return out


def _row_data(row: Row, state: EntryState | None, clock: dict[str, Any], now_t: int | None,
              category: Category, words: dict[str, str], settled: bool,
              final: bool, language: str = "en") -> dict[str, Any]:
    """``settled``: whether every row's result is in (time is up, or nobody still plays). Until
    then a pieces count has no place: those still playing may finish above it. A prize (the
    page's medal, a special prize's badge) only once the results are ``final``: before that a
    place may still change, and a trophy beside a provisional leader reads as won. An entry
    still playing several puzzles has its ``progress`` (``_progress``), said instead of
    "playing" ("2/3 puzzles"); the page shows it beside any other status (paused, a count)."""
    c = row.competitor
    escape = _escape_data(state, now_t) if state is not None else None
    status, text = _status(row, state, escape, clock, words)
    progress = _progress(row, state, category, language)
    if progress is not None and status == "playing":
        text = progress["text"]
    extras = {e.id: e.name for e in category.extra_prizes}
    early = status == "pieces" and not settled
    unawarded = early or not final
    return {
        "position": None if early else row.position,
        "number": c.number,
        "names": list(c.names),
        "status": status,
        "status_text": text,
        "time": format_duration(row.time) if row.finished and row.time is not None else None,
        "seconds": row.time if row.finished else None,
        "finish": format_duration(c.finish) if c.finish is not None else None,
        "pieces": c.counted,
        "escape": escape,
        "prize": None if unawarded else row.prize,
        "extra_prizes": [] if unawarded else [extras.get(x, x) for x in row.extra_prizes],
        # answers to the questions shown in rankings, only when there are some
        **({"shown": list(c.shown)} if c.shown else {}),
        # puzzles done, while playing several
        **({"progress": progress} if progress is not None else {}),
    }


def _scheduled(contest: Contest, category: Category, heat: Heat | None) -> datetime | None:
    """When the category (or the heat) is due to start, by the contest file."""
    if heat is None:
        return contest.start_of(category)
    return heat.round.when(heat.number).start


def _standing(clock: dict[str, Any], rows: list[dict[str, Any]], final: bool) -> str | None:
    """``final`` once the organiser made the results final; ``provisional`` before that, once
    the clock is over, every entry has a result or any entry has a place (a place shown is
    provisional until then); None while nobody has one."""
    if final:
        return "final"
    done = clock["state"] == "time_up" or (
        clock["state"] != "not_started" and rows and
        all(r["status"] in ("finished", "pieces") for r in rows))
    placed = any(r["position"] is not None for r in rows)
    return "provisional" if done or placed else None


async def _tables(day: ContestDay, heat: Heat | None, entries: Mapping[int, Any]
                  ) -> dict[int, int]:
    """Each entry's table: in its heat, or (played in one round) the hall's by the contest
    file's seating."""
    if heat is None:
        seats = await hall_seats(day)
        return {n: seats[n] for n in entries if n in seats}
    lineup = await day.lineups(heat.category)
    if heat.round_index >= len(lineup):
        return {}
    numbers = lineup[heat.round_index][heat.number - 1]
    return {n: table_number(i, heat.round.per_table) for i, n in enumerate(numbers)}


async def category_data(day: ContestDay, contest: Contest, category: Category, now: datetime,
                        rate: float = 1.0) -> dict[str, Any]:
    return (await category_sections(day, contest, category, now, rate))[0]


async def category_sections(day: ContestDay, contest: Contest, category: Category,
                            now: datetime, rate: float = 1.0) -> list[dict[str, Any]]:
    """A category's section, then (once its results are in: provisional or final) one per
    separate ranking of it, titled "Open — Under 18", its rows with their own places and
    prizes (``separate_of``: the category's id; no clock of its own)."""
    words = labels(contest.language)
    clock = await day.clock(category.id)
    states = await day.states(category, now)
    heat = day.heats.get(category.id)
    by_number = {s.entry.number: s for s in states}
    rows = by_progress(standings(contest, category, states) if heat is None else
                       await day.ranking(category), by_number, category)
    clk = clock_data(category, clock, now, rate, contest.timezone,
                     _scheduled(contest, category, heat), contest.language)
    now_t = clock.elapsed(now)
    escape_limit = contest.escape.time_limit if category.escape and contest.escape else None
    tables = await _tables(day, heat, by_number)
    settled = clk["state"] == "time_up" or all(
        r.finished or r.competitor.pieces is not None for r in rows)
    final = await _final(day, category, heat)
    rows_data = [_row_data(r, by_number.get(r.number), clk, now_t, category, words, settled,
                           final, contest.language) for r in rows]
    for row in rows_data:
        if row["number"] in tables:
            row["table"] = tables[row["number"]]
    if clk["state"] == "not_started" and tables:  # before the start: where everyone sits
        rows_data.sort(key=lambda r: (r.get("table", len(tables) + 1), r["number"]))
    main = {
        "id": category.id,
        "name": category.name if heat is None else
        f"{category.name} — {heat_name(contest.language, contest, heat)}",
        "escape": escape_limit is not None,
        "time_limit": category.time_limit,
        "time_limit_text": format_duration(category.time_limit),
        "escape_time_limit": escape_limit,
        "pieces": category.pieces,
        "clock": clk,
        "standing": _standing(clk, rows_data, final),
        "seating": clk["state"] == "not_started" and bool(tables),
        "columns": {
            "position": words["pos_header"], "number": words["number_header"],
            "names": words["names_header"], "result": words["result_header"],
            # a row with two times: the clock's, and the time ranked
            "detail": words["clock_header"] if escape_limit is not None else None,
        },
        "entries": len(rows),
        "finished": sum(1 for r in rows if r.finished),
        "rows": rows_data,
    }
    if heat is not None:
        return [main]
    return [main, *_separate_sections(contest, category, main, rows, by_number, partial(
        _row_data, clock=clk, now_t=now_t, category=category, words=words, settled=settled,
        final=final, language=contest.language))]


async def _final(day: ContestDay, category: Category, heat: Heat | None) -> bool:
    """Whether the results are final: published, or (a heat) its round confirmed."""
    if heat is None:
        return await is_final(day, category)
    return await day.confirmed_rounds(heat.category) > heat.round_index


def _separate_sections(contest: Contest, category: Category, main: dict[str, Any],
                       rows: list[Row], states: Mapping[int, EntryState],
                       row_data: Callable[[Row, EntryState | None], dict[str, Any]]
                       ) -> list[dict[str, Any]]:
    """The category's separate rankings out of its ``rows``, a section each, once its results
    are in (provisional or final)."""
    if not category.separate or main["standing"] is None:
        return []
    entries = {n: s.entry for n, s in states.items()}
    return [_separate_data(contest, main, sr, [row_data(r, states.get(r.number)) for r in sub])
            for sr, sub in separate_of(contest, category, rows, entries)]


def _separate_data(contest: Contest, main: dict[str, Any], sr: SeparateRanking,
                   rows: list[dict[str, Any]]) -> dict[str, Any]:
    """A separate ranking's section, after its category's (``main``): its clock and columns,
    its own rows."""
    name = localized(sr.name, contest.language, contest.language) or sr.id
    return {**main, "id": f"{main['id']}/{sr.id}", "name": f"{main['name']} — {name}",
            "separate_of": main["id"], "seating": False, "rows": rows, "entries": len(rows),
            "finished": sum(1 for r in rows if r["status"] == "finished")}


def upcoming_data(contest: Contest, category: Category, round_index: int, now: datetime,
                  rate: float) -> dict[str, Any]:
    """A round not reached yet (its entrants come from the round before): its name and when
    it is due to start."""
    heat = Heat(category, round_index, 1)
    name = round_name(contest.language, contest, category, round_index)
    clk = clock_data(heat.play, CategoryClock(None), now, rate,
                     contest.timezone, heat.round.when(1).start, contest.language)
    return {
        "id": f"{category.id}/{heat.round.id}", "name": f"{category.name} — {name}",
        "upcoming": True, "escape": False, "time_limit": heat.play.time_limit,
        "time_limit_text": format_duration(heat.play.time_limit), "escape_time_limit": None,
        "pieces": heat.play.pieces, "clock": clk, "standing": None, "seating": False,
        "columns": {}, "entries": 0, "finished": 0, "rows": [],
    }


async def shown_units(day: ContestDay) -> list[tuple[Category, bool]]:
    """What the projector shows, in the contest file's order: each category without rounds;
    for one in rounds, the heats of the latest round reached, with the round before's while
    none of the latest has begun (its results stay on screen until the next round starts),
    then the rounds still to come (``True``: not reached, nothing but a start to show)."""
    out: list[tuple[Category, bool]] = []
    for c in day.contest.categories:
        if not c.rounds:
            out.append((c, False))
            continue
        lineup = await day.lineups(c)
        latest = len(lineup) - 1
        heats = [Heat(c, latest, h).play for h in range(1, len(lineup[latest]) + 1)]
        begun = [(await day.clock(h.id)).started is not None for h in heats]
        if latest > 0 and not any(begun):
            out.extend((Heat(c, latest - 1, h).play, False)
                       for h in range(1, len(lineup[latest - 1]) + 1))
        out.extend((h, False) for h in heats)
        confirmed = await day.confirmed_rounds(c)
        first_to_come = max(len(lineup), confirmed + 1)
        out.extend((Heat(c, r, 1).play, True) for r in range(first_to_come, len(c.rounds)))
    return out


def _today(day: ContestDay, unit: Category, data: dict[str, Any], now: datetime) -> bool:
    """Whether the projector shows ``unit`` at ``now``: a category without rounds always (its
    day is the contest's); a heat or a round to come only on its own day, or while its clock
    runs (a library's evening weeks away, another venue's of last week, are not today's)."""
    heat = day.heats.get(unit.id)
    if heat is None or data["clock"]["state"] in ("running", "paused"):
        return True
    scheduled = heat.round.when(heat.number).start
    if scheduled is None:
        return True
    zone = ZoneInfo(day.contest.timezone)
    return scheduled.astimezone(zone).date() == now.astimezone(zone).date()


def _next(day: ContestDay, later: list[tuple[Category, dict[str, Any]]],
          now: datetime) -> dict[str, str] | None:
    """The first of the units left off that is still to come: its name, day and time (the
    page's one line "Next: ..."), None when there is none."""
    zone = ZoneInfo(day.contest.timezone)
    starts = sorted((start, data["name"]) for unit, data in later
                    if (start := day.heats[unit.id].round.when(day.heats[unit.id].number).start)
                    is not None and start > now)
    if not starts:
        return None
    start, name = starts[0]
    local = start.astimezone(zone)
    return {"name": name, "day": day_text(day.contest.language, local.date()),
            "time": local.strftime("%H:%M")}


async def scoreboard_data(day: ContestDay, contest: Contest, now: datetime,
                          rate: float = 1.0) -> dict[str, Any]:
    """Everything the page shows, JSON-able, as the database holds it at ``now``.

    Per category: id, name, its clock (state, contest seconds, h:mm:ss, rate, time left, when
    a pause ends), time limit and the ranking rows (position, number, names, status and its
    text, time h:mm:ss, pieces, escape progress, prize); once its results are in, each of
    its separate rankings after it (``separate_of``: its id). ``rate``: contest seconds per real
    second (a rehearsal runs fast).
    """
    today: list[dict[str, Any]] = []
    later: list[tuple[Category, dict[str, Any]]] = []
    for c, to_come in await shown_units(day):
        sections = [upcoming_data(contest, day.heats[c.id].category,
                                  day.heats[c.id].round_index, now, rate)] if to_come else \
            await category_sections(day, contest, c, now, rate)
        if _today(day, c, sections[0], now):
            today.extend(sections)
        else:
            later.append((c, sections[0]))
    return {
        "contest": contest.name,
        "language": contest.language,
        "labels": labels(contest.language),
        "now": now.isoformat(),
        "paused": await day.paused(),
        "categories": today,
        # what is left off (another day's heats and rounds): the first still to come
        "next": _next(day, later, now),
    }
