"""Table codes: short, unambiguous when read aloud or typed on a phone."""

from __future__ import annotations

import re

ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""No 0/O and no 1/I: a code read aloud across a table must not be misheard or mistyped."""

CODE_LENGTH = 6
"""The runtime's codes: 32^6 ≈ 10^9, short enough to say aloud, too many to guess a live one."""

_CODE_RE = re.compile(f"[{ALPHABET}]{{{CODE_LENGTH}}}")


def normalize_code(text: str) -> str | None:
    """What a person typed (any case, spaces or dashes) as a code, or ``None`` if it cannot be one."""
    if not isinstance(text, str) or len(text) > 32:
        return None
    code = re.sub(r"[\s-]", "", text).upper()
    return code if _CODE_RE.fullmatch(code) else None
