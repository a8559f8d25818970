"""Throw-away services for ``truco bench server --nodes``: a PostgreSQL, a redis-server and an HAProxy
on free loopback ports in a temporary directory, stopped (and removed) on exit. The same settings as
deploy/haproxy.cfg, for the ports of this run."""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from truco.bench.server_process import free_port


class ServiceError(RuntimeError):
    pass


def _stop(proc: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
    if proc.poll() is None:
        proc.send_signal(sig)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _wait_port(port: int, proc: subprocess.Popen[bytes], what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise ServiceError(f"{what} did not start") from None
            time.sleep(0.05)


def tree_cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system) of a process and its children alive now (PostgreSQL's backends)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(entry.name) == pid or int(fields[1]) == pid:
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


@contextlib.contextmanager
def postgres(root: Path) -> Iterator[tuple[str, int]]:
    """A PostgreSQL cluster (fsync off: it measures the server, not this disk); yields its URL and
    the postmaster's pid."""
    bins = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(Path(p).parent.name),
                  reverse=True)
    bindir = next((Path(b) for b in bins if (Path(b) / "initdb").exists()), None)
    if bindir is None:
        raise ServiceError("PostgreSQL is not installed (make services-deps)")
    run_as: dict[str, Any] = {}
    data = root / "pg"
    data.mkdir()
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root
        os.chmod(root, 0o711)  # a temporary directory is root's alone: let the postgres user through
        pw = pwd.getpwnam("postgres")
        os.chown(data, pw.pw_uid, pw.pw_gid)
        run_as = {"user": pw.pw_uid, "group": pw.pw_gid, "extra_groups": []}
    subprocess.run([str(bindir / "initdb"), "-D", str(data / "d"), "-U", "truco", "-A", "trust", "-E", "UTF8",
                    "--no-locale", "--no-sync"], check=True, capture_output=True, cwd=data, **run_as)
    port = free_port()
    with open(root / "pg.log", "wb") as out:
        proc = subprocess.Popen([str(bindir / "postgres"), "-D", str(data / "d"), "-p", str(port),
                                 "-k", str(data), "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off",
                                 "-c", "max_connections=200"],
                                stdout=out, stderr=subprocess.STDOUT, cwd=data, **run_as)
    try:
        _wait_port(port, proc, "postgres")
        import psycopg
        url = f"postgresql://truco@127.0.0.1:{port}/postgres"
        deadline = time.monotonic() + 30
        while True:
            try:
                psycopg.connect(url, connect_timeout=2).close()
                break
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        yield url, proc.pid
    finally:
        _stop(proc, signal.SIGINT)


@contextlib.contextmanager
def redis_server(root: Path) -> Iterator[str]:
    binary = shutil.which("redis-server")
    if binary is None:
        raise ServiceError("redis-server is not installed (make services-deps)")
    port = free_port()
    with open(root / "redis.log", "wb") as out:
        proc = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                                 "--appendonly", "no", "--dir", str(root)],
                                stdout=out, stderr=subprocess.STDOUT)
    try:
        _wait_port(port, proc, "redis-server")
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        _stop(proc)


def haproxy_config(listen_port: int, node_ports: Sequence[int]) -> str:
    """deploy/haproxy.cfg for these ports."""
    servers = "\n".join(f"    server n{i + 1} 127.0.0.1:{p}" for i, p in enumerate(node_ports))
    return f"""# HAProxy in front of `truco serve --redis …` nodes (docs/scaling.md).
# Check it with `haproxy -c -f deploy/haproxy.cfg`; run it with `haproxy -f deploy/haproxy.cfg`.
# `truco bench server --nodes N` writes this same file for its own ports (truco.bench.services).

global
    # no maxconn: HAProxy derives it from `ulimit -n` (each socket costs it two descriptors)

defaults
    mode http
    option forwardfor                # X-Forwarded-For: the POST limit counts each player, not the balancer
    option redispatch                # a request for a node that just died goes to another one
    retries 3
    retry-on conn-failure empty-response
    timeout connect 3s
    timeout client 60s
    timeout server 60s
    timeout http-request 10s
    timeout tunnel 2h                # a WebSocket is a tunnel once upgraded: a table lasts an evening
    timeout client-fin 5s

frontend truco
    bind 127.0.0.1:{listen_port}
    default_backend nodes

backend nodes
    balance leastconn                # sockets live long: even out open sockets, not requests
    option httpchk GET /health
    http-check expect status 200
    default-server check inter 1s fall 2 rise 2 maxconn 50000
{servers}
"""


def haproxy_binary() -> str | None:
    return shutil.which("haproxy") or ("/usr/sbin/haproxy" if Path("/usr/sbin/haproxy").exists() else None)


@contextlib.contextmanager
def haproxy(root: Path, listen_port: int, node_ports: Sequence[int]) -> Iterator[subprocess.Popen[bytes]]:
    binary = haproxy_binary()
    if binary is None:
        raise ServiceError("haproxy is not installed (make services-deps)")
    cfg = root / "haproxy.cfg"
    cfg.write_text(haproxy_config(listen_port, node_ports))
    with open(root / "haproxy.log", "wb") as out:
        proc = subprocess.Popen([binary, "-db", "-f", str(cfg)], stdout=out, stderr=subprocess.STDOUT)
    try:
        _wait_port(listen_port, proc, "haproxy")
        yield proc
    finally:
        _stop(proc, signal.SIGUSR1)  # a soft stop
