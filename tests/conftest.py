from __future__ import annotations

from pathlib import Path

import pytest

from bot.domain.contest import Contest
from bot.services.contest_file import load_contest

ROOT = Path(__file__).resolve().parent.parent
CASTRILLO = ROOT / "contests" / "castrillo-2023.toml"
BILLOM = ROOT / "contests" / "billom-2012.toml"


@pytest.fixture(scope="session")
def castrillo() -> Contest:
    return load_contest(CASTRILLO)


@pytest.fixture(scope="session")
def billom() -> Contest:
    return load_contest(BILLOM)
