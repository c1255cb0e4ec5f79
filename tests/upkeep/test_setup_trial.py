"""Issue 49: ``setup`` tried without Telegram. ``setup --try`` walks through the same questions
and checks against a pretend Telegram (our fake Bot API on loopback): the contest file read,
the token accepted, the organiser link made, the settings file shown with the token hidden;
then everything is thrown away, and nothing is written where the real setup would write."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from tests.conftest import CASTRILLO, ROOT


async def setup_try(cwd: Path, *args: str) -> tuple[int, str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "PUZZLEBOT_"))}
    env["PYTHONPATH"] = str(ROOT)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "setup", "--try", *args, cwd=cwd, env=env,
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE)
    out, err = await proc.communicate()
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


async def test_a_trial_setup_without_a_token_keeps_nothing(tmp_path: Path) -> None:
    code, out, err = await setup_try(tmp_path, "--contest", str(CASTRILLO))
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("contest: II Concurso") and "(file checked)" in lines[0]
    assert lines[1] == "bot: @puzzle_rehearsal_bot (Telegram accepted the token)"
    assert any(line.startswith("  https://t.me/puzzle_rehearsal_bot?start=") for line in lines)
    assert '  TELEGRAM_BOT_TOKEN = "[your token]"' in lines
    assert "REHEARSAL-token" not in out
    assert lines[-1].startswith("This was a trial against a pretend Telegram")
    assert list(tmp_path.iterdir()) == []  # no database, no settings file where we are


async def test_a_trial_setup_still_checks_the_contest_file(tmp_path: Path) -> None:
    broken = tmp_path / "mine.toml"
    broken.write_text("[contest]\nname = 'Club day'\n")
    code, out, err = await setup_try(tmp_path, "--contest", str(broken))
    assert code == 2 and err.startswith("error: ") and "mine.toml" in err
    assert "This was a trial" not in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.toml"]
