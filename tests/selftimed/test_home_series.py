"""Issue 47, item 10: a league over weeks, played at home, told as its people need it. The
season's end is given as a day and an hour in the contest's zone, and across the change from
summer time it keeps the hour it began ("4 weeks" from Saturday 3 October 10:00 in Berlin end
on Saturday 31 October at 10:00, said so), not an hour earlier without a word; the photo the
bot asks for at time's up is taken (within ``time_up_photo_minutes``), goes to the reviewers
and is counted as of time's up; with ``unfinished_order = ["pieces", "time"]`` each ranking
line shows the pieces that placed it."""

from __future__ import annotations

import io
import re
from datetime import datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from bot.handlers.jobs import alert_job
from bot.services.csvio import import_entries, read_entries
from tests.day.test_bot_commands import event_rows, replies_to
from tests.fakebot import Harness, Person
from tests.selftimed.test_selftimed import keyboard, photos_to

ROOT = Path(__file__).resolve().parents[2]
LEAGUE = (ROOT / "contests" / "online-league-2026.toml").read_text(encoding="utf-8")
BERLIN = ZoneInfo("Europe/Berlin")
T0 = datetime(2026, 10, 3, 10, 0, tzinfo=BERLIN)  # the season opens, summer time (UTC+2)
END = datetime(2026, 10, 31, 10, 0, tzinfo=BERLIN)  # four weeks on, winter time (UTC+1)
WEEKS4 = 28 * 86400
CODE = re.compile(r"([A-Z0-9]{5})")
CSV = """number,category,names,born
1,solo,Ann Archer,1990-03-01
2,solo,Ben Brook,1985-07-12
3,solo,Carl Cole,1979-05-05
"""
# what each language reads (the bot's words, the catalogs')
SAID = {
    "es": {
        "end": "Tu tiempo para jugar termina el sábado 31 de octubre a las 10:00 (hora de "
               "Berlín). El domingo 25 de octubre se atrasan los relojes una hora: el final "
               "sigue siendo a las 10:00, la misma hora a la que empezó.",
        "kept": "Foto guardada",
        "late": "Se acabó el tiempo para jugar (4 semanas desde la salida), y la foto de tu "
                "puzzle tal como estaba entonces tenía que llegar antes del sábado 31 de "
                "octubre 10:15:00: no cambia nada.",
        "ann": "1. #1 Ann Archer: 1950 piezas, 1 de 3 puzzles, 1:15:00",
        "ben": "2. #2 Ben Brook: 1800 piezas, 2 de 3 puzzles, 3:00:00",
    },
    "de": {
        "end": "Deine Spielzeit endet am Samstag, 31. Oktober um 10:00 (Ortszeit Berlin). Am "
               "Sonntag, 25. Oktober werden die Uhren eine Stunde zurückgestellt: Deine "
               "Spielzeit endet trotzdem um 10:00, zur selben Uhrzeit, zu der sie begonnen "
               "hat.",
        "kept": "Foto gespeichert",
        "late": "Die Spielzeit ist vorbei (4 Wochen ab dem Start), und das Foto deines "
                "Puzzles, wie es zu diesem Zeitpunkt aussah, musste bis Samstag, 31. Oktober "
                "10:15:00 ankommen: "
                "Nichts geändert.",
        "ann": "1. #1 Ann Archer: 1950 Teile, 1 von 3 Puzzles, 1:15:00",
        "ben": "2. #2 Ben Brook: 1800 Teile, 2 von 3 Puzzles, 3:00:00",
    },
}


class Season:
    def __init__(self, h: Harness, lang: str) -> None:
        self.h, self.lang = h, lang
        self.boss, self.reviewer = Person(1, "Olga", lang), Person(2, "Rita", lang)
        self.ann, self.ben, self.carl = (Person(100 + n, name, lang)
                                         for n, name in ((1, "Ann"), (2, "Ben"), (3, "Carl")))

    async def say(self, who: Person, text: str, when: datetime) -> list[str]:
        return replies_to(await self.h.send(who, text, when), who)

    async def say_photo(self, who: Person, when: datetime) -> list[str]:
        return replies_to(await self.h.send_photo(who, when), who)

    async def puzzle(self, who: Person, puzzle: int, start: datetime, done: datetime) -> None:
        """``who`` starts ``puzzle``, claims it, sends its photo; the reviewer confirms it."""
        await self.h.send(who, f"/empiezo {puzzle}", start)
        await self.h.send(who, "/listo", done)
        (review,) = photos_to(await self.h.send_photo(who, done + timedelta(minutes=1)),
                              self.reviewer)
        (ok,) = [d for _, d in keyboard(review) if d.startswith("ready:ok:")]
        await self.h.press(self.reviewer, ok, done + timedelta(minutes=5))


@pytest.fixture(params=["es", "de"])
async def season(request: Any, tmp_path: Path):
    path = tmp_path / "league.toml"
    path.write_text(LEAGUE.replace('puzzle_order = "any"\n', 'puzzle_order = "any"\n'
                                   'unfinished_order = ["pieces", "time"]\n'), encoding="utf-8")
    h = await Harness(tmp_path, path, organisers=frozenset({1})).start()
    s = Season(h, request.param)
    svc = h.services
    await import_entries(svc.store, read_entries(svc.contest, io.StringIO(CSV), "e.csv"))
    joins = {e.number: e.join_code for e in await svc.store.entries()}
    for person, number in ((s.ann, 1), (s.ben, 2), (s.carl, 3)):
        await h.send(person, f"/start {joins[number]}", T0 - timedelta(days=2))
    await h.send(s.boss, "/start", T0 - timedelta(days=3))
    link = (await s.say(s.boss, "/voluntario", T0 - timedelta(days=3)))[0]
    await h.send(s.reviewer, f"/start {link.split('start=')[1].split()[0]}",
                 T0 - timedelta(days=3))
    s.opened = await h.send(s.boss, "/inicio", T0)  # type: ignore[attr-defined]
    yield s
    await h.stop()


async def test_the_seasons_end_is_a_day_and_an_hour_kept_across_the_change_of_time(
        season: Season) -> None:
    s = season
    (notice,) = replies_to(s.opened, s.ann)  # type: ignore[attr-defined]
    assert notice.splitlines()[-1] == SAID[s.lang]["end"], notice
    # at 09:30 on the last day (an hour of seconds past 4 weeks of them) a puzzle still starts
    started = await s.say(s.ann, "/empiezo 1", END - timedelta(minutes=30))
    assert CODE.search(started[0]) and "1" in started[0], started
    late = await s.say(s.ben, "/empiezo 1", END + timedelta(seconds=1))
    assert late[0].startswith({"es": "Se acabó el tiempo para jugar (4 semanas",
                               "de": "Die Spielzeit ist vorbei (4 Wochen"}[s.lang]), late


async def test_the_photo_asked_at_times_up_is_counted_and_lines_show_the_pieces(
        season: Season) -> None:
    s, h = season, season.h
    # Ann: puzzle 3 (1,000 pieces) in 1:15:00; Ben: puzzles 1 and 2 (1,500) in 3:00:00
    await s.puzzle(s.ann, 3, T0 + timedelta(days=2), T0 + timedelta(days=2, hours=1, minutes=15))
    await s.puzzle(s.ben, 1, T0 + timedelta(days=3), T0 + timedelta(days=3, hours=1))
    await s.puzzle(s.ben, 2, T0 + timedelta(days=4), T0 + timedelta(days=4, hours=2))
    # each starts another puzzle on the last morning, and the time is up while they play
    for who in (s.ann, s.ben, s.carl):
        await h.send(who, "/empiezo 2" if who is s.ann else "/empiezo 3",
                     END - timedelta(hours=2))
    # the photo asked for at time's up, five minutes after it: kept, to the reviewers
    for who, number in ((s.ann, 1), (s.ben, 2)):
        calls = await h.send_photo(who, END + timedelta(minutes=5))
        assert replies_to(calls, who)[0].startswith(SAID[s.lang]["kept"]), replies_to(calls, who)
        (review,) = photos_to(calls, s.reviewer)
        assert f"#{number}" in review.params["caption"], review.params["caption"]
        assert keyboard(review) == []  # no claim to confirm: the reviewer counts the pieces
        assert [r for r in event_rows(h, "photo") if r["entry"] == number
                and "time_up" in str(r["data"])], event_rows(h, "photo")
    # twenty minutes after: the grace (15 minutes) is over, and the photo says so
    before = len(event_rows(h, "photo"))
    assert await s.say_photo(s.carl, END + timedelta(minutes=20)) == [SAID[s.lang]["late"]]
    assert len(event_rows(h, "photo")) == before
    # the reviewer counts the pieces in the photos
    await h.send(s.reviewer, "/piezas 1 950", END + timedelta(minutes=30))
    await h.send(s.reviewer, "/piezas 2 300", END + timedelta(minutes=31))
    ranking = (await s.say(s.boss, "/clasificacion", END + timedelta(hours=1)))[0]
    lines = [line for line in ranking.splitlines() if re.match(r"\d+\. #", line)]
    # the pieces first, as they decide the places (provisional: no prize yet)
    assert lines[:2] == [SAID[s.lang]["ann"], SAID[s.lang]["ben"]], ranking


async def test_times_up_asks_a_photo_only_of_those_with_a_puzzle_running(
        season: Season) -> None:
    """At the season's end the bot asks for a photo of the puzzle as it is: of the entries
    with a puzzle started and not claimed (Ann), not of one with none running (Ben), whose
    photo would have nothing to count."""
    s, h = season, season.h
    await h.send(s.ann, "/empiezo 2", END - timedelta(hours=2))
    job = SimpleNamespace(data={"name": "alert:solo:0", "category": "solo", "minutes": 0,
                                "when": END.timestamp()})
    context = SimpleNamespace(job=job, application=h.app, bot_data=h.app.bot_data,
                              bot=h.app.bot)
    before = len(h.request.calls)
    await alert_job(context)  # type: ignore[arg-type]
    await h.app.bot_data["sender"].settled()
    calls = list(h.request.calls[before:])
    (told,) = replies_to(calls, s.ann)
    assert told.startswith({"es": "Solo: ¡se acabó el tiempo!",
                            "de": "Solo: Die Zeit ist um!"}[s.lang]), told
    assert replies_to(calls, s.ben) == [] and replies_to(calls, s.carl) == []
    assert await s.say_photo(s.ann, END + timedelta(minutes=3)) != []
