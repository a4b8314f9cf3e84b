"""What the other features use of the control items, and nothing else: they import it
from here, never from a module of the package (``annotation/tests/test_layout.py``
checks), so the package can change inside without its callers knowing.

* the judge's page and queue (:mod:`annotation.judging`) place control items among the
  candidates and open them: where the runs of controls go and what each holds
  (:mod:`~annotation.controls.runs`), and which control is due
  (:mod:`~annotation.controls.queue`); a side-by-side screen's degraded copy of a
  candidate (:func:`~annotation.controls.queue.degraded_copy`);
* the lead's home (:mod:`annotation.corpora`) counts items, controls included;
* the dashboard's judges panel and the campaign page show each judge's controls
  (:mod:`~annotation.controls.quality`).
"""

from annotation.controls.quality import JudgeControls, corpus_controls
from annotation.controls.queue import ControlPlan, control_before, degraded_copy, due_control
from annotation.controls.runs import (
    ItemsProgress,
    Placement,
    RunItem,
    control_kinds,
    hidden_reference,
    items_progress,
    queue_progress,
    run_items,
    run_spans,
)

__all__ = [
    "ControlPlan",
    "ItemsProgress",
    "JudgeControls",
    "Placement",
    "RunItem",
    "control_before",
    "control_kinds",
    "degraded_copy",
    "corpus_controls",
    "due_control",
    "hidden_reference",
    "items_progress",
    "queue_progress",
    "run_items",
    "run_spans",
]
