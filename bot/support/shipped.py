"""Where the files shipped beside the code are: the example contests (``contests/``) and the
database's migrations (``migrations/``).

In a checkout they are those folders at its top. A wheel (``pip install .``, ``pipx install
.``) carries them inside the package, as ``bot/contests`` and ``bot/migrations`` (setup.py maps
the checkout's folders there, pyproject.toml's package-data names their files): package data is
found beside the code whatever the install scheme (a venv, pipx's, ``--user``, ``--target``, any
system), which a ``share/`` folder beside the environment is not.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]  # bot/
CHECKOUT = PACKAGE.parent


def folder(name: str) -> Path:
    """The shipped folder ``name`` (``contests``, ``migrations``): the installed package's, else
    the checkout's (a missing folder lists as empty)."""
    installed = PACKAGE / name
    return installed if installed.is_dir() else CHECKOUT / name
