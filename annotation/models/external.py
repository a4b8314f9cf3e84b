"""Segment scores a lead imported, computed elsewhere (COMET, MetricX, GEMBA, …): one
:class:`ExternalMetric` per named metric of a corpus, with its direction, and its scores
per system (:class:`ExternalScores`).

How they are read, checked, stored and turned into figures is
:mod:`annotation.statistics.external`'s; the file layouts and the rules a name follows
are :mod:`metrics.segment_scores`'.
"""

from __future__ import annotations

import numpy as np
from django.conf import settings
from django.db import models
from django.db.models.functions import Lower

from metrics.segment_scores import NAME_MAX_LENGTH

#: How :attr:`ExternalScores.values` holds one system's scores: little-endian float64,
#: one per sentence in the corpus's order.
SCORES_DTYPE = np.dtype("<f8")


class ExternalMetric(models.Model):
    """One imported metric of a corpus: its name (a column of the dashboard, a key of
    ``table.json`` and ``manage.py scores --json``), which way it points, and what the
    lead said of it. Its name is unique in the corpus whatever the case: "comet" and
    "COMET" would read as one column."""

    corpus = models.ForeignKey(
        "annotation.Corpus", on_delete=models.CASCADE, related_name="external_metrics"
    )
    name = models.CharField(max_length=NAME_MAX_LENGTH)
    higher_is_better = models.BooleanField()
    description = models.CharField(
        max_length=500, blank=True, help_text="What it is: model, version, reference used."
    )
    layout = models.CharField(max_length=10, blank=True, help_text="tsv, wmt; '' if computed")
    source = models.CharField(max_length=200, blank=True, help_text="the file it came from")
    imported_at = models.DateTimeField(auto_now_add=True)
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["corpus", "imported_at", "pk"]
        constraints = [
            models.UniqueConstraint("corpus", Lower("name"), name="external_metric_unique_name"),
        ]

    def __str__(self) -> str:
        return f"{self.corpus_id}: {self.name}"


class ExternalScores(models.Model):
    """One system's scores of an imported metric: ``values``, little-endian float64, one
    per sentence in the corpus's order (a few kilobytes per system for a corpus of
    1,000 sentences; the dashboard reads every row of a corpus in one query). ``NaN``
    marks a sentence whose candidate's text changed after the import
    (:func:`annotation.changes.candidates_changed`): its score was of another text.
    Human system-level scores imported alone (the metric's layout
    :data:`~metrics.segment_scores.SYSTEM_LAYOUT`) hold one float instead: the system's
    published figure, ``NaN`` for none."""

    metric = models.ForeignKey(ExternalMetric, on_delete=models.CASCADE, related_name="scores")
    translator = models.ForeignKey(
        "annotation.Translator", on_delete=models.CASCADE, related_name="external_scores"
    )
    values = models.BinaryField()

    class Meta:
        verbose_name_plural = "external scores"
        constraints = [
            models.UniqueConstraint(
                fields=["metric", "translator"], name="external_scores_unique_system"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.metric_id}: {self.translator_id}"
