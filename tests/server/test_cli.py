"""`truco serve` options and environment, the printed addresses, and a smoke run of the benchmark."""

from __future__ import annotations

import argparse
import json
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from truco.bench.server_process import ServerProcess, free_port
from truco.cli import serve
from truco.cli.main import main
from truco.server.address import open_urls


def _parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    serve.add_arguments(parser)
    return parser.parse_args(argv)


def test_serve_defaults_are_loopback_port_8000_and_truco_db(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("TRUCO_HOST", "TRUCO_PORT", "TRUCO_DB"):
        monkeypatch.delenv(name, raising=False)
    args = _parse([])
    assert (args.host, args.port, args.db) == ("127.0.0.1", 8000, "./truco.db")


def test_serve_reads_the_environment_and_flags_win(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRUCO_HOST", "0.0.0.0")
    monkeypatch.setenv("TRUCO_PORT", "9123")
    monkeypatch.setenv("TRUCO_DB", "/tmp/x.db")
    args = _parse([])
    assert (args.host, args.port, args.db) == ("0.0.0.0", 9123, "/tmp/x.db")
    assert _parse(["--port", "7000"]).port == 7000


def test_serve_thinks_with_bots_on_every_core_but_the_loops_unless_told(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TRUCO_BOT_WORKERS", raising=False)
    monkeypatch.setattr(serve.os, "cpu_count", lambda: 2)
    assert _parse([]).bot_workers == 1
    monkeypatch.setattr(serve.os, "cpu_count", lambda: 64)
    assert _parse([]).bot_workers == 8
    monkeypatch.setenv("TRUCO_BOT_WORKERS", "0")
    assert _parse([]).bot_workers == 0 and _parse(["--bot-workers", "3"]).bot_workers == 3


def test_the_addresses_to_open_start_with_this_computer() -> None:
    urls = open_urls("0.0.0.0", 8000)
    assert urls[0] == ("this computer", "http://127.0.0.1:8000/")
    assert all(url.endswith(":8000/") for _, url in urls)
    assert open_urls("127.0.0.1", 8000) == [("this computer", "http://127.0.0.1:8000/")]


def test_truco_serve_prints_the_address_to_open(tmp_path: Path) -> None:
    port = free_port()
    log = tmp_path / "out.txt"
    argv = [sys.executable, "-m", "truco.cli.main", "serve", "--port", str(port),
            "--db", str(tmp_path / "t.db")]
    server = ServerProcess(argv, port, log=log).start()
    try:
        deadline = time.monotonic() + 10
        while f"http://127.0.0.1:{port}/" not in log.read_text() and time.monotonic() < deadline:
            time.sleep(0.05)
        text = log.read_text()
        assert f"http://127.0.0.1:{port}/" in text and "t.db" in text
        assert "bots think in" in text
    finally:
        server.stop()


def test_truco_serve_refuses_a_database_it_cannot_open(tmp_path: Path) -> None:
    bad = str(tmp_path / "no" / "x.db")
    r = subprocess.run([sys.executable, "-m", "truco.cli.main", "serve", "--db", bad],
                       capture_output=True, text=True, timeout=30)
    assert r.returncode == 2 and "cannot open" in r.stderr


@pytest.mark.slow
def test_the_server_benchmark_prints_one_json_object_with_its_figures() -> None:
    r = subprocess.run([sys.executable, "-m", "truco.cli.main", "bench", "server", "--tables", "2",
                        "--seconds", "1", "--pace", "0.3", "--echo-connections", "4", "--echo-seconds", "0.5",
                        "--json"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    result = json.loads(r.stdout.strip().splitlines()[-1])
    for key in ("tables", "actions_per_s", "p50_ms", "p99_ms", "errors", "echo_msgs_per_s"):
        assert key in result
    assert result["tables"] == 2 and result["actions"] > 0 and result["echo_msgs_per_s"] > 0


@pytest.mark.slow
@pytest.mark.parametrize("workers", [0, 1])
def test_the_bot_tables_benchmark_prints_the_loops_lag_and_a_quiet_tables_round_trip(workers: int) -> None:
    r = subprocess.run([sys.executable, "-m", "truco.cli.main", "bench", "bots", "--tables", "2",
                        "--level", "facil", "--seconds", "1", "--workers", str(workers)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("bot tables: 2 tables of 1 person and 3 facil bots")
    assert lines[0].endswith("1 bot worker process(es)" if workers else "the bots' thread")
    lag = next(x for x in lines if "loop_lag_ms" in x)
    trip = next(x for x in lines if "quiet_table_round_trip_ms" in x)
    assert "p99" in lag and "p99" in trip and "(0 samples)" not in lag + trip
    played = next(x for x in lines if "commands at the bot tables" in x)
    assert int(played.split(":")[1].split()[0]) > 0


needs_sigpipe = pytest.mark.skipif(not hasattr(signal, "SIGPIPE"), reason="no SIGPIPE on this platform")


@needs_sigpipe
def test_the_cli_called_in_process_leaves_the_callers_signals_alone() -> None:
    """A program that calls ``main`` (the test run itself) keeps Python's SIGPIPE handling: set to
    the default, its next write to a socket whose peer closed kills it outright, as it once killed
    ``make test`` in the browser tests after an arena test had called ``main``."""
    before = signal.getsignal(signal.SIGPIPE)
    assert main(["demo", "--seed", "1", "--target", "15"]) == 0
    assert signal.getsignal(signal.SIGPIPE) == before


def _ignored_signals(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigIgn:"):
            return int(line.split()[1], 16)
    raise AssertionError("no SigIgn line")


@needs_sigpipe
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_a_served_truco_ignores_sigpipe_so_a_socket_whose_peer_is_gone_cannot_end_it(tmp_path: Path) -> None:
    """The installed command once set SIGPIPE to its default for every subcommand: a write to a socket
    whose peer had gone (a phone that dropped; the loop's wake-up socket as it closed) ended the server
    or a benchmark outright, with status 141. The server keeps it ignored: such a write is an error
    the code handles."""
    port = free_port()
    argv = [sys.executable, "-c", "from truco.cli.main import entry; entry()",
            "serve", "--port", str(port), "--db", str(tmp_path / "t.db"), "--quiet"]
    server = ServerProcess(argv, port, log=tmp_path / "out.txt").start()
    try:
        assert server.proc is not None
        assert _ignored_signals(server.proc.pid) & (1 << (signal.SIGPIPE - 1))
    finally:
        server.stop()
    assert server.proc.returncode == 0


@needs_sigpipe
def test_the_command_piped_into_a_reader_that_stops_early_ends_quietly() -> None:
    """``truco demo | head -1``: the command's own process ends on the closed pipe, with no traceback."""
    r = subprocess.run(f"{shlex.quote(sys.executable)} -m truco.cli.main demo --seed 1 | head -1",
                       shell=True, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and len(r.stdout.splitlines()) == 1
    assert "Traceback" not in r.stderr and "BrokenPipe" not in r.stderr, r.stderr
