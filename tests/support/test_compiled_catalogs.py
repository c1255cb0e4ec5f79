"""The catalogs compiled once (issue 50: Babel read the seven ``.po`` files at every start, a
third of a restart's 2 s on a big day): kept beside the ``.po`` under the hash of the text they
come from, so a changed catalog is compiled again, and compiled in memory where the folder
cannot be written."""

from __future__ import annotations

import gettext
import io
import os
import shutil

import pytest

from bot.support import i18n
from bot.support.i18n import LOCALES, _compiled

PO = LOCALES / "fr" / "LC_MESSAGES" / "bot.po"
MSG = "This command is for organisers."


def read(data: bytes) -> gettext.GNUTranslations:
    return gettext.GNUTranslations(io.BytesIO(data))


def test_a_catalog_is_compiled_once_and_again_when_it_changes(tmp_path) -> None:
    po = tmp_path / "bot.po"
    shutil.copy(PO, po)
    source = po.read_bytes()
    first = _compiled(po, source, "fr")
    kept = list(tmp_path.glob("bot.*.mo"))
    assert len(kept) == 1 and kept[0].read_bytes() == first
    assert read(first).gettext(MSG) == "Cette commande est réservée aux organisateurs."
    kept[0].write_bytes(b"read back")  # read back, not compiled again
    assert _compiled(po, source, "fr") == b"read back"
    # the translator changes a line: the old compiled catalog is not used (nor kept)
    changed = source.replace("Cette commande est réservée aux organisateurs.".encode(),
                             "Commande réservée aux organisateurs.".encode())
    assert changed != source
    po.write_bytes(changed)
    again = _compiled(po, changed, "fr")
    assert read(again).gettext(MSG) == "Commande réservée aux organisateurs."
    assert [p.read_bytes() for p in tmp_path.glob("bot.*.mo")] == [again]


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0,
                    reason="a folder's write bit does not stop root")
def test_a_folder_that_cannot_be_written_compiles_in_memory(tmp_path) -> None:
    po = tmp_path / "bot.po"
    shutil.copy(PO, po)
    tmp_path.chmod(0o555)
    try:
        data = _compiled(po, po.read_bytes(), "fr")
    finally:
        tmp_path.chmod(0o755)
    assert read(data).gettext(MSG) == "Cette commande est réservée aux organisateurs."
    assert list(tmp_path.glob("bot.*")) == [po]


def test_writes_that_fail_leave_the_catalog_compiled_in_memory(tmp_path, monkeypatch) -> None:
    """Root ignores the write bit: an unwritable folder is simulated by writes that fail."""
    po = tmp_path / "bot.po"
    shutil.copy(PO, po)
    real = type(po).write_bytes

    def refuse(self, data):  # noqa: ANN001, ANN202 - pathlib's own signature
        if self.suffix == ".part":
            raise PermissionError(13, "read-only file system")
        return real(self, data)

    monkeypatch.setattr(type(po), "write_bytes", refuse)
    data = _compiled(po, po.read_bytes(), "fr")
    assert read(data).gettext(MSG) == "Cette commande est réservée aux organisateurs."
    assert list(tmp_path.glob("bot.*")) == [po]


def test_a_damaged_compiled_catalog_is_compiled_again(tmp_path, monkeypatch) -> None:
    lang_dir = tmp_path / "fr" / "LC_MESSAGES"
    lang_dir.mkdir(parents=True)
    po = lang_dir / "bot.po"
    shutil.copy(PO, po)
    _compiled(po, po.read_bytes(), "fr")
    (kept,) = lang_dir.glob("bot.*.mo")
    kept.write_bytes(b"half a file")
    monkeypatch.setattr(i18n, "LOCALES", tmp_path)
    i18n.catalog.cache_clear()
    try:
        assert i18n.catalog("fr").gettext(MSG) == "Cette commande est réservée aux organisateurs."
        assert read(kept.read_bytes()).gettext(MSG) != MSG  # whole again
    finally:
        i18n.catalog.cache_clear()
