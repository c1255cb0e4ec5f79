"""Reading a contest file (TOML) into ``bot.domain.contest.Contest``.

Every problem is reported as one ``ContestFileError`` naming the file, the key (dotted path,
``categories[2].slots[0].born_to``) and what is wrong. See ``contests/*.toml`` for the format.
"""

from __future__ import annotations

import re
import tomllib
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any, NamedTuple
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from PIL import Image

from bot.domain.contest import (
    PER_ENTRY,
    PHOTO_SUFFIXES,
    YES_NO,
    Break,
    Category,
    Contest,
    Enigma,
    EscapeRules,
    ExtraPrize,
    Meal,
    PenaltyKind,
    Question,
    RefundTier,
    RegistrationRules,
    ReservedQuota,
    SeparateRanking,
    Slot,
)
from bot.domain.rounds import heats_of
from bot.features.escape.answers import is_right, normalize
from bot.services.contest_model import (
    MAX_ENIGMA_CHOICES,
    MAX_PICTURE_BYTES,
    sections,
)
from bot.services.contest_questions import read_discount, read_local, read_questions
from bot.services.contest_ranking import (
    RankingRules,
    check_unfinished_order,
    ranking_rules,
)
from bot.services.contest_rounds import (
    check_split_questions,
    puzzle_rules,
    read_pieces,
    read_puzzles,
    read_rounds,
)
from bot.services.contest_timing import own_start, read_timing, self_timed
from bot.services.contest_toml import LANGUAGES, Ctx, Table, lang_texts, new_id
from bot.services.contest_toml import ContestFileError as ContestFileError
from bot.support.commands import PENALTIES, command_for
from bot.support.registry import REGISTRY

PENALTY_ID = re.compile(r"[a-z0-9_-]{1,32}")


def _slot(t: Table, nested: bool = False) -> Slot:
    """One member's place: birth years or ages, ``with_adult`` (only beside another member of
    at least that age), and ``or``: alternatives, each such a place (not nested further)."""
    alternatives: tuple[Slot, ...] = ()
    if not nested:
        alternatives = tuple(_slot(a, nested=True) for a in t.tables("or"))
        for i, alt in enumerate(alternatives):
            if alt.is_open:
                raise t.ctx.error(f"{t.key('or')}[{i}]", "takes anyone: give it a condition "
                                  "(or leave the place as {} for anyone)")
    slot = Slot(
        born_from=t.get("born_from", int, None),
        born_to=t.get("born_to", int, None),
        min_age=t.int("min_age", None),
        max_age=t.int("max_age", None),
        with_adult=t.int("with_adult", None),
        alternatives=alternatives,
    )
    t.done()
    if (slot.born_from is not None or slot.born_to is not None) and slot.uses_age:
        raise t.ctx.error(t.where, "use birth years or ages, not both")
    if slot.born_from is not None and slot.born_to is not None and slot.born_from > slot.born_to:
        raise t.ctx.error(t.key("born_from"), "is after born_to")
    if slot.min_age is not None and slot.max_age is not None and slot.min_age > slot.max_age:
        raise t.ctx.error(t.key("min_age"), "is above max_age")
    return slot


def _category_id(t: Table, ids: set[str]) -> str:
    """Ids name categories in commands and exports: lowercase, one per category."""
    cid: str = t.get("id", str)
    if not cid or not cid.replace("-", "").replace("_", "").isalnum() or cid != cid.lower():
        raise t.ctx.error(t.key("id"), f"must be lowercase letters, digits, - or _: {cid!r}")
    if cid in ids:
        raise t.ctx.error(t.key("id"), f"{cid!r} is used by another category")
    ids.add(cid)
    return cid


def _members(t: Table) -> int:
    members: int = t.int("members")
    return members


def _slots(t: Table, members: int) -> tuple[Slot, ...]:
    """One slot per member (all open when none is given), all by birth year or all by age."""
    slot_tables = t.tables("slots")
    slots = tuple(_slot(s) for s in slot_tables) if slot_tables else (Slot(),) * members
    if len(slots) != members:
        raise t.ctx.error(
            t.key("slots"), f"has {len(slots)} entries but the category has {members} members"
        )
    kinds = set()
    for s in slots:
        for part in (s, *s.alternatives):
            if part.born_from is not None or part.born_to is not None:
                kinds.add("years")
            if (part.min_age is not None or part.max_age is not None
                    or part.with_adult is not None):
                kinds.add("ages")
    if len(kinds) > 1:
        raise t.ctx.error(t.key("slots"), "mixes birth years and ages")
    return slots


def _reserved(t: Table, capacity: int | None) -> tuple[ReservedQuota, ...]:
    """``[[categories.reserved]]``: places kept for local entries, within the capacity."""
    reserved = []
    for q in t.tables("reserved"):
        quota = ReservedQuota(
            places=q.int("places"), for_kind=q.get("for", str), until=q.moment("until")
        )
        q.done()
        if capacity is None or quota.places > capacity:
            raise t.ctx.error(q.key("places"), "needs a category capacity at least this large")
        reserved.append(quota)
    return tuple(reserved)


def _extra_prizes(t: Table) -> tuple[ExtraPrize, ...]:
    """``[[categories.extra_prizes]]``: prizes besides the positions (best local entry...)."""
    extras = []
    for e in t.tables("extra_prizes"):
        extra = ExtraPrize(
            id=e.get("id", str),
            name=e.get("name", str),
            prize=e.get("prize", str),
            among=e.get("among", str, "all"),
            cumulative=e.get("cumulative", bool, True),
        )
        e.done()
        extras.append(extra)
    return tuple(extras)


def _separate(t: Table, questions: dict[str, Question]) -> tuple[SeparateRanking, ...]:
    """``[[categories.rankings]]``: rankings of their own within the category."""
    out: list[SeparateRanking] = []
    for r in t.tables("rankings"):
        rid = new_id(r, PENALTY_ID, "lowercase letters, digits, - or _", {x.id for x in out})
        qid = r.get("question", str, None)
        answers = r.strings("answers", ())
        sr = SeparateRanking(
            id=rid, name=lang_texts(r, "name", True),
            min_age=r.int("min_age", None),
            max_age=r.int("max_age", None),
            question=qid, answers=tuple(answers), prizes=r.strings("prizes", ()),
            age_by=r.get("age_by", str, "day"))
        r.done()
        if sr.min_age is None and sr.max_age is None and qid is None:
            raise r.ctx.error(r.where, "needs min_age, max_age or question (who is in it)")
        if sr.min_age is not None and sr.max_age is not None and sr.min_age > sr.max_age:
            raise r.ctx.error(r.key("max_age"), "is below min_age")
        if qid is not None:
            q = questions.get(qid)
            if q is None:
                raise r.ctx.error(r.key("question"), f"unknown question {qid!r}")
            if not answers:
                raise r.ctx.error(r.key("answers"), "is required with question (which answers "
                                  "are in this ranking)")
            allowed = ({c.id.lower() for c in q.choices} if q.choices else
                       {"yes", "no"} if q.yes_no else None)
            for i, a in enumerate(answers):
                if allowed is not None and a.lower() not in allowed:
                    raise r.ctx.error(f"{r.key('answers')}[{i}]", f"{a!r} is not an answer "
                                      f"to {qid}")
        elif answers:
            raise r.ctx.error(r.key("answers"), "needs question")
        out.append(sr)
    return tuple(out)


def _category(t: Table, escape: EscapeRules | None, ids: set[str], qids: set[str],
              questions: dict[str, Question] | None = None,
              unfinished: tuple[str, ...] = ("pieces",),
              timed: tuple[bool, bool] = (False, False),
              seating_rule: str = "categories") -> Category:
    cid = _category_id(t, ids)
    members = _members(t)
    fewest = t.int("min_members", None)
    if fewest is not None and fewest > members:
        raise t.ctx.error(t.key("min_members"), f"is more than members ({members})")
    slots = _slots(t, members)
    capacity = t.int("capacity", None)
    people_capacity = t.int("people_capacity", None)
    at_table = t.int("at_table", None, maximum=members)
    seated = at_table or members
    if people_capacity is not None and people_capacity < seated:
        raise t.ctx.error(t.key("people_capacity"), f"is less than one full entry ({seated} "
                          "at the table)" if at_table else f"is less than one full entry "
                          f"({members} members)")
    reserved = _reserved(t, capacity)
    extras = _extra_prizes(t)
    is_escape = t.get("escape", bool, False)
    if is_escape and escape is None:
        raise t.ctx.error(t.key("escape"), "is true but the contest has no [escape] table")
    puzzles = read_puzzles(t)
    pieces, time_limit = read_pieces(t, puzzles), t.duration("time_limit")
    order_rules = puzzle_rules(t, puzzles)
    rounds = read_rounds(t, pieces, time_limit, qids, puzzles, questions or {}, order_rules)
    if rounds and is_escape:
        raise t.ctx.error(t.key("rounds"), "are not for escape categories")
    start, seating = _played_once(t, rounds, seating_rule)
    at_home, own, order = read_timing(t, timed, is_escape,
                                      bool(puzzles) or any(r.puzzles for r in rounds),
                                      unfinished)
    jokers = _jokers(t, puzzles, order_rules["play"], rounds, at_home, order)
    cat = Category(
        id=cid,
        name=t.get("name", str),
        members=members,
        pieces=pieces,
        time_limit=time_limit,
        fee=t.money("fee"),
        slots=slots,
        capacity=capacity,
        people_capacity=people_capacity,
        at_table=at_table if at_table != members else None,
        start=start,
        seating=seating,
        escape=is_escape,
        prizes=t.strings("prizes", ()),
        reserved=reserved,
        extra_prizes=extras,
        min_members=fewest if fewest != members else None,
        rounds=rounds,
        puzzles=puzzles,
        separate=_separate(t, questions or {}),
        unfinished_order=order,
        self_timed=at_home,
        own_start=own,
        keep_originals=t.int("keep_originals", None, maximum=members),
        jokers=jokers[0],
        joker_bonus=jokers[1],
        **order_rules,
    )
    t.done()
    if escape is not None and cat.escape and escape.time_limit > cat.time_limit:
        raise t.ctx.error(t.key("time_limit"), "is shorter than the escape time limit")
    return cat


def _jokers(t: Table, puzzles: tuple[int, ...], play: int, rounds: tuple[Any, ...],
            at_home: bool, order: tuple[str, ...]) -> tuple[int, int]:
    """``jokers`` (puzzles an entry may give up) and ``joker_bonus`` (pieces for each one
    kept): for a category played once, all its puzzles in sequence at the table, at least
    one of them left to play; a bonus only where pieces rank the entries."""
    played = play or len(puzzles)
    jokers = t.int("jokers", 0)
    bonus = t.int("joker_bonus", 0)
    if jokers:
        if not puzzles:
            raise t.ctx.error(t.key("jokers"), "needs puzzles (two or more): a joker gives "
                              "one of them up")
        if rounds:
            raise t.ctx.error(t.key("jokers"), "is for a category played once: not with "
                              "rounds")
        if at_home:
            raise t.ctx.error(t.key("jokers"), "needs volunteers at the table: not with "
                              'timing = "self"')
        if played < len(puzzles):
            raise t.ctx.error(t.key("jokers"), "is not with play (each entry already "
                              "chooses which puzzles it plays)")
        if jokers >= played:
            raise t.ctx.error(t.key("jokers"), f"is {jokers}, but an entry plays {played} "
                              "puzzles: at least one is left to play")
    if bonus and not jokers:
        raise t.ctx.error(t.key("joker_bonus"), "needs jokers (how many puzzles an entry "
                          "may give up)")
    if bonus and "pieces" not in order:
        raise t.ctx.error(t.key("joker_bonus"), "adds pieces, but unfinished_order leaves "
                          "pieces out: add \"pieces\" to it, or leave the bonus out")
    return jokers, bonus


def _played_once(t: Table, rounds: tuple[Any, ...], seating_rule: str
                 ) -> tuple[datetime | None, str]:
    """A category played once: its own ``start`` (else the contest's) and ``seating``
    ("draw": its tables drawn; "blocks", the default: in number order). With rounds, each
    round says its own; with the contest's ``seating = "numbers"`` every table is its
    entry's number."""
    start = t.clock_time("start", None, None)
    seating = t.get("seating", str, "")
    if rounds and (start is not None or seating):
        key = "start" if start is not None else "seating"
        raise t.ctx.error(t.key(key), f"is for a category played once: with rounds, give "
                          f"each round its {key}")
    if seating == "seeded":
        raise t.ctx.error(t.key("seating"), 'seeded needs a round before (its results): a '
                          'category played once is seated in number order ("blocks") or '
                          'drawn ("draw")')
    if seating == "draw" and seating_rule == "numbers":
        raise t.ctx.error(t.key("seating"), 'is "draw", but the contest seats every entry at '
                          'its own number ([contest] seating = "numbers")')
    return start, seating


def _escape(t: Table) -> EscapeRules:
    stages = t.int("stages")
    caps = t.get("caps_by_stage", list)
    for i, c in enumerate(caps):
        if not isinstance(c, int) or isinstance(c, bool) or c < 0:
            raise t.ctx.error(f"{t.key('caps_by_stage')}[{i}]", "must be a whole number >= 0")
    if len(caps) != stages:
        raise t.ctx.error(
            t.key("caps_by_stage"), f"has {len(caps)} values but there are {stages} stages"
        )

    def per_stage(name: str) -> dict[int, str]:
        out: dict[int, str] = {}
        for item in t.tables(name):
            stage = item.int("stage")
            if stage > stages:
                raise t.ctx.error(item.key("stage"), f"is past the last stage ({stages})")
            out[stage] = item.get("text", str)
            item.done()
        return out

    hints, solutions = per_stage("hints"), per_stage("solutions")
    play = t.get("play", str, "volunteers")
    enigmas = _enigmas(t, stages, hints, solutions)
    if enigmas and play != "chat":
        raise t.ctx.error(t.key("enigmas"), 'are played in the chat: add play = "chat" (or '
                          "leave them out when volunteers run the game)")
    for key in CHAT_ONLY:  # a setting that would be silently dropped
        if play != "chat" and t.has(key):
            raise t.ctx.error(t.key(key), 'is for the escape played in the chat: add play = '
                              '"chat", or leave it out')
    if play == "chat" and len(enigmas) != stages:
        have = {e.stage for e in enigmas}
        missing = [str(k) for k in range(1, stages + 1) if k not in have]
        raise t.ctx.error(t.key("enigmas"), f'play = "chat" needs an enigma for every stage: '
                          f"none for stage {', '.join(missing)}")
    rules = EscapeRules(
        stages=stages,
        initial_tickets=t.int("initial_tickets"),
        hint_cost=t.int("hint_cost"),
        solution_cost=t.int("solution_cost"),
        cooldown=t.duration("cooldown"),
        ticket_value=t.duration("ticket_value"),
        time_limit=t.duration("time_limit"),
        cap_solved=t.int("cap_solved"),
        caps_by_stage=tuple(caps),
        hint_ticket_penalty=t.duration("hint_ticket_penalty"),
        solution_ticket_penalty=t.duration("solution_ticket_penalty"),
        confirmation_grace=t.duration("confirmation_grace", "15:00"),
        hints=hints,
        solutions=solutions,
        play=play,
        enigmas=enigmas,
        pause_after=t.int("pause_after", 3),
        pause=t.duration("pause", "1:00"),
        tell_volunteers=t.get("tell_volunteers", bool, False),
    )
    t.done()
    return rules


# what Telegram takes as a photo: width and height together at most, and the longer side at
# most so many times the shorter (https://core.telegram.org/bots/api#sendphoto)
PHOTO_SIDES, PHOTO_RATIO = 10_000, 20
# [escape]'s keys read only where the bot hosts the game (play = "chat")
CHAT_ONLY = ("pause_after", "pause", "tell_volunteers")


def _enigmas(t: Table, stages: int, hints: dict[int, str], solutions: dict[int, str]
             ) -> tuple[Enigma, ...]:
    """``[[escape.enigmas]]``, one per stage, in stage order: each answer comparable, a
    choice right among the buttons, its picture a readable file beside the contest file, and
    a clue and a solution for the bot to send (its own, or [[escape.hints]]'s)."""
    found: dict[int, Enigma] = {}
    for item in t.tables("enigmas"):
        stage = item.int("stage")
        if stage > stages:
            raise t.ctx.error(item.key("stage"), f"is past the last stage ({stages})")
        if stage in found:
            raise t.ctx.error(item.key("stage"), f"{stage} has two enigmas")
        text = lang_texts(item, "text", True)
        answers = tuple(item.strings("answers"))
        numbers = item.get("numbers", bool, False)
        for i, a in enumerate(answers):
            if not normalize(a):
                raise t.ctx.error(f"{item.key('answers')}[{i}]", "has no letter or digit to "
                                  "compare: nobody could type it")
        if not answers:
            raise t.ctx.error(item.key("answers"), "needs at least one answer")
        choices = tuple(item.strings("choices", ()))
        enigma = Enigma(stage=stage, text=text, answers=answers, numbers=numbers,
                        choices=choices, picture=_picture(t, item),
                        hint=lang_texts(item, "hint", False) or _all(hints.get(stage)),
                        solution=(lang_texts(item, "solution", False)
                                  or _all(solutions.get(stage))))
        _check_choices(t, item, enigma)
        for what in ("hint", "solution"):
            if not getattr(enigma, what):
                raise t.ctx.error(item.key(what), f"is required (or a [[escape.{what}s]] "
                                  f"text for stage {stage}): the bot sends it when it is "
                                  "bought")
        item.done()
        found[stage] = enigma
    return tuple(found[k] for k in sorted(found))


def _all(text: str | None) -> dict[str, str]:
    return {lang: text for lang in LANGUAGES} if text else {}


def _check_choices(t: Table, item: Table, enigma: Enigma) -> None:
    if len(enigma.choices) > MAX_ENIGMA_CHOICES:
        raise t.ctx.error(item.key("choices"), f"has {len(enigma.choices)}: at most "
                          f"{MAX_ENIGMA_CHOICES} buttons")
    for i, c in enumerate(enigma.choices):
        if not normalize(c) or len(c) > 60:
            raise t.ctx.error(f"{item.key('choices')}[{i}]", "must be a button's text: "
                              "1 to 60 characters, with a letter or digit")
    if len({normalize(c) for c in enigma.choices}) != len(enigma.choices):
        raise t.ctx.error(item.key("choices"), "has two choices that read alike")
    if enigma.choices and not any(is_right(enigma, c) for c in enigma.choices):
        raise t.ctx.error(item.key("choices"), "has no right answer among them: no pair "
                          "could pass the stage with the buttons")


def _picture(t: Table, item: Table) -> str | None:
    name = item.get("picture", str, None)
    if name is None:
        return None
    base = Path(t.ctx.path).parent if t.ctx.path else Path.cwd()
    path = (base / name).resolve()
    if not path.is_file():
        raise t.ctx.error(item.key("picture"), f"{name!r} is not a file beside the contest "
                          f"file (looked for {path})")
    size = path.stat().st_size
    if size == 0 or size > MAX_PICTURE_BYTES:
        raise t.ctx.error(item.key("picture"), f"{name!r} must be 1 byte to 10 MB, not "
                          f"{size} bytes")
    if path.suffix.lower() in PHOTO_SUFFIXES:
        problem = _photo_problem(path)
        if problem is not None:
            raise t.ctx.error(item.key("picture"), f"{name!r} {problem}")
    return str(path)


def _photo_problem(path: Path) -> str | None:
    """Why Telegram would refuse ``path`` as a photo (None: it takes it)."""
    try:
        with Image.open(path) as img:
            width, height = img.size
    except (OSError, ValueError, Image.DecompressionBombError):
        return "is not a picture that can be read (.jpg, .png, .webp)"
    if width + height > PHOTO_SIDES or max(width, height) > PHOTO_RATIO * min(width, height):
        return (f"is {width} x {height}: Telegram takes a photo whose sides add up to "
                f"{PHOTO_SIDES} at most, the longer at most {PHOTO_RATIO} times the shorter "
                "(make it smaller, or send it as a .pdf)")
    return None


class _Heading(NamedTuple):
    """What ``[contest]`` says besides the date and time zone kept in ``Ctx``."""

    name: str
    timezone: str
    language: str
    currency: str
    venue: str
    bring: dict[str, str]
    limit_inclusive: bool
    results_at: datetime | None
    start: datetime | None
    penalised_finish_counts: bool = True
    ranking: RankingRules = RankingRules()
    confirm_correction: int = 5 * 60
    plausible_seconds_per_piece: float = 2.0
    participants_see_ranking: str = "final"
    seating: str = "categories"
    timed: tuple[bool, bool] = (False, False)  # self-timed at home; each entry its own start
    time_up_photo: int = 15 * 60


def _heading(root: Table) -> _Heading:
    """``[contest]``; sets the context's time zone and day, which later tables read."""
    c = root.table("contest", required=True)
    assert c is not None
    tz_name: str = c.get("timezone", str)
    try:
        c.ctx.tz = ZoneInfo(tz_name)
    except (ZoneInfoNotFoundError, ValueError, OSError):  # OSError: "Europe" is a folder
        raise c.ctx.error(c.key("timezone"), f"unknown time zone {tz_name!r}") from None
    c.ctx.day = c.get("date", date)
    language = c.get("language", str, "es")
    name = c.get("name", str)
    currency = c.get("currency", str, "EUR")
    venue = c.get("venue", str, "")
    bring = lang_texts(c, "bring", False)  # what to bring, told when a place is confirmed
    limit_inclusive = c.get("finish_at_limit_counts", bool, True)
    penalised = c.get("penalised_finish_counts", bool, True)
    results_at = c.clock_time("results_at", default=None)
    start = c.clock_time("start", default=None)
    ranking = ranking_rules(c)
    confirm_minutes = c.int("confirm_correction_minutes", 5)
    per_piece = float(c.number("plausible_seconds_per_piece", 2.0))
    see_ranking = c.get("participants_see_ranking", str, "final")
    seating = c.get("seating", str, "categories")
    at_home = self_timed(c, False)
    timed = (at_home, own_start(c, False, at_home))
    photo_minutes = c.int("time_up_photo_minutes", 15)
    c.done()
    return _Heading(name, tz_name, language, currency, venue, bring, limit_inclusive, results_at,
                    start, penalised, ranking, confirm_minutes * 60, per_piece, see_ranking,
                    seating, timed, photo_minutes * 60)


def _registration(root: Table) -> RegistrationRules:
    """``[registration]``, optional: without it registrations are always open, first come."""
    r = root.table("registration")
    if r is None:
        return RegistrationRules()
    reg = RegistrationRules(
        opens=r.moment("opens", None),
        closes=r.moment("closes", None),
        priority=r.get("priority", str, "registration"),
        payment_required=r.get("payment_required", bool, False),
        shared_capacity=r.int("shared_capacity", None),
        shared_people_capacity=r.int("shared_people_capacity", None),
        withdrawal_refund_until=r.moment("withdrawal_refund_until", None),
        left_out_refund=r.get("left_out_refund", str, ""),
        **_one_entry(r),
        pay_within=_pay_within(r),
        members_open=r.moment("members_open", None),
        members_if=r.strings("members_if", ()),
        refunds=_refunds(r),
        how_to_pay=lang_texts(r, "how_to_pay", False),  # told with the fee, while unpaid
    )
    if reg.priority == "payment" and not reg.payment_required:
        raise r.ctx.error(r.key("priority"), '"payment" needs payment_required = true')
    if reg.opens and reg.closes and reg.opens >= reg.closes:
        raise r.ctx.error(r.key("closes"), "is not after opens")
    _members_open(r, reg)
    if reg.refunds and reg.withdrawal_refund_until is not None:
        raise r.ctx.error(r.key("refunds"), "cannot be used with withdrawal_refund_until "
                          "(100 % until then, the simple case of refunds): keep one of them")
    r.done()
    return reg


def _one_entry(r: Table) -> dict[str, Any]:
    """``one_entry_per_person``: true (or "category": one entry per category) or "contest"
    (one entry in the whole contest)."""
    v = r.get("one_entry_per_person", (bool, str), False)
    return {"one_entry_per_person": v is not False,
            "one_entry_scope": v if isinstance(v, str) else "category"}


def _pay_within(r: Table) -> timedelta | None:
    """``pay_within_days = 7``: an entry not paid within 7 days of registering lapses."""
    days = r.int("pay_within_days", None)
    return None if days is None else timedelta(days=days)


def _members_open(r: Table, reg: RegistrationRules) -> None:
    """``members_open`` and ``members_if`` go together, before ``opens`` (the question ids are
    checked once the questions are read: ``_members_if``)."""
    if reg.members_open is None and reg.members_if:
        raise r.ctx.error(r.key("members_open"), "is required with members_if")
    if reg.members_open is None:
        return
    if not reg.members_if:
        raise r.ctx.error(r.key("members_if"), "is required with members_open: the ids of the "
                          "yes/no questions that make an entry a member's")
    if reg.opens is None:
        raise r.ctx.error(r.key("members_open"), "needs opens (members may register before "
                          "everyone else)")
    if reg.members_open >= reg.opens:
        raise r.ctx.error(r.key("members_open"), "is not before opens")


def _refunds(r: Table) -> tuple[RefundTier, ...]:
    """``[[registration.refunds]]`` (``until``, ``percent``): later tiers end later and give
    back no more."""
    given = r.has("refunds")
    tables = r.tables("refunds")
    if given and not tables:
        raise r.ctx.error(r.key("refunds"), "needs at least one table (until, percent)")
    tiers: list[RefundTier] = []
    for i, t in enumerate(tables):
        tier = RefundTier(until=t.moment("until"), percent=t.int("percent"))
        t.done()
        if tiers and tier.until <= tiers[-1].until:
            raise t.ctx.error(t.key("until"), f"is not after refunds[{i}].until "
                              f"({tiers[-1].until.strftime('%Y-%m-%d %H:%M')}): list the "
                              "tiers in increasing until order")
        if tiers and tier.percent > tiers[-1].percent:
            raise t.ctx.error(t.key("percent"), f"is more than refunds[{i}].percent "
                              f"({tiers[-1].percent}): refunds may only decrease as the "
                              "contest approaches")
        tiers.append(tier)
    return tuple(tiers)


def _members_if(root: Table, reg: RegistrationRules, questions: tuple[Question, ...]) -> None:
    """``registration.members_if``: yes/no questions asked of each member, as [local]'s."""
    key = "registration.members_if"
    for i, f in enumerate(reg.members_if):
        q = next((q for q in questions if q.id == f), None)
        if q is None:
            raise root.ctx.error(f"{key}[{i}]", f"names no question: {f!r}")
        if not q.yes_no or q.per_entry:
            raise root.ctx.error(f"{key}[{i}]", f"{f!r} must be a yes/no question asked of "
                                 'each member (kind = "yes_no", per = "member")')


def _meal(root: Table) -> Meal | None:
    m = root.table("meal")
    if m is None:
        return None
    meal = Meal(adult=m.money("adult"), child=m.money("child"))
    m.done()
    return meal


def _penalties(root: Table) -> tuple[PenaltyKind, ...]:
    """``[[penalties]]``: the kinds of penalty volunteers record, each adding ``seconds``."""
    kinds: list[PenaltyKind] = []
    for p in root.tables("penalties"):
        pid = new_id(p, PENALTY_ID, "lowercase letters, digits, - or _ (it is typed in "
                      f"/{command_for(PENALTIES)})", {k.id for k in kinds})
        name = lang_texts(p, "name", True)
        for lang, text in name.items():
            if not text.strip() or "\n" in text:
                raise p.ctx.error(f"{p.key('name')}.{lang}" if len(set(name.values())) > 1
                                  else p.key("name"), "must be one line of text")
        kinds.append(PenaltyKind(id=pid, name=name,
                                 seconds=p.int("seconds")))
        p.done()
    return tuple(kinds)


def _breaks(root: Table) -> tuple[Break, ...]:
    """``[[breaks]]``: times of the contest day (or of ``date``, for a contest over several
    days) when every clock stops."""
    breaks = []
    for b in root.tables("breaks"):
        day = b.get("date", date, b.ctx.day)
        br = Break(start=b.clock_time("start", day), end=b.clock_time("end", day))
        b.done()
        if br.end <= br.start:
            raise b.ctx.error(b.key("end"), "is not after start")
        breaks.append(br)
    return tuple(breaks)


def _categories(
    root: Table, escape: EscapeRules | None, local_if_any: tuple[str, ...],
    qids: set[str], questions: dict[str, Question], unfinished: tuple[str, ...],
    timed: tuple[bool, bool] = (False, False), seating_rule: str = "categories",
) -> tuple[Category, ...]:
    """``[[categories]]``, at least one; local quotas and prizes need ``[local]``."""
    ids: set[str] = set()
    categories = tuple(_category(t, escape, ids, qids, questions, unfinished, timed,
                                 seating_rule)
                       for t in root.tables("categories", True))
    if not categories:
        raise root.ctx.error("categories", "needs at least one category")
    for i, q in enumerate(questions.values()):
        unknown = [c for c in q.categories if c not in ids]
        if unknown:
            raise root.ctx.error(f"questions[{i}].categories", f"unknown category {unknown[0]!r}")
    check_split_questions(root, categories, questions)
    if not any(c.puzzles or any(r.puzzles for r in c.rounds) for c in categories):
        check_unfinished_order(root.table("contest") or root, unfinished, False,
                               "every category plays")
    _check_heat_ids(root, categories, ids)
    for i, cat in enumerate(categories):
        if any(q.for_kind == "local" for q in cat.reserved) and not local_if_any:
            raise root.ctx.error(f"categories[{i}].reserved", "needs [local] any_member questions")
        if any(x.among == "local" for x in cat.extra_prizes) and not local_if_any:
            raise root.ctx.error(
                f"categories[{i}].extra_prizes", "needs [local] any_member questions"
            )
    return categories


def _check_heat_ids(root: Table, categories: tuple[Category, ...], ids: set[str]) -> None:
    heat_ids = set(ids)
    for i, cat in enumerate(categories):
        for h in heats_of(cat):
            if h.id in heat_ids:
                raise root.ctx.error(f"categories[{i}].rounds[{h.round_index}].id",
                                     f"gives the heat {h.id!r}, which is also the name of "
                                     "a category or another heat")
            heat_ids.add(h.id)


def parse_contest(data: dict[str, Any], path: str) -> Contest:
    """The tables in the order they depend on each other: [contest] first (its time zone and
    day give every later time its meaning), questions before what names them, [escape] before
    the categories; unknown top-level keys are reported last."""
    ctx = Ctx(path, sections())
    root = Table(ctx, data, "")
    heading = _heading(root)
    registration = _registration(root)
    questions = read_questions(root)
    _members_if(root, registration, questions)
    local_if_any = read_local(root, questions)
    discount = read_discount(root, questions)
    meal = _meal(root)
    breaks = _breaks(root)
    penalties = _penalties(root)
    e = root.table("escape")
    escape = _escape(e) if e is not None else None
    # advancement quotas group entries by a choice or text answer (country, club)
    groups = {q.id for q in questions if q.kind != YES_NO or q.per == PER_ENTRY}
    categories = _categories(root, escape, local_if_any, groups,
                             {q.id: q for q in questions}, heading.ranking.unfinished_order,
                             heading.timed, heading.seating)
    features = _features(root)
    root.done()
    return Contest(
        name=heading.name,
        date=ctx.day,
        timezone=heading.timezone,
        categories=categories,
        registration=registration,
        language=heading.language,
        currency=heading.currency,
        venue=heading.venue,
        bring=heading.bring,
        questions=questions,
        local_if_any=local_if_any,
        discount=discount,
        meal=meal,
        breaks=breaks,
        escape=escape,
        limit_inclusive=heading.limit_inclusive,
        penalties=penalties,
        penalised_finish_counts=heading.penalised_finish_counts,
        results_at=heading.results_at,
        start=heading.start,
        tie_break=heading.ranking.tie_break,
        shared_prizes=heading.ranking.shared_prizes,
        confirm_correction=heading.confirm_correction,
        plausible_seconds_per_piece=heading.plausible_seconds_per_piece,
        participants_see_ranking=heading.participants_see_ranking,
        seating=heading.seating,
        time_up_photo=heading.time_up_photo,
        features=features,
    )


def _features(root: Table) -> tuple[tuple[str, Any], ...]:
    """Each feature's own table, read by the feature (bot/support/registry.py)."""
    out = []
    for feature in REGISTRY.features:
        if feature.table and feature.settings is not None:
            t = root.table(feature.table)
            if t is not None:
                out.append((feature.name, feature.settings(t)))
    return tuple(out)


def load_contest(path: str | Path) -> Contest:
    p = str(path)
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise ContestFileError(p, "", f"cannot be read ({exc.strerror or exc})") from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ContestFileError(p, "", "is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise ContestFileError(p, "", f"is not valid TOML: {exc}{toml_hint(raw, exc)}") from None
    return parse_contest(data, p)


_LINE = re.compile(r"at line (\d+)")
_SHORT_MOMENT = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?!:)")


def toml_hint(raw: bytes, exc: Exception) -> str:
    """What to do about a TOML error, where a common slip explains it: the line as written,
    and a date-time without its seconds (TOML needs ``2024-10-15T00:00:00``) or a text
    without quotes."""
    found = _LINE.search(str(exc))
    lines = raw.decode("utf-8", "replace").splitlines()
    if found is None or not 0 < int(found.group(1)) <= len(lines):
        return ""
    line = lines[int(found.group(1)) - 1].strip()
    hint = f"; the line reads: {line}"
    short = _SHORT_MOMENT.search(line.split("#", 1)[0])
    if short:
        return hint + f" (TOML needs the seconds: {short.group(0)}:00)"
    value = line.split("=", 1)[1].strip() if "=" in line else ""
    if value and value[0].isalpha() and value not in ("true", "false"):
        return hint + f' (a text needs quotes: "{value.split("#", 1)[0].strip()}")'
    return hint
