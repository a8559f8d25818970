"""Seat tokens never reach a log line: every record is redacted when it is made, its traceback too.

A token is a player's identity (whoever holds it plays their seat), so a console, a log file or a
proxy's log must never show one. Clients send it in the WebSocket subprotocol header
(``truco.token.<token>``), never in a URL; the old ``?token=`` form still works for one release and
is redacted like everything else.
"""

from __future__ import annotations

import logging
import re
import traceback
from typing import Any

_PATTERNS = (
    re.compile(r"(token=)[^&\s\"'<>]+"),
    re.compile(r"(truco\.token\.)[A-Za-z0-9_-]+"),
    re.compile(r"""(["']token["']\s*:\s*["'])[^"']+"""),
)
REDACTED = "…"


def redact(text: str) -> str:
    """``text`` with every seat token replaced by an ellipsis."""
    for pattern in _PATTERNS:
        text = pattern.sub(lambda m: m.group(1) + REDACTED, text)
    return text


def _clean(value: Any) -> Any:
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, bytes | bytearray | list | tuple | dict):
        text = repr(value)
        return redact(text) if redact(text) != text else value
    return value


_installed = False


def install() -> None:
    """Redact every log record of this process from now on, whichever logger or handler it takes.
    Idempotent."""
    global _installed
    if _installed:
        return
    make = logging.getLogRecordFactory()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = make(*args, **kwargs)
        # redact the pieces, not the joined message: some formatters (uvicorn's access log) read args
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_clean(a) for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: _clean(v) for k, v in record.args.items()}
        if record.exc_info and record.exc_info[0] is not None:
            record.exc_text = redact("".join(traceback.format_exception(*record.exc_info)).rstrip("\n"))
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return record

    logging.setLogRecordFactory(factory)
    _installed = True
