from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import bot.features.installed  # noqa: F401  (the features installed: bot/support/registry.py)
from bot.domain.contest import Contest
from bot.services.contest_file import load_contest

ROOT = Path(__file__).resolve().parent.parent
CASTRILLO = ROOT / "contests" / "castrillo-2023.toml"
BILLOM = ROOT / "contests" / "billom-2012.toml"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests that run the real bot process (seconds each, mostly waiting on it) go first:
    under pytest-xdist (make test), one of them picked up last would keep its worker busy
    alone at the end. The rest keep their order."""

    def runs_the_bot(item: pytest.Item) -> bool:
        module = getattr(item, "module", None)
        return any(hasattr(module, name) for name in ("BotProcess", "Rehearsal"))

    items.sort(key=lambda item: not runs_the_bot(item))


@pytest.fixture(scope="session")
def castrillo() -> Contest:
    return load_contest(CASTRILLO)


@pytest.fixture(scope="session")
def billom() -> Contest:
    return load_contest(BILLOM)


@pytest.fixture
async def api() -> AsyncIterator[Any]:
    """Our fake Bot API server on loopback, for the tests that run the real bot over HTTP.
    Imported here, not above: the mutation run (make mutate) copies only the rules and the
    contest files, and loads this file."""
    from bot.rehearsal.fakeapi import FakeBotAPI

    server = FakeBotAPI()
    await server.start()
    yield server
    await server.stop()
