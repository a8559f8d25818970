"""A real cluster for the tests: one throw-away PostgreSQL (the storage suite's), one throw-away
redis-server, and ``truco serve --redis`` nodes as child processes, all on free loopback ports in a
temporary directory. Without redis-server or PostgreSQL the tests skip, unless
TRUCO_REQUIRE_SERVICES=1 (CI), where they fail."""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.storage.conftest import PostgresServer, postgres_server, postgres_url, unavailable
from truco.bench.server_process import ServerProcess, free_port

__all__ = ["postgres_server", "postgres_url"]

LEASE_MS = 3000
"""Short leases, so a dead node's tables move in about three seconds (the default is 4 s)."""


def redis_server_bin() -> str | None:
    return shutil.which("redis-server") or next(
        (p for p in ("/usr/bin/redis-server", "/usr/sbin/redis-server") if Path(p).exists()), None)


@dataclass
class RedisServer:
    """A redis-server with no persistence on a fixed port: stopped and started again, it comes back
    empty on the same address (what a Redis restart does to a cluster)."""

    binary: str
    port: int
    root: Path
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        log = open(self.root / "redis.log", "ab")  # noqa: SIM115 (the child keeps it)
        self.proc = subprocess.Popen([self.binary, "--port", str(self.port), "--bind", "127.0.0.1",
                                      "--save", "", "--appendonly", "no", "--dir", str(self.root)],
                                     stdout=log, stderr=subprocess.STDOUT)
        log.close()
        deadline = time.monotonic() + 20
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return self
            except OSError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                unavailable(f"redis-server did not start: {(self.root / 'redis.log').read_text()[-300:]}")
            time.sleep(0.05)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None


@pytest.fixture
def redis_server() -> Iterator[RedisServer]:
    binary = redis_server_bin()
    if binary is None:
        unavailable("redis-server is not installed (make services-deps, or apt-get install redis-server)")
    root = Path(tempfile.mkdtemp(prefix="truco-redis-"))
    server = RedisServer(binary, free_port(), root).start()
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(root, ignore_errors=True)


@dataclass
class Cluster:
    db: str
    redis: RedisServer
    root: Path
    nodes: list[ServerProcess] = field(default_factory=list)
    stopped: set[int] = field(default_factory=set)
    """Nodes SIGSTOPped: alive, but not answering."""

    def add_node(self, **env: str) -> ServerProcess:
        i = len(self.nodes)
        port = free_port()
        argv = [sys.executable, "-m", "truco.cli.main", "serve", "--host", "127.0.0.1", "--port", str(port),
                "--db", self.db, "--redis", self.redis.url, "--node-id", f"n{i}", "--quiet"]
        node = ServerProcess(argv, port, log=self.root / f"node{i}.log",
                             env={"TRUCO_HTTP_RATE": "0", "TRUCO_LEASE_MS": str(LEASE_MS),
                                  "TRUCO_LOG_LEVEL": "info", **env})
        self.nodes.append(node.start(timeout=60))
        return node

    def live(self) -> list[ServerProcess]:
        return [n for i, n in enumerate(self.nodes)
                if n.proc is not None and n.proc.poll() is None and i not in self.stopped]

    def log_of(self, i: int) -> str:
        return (self.root / f"node{i}.log").read_text(errors="replace")

    def logs_about(self, codes: list[str], last: int = 30) -> str:
        """The last lines of every node's log that name one of ``codes``: for a failure's message."""
        out = []
        for i in range(len(self.nodes)):
            lines = [ln for ln in self.log_of(i).splitlines() if any(c in ln for c in codes)]
            out.extend(f"n{i}: {ln}" for ln in lines[-last:])
        return "\n".join(out)

    def stop_all(self) -> None:
        for i, n in enumerate(self.nodes):
            if i in self.stopped and n.proc is not None:
                n.proc.send_signal(signal.SIGCONT)
            n.stop(signal.SIGTERM)


@pytest.fixture
def cluster(postgres_url: str, redis_server: RedisServer, tmp_path: Path) -> Iterator[Cluster]:
    """Three nodes on one PostgreSQL database and one Redis."""
    c = Cluster(postgres_url, redis_server, tmp_path)
    try:
        for _ in range(3):
            c.add_node()
        yield c
    finally:
        c.stop_all()


def pg_log(server: PostgresServer, url: str, table_id: str) -> list[tuple[int, int | None, str | None]]:
    """(version, player, cid) of a table's log, read straight from PostgreSQL."""
    del server
    import psycopg
    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT version, player, cid FROM log WHERE table_id = %s ORDER BY version",
                            (table_id,)).fetchall()
    return [(int(v), p, c) for v, p, c in rows]
