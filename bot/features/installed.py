"""The list of feature packages, installed into the registry (bot/support/registry.py) when
this is imported: the app, the menus, the history and the contest file are built from it.

A new feature is a package beside these and one line here (docs/architecture.md). The list is
here rather than in ``bot/features/__init__.py``: importing a feature's ``rules.py`` (as the day's
state reads the escape's ledger) runs that file, and must not import every feature's handlers."""

from __future__ import annotations

from bot.features.answers.feature import FEATURE as ANSWERS
from bot.features.backup.feature import FEATURE as BACKUP
from bot.features.corrections.feature import FEATURE as CORRECTIONS
from bot.features.door.feature import FEATURE as DOOR
from bot.features.escape.feature import FEATURE as ESCAPE
from bot.features.following.feature import FEATURE as FOLLOWING
from bot.features.invitations.feature import FEATURE as INVITATIONS
from bot.features.members.feature import FEATURE as MEMBERS
from bot.features.partners.feature import FEATURE as PARTNERS
from bot.features.payments.feature import FEATURE as PAYMENTS
from bot.features.penalties.feature import FEATURE as PENALTIES
from bot.features.privacy.feature import FEATURE as PRIVACY
from bot.features.refunds.feature import FEATURE as REFUNDS
from bot.features.registration.feature import FEATURE as REGISTRATION
from bot.features.results.feature import FEATURE as RESULTS
from bot.features.selftimed.feature import FEATURE as SELFTIMED
from bot.features.standings.feature import FEATURE as STANDINGS
from bot.features.tables.feature import FEATURE as TABLES
from bot.features.upkeep.feature import FEATURE as UPKEEP
from bot.features.waiting_list.feature import FEATURE as WAITING_LIST
from bot.features.warnings.feature import FEATURE as WARNINGS
from bot.support.registry import REGISTRY, Feature

# a feature's staff commands go after the command its ``menu_after`` names, the later in this
# list the nearer to it (penalties, then warnings, after the results' outcome command)
FEATURES: tuple[Feature, ...] = (
    REGISTRATION,
    PAYMENTS,
    WAITING_LIST,
    STANDINGS,
    RESULTS,
    ESCAPE,
    WARNINGS,
    TABLES,
    BACKUP,
    UPKEEP,
    MEMBERS,
    PENALTIES,
    INVITATIONS,
    SELFTIMED,
    FOLLOWING,
    DOOR,
    PRIVACY,
    CORRECTIONS,
    REFUNDS,
    PARTNERS,
    ANSWERS,
)

REGISTRY.install(FEATURES)
