"""The command list: names, who may use them, what a contest must have for each to be of use,
menu descriptions and aliases per language.

The Spanish names are the contract (``/pista``, ``/fin``...). French and English aliases work for
everyone and are what the French and English menus show. ``in_language`` writes the commands named
inside a text (usage lines, instructions) the way a reader of that language types them.
``features`` is what a contest (or some of its categories) has of what commands need.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

from bot.domain.contest import Contest
from bot.support.command_languages import DESCRIPTIONS
from bot.support.registry import REGISTRY, ROLES, Command, Feature

__all__ = ["ROLES", "Command"]

# what a contest may have that some commands are for (``Command.needs``)
ESCAPE = "escape"
ROUNDS = "rounds"
CHANGES = "changes"  # a category whose teams' members may change (keep_originals)
PENALTIES = "penalties"
SPLITS = "splits"
SELF_TIMED = "self_timed"
OWN_START = "own_start"


def _c(name: str, role: str, es: str, fr: str, en: str, fr_alias: str = "",
       en_alias: str = "", needs: str = "", cost: str = "") -> Command:
    aliases = {}
    if fr_alias:
        aliases["fr"] = fr_alias
    if en_alias:
        aliases["en"] = en_alias
    more = {lang: lines[name] for lang, lines in DESCRIPTIONS.items() if name in lines}
    return Command(name, role, {"es": es, "fr": fr, "en": en, **more}, aliases, needs, cost)


# the bot's own commands, then each feature's (``_add``, when the features are installed)
COMMANDS: list[Command] = [
    _c("start", "participant", "Empezar / vincular mi inscripción",
       "Commencer / lier mon inscription", "Start / link my entry"),
    _c("ayuda", "participant", "Qué puedo hacer", "Ce que je peux faire", "What I can do",
       "aide", "help"),
    _c("pista", "participant", "Pedir una pista", "Demander un indice", "Ask for a hint",
       "indice", "hint", ESCAPE, "hint"),
    _c("solucion", "participant", "Pedir la solución", "Demander la solution",
       "Ask for the solution", "solution", "solution", ESCAPE, "solution"),
    _c("billetes", "participant", "Billetes, etapa y penalizaciones",
       "Billets, étape et pénalités", "Tickets, stage and penalties", "billets", "tickets",
       ESCAPE),
    _c("listo", "participant", "¡Hemos terminado el puzzle!", "Nous avons fini le puzzle !",
       "We have finished the puzzle!", "fini", "done"),
    _c("empiezo", "participant", "[puzzle]: empiezo un puzzle (en casa)",
       "[puzzle] : je commence un puzzle (à la maison)", "[puzzle]: I start a puzzle (at home)",
       "commence", "begin", OWN_START),
    _c("idioma", "participant", "Cambiar de idioma", "Changer de langue", "Change language",
       "langue", "language"),
    _c("inscribir", "participant", "Inscribirse en el concurso", "S'inscrire au concours",
       "Register for the contest", "inscription", "register"),
    _c("mis_inscripciones", "participant", "Mis inscripciones y pagos",
       "Mes inscriptions et paiements", "My entries and payments", "mes_inscriptions",
       "my_entries"),
    _c("baja", "participant", "Darse de baja", "Se désister", "Withdraw an entry",
       "desistement", "withdraw"),
    _c("cancelar", "participant", "Cancelar la inscripción en curso",
       "Abandonner l'inscription en cours", "Cancel the registration in progress", "abandon",
       "cancel"),
    _c("etapa", "volunteer", "N S: la inscripción N está en la etapa S",
       "N S : l'inscription N est à l'étape S", "N S: entry N is in stage S", "etape", "stage",
       ESCAPE),
    _c("escape", "volunteer", "N [h:mm:ss]: N ha resuelto el escape",
       "N [h:mm:ss] : N a résolu l'escape", "N [h:mm:ss]: N solved the escape", "evasion",
       "escaped", ESCAPE),
    _c("fin", "volunteer", "N [h:mm:ss]: N ha terminado el puzzle",
       "N [h:mm:ss] : N a fini le puzzle", "N [h:mm:ss]: N finished the puzzle", "termine",
       "finish"),
    _c("piezas", "volunteer", "N P: piezas colocadas por N", "N P : pièces posées par N",
       "N P: pieces placed by N", "pieces", "pieces"),
    _c("penalizacion", "volunteer", "N TIPO [cuántas]: penalización para N",
       "N TYPE [combien] : pénalité pour N", "N KIND [how many]: penalty for N", "penalite",
       "penalty", PENALTIES),
    _c("estado", "volunteer", "N dns|dsq|oc [motivo]: no se presentó, descalificada, fuera de "
       "concurso", "N dns|dsq|oc [motif] : absente, disqualifiée, hors concours",
       "N dns|dsq|oc [reason]: did not start, disqualified, out of competition", "statut",
       "status"),
    _c("rechazar", "volunteer", "N [motivo]: no aceptar el final que N anotó en casa",
       "N [motif] : refuser la fin que N a annoncée à la maison",
       "N [reason]: turn down the finish N claimed at home", "rejeter", "reject", SELF_TIMED),
    _c("parcial", "volunteer", "N [h:mm:ss]: N ha terminado uno de sus puzzles",
       "N [h:mm:ss] : N a fini un de ses puzzles", "N [h:mm:ss]: N finished one of its puzzles",
       "intermediaire", "split", SPLITS),
    _c("acepto", "participant", "[N]: acepto la plaza a la que me invitan",
       "[N] : j'accepte la place à laquelle je suis invité", "[N]: take the place I am invited "
       "to", "accepte", "accept", ROUNDS),
    _c("renuncio", "participant", "[N]: renuncio a la plaza a la que me invitan",
       "[N] : je renonce à la place à laquelle je suis invité", "[N]: give up the place I am "
       "invited to", "renonce", "decline", ROUNDS),
    _c("sustituir", "organiser", "N M|+ NOMBRE NACIMIENTO: cambiar un miembro del equipo N",
       "N M|+ NOM NAISSANCE : changer un membre de l'équipe N", "N M|+ NAME BIRTH: change a "
       "member of team N", "remplacer", "substitute", CHANGES),
    _c("series", "participant", "Series de la ronda y mesas", "Séries de la manche et tables",
       "Heats of the round and tables", "series", "heats", ROUNDS),
    _c("deshacer", "volunteer", "Deshacer mi última anotación", "Annuler ma dernière saisie",
       "Take back my last entry", "annuler", "undo"),
    _c("historial", "volunteer", "N: historial de la inscripción N",
       "N : historique de l'inscription N", "N: history of entry N", "historique", "history"),
    _c("inicio", "organiser", "[categoría]: poner en marcha el reloj",
       "[catégorie] : démarrer le chrono", "[category]: start the clock", "depart", "go"),
    _c("pausa", "organiser", "Pausa general (para todos los relojes)",
       "Pause générale (tous les chronos)", "General break (all clocks)", "pause", "pause"),
    _c("reanudar", "organiser", "Fin de la pausa", "Fin de la pause", "End of the break",
       "reprise", "resume"),
    # organisers'; an entry's people read their own category's ranking where the contest lets
    # them (``participants_see_ranking``: bot/handlers/commands.py shows it in their menu)
    _c("clasificacion", "organiser", "[categoría] [foto]: clasificación",
       "[catégorie] [photo] : classement", "[category] [photo]: ranking", "classement",
       "ranking"),
    _c("confirmar_ronda", "organiser", "[categoría]: resultados de la ronda definitivos",
       "[catégorie] : résultats de la manche définitifs", "[category]: the round's results "
       "are final", "valider_manche", "confirm_round", ROUNDS),
    _c("publicar", "organiser", "[categoría]: resultados definitivos; cada inscripción "
       "recibe su puesto", "[catégorie] : résultats définitifs ; chaque inscription reçoit sa "
       "place", "[category]: results final; each entry is told its place", "publier",
       "publish"),
    _c("mesas", "organiser", "[categoría]: listas de mesas para imprimir (PDF)",
       "[catégorie] : listes des tables à imprimer (PDF)", "[category]: the table lists to "
       "print (PDF)", "tables", "tables"),
    _c("imprimir", "organiser", "La hoja de voluntarios y el plan del día (PDF)",
       "La fiche des bénévoles et le programme de la journée (PDF)",
       "The volunteers' sheet and the day plan (PDF)", "imprimer", "print"),
    _c("pagado", "organiser", "N [fecha]: la inscripción N ha pagado",
       "N [date] : l'inscription N a payé", "N [date]: entry N has paid", "paye", "paid"),
    _c("inscritos", "organiser", "[categoría]: plazas, reservas y lista de espera",
       "[catégorie] : places, réserves et liste d'attente", "[category]: places and waiting list",
       "inscrits", "entries"),
    _c("exportar", "organiser", "Inscripciones y resultados en CSV",
       "Inscriptions et résultats en CSV", "Entries and results as CSV", "exporter", "export"),
    _c("anuncio", "organiser", "TEXTO: aviso a todos los participantes",
       "TEXTE : annonce à tous les participants", "TEXT: announcement to every participant",
       "annonce", "announce"),
    _c("copia", "organiser", "Copia de seguridad de la base de datos",
       "Copie de sauvegarde de la base", "Backup of the database", "sauvegarde", "backup"),
    _c("voluntario", "organiser", "Enlace de invitación para un voluntario",
       "Lien d'invitation pour un bénévole", "Invitation link for a volunteer", "benevole",
       "volunteer"),
    _c("organizador", "organiser", "Enlace de invitación para otro organizador",
       "Lien d'invitation pour un autre organisateur", "Invitation link for another organiser",
       "organisateur", "organiser"),
]

BY_NAME = {c.name: c for c in COMMANDS}


def features(contest: Contest, categories: Iterable[str] | None = None) -> frozenset[str]:
    """What commands need (``Command.needs``) that the contest has, in the categories of
    ``categories`` (None: in any of its categories): an escape stage, rounds, penalty kinds,
    puzzles with split times."""
    wanted = None if categories is None else set(categories)
    cats = [c for c in contest.categories if wanted is None or c.id in wanted]
    has = {
        ESCAPE: contest.escape is not None and any(c.escape for c in cats),
        ROUNDS: any(c.rounds for c in cats),
        PENALTIES: bool(contest.penalties),
        SPLITS: any(c.puzzles or any(r.puzzles for r in c.rounds) for c in cats),
        SELF_TIMED: any(c.self_timed for c in cats),
        OWN_START: any(c.own_start for c in cats),
        CHANGES: any(c.keep_originals is not None for c in cats),
    }
    return frozenset(f for f, yes in has.items() if yes)


_NAMED = re.compile(r"(?<![\w/.:@-])/([a-z_]+)")


def in_language(lang: str, text: str) -> str:
    """``text`` with every command it names (``/pista``) as typed in ``lang`` (``/indice``);
    anything that is not one of our commands (an address, a path) is left as it is."""
    if lang == "es" or "/" not in text:
        return text

    def swap(match: re.Match[str]) -> str:
        command = BY_NAME.get(match.group(1))
        return "/" + command.name_in(lang) if command else match.group(0)

    return _NAMED.sub(swap, text)


# every name a command answers to (Spanish, French and English), to its command
_ANY_NAME = {n: c for c in COMMANDS for n in (c.name, *c.aliases.values())}


def _add(feature: Feature) -> None:
    """A feature's commands join the table (``REGISTRY.install``); a name taken is a bug."""
    for c in feature.commands:
        taken = [n for n in (c.name, *c.aliases.values()) if n in _ANY_NAME]
        if taken:
            raise ValueError(f"feature {feature.name!r}: /{taken[0]} is taken")
        COMMANDS.append(c)
        BY_NAME[c.name] = c
        _ANY_NAME.update({n: c for n in (c.name, *c.aliases.values())})


REGISTRY.on_install(_add)
_GLUED = re.compile(r"/([^\W\d_]+(?:_[^\W\d_]+)*)(\d+)\Z")


def meant(typed: str) -> tuple[Command, str] | None:
    """The command a mistyped one most likely meant, with what followed it: ``/fin12`` is
    ``/fin 12`` (the number glued on), ``/clasificasion`` is ``/clasificacion`` (one letter
    off); None when nothing is close."""
    word = typed.split("@", 1)[0].lower()
    glued = _GLUED.match(word)
    if glued is not None and glued.group(1) in _ANY_NAME:
        return _ANY_NAME[glued.group(1)], glued.group(2)
    close = difflib.get_close_matches(word.lstrip("/"), list(_ANY_NAME), n=1, cutoff=0.8)
    return (_ANY_NAME[close[0]], "") if close else None
