"""The JSON text every backend keeps: one encoder, so memory refuses exactly what SQLite refuses."""

from __future__ import annotations

import json
from typing import Any


def dumps(data: Any) -> str:
    """Compact UTF-8 JSON. Raises ``TypeError``/``ValueError`` for what JSON cannot hold."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def loads_dict(text: str) -> dict[str, Any]:
    return dict(json.loads(text))
