"""The shape of the house, checked: our modules import each other without a cycle (an
import inside a function counts, and so, for cycles, does a type hint's), in
layers (:data:`LAYERS`: a module imports only from its own layer or those below it),
a feature uses another only through that one's ``api`` module (:data:`PUBLIC`), and
``metrics/`` imports nothing of the app. No function is longer than
:data:`FUNCTION_MAX_LINES`; how long a module grows is advice, not a rule (about 500
lines: a module that needs banners wants to be a package).
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Collection, Iterator
from pathlib import Path

import pytest

#: One worker of a parallel run reads the modules for every test here (2.7 s to parse
#: them all, once a process: :func:`parsed`), not each worker its own copy.
pytestmark = pytest.mark.xdist_group("layout")

ROOT = Path(__file__).resolve().parents[2]
OURS = ("annotation", "metrics", "evaltool")

#: The layers of the house, lowest first, each a list of module prefixes (the longest
#: prefix that names a module places it). The rules of words, spans, IER items, limits,
#: the pace and the queue's drawn order hold no database; the file format reads and
#: writes evalTrans without the ORM; the models hold the rows (with the writer that
#: inserts them in bulk, and the one module that says what changed by moving the
#: corpus's stamps); the statistics (and the queue that runs them) read the models;
#: the shared reads are what several features read alike (what a dealt batch holds, a
#: failed upload); the feature packages use all of these; views, URLs and the admin sit
#: on top. A view or URL module of a feature package belongs to the top layer.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("metrics", ("metrics",)),
    (
        "rules",
        (
            "annotation.text",
            "annotation.spans",
            "annotation.ier",
            "annotation.limits",
            "annotation.pace",
            "annotation.queue_order",
            "annotation.release",
        ),
    ),
    ("file format", ("annotation.formatting", "annotation.corpora.evaltrans")),
    (
        "models",
        ("annotation.models", "annotation.users", "annotation.rows", "annotation.changes"),
    ),
    ("statistics", ("annotation.statistics", "annotation.jobs")),
    ("shared reads", ("annotation.dealt", "annotation.uploads")),
    (
        "features",
        (
            "annotation",
            "annotation.corpora",
            "annotation.judging",
            "annotation.controls",
            "annotation.campaigns",
            "annotation.dashboard",
            "annotation.management",
            "annotation.templatetags",
        ),
    ),
    ("views", ("annotation.urls", "annotation.admin", "evaltool")),
)
VIEWS = len(LAYERS) - 1


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


def statements(tree: ast.AST, *, hints: bool = True) -> Iterator[ast.stmt]:
    """Every statement of ``tree``, nested ones too (in functions, classes, branches,
    handlers, cases); without ``hints``, not those under ``if TYPE_CHECKING:``. A
    statement stands only in another's lists, never in an expression, so the walk leaves
    the expressions (most of a module's nodes) unvisited: every module is read so, several
    times."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.stmt):
            yield node
        hidden = (
            {id(child) for child in node.body}
            if not hints and isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
            else set()
        )
        stack.extend(
            child
            for child in ast.iter_child_nodes(node)
            if isinstance(child, ast.stmt | ast.excepthandler | ast.match_case)
            and id(child) not in hidden
        )


def _import_statements(tree: ast.Module, *, hints: bool) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement, wherever it stands (one inside a function runs when the
    function does, so it is an import all the same); without ``hints``, not those under
    ``if TYPE_CHECKING:`` (never run)."""
    return [n for n in statements(tree, hints=hints) if isinstance(n, ast.Import | ast.ImportFrom)]


def _runtime_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement that runs (:func:`_import_statements` without hints)."""
    return _import_statements(tree, hints=False)


def imported(source: str, name: str, modules: Collection[str], *, hints: bool) -> set[str]:
    """The modules of ours (``modules``) that the module ``name`` of text ``source``
    imports when it runs; with ``hints``, those its type hints name as well."""
    return _imported(ast.parse(source), name, modules, hints=hints)


@functools.cache
def parsed(path: Path) -> ast.Module:
    """The module in ``path``, parsed once a process (the layout's tests read every
    module, several times)."""
    return ast.parse(path.read_text(encoding="utf-8"))


def _imported(tree: ast.Module, name: str, modules: Collection[str], *, hints: bool) -> set[str]:
    out: set[str] = set()
    for node in _import_statements(tree, hints=hints):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            names = [f"{base}.{alias.name}" for alias in node.names] + [base]
        for found in names:
            while found and found not in modules:
                found = found.rpartition(".")[0]
            if found:
                out.add(found)
    out.discard(name)
    return out


def import_graph(*, hints: bool = False) -> dict[str, set[str]]:
    """Each module of ours → the modules of ours it imports (:func:`imported`)."""
    return {name: set(deps) for name, deps in _import_graph(hints).items()}


@functools.cache
def _import_graph(hints: bool) -> dict[str, frozenset[str]]:
    """Read once a process: six tests ask, and each reading parses every module."""
    modules = our_modules()
    return {
        name: frozenset(_imported(parsed(path), name, modules, hints=hints))
        for name, path in modules.items()
    }


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
    """Not even through type hints: two modules whose hints name each other must be read,
    and changed, together as much as two that import each other."""
    assert cycles(import_graph(hints=True)) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]


LAZY = """
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from annotation.models import Corpus

def text_of(corpus: Corpus) -> str:
    from annotation.text import words
    return " ".join(words(corpus.name))
"""


def test_an_import_inside_a_function_is_an_import() -> None:
    ours = {"annotation.models", "annotation.text", "annotation.lazy"}
    assert imported(LAZY, "annotation.lazy", ours, hints=False) == {"annotation.text"}


def test_a_type_hint_is_an_import_for_the_cycles_only() -> None:
    ours = {"annotation.models", "annotation.text", "annotation.lazy"}
    with_hints = imported(LAZY, "annotation.lazy", ours, hints=True)
    assert with_hints == {"annotation.models", "annotation.text"}


def test_metrics_imports_nothing_of_the_app() -> None:
    graph = import_graph()
    leaks = {
        name: sorted(m for m in deps if not m.startswith("metrics"))
        for name, deps in graph.items()
        if name.startswith("metrics")
    }
    assert {name: deps for name, deps in leaks.items() if deps} == {}


def layer_of(module: str) -> int:
    """The layer of ``module`` (an index into :data:`LAYERS`)."""
    if module.rpartition(".")[2] in ("views", "urls") or ".views." in module:
        return VIEWS
    found = [
        (len(prefix), k)
        for k, (_, prefixes) in enumerate(LAYERS)
        for prefix in prefixes
        if module == prefix or module.startswith(prefix + ".")
    ]
    if not found:
        raise LookupError(f"{module}: in no layer (add it to LAYERS)")
    return max(found)[1]


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """Each import from a higher layer, as "importer (layer) → imported (layer)"."""
    out = []
    for module, deps in sorted(graph.items()):
        if ".tests" in module or module.endswith("tests"):
            continue
        mine = layer_of(module)
        for dep in sorted(deps):
            theirs = layer_of(dep)
            if theirs > mine:
                out.append(f"{module} ({LAYERS[mine][0]}) → {dep} ({LAYERS[theirs][0]})")
    return out


def test_every_module_imports_only_from_its_layer_or_below() -> None:
    assert upward_imports(import_graph()) == []


def test_an_upward_import_is_found() -> None:
    graph = {"annotation.text": {"annotation.models"}, "annotation.models": {"annotation.text"}}
    assert upward_imports(graph) == ["annotation.text (rules) → annotation.models (models)"]


def test_the_rules_and_the_file_format_need_no_database() -> None:
    """The layers under the models import no ORM at run time (type hints may name it)."""
    below_models = [name for name, _ in LAYERS[: [n for n, _ in LAYERS].index("models")]]
    reaching: dict[str, list[str]] = {}
    for name, path in our_modules().items():
        if ".tests" in name or LAYERS[layer_of(name)][0] not in below_models:
            continue
        tree = parsed(path)
        django = sorted(
            {
                (n.module if isinstance(n, ast.ImportFrom) else n.names[0].name) or ""
                for n in _runtime_imports(tree)
            }
            & {"django.db", "django.db.models"}
        )
        if django:
            reaching[name] = django
    assert reaching == {}


#: The feature packages, each over the layers below it. One that needs another imports
#: that one's ``api`` module, never a module inside it; the command line and the
#: template tags, like the views, are the house's doors, not features.
FEATURES = (
    "annotation.campaigns",
    "annotation.controls",
    "annotation.corpora",
    "annotation.dashboard",
    "annotation.judging",
)
#: The features with an ``api`` module, and why another feature needs it (the module's
#: doc says what it holds and who reads it). A rule two features share moves down a
#: layer instead; these are a feature's own services, which another one calls.
PUBLIC: dict[str, str] = {
    "annotation.campaigns": "a click deals the judge's batches; an import joins a campaign",
    "annotation.controls": "control items sit in the judge's queue and in the lead's figures",
    "annotation.corpora": "the dashboard downloads a corpus's judgments as MQM, Appraise "
    "and mt-metrics-eval write them",
    "annotation.judging": "the lead's home lists the judge's batches as the judge's page does",
}


def feature_of(module: str) -> str | None:
    """The feature package ``module`` belongs to, if any."""
    return next((f for f in FEATURES if module == f or module.startswith(f + ".")), None)


def sideways_imports(graph: dict[str, set[str]]) -> list[str]:
    """Each import of a feature's module by another feature other than through its
    public ``api`` module (:data:`PUBLIC`), as "importer → imported". A module of a lower
    layer that lives in a feature's folder (the evalTrans format) is no feature's."""
    features = [name for name, _ in LAYERS].index("features")
    out = []
    for module, deps in sorted(graph.items()):
        mine = feature_of(module)
        for dep in sorted(deps):
            theirs = feature_of(dep)
            if mine is None or theirs in (None, mine) or layer_of(dep) < features:
                continue
            if not (theirs in PUBLIC and dep == f"{theirs}.api"):
                out.append(f"{module} → {dep}")
    return out


def test_a_feature_uses_another_only_through_its_api() -> None:
    assert sideways_imports(import_graph(hints=True)) == []


def test_a_sideways_import_is_found() -> None:
    graph = {
        "annotation.judging.start": {
            "annotation.controls.api",  # public
            "annotation.controls.queue",  # inside another feature
            "annotation.corpora.evaltrans",  # the file format, a lower layer
            "annotation.dashboard.api",  # not a public module
            "annotation.judging.order",  # its own
        }
    }
    assert sideways_imports(graph) == [
        "annotation.judging.start → annotation.controls.queue",
        "annotation.judging.start → annotation.dashboard.api",
    ]


def test_every_public_module_is_listed_with_its_reason() -> None:
    modules = our_modules()
    assert {f for f in FEATURES if f"{f}.api" in modules} == set(PUBLIC)


def feature_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """Each feature → the other features its modules import (the file format in the
    corpora's folder is no feature's: :func:`sideways_imports`)."""
    features = [name for name, _ in LAYERS].index("features")
    out: dict[str, set[str]] = {f: set() for f in FEATURES}
    for module, deps in graph.items():
        mine = feature_of(module)
        if mine is not None:
            out[mine] |= {
                theirs
                for dep in deps
                if (theirs := feature_of(dep)) not in (None, mine) and layer_of(dep) >= features
            }
    return out


def test_the_features_use_each_other_without_a_cycle() -> None:
    """A circle of features (controls reading judging's order while judging opens the
    controls) is two features that can only be changed together."""
    assert cycles(feature_graph(import_graph(hints=True))) == []


def test_a_cycle_of_features_is_found() -> None:
    graph = {
        "annotation.controls.queue": {"annotation.judging.api"},
        "annotation.judging.start": {"annotation.controls.api"},
    }
    assert cycles(feature_graph(graph)) == [
        ["annotation.controls", "annotation.judging", "annotation.controls"]
    ]


#: The longest a function may be, from its ``def`` to its last line, docstring included:
#: one a reader takes in at once. A longer one is steps that want their own names.
FUNCTION_MAX_LINES = 80


def long_functions(source: str | ast.Module, name: str) -> list[str]:
    """The functions of ``source`` (module ``name``, its text or parsed) longer than
    :data:`FUNCTION_MAX_LINES`, as "module:line function (length)"."""
    tree = ast.parse(source) if isinstance(source, str) else source
    return [
        f"{name}:{node.lineno} {node.name} ({length} lines)"
        for node in statements(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and (length := (node.end_lineno or node.lineno) - node.lineno + 1) > FUNCTION_MAX_LINES
    ]


def test_no_function_is_longer_than_80_lines() -> None:
    """Anywhere: the app, the metrics, the settings, the tests and the bench scripts."""
    found = [
        line
        for package in (*OURS, "bench")
        for path in sorted((ROOT / package).rglob("*.py"))
        if "migrations" not in path.parts
        for line in long_functions(parsed(path), module_of(path))
    ]
    assert found == []


def test_a_long_function_is_found() -> None:
    source = "def short() -> None:\n    pass\n\n\nclass A:\n    def long(self) -> None:\n"
    source += "        x = 1\n" * FUNCTION_MAX_LINES
    assert long_functions(source, "m") == ["m:6 long (81 lines)"]
