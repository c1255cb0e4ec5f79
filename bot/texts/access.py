"""What the access outcomes read as: why a link someone opened did nothing, what /start,
/ayuda, /idioma and the invitations answer, which entry a participant's command is about,
and the answer to what the bot does not understand."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import assert_never

from bot.domain.contest import Contest
from bot.features.registration.names import REGISTER
from bot.services.access import (
    AccessRefusal,
    BadCode,
    InviteUsed,
    LinksEnded,
    OrganiserInviteUsed,
)
from bot.storage.store import Entry
from bot.support.commands import BY_NAME, meant, typed
from bot.support.i18n import LANGUAGES, tr
from bot.support.registry import REGISTRY
from bot.texts.names import names

# the language buttons of /idioma, each in its own language
LANGUAGE_NAMES = {"es": "Español", "fr": "Français", "en": "English", "de": "Deutsch",
                  "it": "Italiano", "pt": "Português", "nl": "Nederlands"}


def access_refusal(lang: str, refused: AccessRefusal) -> str:
    """One line saying why an entry's link or an invitation was refused."""
    match refused:
        case BadCode():
            return tr(lang, "That link is not valid. Ask the organisers for your entry's "
                      "link.")
        case InviteUsed():
            return tr(lang, "That volunteer invitation was already used. Ask an organiser "
                      "for a new one.")
        case LinksEnded():
            return tr(lang, "That entry's phones were removed with its personal data, as the "
                      "contest's rules say: it can't be followed any more. Its results stay "
                      "published.")
        case OrganiserInviteUsed():
            return tr(lang, "That organiser invitation was already used. Ask an organiser "
                      "for a new one.")
        case _:
            assert_never(refused)


def help_text(lang: str, contest: Contest, entries: Sequence[Entry],
              commands: Iterable[tuple[str, str]]) -> str:
    """/ayuda: the contest, the entries followed and ``commands`` (the reader's menu: name,
    description)."""
    lines = [tr(lang, "Puzzle contest: {name}", name=contest.name)]
    if entries:
        lines.append(tr(lang, "Your entries: {entries}",
                        entries=", ".join(f"#{e.number} {names(e.names)}" for e in entries)))
    for name, description in commands:
        lines.append(f"/{name} - {description}")
    if len(entries) > 1:
        lines.append(tr(lang, "You follow several entries: put the entry number first, e.g. "
                        "/listo {n}.", n=entries[0].number))
    return "\n".join(lines)


def hello(lang: str, known: bool, help_: str, registering: bool = False) -> str:
    """/start without a link (``known``: someone who follows an entry or helps), then the
    help; ``registering``: registration is open (the Register button is under it)."""
    text = tr(lang, "Hello! I run the puzzle contest on the day.")
    if registering:
        text += "\n" + tr(lang, "To register, tap \"Register\" below (or send {register}).",
                          register=typed(lang, REGISTER))
    if not known:
        text += "\n" + tr(lang, "To follow your entry, open the link the organisers gave "
                          "you (or scan the QR code on your table).")
    return text + "\n\n" + help_


def register_button(lang: str) -> str:
    return tr(lang, "Register")


def already_volunteer(lang: str) -> str:
    return tr(lang, "You are already a volunteer.")


def welcome_volunteer(lang: str, help_: str) -> str:
    return tr(lang, "Welcome, volunteer! You can now record stages, escapes, finishes and "
              "pieces.") + "\n\n" + help_


def already_organiser(lang: str) -> str:
    return tr(lang, "You are already an organiser.")


def welcome_organiser(lang: str, help_: str) -> str:
    return tr(lang, "Welcome, organiser! You can now start the clocks, see the rankings and "
              "invite volunteers (/voluntario).") + "\n\n" + help_


def linked(lang: str, contest: Contest, entry: Entry, already: bool) -> str:
    """An entry's link opened: which entry the phone follows, and what to do with it."""
    category = contest.category(entry.category)
    text = tr(lang, "You follow entry #{entry} ({names}), category {category}.",
              entry=entry.number, names=names(entry.names),
              category=category.name if category else entry.category)
    if already:
        text = tr(lang, "You already follow entry #{entry}.", entry=entry.number)
    # a feature's line (the escape's commands) where it has one for the category
    lines = [line for f in REGISTRY.features if f.follow_line is not None and category
             is not None and (line := f.follow_line(lang, contest, category)) is not None]
    if lines:
        text += "\n" + "\n".join(lines)
    elif category is not None:
        text += "\n" + tr(lang, "When you finish the puzzle, send /listo.")
    return text


def languages_usage(lang: str) -> str:
    return tr(lang, "Languages: {languages}. Example: /idioma fr", languages=", ".join(LANGUAGES))


def choose_language(lang: str) -> str:
    return tr(lang, "Choose your language:")


def language_set(choice: str) -> str:
    """Said in the language just chosen."""
    return tr(choice, "I will write to you in English.")


def not_followed(lang: str, typed: str, followed: Iterable[Entry]) -> str:
    """A participant's command naming an entry they don't follow."""
    return tr(lang, "You don't follow entry {entry}. Your entries: {list}.", entry=typed[:12],
              list=", ".join(f"#{e.number}" for e in followed))


def entry_without_escape(lang: str, number: int) -> str:
    return tr(lang, "Entry {entry} has no escape stage.", entry=number)


def no_escape_entry(lang: str) -> str:
    return tr(lang, "Your entry has no escape stage.")


def which_entry(lang: str, candidates: Sequence[Entry], command: str) -> str:
    """A participant following several entries, asked which one ``command`` is about."""
    return tr(lang, "You follow entries {list}: put the number first, e.g. /{command} {n}.",
              list=", ".join(f"#{e.number}" for e in candidates), command=command,
              n=candidates[0].number)


def _invite_link(bot_name: str, code: str) -> str:
    return f"https://t.me/{bot_name}?start={code}"


def volunteer_invite(lang: str, bot_name: str, code: str) -> str:
    return tr(lang, "Invitation for one volunteer (works once): {link}",
              link=_invite_link(bot_name, code))


def volunteers_lines_note(lang: str, group: bool) -> str:
    """Said with an organiser's first volunteer invitation: where the volunteers' lines (hints
    to hand over, finishes to check, each with "I'm going") go."""
    if group:
        return tr(lang, "The volunteers' lines (hints to hand over, finishes to check) go to "
                  "the volunteers' group: organisers read them there, not privately.")
    return tr(lang, "The volunteers' lines (hints to hand over, finishes to check) go privately "
              "to every volunteer and organiser. With more than a few volunteers, a group "
              "keeps phones quieter: add the bot to a group, then set "
              "PUZZLEBOT_VOLUNTEER_CHAT to the group's chat id and restart the bot.")


def organiser_invite(lang: str, bot_name: str, code: str) -> str:
    return tr(lang, "Invitation for one more organiser (works once; whoever opens it can do "
              "everything you can): {link}", link=_invite_link(bot_name, code))


def not_understood(lang: str, command: bool, typed: str = "") -> str:
    """Free text (``command`` False) or a command the bot does not know, in a private chat
    (``typed``: its first word, for a "did you mean")."""
    help_name = BY_NAME["ayuda"].name_in(lang)
    if command:
        guess = meant(typed)
        if guess is not None:
            cmd, number = guess
            return tr(lang, "I don't know that command. Did you mean {command}? /{help} lists "
                      "what you can do.", help=help_name,
                      command=" ".join(["/" + cmd.name_in(lang), *([number] if number else [])]))
        return tr(lang, "I don't know that command. /{help} lists what you can do.",
                  help=help_name)
    return tr(lang, "I only understand commands. /{help} lists what you can do.",
              help=help_name)
