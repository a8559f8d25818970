"""What a ``--db`` / ``TRUCO_DB`` string names: a PostgreSQL URL, or else a SQLite file."""

from __future__ import annotations

import os
import re

_POSTGRES = ("postgresql://", "postgres://")


def is_postgres_url(target: str) -> bool:
    return target.startswith(_POSTGRES)


def redact(url: str) -> str:
    """The URL without its password, for banners and logs."""
    return re.sub(r"(://[^:/@]+):[^@/]*@", r"\1:***@", url)


def describe(target: str) -> str:
    """Where the tables are kept, for a banner (a URL's password is hidden)."""
    return redact(target) if is_postgres_url(target) else os.path.abspath(target)
