"""Logging that never shows the bot token (python-telegram-bot and httpx put it in URLs)."""

from __future__ import annotations

import logging
import re

_TOKEN_SHAPE = re.compile(r"\d{5,}:[A-Za-z0-9_-]{20,}")


class RedactToken(logging.Filter):
    def __init__(self, token: str = "") -> None:
        super().__init__()
        self.token = token

    def _clean(self, text: str) -> str:
        if self.token:
            text = text.replace(self.token, "[token]")
        return _TOKEN_SHAPE.sub("[token]", text)

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = self._clean(message)
        if record.exc_info and record.exc_info[1] is not None:
            exc_text = logging.Formatter().formatException(record.exc_info)
            record.exc_text = self._clean(exc_text)
            record.exc_info = None
        if cleaned != message or record.args:
            record.msg, record.args = cleaned, None
        return True


def setup_logging(token: str = "", level: int = logging.INFO) -> RedactToken:
    redact = RedactToken(token)
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(redact)
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    logging.getLogger("httpx").setLevel(logging.WARNING)  # it logs every URL, token included
    logging.getLogger("apscheduler").setLevel(logging.WARNING)
    return redact
