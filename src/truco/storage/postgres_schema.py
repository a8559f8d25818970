"""The PostgreSQL schema as numbered migrations, applied at open.

A database records in ``schema_version`` each migration applied. Opening takes an advisory lock, so
processes starting together migrate once; a database from a newer server is refused rather than
misread. A new migration is appended here, never edited once released."""

from __future__ import annotations

from psycopg import AsyncConnection

from truco.storage.base import StorageError

MIGRATIONS: tuple[tuple[int, str], ...] = (
    (1, """
CREATE TABLE tables (
    table_id TEXT PRIMARY KEY,
    meta JSONB NOT NULL,
    closed BOOLEAN NOT NULL DEFAULT false,
    created_seq BIGINT GENERATED ALWAYS AS IDENTITY
);
CREATE INDEX tables_live ON tables (created_seq) WHERE NOT closed;
CREATE TABLE log (
    table_id TEXT NOT NULL REFERENCES tables (table_id),
    version INTEGER NOT NULL,
    at_ms BIGINT NOT NULL,
    command JSONB NOT NULL,
    player INTEGER,
    cid TEXT,
    CONSTRAINT log_fence UNIQUE (table_id, version)
);
CREATE TABLE matches (
    table_id TEXT NOT NULL REFERENCES tables (table_id),
    match_no BIGINT NOT NULL,
    record JSONB NOT NULL,
    PRIMARY KEY (table_id, match_no)
);
"""),
)
SCHEMA_VERSION = MIGRATIONS[-1][0]

_LOCK = 0x7275_636F_0001
"""The advisory lock key that serialises migrations ("truco", 1)."""


async def migrate(conn: AsyncConnection[tuple[object, ...]]) -> int:
    """Apply what the database lacks, in one transaction; returns the schema version."""
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK,))
        await conn.execute("CREATE TABLE IF NOT EXISTS schema_version ("
                           "version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())")
        cur = await conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version")
        row = await cur.fetchone()
        current = int(row[0]) if row is not None else 0  # type: ignore[call-overload]
        if current > SCHEMA_VERSION:
            raise StorageError(f"the database is at schema version {current}; this server knows up to "
                               f"{SCHEMA_VERSION}")
        for version, sql in MIGRATIONS:
            if version > current:
                await conn.execute(sql.encode())
                await conn.execute("INSERT INTO schema_version (version) VALUES (%s)", (version,))
    return max(current, SCHEMA_VERSION)
