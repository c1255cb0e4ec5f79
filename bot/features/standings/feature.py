"""``FEATURE``: what the final results add to the bot (bot/support/registry.py): the ranking
(``/clasificacion``) and making results final (``/publicar``), with their buttons."""

from __future__ import annotations

from bot.features.standings.handlers import PUBLISH_BUTTON, publicar, publish_pressed
from bot.features.standings.names import PUBLISH, RANKING
from bot.features.standings.rankings import RANKING_BUTTON, clasificacion, ranking_button
from bot.support.registry import N_, Command, Feature

FEATURE = Feature(
    name="standings",
    commands=(
        # organisers'; an entry's people read their own category's ranking where the contest
        # lets them (``participants_see_ranking``: bot/handlers/commands.py shows it in their
        # menu)
        Command(RANKING, "organiser", N_("[category] [photo]: ranking"),
                {"fr": "classement", "en": "ranking"}, after="reanudar"),
        Command(PUBLISH, "organiser", N_("[category]: results final; each entry is told its place"),
                {"fr": "publier", "en": "publish"}, after="confirmar_ronda"),
    ),
    handlers={RANKING: clasificacion, PUBLISH: publicar},
    buttons={PUBLISH_BUTTON: publish_pressed, RANKING_BUTTON: ranking_button},
    menu_after="inicio",
)
