"""The dashboard's panels, one module each, in the page's order (:data:`PAGE`).

A panel is a part registered with :func:`~annotation.dashboard.parts.panel` that builds
the frozen value its template ``dashboard/_<name>.html`` shows (or
:class:`~annotation.dashboard.parts.Pending`). To add one: a module here that registers
its part, its template, and its name in :data:`PAGE`; the page, its jump links and the
``panel/<name>/`` URL follow.
"""

from annotation.dashboard.panels import (  # noqa: F401 (each module registers its panel)
    adaptive,
    charts,
    effort,
    estimates,
    judges,
    meta,
    table,
)
from annotation.dashboard.parts import Panel, in_order

#: Where each panel stands on the page, first to last.
PAGE = ("table", "estimates", "adaptive", "charts", "judges", "effort", "meta")

PANELS: dict[str, Panel] = in_order(PAGE)
