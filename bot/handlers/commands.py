"""Who may use which command, and each role's menu (the command table itself is in
``bot/support/commands.py``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from bot.domain.contest import Contest
from bot.domain.registration import registration_window
from bot.support.commands import BY_NAME, COMMANDS, Command


def allowed(command: Command, role: str) -> bool:
    order = {"stranger": -1, "participant": 0, "volunteer": 1, "organiser": 2}
    if command.role == "participant":
        return True  # participant commands answer everyone (with a reason when not linked)
    return order.get(role, -1) >= order[command.role]


def names_for(name: str) -> list[str]:
    """Every name the command answers to: its Spanish name and its aliases."""
    cmd = BY_NAME[name]
    return sorted({cmd.name, *cmd.aliases.values()})


ENTRY_COMMANDS = ("pista", "solucion", "billetes", "listo")

# commands that only some contests, or only some moments, have a use for
ESCAPE_COMMANDS = ("pista", "solucion", "billetes", "etapa", "escape")
ROUND_COMMANDS = ("series", "confirmar_ronda", "mesas")
REGISTERING_COMMANDS = ("inscribir", "cancelar", "baja")


@dataclass(frozen=True)
class MenuView:
    """What a menu is made for: the contest's features (for a participant, those of the
    categories of the entries they follow), whether they follow an entry, and whether
    registration is open."""

    escape: bool = True
    rounds: bool = True
    penalties: bool = True
    splits: bool = True
    follows_entry: bool = True
    registering: bool = True


def view_of(contest: Contest, at: datetime, categories: Iterable[str] | None = None, *,
            follows_entry: bool, registering: bool | None = None) -> MenuView:
    """The view for someone who follows entries of ``categories`` (None: the whole contest).
    ``registering`` None: whether registration is open at ``at`` (until the contest day)."""
    wanted = None if categories is None else set(categories)
    cats = [c for c in contest.categories if wanted is None or c.id in wanted]
    if registering is None:
        local_day = at.astimezone(ZoneInfo(contest.timezone)).date()
        registering = registration_window(contest, at) != "closed" and local_day < contest.date
    return MenuView(
        escape=contest.escape is not None and any(c.escape for c in cats),
        rounds=any(c.rounds for c in cats),
        penalties=bool(contest.penalties),
        splits=any(c.puzzles or any(r.puzzles for r in c.rounds) for c in cats),
        follows_entry=follows_entry,
        registering=registering,
    )


def view_for(contest: Contest, at: datetime, role: str, entry_categories: Sequence[str], *,
             registering: bool | None = None) -> MenuView:
    """A person's view: a participant's, the categories of the entries they follow; staff's
    and strangers', the whole contest."""
    return view_of(contest, at, entry_categories if role == "participant" else None,
                   follows_entry=bool(entry_categories), registering=registering)


def _shown(c: Command, role: str, view: MenuView) -> bool:
    if not allowed(c, role):
        return False
    staff = role in ("volunteer", "organiser")
    if c.name in ENTRY_COMMANDS and not view.follows_entry:
        return False
    if c.name in ESCAPE_COMMANDS and not view.escape:
        return False
    if c.name in ROUND_COMMANDS and not view.rounds:
        return False
    if c.name == "series" and not (view.follows_entry or staff):
        return False  # the heat of one's own entry: nothing to show before linking
    if c.name == "penalizacion" and not view.penalties:
        return False
    if c.name == "parcial" and not view.splits:
        return False
    if c.name in REGISTERING_COMMANDS:
        # staff register like anyone else, but their menu is for the day's work
        return view.registering and (not staff or view.follows_entry) and \
            (c.name != "baja" or view.follows_entry)
    if c.name == "mis_inscripciones":
        return view.follows_entry or (view.registering and not staff)
    return True


def menu(role: str, lang: str, view: MenuView = MenuView()) -> list[tuple[str, str]]:
    """(command, description) for a role's menu in a language, with only the commands that
    ``view`` has a use for."""
    return [(c.name_in(lang), c.description[lang]) for c in COMMANDS if _shown(c, role, view)]
