"""The Bot API's spec and limits, as the fake server checks every call against them
(``bot/apispec/methods.json``, trimmed from the MIT-licensed telegram-bot-api-spec)."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

SPEC_FILE = Path(__file__).resolve().parents[1] / "apispec" / "methods.json"


def load_spec() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(SPEC_FILE.read_text(encoding="utf-8"))
    methods: dict[str, Any] = data["methods"]
    return {name.lower(): m for name, m in methods.items()}


@functools.cache
def spec() -> dict[str, Any]:
    return load_spec()


def check_call(spec: dict[str, Any], method: str, params: dict[str, Any]) -> str | None:
    """What is wrong with a call by the Bot API's spec and limits (None: nothing)."""
    m = spec.get(method.lower())
    if m is None:
        return f"{method} is not a Bot API method"
    problem = (_check_names(_fields_of(m), params) or _check_lengths(params)
               or _check_markup(params) or _check_commands(params)
               or _check_payment(method, params))
    return f"{method}: {problem}" if problem is not None else None


def _fields_of(method: dict[str, Any]) -> tuple[tuple[str, ...], frozenset[str]]:
    """A method's required parameters and all its parameters, worked out once per method."""
    known = method.get("_fields")
    if known is None:
        known = method["_fields"] = (
            tuple(f["name"] for f in method["fields"] if f["required"]),
            frozenset(f["name"] for f in method["fields"]))
    fields: tuple[tuple[str, ...], frozenset[str]] = known
    return fields


def _check_names(fields: tuple[tuple[str, ...], frozenset[str]],
                 params: dict[str, Any]) -> str | None:
    required, names = fields
    for name in required:
        if name not in params:
            return f"missing required parameter {name}"
    for p in params:
        if p not in names:
            return f"unknown parameter {p}"
    return None


def _check_lengths(params: dict[str, Any]) -> str | None:
    text = params.get("text")
    if isinstance(text, str) and not 1 <= len(text) <= 4096:
        return f"text of {len(text)} characters (1-4096)"
    caption = params.get("caption")
    if isinstance(caption, str) and len(caption) > 1024:
        return f"caption of {len(caption)} characters"
    return None


def _check_markup(params: dict[str, Any]) -> str | None:
    markup = params.get("reply_markup")
    if isinstance(markup, str):
        return _markup_problem(markup)
    return _keyboard_problem(markup)


@functools.lru_cache(maxsize=1024)
def _markup_problem(markup: str) -> str | None:
    """A keyboard as JSON, checked once (a volunteers' line goes to every volunteer with the
    same one): a pure function of the text."""
    try:
        return _keyboard_problem(json.loads(markup))
    except ValueError:
        return "reply_markup is not JSON"


def _keyboard_problem(markup: Any) -> str | None:
    if not isinstance(markup, dict):
        return None
    for row in markup.get("inline_keyboard", []):
        for button in row:
            data = button.get("callback_data")
            if data is not None and not 1 <= len(str(data).encode()) <= 64:
                return f"callback_data of {len(str(data).encode())} bytes"
    return None


def _check_commands(params: dict[str, Any]) -> str | None:
    commands = params.get("commands")
    if isinstance(commands, str):
        commands = json.loads(commands)
    if not isinstance(commands, list):
        return None
    for c in commands:
        if not 1 <= len(c.get("command", "")) <= 32:
            return f"command name {c.get('command')!r}"
        if not 1 <= len(c.get("description", "")) <= 256:
            return f"command description of {c.get('command')!r}"
    return None


def _check_payment(method: str, params: dict[str, Any]) -> str | None:
    """sendInvoice's limits and answerPreCheckoutQuery's (a reason when it refuses)."""
    if method == "answerPreCheckoutQuery":
        ok = str(params.get("ok")).lower() in ("true", "1")
        reason = params.get("error_message")
        if not ok and not (isinstance(reason, str) and reason.strip()):
            return "error_message is required when ok is False"
        return None
    if method != "sendInvoice":
        return None
    return _check_invoice_texts(params) or _check_prices(params)


def _check_invoice_texts(params: dict[str, Any]) -> str | None:
    """A title of 1-32 characters, a description of 1-255, a payload of 1-128 bytes."""
    for name, most in (("title", 32), ("description", 255)):
        value = str(params.get(name, ""))
        if not 1 <= len(value) <= most:
            return f"{name} of {len(value)} characters (1-{most})"
    if not 1 <= len(str(params.get("payload", "")).encode()) <= 128:
        return "payload of 1-128 bytes"
    return None


def _check_prices(params: dict[str, Any]) -> str | None:
    """A three-letter currency, prices in whole smallest units, a positive total; "XTR"
    (Telegram Stars) with one price and an empty provider token, a currency with one."""
    currency = str(params.get("currency", ""))
    if len(currency) != 3 or not currency.isupper():
        return f"currency {currency!r}"
    prices = params.get("prices")
    if isinstance(prices, str):
        prices = json.loads(prices)
    if not isinstance(prices, list) or not prices or not all(
            isinstance(p, dict) and isinstance(p.get("amount"), int)
            and 1 <= len(str(p.get("label", ""))) for p in prices):
        return "prices must be labelled whole amounts"
    if sum(p["amount"] for p in prices) <= 0:
        return "an invoice's total must be positive"
    if currency == "XTR":
        stars_ok = len(prices) == 1 and not params.get("provider_token")
        return None if stars_ok else "Telegram Stars take one price and no provider token"
    return None if params.get("provider_token") else \
        "a payment in a currency needs the provider's token"
