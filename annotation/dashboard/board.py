"""The dashboard of one corpus as a view shows it: the header's counts and every panel in
the page's order (:func:`dashboard_page`), or one panel (:func:`dashboard_panel`).

A view makes a :class:`~annotation.dashboard.parts.Parts` of its
:class:`~annotation.dashboard.inputs.DashboardInputs`, builds what it shows here, and
hands the frozen values to its template, which only reads them: no query runs while a
template renders. The panels themselves are :mod:`annotation.dashboard.panels`'.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from annotation.dashboard.figures import left_out, n_judgments
from annotation.dashboard.panels import PANELS
from annotation.dashboard.parts import Panel, Parts, Pending
from annotation.dashboard.sources import chosen_statistics, n_segments, systems

#: PANELS too: the page's panels, as the benches read them here.
__all__ = ["PANELS", "DashboardPage", "Header", "dashboard_page", "dashboard_panel", "page_header"]


@dataclass(frozen=True)
class Header:
    """What the page's header counts, and the judges left out of every figure (by name,
    remembered under the judgments stamp)."""

    n_segments: int
    systems: tuple[str, ...]
    n_judgments: int
    left_out: tuple[str, ...]


def page_header(parts: Parts) -> Header:
    return Header(
        parts.get(n_segments), parts.get(systems), parts.get(n_judgments), parts.get(left_out)
    )


@dataclass(frozen=True)
class DashboardPage:
    """The whole page: its header, and each panel with what it shows, or what the page
    waits for instead of the panels (while a worker computes the choice's figures)."""

    header: Header
    shown: tuple[tuple[Panel, Any], ...]
    pending: Pending | None = None


def dashboard_page(parts: Parts) -> DashboardPage:
    """Every panel, built now (no panel while the figures are pending)."""
    auto = parts.get(chosen_statistics)
    if isinstance(auto, Pending):
        return DashboardPage(page_header(parts), (), auto)
    shown = []
    for p in PANELS.values():
        built = parts.get(p.build)
        if isinstance(built, Pending):
            return DashboardPage(page_header(parts), (), built)
        shown.append((p, built))
    return DashboardPage(page_header(parts), tuple(shown))


def dashboard_panel(parts: Parts, name: str) -> Any:
    """What the panel ``name`` shows, or :class:`~annotation.dashboard.parts.Pending`
    (a ``ValueError`` naming an unknown panel)."""
    if name not in PANELS:
        raise ValueError(f"unknown panel {name!r}: choose one of {', '.join(PANELS)}")
    return parts.get(PANELS[name].build)
