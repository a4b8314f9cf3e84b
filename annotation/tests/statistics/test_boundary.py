"""The statistics package's boundary: the rest of the app imports ``annotation.statistics``
itself, never one of its submodules, nor a module the package replaced. So how the
figures are computed (by the queue's workers today: :mod:`annotation.statistics.jobs`) can
change inside the package without any caller knowing.

Only these tests of the package's own modules (``annotation/tests/statistics/``) may
reach inside: they test what the package keeps private."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = "annotation.statistics"
SUBMODULES = frozenset(p.stem for p in (ROOT / "annotation" / "statistics").glob("*.py")) - {
    "__init__"
}
#: Where the statistics code lived before it was one package.
OLD_MODULES = frozenset(
    {
        "annotation.scoring",
        "annotation.stored_statistics",
        "annotation.pool_statistics",
        "annotation.corpus_statistics",
        "annotation.pool_references",
        "annotation.candidates",
        "annotation.blobs",
        "annotation.metric_set",
        "annotation.dashboard.cache",
        "annotation.statistics.models",
    }
)
INSIDE = ("annotation/statistics/", "annotation/tests/statistics/")


def imported_modules(source: str) -> set[str]:
    """Every module an import statement of ``source`` names, ``from a import b`` naming
    both ``a`` and ``a.b`` (``b`` may be a submodule)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.add(node.module)
            out |= {f"{node.module}.{alias.name}" for alias in node.names}
    return out


def crossings(source: str) -> set[str]:
    """The imports of ``source`` that cross the boundary: a submodule of the package or
    a module it replaced."""
    submodules = {f"{PACKAGE}.{name}" for name in SUBMODULES}
    return {
        name
        for name in imported_modules(source)
        if name in OLD_MODULES or any(name == s or name.startswith(f"{s}.") for s in submodules)
    }


def test_the_app_imports_the_statistics_package_only() -> None:
    found = {}
    for path in sorted((ROOT / "annotation").rglob("*.py")):
        where = path.relative_to(ROOT).as_posix()
        if where.startswith(INSIDE) or "migrations" in path.parts:
            continue
        crossing = crossings(path.read_text(encoding="utf-8"))
        if crossing:
            found[where] = sorted(crossing)
    assert found == {}


def test_the_boundary_check_sees_a_submodule_and_an_old_module() -> None:
    source = (
        "from annotation.statistics import automatic_statistics\n"
        "from annotation.statistics.store import updated_statistics\n"
        "from annotation.statistics import memo\n"
        "import annotation.scoring\n"
        "from annotation.dashboard import cache\n"
    )

    assert crossings(source) == {
        "annotation.statistics.store",
        "annotation.statistics.store.updated_statistics",
        "annotation.statistics.memo",
        "annotation.scoring",
        "annotation.dashboard.cache",
    }
