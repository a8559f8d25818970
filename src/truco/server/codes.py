"""Table codes: short, unambiguous when read aloud or typed on a phone, and the links built on them."""

from __future__ import annotations

import re
import secrets
from collections.abc import Container

ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""No 0/O and no 1/I: a code read aloud across a table must not be misheard or mistyped."""

CODE_LENGTH = 5
"""32^5 ≈ 33 million codes: plenty for the open tables of one server, short enough to say aloud."""

_CODE_RE = re.compile(f"[{ALPHABET}]{{{CODE_LENGTH}}}")


def new_code(taken: Container[str] = (), length: int = CODE_LENGTH) -> str:
    """A fresh random code not in ``taken``."""
    while True:
        code = "".join(secrets.choice(ALPHABET) for _ in range(length))
        if code not in taken:
            return code


def normalize_code(text: str) -> str | None:
    """What a person typed (any case, spaces or dashes) as a code, or ``None`` if it cannot be one."""
    if not isinstance(text, str) or len(text) > 32:
        return None
    code = re.sub(r"[\s-]", "", text).upper()
    return code if _CODE_RE.fullmatch(code) else None


def table_path(code: str) -> str:
    """The link path of a table: ``/m/<code>``."""
    return f"/m/{code}"
