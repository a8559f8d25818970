"""Run a server as a child process on a loopback port: for the benchmark and the crash tests."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Sequence
from pathlib import Path


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class ServerProcess:
    """A child process serving HTTP on ``127.0.0.1:port``; ``start`` waits for ``ready_path``."""

    def __init__(self, argv: Sequence[str], port: int, *, ready_path: str = "/health",
                 env: dict[str, str] | None = None, log: Path | None = None) -> None:
        self.argv = list(argv)
        self.port = port
        self.ready_path = ready_path
        self.env = {**os.environ, **(env or {})}
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None

    @classmethod
    def truco(cls, port: int, db: str | Path, *extra: str, log: Path | None = None,
              env: dict[str, str] | None = None) -> ServerProcess:
        """``truco serve`` on ``port`` with the SQLite file ``db``."""
        argv = [sys.executable, "-m", "truco.cli.main", "serve", "--host", "127.0.0.1",
                "--port", str(port), "--db", str(db), "--quiet", *extra]
        return cls(argv, port, env=env, log=log)

    @classmethod
    def echo(cls, port: int) -> ServerProcess:
        """The bare WebSocket echo app, for comparison."""
        argv = [sys.executable, "-m", "uvicorn", "truco.bench.echo:app", "--host", "127.0.0.1",
                "--port", str(port), "--log-level", "warning", "--no-access-log"]
        return cls(argv, port, ready_path="")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 20.0) -> ServerProcess:
        out = open(self.log, "ab") if self.log else subprocess.DEVNULL  # noqa: SIM115
        try:
            self.proc = subprocess.Popen(self.argv, stdout=out, stderr=subprocess.STDOUT, env=self.env)
        finally:
            if self.log:
                out.close()  # type: ignore[union-attr]
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}: {' '.join(self.argv)}")
            if self._ready():
                return self
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"server not ready after {timeout} s")

    def _ready(self) -> bool:
        if not self.ready_path:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return True
            except OSError:
                return False
        try:
            with urllib.request.urlopen(self.url + self.ready_path, timeout=0.5) as r:
                return bool(r.status == 200)
        except OSError:
            return False

    def kill9(self) -> None:
        """Crash it: SIGKILL, no chance to flush or close anything."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self, sig: int = signal.SIGINT) -> None:
        """Shut it down politely (SIGINT, or ``sig``: SIGTERM as a service manager does), then firmly."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    def __enter__(self) -> ServerProcess:
        return self.start() if self.proc is None else self

    def __exit__(self, *exc: object) -> None:
        self.stop()
