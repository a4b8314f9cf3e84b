"""The shape of the house, checked (issue 8): our modules import each other without a
cycle, ``metrics/`` imports nothing of the app, and no module of the app has grown past
500 lines (a module that needs banners wants to be a package: see the README's layout).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OURS = ("annotation", "metrics", "evaltool")
MAX_LINES = 500


def module_of(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def our_modules() -> dict[str, Path]:
    return {
        module_of(p): p
        for package in OURS
        for p in (ROOT / package).rglob("*.py")
        if "migrations" not in p.parts
    }


def _runtime_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement except those under ``if TYPE_CHECKING:`` (never run)."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped |= {id(n) for child in node.body for n in ast.walk(child)}
    return [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.Import | ast.ImportFrom) and id(n) not in skipped
    ]


def imports(path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules of ours that ``path`` imports when it runs."""
    out: set[str] = set()
    for node in _runtime_imports(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            names = [f"{base}.{alias.name}" for alias in node.names] + [base]
        for name in names:
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name:
                out.add(name)
    out.discard(module_of(path))
    return out


def import_graph() -> dict[str, set[str]]:
    modules = our_modules()
    return {name: imports(path, modules) for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every cycle found by a depth-first walk (each reported once, from where it closes)."""
    found: list[list[str]] = []
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                found.append([*path[path.index(nxt) :], nxt])
            elif nxt not in state:
                visit(nxt)
        path.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)
    return found


def test_the_import_graph_has_no_cycles() -> None:
    assert cycles(import_graph()) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]


def test_metrics_imports_nothing_of_the_app() -> None:
    graph = import_graph()
    leaks = {
        name: sorted(m for m in deps if not m.startswith("metrics"))
        for name, deps in graph.items()
        if name.startswith("metrics")
    }
    assert {name: deps for name, deps in leaks.items() if deps} == {}


def test_no_module_of_the_app_is_over_500_lines() -> None:
    sizes = {
        str(path.relative_to(ROOT)): path.read_text(encoding="utf-8").count("\n")
        for path in (ROOT / "annotation").rglob("*.py")
        if "migrations" not in path.parts
    }
    assert {p: n for p, n in sizes.items() if n > MAX_LINES} == {}
