"""How the dashboard is built: parts, :class:`Pending`, and the panels' registry.

A *part* is a function of one view's :class:`Parts` that returns one frozen value: the
stored automatic statistics of the choice, the done judgments, the metrics table, a
panel. It asks for the parts it needs through :meth:`Parts.get`, which computes each at
most once per view and only when asked: a part remembered between requests
(:mod:`~annotation.statistics.memo`) asks for what it is computed from inside its
``compute``, so a view that finds it remembered reads nothing it is made of (the query
counts of ``tests/dashboard/test_views.py`` hold the pages to that).

A figure that a worker is still computing (a choice never scored, the grown pool's
backlog: :mod:`annotation.statistics.jobs`) is not an error but a value: such a part
returns :class:`Pending` with the jobs, and a part built on it returns that same value
on. A view shows the jobs' progress where it finds one.

A *panel* is a part registered with :func:`panel` under the name of its URL
(``panel/<name>/``) and of its template (``dashboard/_<name>.html``, which reads the
panel's value as ``panel``); :mod:`annotation.dashboard.panels` puts them in the page's
order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from annotation.dashboard.inputs import DashboardInputs
from annotation.dashboard.preprocessing import Preprocessing
from annotation.jobs import Job
from annotation.models import Corpus
from annotation.statistics import Backlog

T = TypeVar("T")
Builder = TypeVar("Builder", bound=Callable[["Parts"], Any])


@dataclass(frozen=True)
class Pending:
    """What a view shows while a worker computes its figures: ``jobs`` are the jobs
    computing them (queued, running, or failed and waiting for the lead's retry), and
    ``backlog`` what the grown pool's job scores (empty for any other job)."""

    jobs: tuple[Job, ...]
    backlog: Backlog = field(default_factory=Backlog)

    @property
    def failed(self) -> bool:
        return any(job.status == Job.Status.FAILED for job in self.jobs)


class Parts:
    """The parts of one view of the dashboard: its inputs, and each part computed once,
    when first asked for. Kept for one request only (the view's template context holds
    the values, not this object)."""

    def __init__(self, inputs: DashboardInputs) -> None:
        self.inputs = inputs
        self._found: dict[Callable[[Parts], Any], Any] = {}

    @property
    def corpus(self) -> Corpus:
        return self.inputs.corpus

    @property
    def preprocessing(self) -> Preprocessing:
        return self.inputs.preprocessing

    def get(self, part: Callable[[Parts], T]) -> T:
        """``part``'s value for this view: computed now if not asked for before."""
        if part not in self._found:
            self._found[part] = part(self)
        return cast(T, self._found[part])

    def has(self, part: Callable[[Parts], Any]) -> bool:
        """Whether ``part`` was computed already (so a narrower read can reuse it)."""
        return part in self._found


@dataclass(frozen=True)
class Panel:
    """A panel of the page: its name (URL and template), its heading in the page's
    jump links, the ``id`` of its section, and the part that builds what it shows."""

    name: str
    title: str
    anchor: str
    build: Callable[[Parts], Any]

    @property
    def template(self) -> str:
        return f"dashboard/_{self.name}.html"


_REGISTERED: dict[str, Panel] = {}


def panel(name: str, *, title: str, anchor: str = "") -> Callable[[Builder], Builder]:
    """Register the decorated part as the panel ``name`` (its section's ``id`` is
    ``anchor``, else ``name``). The part returns what the template shows, or
    :class:`Pending`."""

    def register(build: Builder) -> Builder:
        if name in _REGISTERED:
            raise ValueError(f"panel {name!r} is registered twice")
        _REGISTERED[name] = Panel(name, title, anchor or name, build)
        return build

    return register


def in_order(names: tuple[str, ...]) -> dict[str, Panel]:
    """The registered panels in the order of ``names``: a ``ValueError`` names a panel
    registered but not placed, or placed but not registered."""
    if set(names) != set(_REGISTERED):
        unplaced = sorted(set(_REGISTERED) - set(names))
        unknown = sorted(set(names) - set(_REGISTERED))
        raise ValueError(f"panels not placed: {unplaced}; placed, not registered: {unknown}")
    return {name: _REGISTERED[name] for name in names}
