"""The layer rules of ../shared/design/architecture.md, checked on every import in src/truco."""

from __future__ import annotations

import ast
import sys
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
    "runtime": {"engine", "table", "bots", "protocol", "storage"},
    "server": {"runtime", "protocol", "storage"},
    "terminal": {"engine", "bots"},
    "cli": None,  # anything
    "cluster": {"engine", "table", "protocol", "storage", "runtime"},
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


def module_name(path: Path) -> str:
    rel = path.relative_to(SRC.parent).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts)


def is_module(name: str) -> bool:
    """Whether ``truco.x.y`` names a module or package of this source tree."""
    base = SRC.parent.joinpath(*name.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def import_graph() -> dict[str, set[str]]:
    """Module -> the truco modules it imports at import time (``from pkg import submodule`` points at
    the submodule; imports under ``if TYPE_CHECKING`` do not run and are not counted)."""
    graph: dict[str, set[str]] = {}
    for path in sorted(SRC.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        skip = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
                and "TYPE_CHECKING" in ast.unparse(node.test) for n in ast.walk(node)}
        edges: set[str] = set()
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            if isinstance(node, ast.Import):
                edges |= {a.name for a in node.names if a.name.startswith("truco.")}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0 \
                    and node.module.startswith("truco"):
                for alias in node.names:
                    sub = f"{node.module}.{alias.name}"
                    edges.add(sub if is_module(sub) else node.module)
        graph[module_name(path)] = edges
    return graph


@pytest.mark.parametrize(("layer", "path"), layer_files(), ids=lambda v: str(v).split("src/truco/")[-1])
def test_dependencies_point_inward_only(layer, path):
    allowed = ALLOWED[layer]
    for module in imports_of(path):
        parts = module.split(".")
        if parts[0] == "truco":
            assert (len(parts) > 1 and is_module(module)) or is_module(".".join(parts[:-1])), \
                f"{module} is not a module of this tree"
            if allowed is not None:
                assert parts[1] == layer or parts[1] in allowed, f"{layer} may not import {module}"
        if layer in PURE:
            assert parts[0] not in IMPURE, f"{layer} must stay pure but imports {module}"


def test_the_import_graph_has_no_circle():
    graph = import_graph()
    assert len(graph) > 50, "the graph is read from src/truco"
    state: dict[str, int] = {}
    path: list[str] = []
    circles: list[list[str]] = []

    def visit(m: str) -> None:
        state[m] = 1
        path.append(m)
        for n in sorted(graph.get(m, ())):
            if state.get(n) == 1:
                circles.append([*path[path.index(n):], n])
            elif n not in state:
                visit(n)
        path.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m)
    assert not circles, "import circles: " + "; ".join(" -> ".join(c) for c in circles)


def test_the_graph_sees_a_planted_circle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The circle check is not vacuous: two modules importing each other are found."""
    pkg = tmp_path / "truco" / "zz"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from truco.zz import b\n")
    (pkg / "b.py").write_text("import truco.zz.a\n")
    monkeypatch.setattr(sys.modules[__name__], "SRC", tmp_path / "truco")
    graph = import_graph()
    assert graph["truco.zz.a"] == {"truco.zz.b"} and graph["truco.zz.b"] == {"truco.zz.a"}


def test_no_product_layer_imports_the_benchmarks():
    """The load generator and simulated clients (truco.bench) measure the product and stay outside it:
    no product module imports them, nor names them in a string (importlib, ``-m``, ``module:app``)."""
    product = {"engine", "table", "bots", "protocol", "storage", "runtime", "server", "terminal", "cluster"}
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
