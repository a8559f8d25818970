"""The layer rules of ../shared/design/architecture.md, checked on every import in src/truco."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "truco"

# layer -> the truco layers it may import (itself always allowed)
ALLOWED = {
    "engine": set(),
    "table": {"engine"},
    "bots": {"engine"},
    "protocol": {"engine", "table"},
    "storage": set(),
    "bus": set(),
    "runtime": {"engine", "table", "bots", "protocol", "storage", "bus"},
    "server": {"runtime", "protocol", "storage", "bus"},
    "terminal": {"engine", "bots"},
    "cli": None,  # anything
    "bench": None,  # anything: it measures the product; no product layer imports it (below)
}
# the pure layers: no clock, no randomness, no I/O, no asyncio
IMPURE = {"random", "time", "asyncio", "socket", "sqlite3", "datetime", "os", "threading", "secrets",
          "subprocess", "logging"}
PURE = {"engine", "table"}


def imports_of(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append(node.module)
    return found


def layer_files() -> list[tuple[str, Path]]:
    out = []
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC)
        if len(rel.parts) > 1:
            out.append((rel.parts[0], path))
    return out


def test_every_layer_is_known():
    layers = {p.name for p in SRC.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert layers <= set(ALLOWED), f"new layer(s) without an import rule: {layers - set(ALLOWED)}"


@pytest.mark.parametrize(("layer", "path"), layer_files(), ids=lambda v: str(v).split("src/truco/")[-1])
def test_dependencies_point_inward_only(layer, path):
    allowed = ALLOWED.get(layer)
    if allowed is None:
        return
    for module in imports_of(path):
        parts = module.split(".")
        if parts[0] == "truco" and len(parts) > 1:
            assert parts[1] == layer or parts[1] in allowed, f"{layer} may not import {module}"
        if layer in PURE:
            assert parts[0] not in IMPURE, f"{layer} must stay pure but imports {module}"


def test_no_product_layer_imports_the_benchmarks():
    """The load generator and simulated clients (truco.bench) measure the product and stay outside it:
    no product module imports them, nor names them in a string (importlib, ``-m``, ``module:app``)."""
    product = {"engine", "table", "bots", "protocol", "storage", "bus", "runtime", "server", "terminal"}
    offenders = []
    for layer, path in layer_files():
        if layer not in product:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        names = imports_of(path) + [n.value for n in ast.walk(tree)
                                    if isinstance(n, ast.Constant) and isinstance(n.value, str)]
        offenders += [f"{path.relative_to(SRC)}: {name}" for name in names
                      if name == "truco.bench" or name.startswith(("truco.bench.", "truco.bench:"))]
    assert not offenders, f"product modules that use truco.bench: {offenders}"
