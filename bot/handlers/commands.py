"""Who may use which command, and each role's menu (the command table itself is in
``bot/support/commands.py``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from bot.domain.contest import Contest, EscapeRules
from bot.features.registration.names import CANCEL, REGISTER
from bot.features.registration.rules import registration_window
from bot.features.standings.names import RANKING
from bot.support.commands import BY_NAME, COMMANDS, ESCAPE, Command, features
from bot.support.registry import REGISTRY
from bot.texts.menus import command_description


def allowed(command: Command, role: str) -> bool:
    order = {"stranger": -1, "participant": 0, "volunteer": 1, "organiser": 2}
    if command.role == "participant":
        return True  # participant commands answer everyone (with a reason when not linked)
    return order.get(role, -1) >= order[command.role]


def names_for(name: str) -> list[str]:
    """Every name the command answers to: its Spanish name and its aliases."""
    cmd = BY_NAME[name]
    return sorted({cmd.name, *cmd.aliases.values()})


class _EntryCommands:
    """The commands shown only to someone who follows an entry (``Command.for_entry``: /listo,
    the escape's), read from the table when asked: a feature's join it when installed."""

    def __contains__(self, name: object) -> bool:
        return any(c.for_entry and c.name == name for c in COMMANDS)


ENTRY_COMMANDS = _EntryCommands()

# commands of use only at some moments (what a contest must have is each command's ``needs``)
REGISTERING_COMMANDS = (REGISTER, CANCEL, "baja")


@dataclass(frozen=True)
class MenuView:
    """What a menu is made for: what commands need that the contest has (``features``; for a
    participant, in the categories of the entries they follow), its escape's rules where it
    has one (what a hint and a solution cost), whether they follow an entry, and whether
    registration is open."""

    has: frozenset[str]
    escape: EscapeRules | None
    follows_entry: bool
    registering: bool
    rankings: bool = False  # the entries' people may read their category's ranking


def view_of(contest: Contest, at: datetime, categories: Iterable[str] | None = None, *,
            follows_entry: bool, registering: bool | None = None) -> MenuView:
    """The view for someone who follows entries of ``categories`` (None: the whole contest).
    ``registering`` None: whether registration is open at ``at`` (until the contest day)."""
    if registering is None:
        local_day = at.astimezone(ZoneInfo(contest.timezone)).date()
        registering = registration_window(contest, at) != "closed" and local_day < contest.date
    has = features(contest, categories)
    return MenuView(has, contest.escape if ESCAPE in has else None, follows_entry, registering,
                    contest.participants_see_ranking != "never")


def view_for(contest: Contest, at: datetime, role: str, entry_categories: Sequence[str], *,
             registering: bool | None = None) -> MenuView:
    """A person's view: a participant's, the categories of the entries they follow; staff's
    and strangers', the whole contest."""
    return view_of(contest, at, entry_categories if role == "participant" else None,
                   follows_entry=bool(entry_categories), registering=registering)


def _shown(c: Command, role: str, view: MenuView) -> bool:
    if c.name == RANKING and role == "participant":
        return view.follows_entry and view.rankings  # their own category's, when it may be read
    if not allowed(c, role) or (c.needs and c.needs not in view.has):
        return False
    staff = role in ("volunteer", "organiser")
    if c.for_entry:
        return view.follows_entry
    if c.name == "series":
        return view.follows_entry or staff  # the heat of one's own entry: none before linking
    if c.name in REGISTERING_COMMANDS:
        return _registering_shown(c, staff, view)
    if c.name == "mis_inscripciones":
        return view.follows_entry or (view.registering and not staff)
    return True


def _registering_shown(c: Command, staff: bool, view: MenuView) -> bool:
    """Registration's commands while it is open: staff register like anyone else, but their
    menu is for the day's work; /baja only for someone with an entry to withdraw."""
    return view.registering and (not staff or view.follows_entry) and \
        (c.name != "baja" or view.follows_entry)


# Staff menus in the order of their day (issue 26: /inicio was 11th, the ranking 14th):
# the day's own commands first, the desk's (payments, lists, invitations) after, the ones
# everyone has last. While registration is open the desk comes first.
DAY_ORDER = ("inicio", "deshacer", "historial", "pausa", "reanudar",
             "anuncio", "confirmar_ronda", "series", "voluntario", "organizador", "pagado",
             "inscritos", "exportar")
DESK_ORDER = ("pagado", "inscritos", "exportar", "anuncio", "voluntario", "organizador")


def _with_features(order: tuple[str, ...], desk: bool) -> list[str]:
    """``order`` with each feature's staff commands after the one it names (``menu_after``;
    ``desk``: ``desk_after``, the desk's order, where a feature has a place in it)."""
    out = list(order)
    for feature in REGISTRY.features:
        after = feature.desk_after if desk else feature.menu_after
        if after not in out:
            continue  # a place in the table only (bot/support/commands.py): after the others
        at = out.index(after) + 1
        out[at:at] = [c.name for c in feature.commands if c.role != "participant"]
    return out


def day_order() -> list[str]:
    return _with_features(DAY_ORDER, desk=False)


def _order(role: str, view: MenuView) -> dict[str, int]:
    if role not in ("volunteer", "organiser"):
        return {}
    first = _with_features(DESK_ORDER, desk=True) if view.registering else []
    order = [*first, *(n for n in day_order() if n not in first)]
    return {name: i for i, name in enumerate(order)}


def menu(role: str, lang: str, view: MenuView) -> list[tuple[str, str]]:
    """(command, description) for a role's menu in a language, with only the commands that
    ``view`` has a use for; staff's in the order of their day (``DAY_ORDER``)."""
    order = _order(role, view)
    shown = sorted((c for c in COMMANDS if _shown(c, role, view)),
                   key=lambda c: order.get(c.name, len(order)))
    return [(c.name_in(lang), command_description(lang, c, view.escape)) for c in shown]
