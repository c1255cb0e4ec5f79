"""The command list: names, who may use them, what a contest must have for each to be of use,
menu descriptions and aliases per language.

The Spanish names are the contract (``/ayuda``, ``/historial``...). French and English aliases
work for everyone and are what the French and English menus show. ``in_language`` writes the
commands named inside a text (usage lines, instructions) the way a reader of that language types
them.
``features`` is what a contest (or some of its categories) has of what commands need.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

from bot.domain.contest import Category, Contest
from bot.support.registry import N_, REGISTRY, ROLES, Command, Feature

__all__ = ["ROLES", "Command"]

# what a contest may have that some commands are for (``Command.needs``)
ESCAPE = "escape"
# the escape's stages confirmed by volunteers (run by them), or answered in the chat
ESCAPE_STAGES = "escape_stages"
ESCAPE_IN_CHAT = "escape_in_chat"
ROUNDS = "rounds"
CHANGES = "changes"  # a category whose teams' members may change (keep_originals)
PENALTIES = "penalties"
SPLITS = "splits"
JOKERS = "jokers"  # a category whose entries may give up a puzzle
SELF_TIMED = "self_timed"
OWN_START = "own_start"
PAYMENTS = "payments"  # the contest takes payments in the chat (``[payments]``)
DOOR = "door"  # people are checked in at the door (``[door]``)
OFFERS = "waiting_list"  # a freed place is offered to the next in line (``[waiting_list]``)
RETENTION = "retention"  # personal data removed some days after the contest (``[privacy]``)
PARTNERS = "partners"  # someone alone registers in pairs or teams and is matched (``[partners]``)


# the bot's own commands, then each feature's (``_add``, when the features are installed)
COMMANDS: list[Command] = [
    Command("start", "participant", N_("Start / link my entry")),
    Command("ayuda", "participant", N_("What I can do"), {"fr": "aide", "en": "help"}),
    Command("listo", "participant",
            N_("We have finished the puzzle!"), {"fr": "fini", "en": "done"}, for_entry=True),
    Command("idioma", "participant", N_("Change language"), {"fr": "langue", "en": "language"}),
    Command("mis_inscripciones", "participant",
            N_("My entries and payments"), {"fr": "mes_inscriptions", "en": "my_entries"}),
    Command("baja", "participant",
            N_("Withdraw an entry"), {"fr": "desistement", "en": "withdraw"}),
    Command("series", "participant",
            N_("Heats of the round and tables"), {"fr": "series", "en": "heats"}, ROUNDS),
    Command("deshacer", "volunteer",
            N_("Take back my last entry"), {"fr": "annuler", "en": "undo"}),
    Command("historial", "volunteer",
            N_("N: history of entry N"), {"fr": "historique", "en": "history"}),
    Command("inicio", "organiser",
            N_("[category]: start the clock"), {"fr": "depart", "en": "go"}),
    Command("pausa", "organiser",
            N_("General break (all clocks)"), {"fr": "pause", "en": "pause"}),
    Command("reanudar", "organiser", N_("End of the break"), {"fr": "reprise", "en": "resume"}),
    Command("confirmar_ronda", "organiser",
            N_("[category]: the round's results are final"),
            {"fr": "valider_manche", "en": "confirm_round"}, ROUNDS),
    Command("pagado", "organiser", N_("N [date]: entry N has paid"), {"fr": "paye", "en": "paid"}),
    Command("inscritos", "organiser",
            N_("[category]: places and waiting list"), {"fr": "inscrits", "en": "entries"}),
    Command("exportar", "organiser",
            N_("Entries and results as CSV"), {"fr": "exporter", "en": "export"}),
    Command("anuncio", "organiser",
            N_("TEXT: announcement to every participant"), {"fr": "annonce", "en": "announce"}),
    Command("voluntario", "organiser",
            N_("Invitation link for a volunteer"), {"fr": "benevole", "en": "volunteer"}),
    Command("organizador", "organiser",
            N_("Invitation link for another organiser"),
            {"fr": "organisateur", "en": "organiser"}),
]

BY_NAME = {c.name: c for c in COMMANDS}


def command_for(need: str) -> str:
    """The name of the command that needs ``need`` (``CHANGES``...), the first if several (a
    feature's: the features must be installed, ``bot.features``)."""
    found = next((c.name for c in COMMANDS if c.needs == need), None)
    if found is None:
        raise RuntimeError(f"no command needs {need!r}: are the features installed?")
    return found


def features(contest: Contest, categories: Iterable[str] | None = None) -> frozenset[str]:
    """What commands need (``Command.needs``) that the contest has, in the categories of
    ``categories`` (None: in any of its categories): an escape stage, rounds, penalty kinds,
    puzzles with split times."""
    wanted = None if categories is None else set(categories)
    cats = [c for c in contest.categories if wanted is None or c.id in wanted]
    has = {
        **_escape(contest, cats),
        ROUNDS: any(c.rounds for c in cats),
        PENALTIES: bool(contest.penalties),
        SPLITS: any(c.puzzles or any(r.puzzles for r in c.rounds) for c in cats),
        JOKERS: any(c.jokers for c in cats),
        SELF_TIMED: any(c.self_timed for c in cats),
        OWN_START: any(c.own_start for c in cats),
        CHANGES: any(c.keep_originals is not None for c in cats),
        PAYMENTS: contest.settings(PAYMENTS) is not None,
        DOOR: contest.settings(DOOR) is not None,
        OFFERS: contest.settings(OFFERS) is not None,
        PARTNERS: contest.settings(PARTNERS) is not None and any(c.members > 1 for c in cats),
        RETENTION: contest.settings("privacy") is not None,
    }
    return frozenset(f for f, yes in has.items() if yes)


def _escape(contest: Contest, cats: list[Category]) -> dict[str, bool]:
    """An escape stage, and who knows the pairs' stages: the volunteers, or the chat."""
    escape = contest.escape is not None and any(c.escape for c in cats)
    in_chat = contest.escape is not None and contest.escape.in_chat
    return {ESCAPE: escape, ESCAPE_STAGES: escape and not in_chat,
            ESCAPE_IN_CHAT: escape and in_chat}


_NAMED = re.compile(r"(?<![\w/.:@-])/([a-z_]+)")


def in_language(lang: str, text: str) -> str:
    """``text`` with every command it names (``/ayuda``) as typed in ``lang`` (``/help``);
    anything that is not one of our commands (an address, a path) is left as it is."""
    if lang == "es" or "/" not in text:
        return text

    def swap(match: re.Match[str]) -> str:
        command = BY_NAME.get(match.group(1))
        return "/" + command.name_in(lang) if command else match.group(0)

    return _NAMED.sub(swap, text)


def typed(lang: str, name: str) -> str:
    """Command ``name`` as a reader of ``lang`` types it (``/pieces`` for ``piezas`` in
    English): for a text naming another feature's command through a placeholder."""
    command = BY_NAME.get(name)
    return "/" + (command.name_in(lang) if command is not None else name)


# every name a command answers to (Spanish, French and English), to its command
_ANY_NAME = {n: c for c in COMMANDS for n in (c.name, *c.aliases.values())}


def _add(feature: Feature) -> None:
    """A feature's commands join the table (``REGISTRY.install``): each after the one it
    names (``Command.after``), else after the command its feature's ``menu_after`` names
    (those of one feature in their order), else at the end (the order of a participant's
    menu and of the volunteers' sheet); a name taken is a bug."""
    names = [c.name for c in COMMANDS]
    at = names.index(feature.menu_after) + 1 if feature.menu_after in names else len(names)
    for c in feature.commands:
        taken = [n for n in (c.name, *c.aliases.values()) if n in _ANY_NAME]
        if taken:
            raise ValueError(f"feature {feature.name!r}: /{taken[0]} is taken")
        after = [i for i, known in enumerate(COMMANDS) if known.name == c.after]
        if after:
            COMMANDS.insert(after[0] + 1, c)
            at += after[0] < at
        else:
            COMMANDS.insert(at, c)
            at += 1
        BY_NAME[c.name] = c
        _ANY_NAME.update({n: c for n in (c.name, *c.aliases.values())})


REGISTRY.on_install(_add)
_GLUED = re.compile(r"/([^\W\d_]+(?:_[^\W\d_]+)*)(\d+)\Z")


def meant(typed: str) -> tuple[Command, str] | None:
    """The command a mistyped one most likely meant, with what followed it: ``/historial12`` is
    ``/historial 12`` (the number glued on), ``/historail`` is ``/historial`` (one letter
    off); None when nothing is close."""
    word = typed.split("@", 1)[0].lower()
    glued = _GLUED.match(word)
    if glued is not None and glued.group(1) in _ANY_NAME:
        return _ANY_NAME[glued.group(1)], glued.group(2)
    close = difflib.get_close_matches(word.lstrip("/"), list(_ANY_NAME), n=1, cutoff=0.8)
    return (_ANY_NAME[close[0]], "") if close else None
