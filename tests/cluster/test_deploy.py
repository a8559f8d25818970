"""The shipped HAProxy configuration is valid, and it is the one the cluster benchmark runs."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.storage.conftest import unavailable
from truco.bench.services import haproxy_binary, haproxy_config

DEPLOY = Path(__file__).resolve().parents[2] / "deploy" / "haproxy.cfg"


def test_the_shipped_haproxy_config_is_the_one_the_benchmark_runs() -> None:
    assert DEPLOY.read_text() == haproxy_config(8000, [8001, 8002, 8003])


def test_the_shipped_haproxy_config_passes_haproxys_own_check() -> None:
    binary = haproxy_binary()
    if binary is None:
        unavailable("haproxy is not installed (make services-deps)")
    check = subprocess.run([binary, "-c", "-f", str(DEPLOY)], capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
    text = DEPLOY.read_text()
    assert "option httpchk GET /health" in text and "timeout tunnel" in text
