"""The dashboard as a test reads it: one view's parts (:mod:`annotation.dashboard.parts`)
of a corpus, with the default choices but those given."""

from __future__ import annotations

from typing import Any

from annotation.dashboard.board import dashboard_page
from annotation.dashboard.inputs import DashboardInputs
from annotation.dashboard.parts import Parts
from annotation.dashboard.preprocessing import Preprocessing
from annotation.models import Corpus


def view_of(corpus: Corpus, preprocessing: Preprocessing | None = None, **choices: Any) -> Parts:
    """A view of ``corpus``'s dashboard (``choices``: ``normalize``, ``sort``,
    ``by_estimate``), its parts computed when first asked for."""
    return Parts(DashboardInputs(corpus, preprocessing or Preprocessing(), **choices))


def page_viewed(
    corpus: Corpus, preprocessing: Preprocessing | None = None, **choices: Any
) -> Parts:
    """A view of ``corpus``'s dashboard whose whole page is built, as the page's view
    builds it (:func:`~annotation.dashboard.board.dashboard_page`)."""
    parts = view_of(corpus, preprocessing, **choices)
    dashboard_page(parts)
    return parts
