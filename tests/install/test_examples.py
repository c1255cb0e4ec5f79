"""The shipped example contests (bot/support/examples.py): found by name from any folder
(``demo``'s default, ``--contest NAME.toml``, ``check-contest NAME.toml``), listed with their
first comment line, and copied to start from (``examples NAME DEST``)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from bot.support import examples, shipped
from tests.clirun import bot_main
from tests.conftest import ROOT

CONTESTS = sorted(p.name for p in (ROOT / "contests").glob("*.toml"))


def env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "PUZZLEBOT_"))}


def test_every_example_is_listed_with_its_first_comment_line(tmp_path):
    ran = bot_main(["examples"], env(), cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    for name in CONTESTS:
        assert f"{name}\n    " in ran.stdout
    assert "II Concurso + Que Puzzles de Castrillo de la Vega, 22 April 2023." in ran.stdout
    # the marathon's first line is an editor's directive, not its description
    assert "An invented 12-hour charity puzzle marathon" in ran.stdout
    assert "#:schema" not in ran.stdout and "schema ./" not in ran.stdout
    assert "examples NAME.toml DEST.toml" in ran.stdout


def test_an_example_found_by_name_from_another_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for given in ("contests/castrillo-2023.toml", "castrillo-2023.toml", "castrillo-2023"):
        assert Path(examples.contest_path(given)) == ROOT / "contests" / "castrillo-2023.toml"
    # a path that says where it is, or names no example, is left for the reader to refuse
    for given in ("elsewhere/castrillo-2023.toml", "nothing-such.toml"):
        assert examples.contest_path(given) == given
    (tmp_path / "contests").mkdir()
    (tmp_path / "contests" / "castrillo-2023.toml").write_text("# mine\n")
    assert examples.contest_path("contests/castrillo-2023.toml") == "contests/castrillo-2023.toml"


def test_the_installed_package_has_them_first(tmp_path, monkeypatch):
    """Installed, the examples are the package's bot/contests (setup.py ships them there)."""
    package = tmp_path / "site-packages" / "bot"
    shutil.copytree(ROOT / "contests", package / "contests")
    (package / "contests" / "castrillo-2023.toml").write_text("# the installed one\n")
    monkeypatch.setattr(shipped, "PACKAGE", package)
    assert examples.examples_folder() == package / "contests"
    assert examples.listing()[1] == ("castrillo-2023.toml", "the installed one")
    monkeypatch.setattr(shipped, "PACKAGE", tmp_path / "nowhere")
    assert examples.examples_folder() == ROOT / "contests"


def test_check_contest_and_demo_find_an_example_from_another_folder(tmp_path):
    ran = bot_main(["check-contest", "billom-2012.toml"], env(), cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    assert "Billom" in ran.stdout
    # the demo's default, contests/castrillo-2023.toml: read (the next check refuses)
    ran = bot_main(["demo", "--entries", "0"], env(), cwd=tmp_path)
    assert ran.returncode == 2
    assert ran.stderr == "error: --entries must be between 1 and 500\n"
    ran = bot_main(["demo", "--contest", "nothing-such.toml"], env(), cwd=tmp_path)
    assert ran.returncode == 2 and "nothing-such.toml" in ran.stderr


def test_an_example_copied_to_start_from(tmp_path):
    ran = bot_main(["examples", "castrillo-2023.toml", "mine.toml"], env(), cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    assert (tmp_path / "mine.toml").read_bytes() == \
        (ROOT / "contests" / "castrillo-2023.toml").read_bytes()
    assert "check-contest mine.toml" in ran.stdout and "demo --contest mine.toml" in ran.stdout
    assert not (tmp_path / "contest.schema.json").exists()  # castrillo names none
    again = bot_main(["examples", "castrillo-2023.toml", "mine.toml"], env(), cwd=tmp_path)
    assert again.returncode == 2
    assert again.stderr == "error: mine.toml: already exists; choose a new file name\n"
    assert (tmp_path / "mine.toml").read_bytes() == \
        (ROOT / "contests" / "castrillo-2023.toml").read_bytes()


def test_a_copy_into_a_folder_brings_the_schema_its_first_line_names(tmp_path):
    ran = bot_main(["examples", "marathon-2027"], env(), cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    assert (tmp_path / "marathon-2027.toml").is_file()
    assert (tmp_path / "contest.schema.json").read_bytes() == \
        (ROOT / "contests" / "contest.schema.json").read_bytes()
    checked = bot_main(["check-contest", "marathon-2027.toml"], env(), cwd=tmp_path)
    assert checked.returncode == 0, checked.stderr


def test_an_unknown_example_is_named_with_the_known_ones(tmp_path):
    ran = bot_main(["examples", "nothing-such.toml", "x.toml"], env(), cwd=tmp_path)
    assert ran.returncode == 2
    assert ran.stderr.startswith("error: no example called 'nothing-such.toml' (examples: ")
    assert "castrillo-2023.toml" in ran.stderr
    assert not (tmp_path / "x.toml").exists()


def test_setup_names_the_example_it_could_have_meant(tmp_path):
    ran = bot_main(["setup", "--contest", "castrillo-2023.toml", "--db",
                    str(tmp_path / "c.sqlite3")], env(), cwd=tmp_path)
    assert ran.returncode == 2
    assert "castrillo-2023.toml is one of the shipped examples: copy it to edit it " \
        "(examples castrillo-2023.toml DEST), then give the copy" in ran.stderr
