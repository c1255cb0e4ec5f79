"""The manual holds together (issue 49): a short README that starts with the two commands, every
relative link in README.md and docs/ leads somewhere (a file, and a heading there for an
``#anchor``, as GitHub makes them), every chat command is in the volunteers' page or the
organiser's guide, and every setting the code reads is in docs/hosting.md."""

from __future__ import annotations

import re
from pathlib import Path

import bot.features.installed  # noqa: F401 - installs the features: their commands join COMMANDS
from bot.support.commands import COMMANDS
from bot.support.config import FILE_KEYS

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
README_LIMIT = 12_288  # bytes (issue 49: "README under 12 KB")

_FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.M | re.S)
_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)
# [text](target) and ![alt](target); the text may hold one level of brackets and line breaks
_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$", re.M)


def pages() -> list[Path]:
    return [README, *sorted(DOCS.rglob("*.md"))]


def _prose(text: str) -> str:
    """The text without code blocks and code spans (a ``[12, 34](x)`` in code is no link)."""
    return _CODE.sub("", _FENCE.sub("", text))


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: its text (a link's words, no markup), lowercased, every
    character but letters, digits, ``_``, ``-`` and spaces dropped, spaces made ``-``."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading's anchor in a Markdown file; a heading met again gets ``-1``, ``-2``..."""
    seen: dict[str, int] = {}
    found = set()
    for _, title in _HEADING.findall(_FENCE.sub("", path.read_text(encoding="utf-8"))):
        base = slug(title)
        n = seen.get(base, 0)
        seen[base] = n + 1
        found.add(base if n == 0 else f"{base}-{n}")
    return found


def links(path: Path) -> list[str]:
    return _LINK.findall(_prose(path.read_text(encoding="utf-8")))


def test_slugs_are_githubs() -> None:
    assert slug("Rounds, several days, tie-breaks and split times") == \
        "rounds-several-days-tie-breaks-and-split-times"
    assert slug("`[[categories.extra_prizes]]`") == "categoriesextra_prizes"
    assert slug("12. The outbox: what the bot owes people") == \
        "12-the-outbox-what-the-bot-owes-people"
    assert slug("Why /fin asks first") == "why-fin-asks-first"


def test_the_readme_is_short_and_starts_with_the_two_commands() -> None:
    size = len(README.read_bytes())
    assert size < README_LIMIT, f"README.md is {size} bytes: keep it under {README_LIMIT}"
    first = README.read_text(encoding="utf-8").splitlines()[:15]
    demo = [i for i, line in enumerate(first) if line.startswith("make demo")]
    test = [i for i, line in enumerate(first) if line.startswith("make test")]
    assert demo and test and demo[0] < test[0], \
        "README.md's first lines give `make demo`, then `make test`"


def test_every_relative_link_leads_somewhere() -> None:
    broken = []
    for page in pages():
        for target in links(page):
            if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
                continue
            name, _, anchor = target.partition("#")
            dest = (page.parent / name).resolve() if name else page
            where = f"{page.relative_to(ROOT)}: {target}"
            if not dest.is_file():
                broken.append(f"{where}: no such file")
            elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                broken.append(f"{where}: no heading #{anchor} in {dest.relative_to(ROOT)}")
    assert broken == []


def test_the_readme_links_every_docs_page() -> None:
    linked = {(ROOT / t.partition("#")[0]).resolve() for t in links(README)
              if not re.match(r"[a-z][a-z0-9+.-]*:", t)}
    missing = [str(p.relative_to(ROOT)) for p in sorted(DOCS.rglob("*.md"))
               if p.resolve() not in linked]
    assert missing == [], f"docs pages README.md does not link: {missing}"


def test_every_command_is_in_the_volunteers_page_or_the_guide() -> None:
    text = "\n".join(p.read_text(encoding="utf-8") for p in
                     [DOCS / "volunteers.md", *sorted((DOCS / "guide").glob("*.md"))])
    missing = [f"/{c.name}" for c in COMMANDS
               if not re.search(rf"(?<![\w/.]){re.escape('/' + c.name)}(?!\w)", text)]
    assert missing == [], f"commands in neither docs/volunteers.md nor docs/guide/: {missing}"


def test_every_setting_is_in_the_hosting_page() -> None:
    read = set()
    for path in (ROOT / "bot").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        read.update(re.findall(r"\bPUZZLEBOT_[A-Z][A-Z_]*[A-Z]\b", text))
    read.update(FILE_KEYS)  # the settings file's keys: TELEGRAM_BOT_TOKEN, TELEGRAM_BASE_URL too
    hosting = (DOCS / "hosting.md").read_text(encoding="utf-8")
    missing = sorted(s for s in read if f"`{s}`" not in hosting)
    assert missing == [], f"settings the code reads that docs/hosting.md does not give: {missing}"


def test_each_setting_has_one_row() -> None:
    """Documented once: a setting's row (``| `PUZZLEBOT_DB` | ...``) is in docs/hosting.md only."""
    rows = []
    for page in pages():
        text = page.read_text(encoding="utf-8")
        rows += [f"{page.relative_to(ROOT)}: {m}" for m in
                 re.findall(r"^\|\s*`((?:PUZZLEBOT|TELEGRAM)_[A-Z_]+)`", text, re.M)]
    names = [r.rsplit(": ", 1)[1] for r in rows]
    assert all(r.startswith("docs/hosting.md:") for r in rows), rows
    assert len(names) == len(set(names)), f"a setting with two rows: {rows}"
