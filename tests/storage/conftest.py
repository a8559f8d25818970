"""Storage backends for the contract suite: memory, a SQLite file, and a throw-away PostgreSQL server.

The PostgreSQL server is started once per session on a free port (``initdb`` in a temp dir, as user
``postgres`` when we are root: PostgreSQL refuses to run as root) and stopped with SIGINT; each test
gets a database of its own. When it cannot be started the PostgreSQL cases are skipped with the
reason, unless TRUCO_REQUIRE_SERVICES=1 (CI), where they fail.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

import pytest

from truco.bench.server_process import free_port
from truco.storage import MemoryStorage, SQLiteStorage, Storage

BACKENDS = ["memory", "sqlite", "postgres"]
DURABLE = ["sqlite", "postgres"]


def unavailable(reason: str) -> NoReturn:
    """Skip, or fail where services are required (CI)."""
    if os.environ.get("TRUCO_REQUIRE_SERVICES") == "1":
        pytest.fail(f"TRUCO_REQUIRE_SERVICES=1 but {reason}", pytrace=False)
    pytest.skip(reason)


def postgres_bin() -> Path | None:
    """Where initdb and postgres are: TRUCO_PG_BIN (only there, when set), else Debian's newest
    /usr/lib/postgresql/N/bin, else PATH."""
    def major(p: str) -> int:
        name = Path(p).parent.name
        return int(name) if name.isdigit() else 0

    env = os.environ.get("TRUCO_PG_BIN")
    if env:
        candidates = [env]
    else:
        candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=major, reverse=True)
        found = shutil.which("initdb")
        if found:
            candidates.append(str(Path(found).resolve().parent))
    for c in candidates:
        if (Path(c) / "initdb").exists() and (Path(c) / "postgres").exists():
            return Path(c)
    return None


@dataclass
class PostgresServer:
    port: int
    proc: subprocess.Popen[bytes]
    root: Path
    _names: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    def url(self, dbname: str = "postgres") -> str:
        return f"postgresql://truco@127.0.0.1:{self.port}/{dbname}"

    def admin(self, sql: str) -> None:
        import psycopg
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(sql.encode())

    def new_database(self) -> str:
        name = f"t{next(self._names)}"
        self.admin(f"CREATE DATABASE {name}")
        return name


def _start_postgres() -> PostgresServer:
    try:
        import psycopg
    except ImportError:
        unavailable("psycopg is not installed (pip install -e '.[test]')")
    bindir = postgres_bin()
    if bindir is None:
        unavailable("PostgreSQL is not installed (make services-deps, or apt-get install postgresql)")
    run_as: dict[str, Any] = {}
    root = Path(tempfile.mkdtemp(prefix="truco-pg-"))
    if os.geteuid() == 0:  # "postgres cannot be run as root": run it as the postgres user
        try:
            pw = pwd.getpwnam("postgres")
        except KeyError:
            shutil.rmtree(root, ignore_errors=True)
            unavailable("running as root and there is no 'postgres' user to run PostgreSQL as")
        os.chown(root, pw.pw_uid, pw.pw_gid)
        run_as = {"user": pw.pw_uid, "group": pw.pw_gid, "extra_groups": []}
    data, log = root / "data", root / "server.log"
    init = subprocess.run([str(bindir / "initdb"), "-D", str(data), "-U", "truco", "-A", "trust",
                           "-E", "UTF8", "--no-locale", "--no-sync"],
                          capture_output=True, cwd=root, **run_as)
    if init.returncode != 0:
        shutil.rmtree(root, ignore_errors=True)
        unavailable(f"initdb failed: {init.stderr.decode(errors='replace')[-500:]}")
    port = free_port()
    with open(log, "wb") as out:
        proc = subprocess.Popen([str(bindir / "postgres"), "-D", str(data), "-p", str(port), "-k", str(root),
                                 "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off"],
                                stdout=out, stderr=subprocess.STDOUT, cwd=root, **run_as)
    server = PostgresServer(port, proc, root)
    deadline = time.monotonic() + 60
    while True:
        try:
            psycopg.connect(server.url(), connect_timeout=2).close()
            return server
        except psycopg.OperationalError:
            if proc.poll() is not None or time.monotonic() > deadline:
                _stop(server)
                unavailable(f"postgres did not start: {log.read_text(errors='replace')[-500:]}")
            time.sleep(0.1)


def _stop(server: PostgresServer) -> None:
    if server.proc.poll() is None:
        server.proc.send_signal(signal.SIGINT)  # "fast shutdown"
        try:
            server.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.proc.kill()
            server.proc.wait()
    shutil.rmtree(server.root, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """Started at most once: pytest keeps a session fixture's skip or failure for every later test."""
    server = _start_postgres()
    yield server
    _stop(server)


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> Iterator[str]:
    """A fresh, empty database on the session's server."""
    name = postgres_server.new_database()
    yield postgres_server.url(name)
    postgres_server.admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


Opener = Callable[[], Storage]


def opener(kind: str, request: pytest.FixtureRequest, tmp_path: Path) -> Opener:
    """A function opening a new ``Storage`` on the same database each time (memory: one instance)."""
    if kind == "memory":
        mem = MemoryStorage()
        return lambda: mem
    if kind == "sqlite":
        path = str(tmp_path / "t.db")
        return lambda: SQLiteStorage(path)
    url = request.getfixturevalue("postgres_url")
    from truco.storage.postgres import PostgresStorage
    return lambda: PostgresStorage(url, pool_size=4)


def _opened(kind: str, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Opener]:
    opened: list[Storage] = []
    make = opener(kind, request, tmp_path)

    def open_one() -> Storage:
        s = make()
        opened.append(s)
        return s

    yield open_one
    for s in opened:
        s.close()


@pytest.fixture(params=BACKENDS)
def open_storage(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Opener]:
    """Opens storages on one database; every one opened is closed after the test."""
    yield from _opened(request.param, request, tmp_path)


@pytest.fixture
def storage(open_storage: Opener) -> Storage:
    return open_storage()


@pytest.fixture(params=DURABLE)
def open_durable(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Opener]:
    """As ``open_storage``, for the backends that outlive a process."""
    yield from _opened(request.param, request, tmp_path)
