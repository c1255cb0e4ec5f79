"""The commands' menu lines in the languages that have no command names of their own.

Spanish names the commands (the contract); French and English have their own aliases. Any other
language types the English aliases (``ALIASES_OF``) and reads its menu lines here, one per
command: tests/day/test_i18n.py holds that none is missing."""

from __future__ import annotations

ALIASES_OF = {"de": "en"}  # a language -> the language whose command aliases it types

DESCRIPTIONS: dict[str, dict[str, str]] = {
    "de": {
        "start": "Starten / meine Anmeldung verknüpfen",
        "ayuda": "Was ich tun kann",
        "pista": "Um einen Hinweis bitten",
        "solucion": "Um die Lösung bitten",
        "billetes": "Tickets, Etappe und Strafen",
        "listo": "Das Puzzle ist fertig!",
        "empiezo": "[Puzzle]: ein Puzzle beginnen (zu Hause)",
        "idioma": "Sprache ändern",
        "inscribir": "Zum Wettbewerb anmelden",
        "mis_inscripciones": "Meine Anmeldungen und Zahlungen",
        "baja": "Eine Anmeldung zurückziehen",
        "cancelar": "Die laufende Anmeldung abbrechen",
        "etapa": "N S: Anmeldung N ist in Etappe S",
        "escape": "N [h:mm:ss]: N hat das Escape gelöst",
        "fin": "N [h:mm:ss]: N hat das Puzzle fertig",
        "piezas": "N P: von N gelegte Teile",
        "penalizacion": "N ART [Anzahl]: Strafe für N",
        "estado": "N dns|dsq|oc [Grund]: nicht angetreten, disqualifiziert, außer Konkurrenz",
        "rechazar": "N [Grund]: die zu Hause gemeldete Endzeit von N ablehnen",
        "parcial": "N [h:mm:ss]: Zwischenzeit, N hat ein Puzzle fertig",
        "acepto": "[N]: den Platz annehmen, zu dem ich eingeladen bin",
        "renuncio": "[N]: auf den Platz verzichten, zu dem ich eingeladen bin",
        "series": "Läufe der Runde und Tische",
        "sustituir": "N M|+ NAME GEBURT: ein Mitglied von Team N ändern",
        "deshacer": "Meinen letzten Eintrag zurücknehmen",
        "historial": "N: Verlauf der Anmeldung N",
        "inicio": "[Kategorie]: die Uhr starten",
        "pausa": "Allgemeine Pause (alle Uhren)",
        "reanudar": "Pause beenden",
        "clasificacion": "[Kategorie] [Foto]: Rangliste",
        "confirmar_ronda": "[Kategorie]: die Ergebnisse der Runde sind endgültig",
        "publicar": "[Kategorie]: Ergebnisse endgültig; jede Anmeldung erfährt ihren Platz",
        "mesas": "[Kategorie]: die Tischlisten zum Drucken (PDF)",
        "imprimir": "Infoblatt für Helfer und Tagesablauf (PDF)",
        "pagado": "N [Datum]: Anmeldung N hat bezahlt",
        "inscritos": "[Kategorie]: Plätze und Warteliste",
        "exportar": "Anmeldungen und Ergebnisse als CSV",
        "anuncio": "TEXT: Ankündigung an alle Teilnehmer",
        "copia": "Backup der Datenbank",
        "voluntario": "Einladungslink für eine Helferin oder einen Helfer",
        "organizador": "Einladungslink für eine weitere Person im Orga-Team",
    },
}
