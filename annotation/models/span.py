"""The error spans of ESA and MQM judgments: one row per span a judge marked, or per span
suggested to them (ESA with pre-filled spans).

A span is a stretch ``[start, end)`` of the candidate's characters with a severity and,
in MQM, a category; a ``[MISSING]`` marker is an empty span where something is missing.
The rules a judgment's spans obey together (inside the text, no overlap, a category of
the corpus's taxonomy) are :mod:`metrics.error_spans`', checked before a write; the
database guards what one row can say alone.

**Suggested and kept.** Where the corpus pre-fills spans, each suggestion is a row of
origin ``suggested``, written once and never changed; the judge's own spans are rows of
origin ``judge``, and one that started as a suggestion names it (``suggestion``). So
both what was suggested and what the judge kept are stored: a suggestion no judge span
names was removed, one named by an equal span was kept, one named by a different span
(moved, resized, another severity) was edited. ``seconds``: the judge's active time on
the span, from its first mark to its last change (a suggestion's: 0). ``source``: where
a suggestion came from (:class:`Span.Source`), so the campaign page can say how often
each source's suggestions were kept; a judge's span has none.

**Imported suggestions** wait in :class:`ImportedSpans`, one row per candidate, until a
judge first opens the candidate: then they become that judgment's suggested rows
(:mod:`annotation.judging.prefill`).
"""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q

from annotation.models.corpus import Target
from annotation.models.judgment import Judgment
from metrics.error_spans import MarkedSpan
from metrics.mqm import CATEGORY_MAX_LENGTH, SEVERITIES


class Span(models.Model):
    class Origin(models.TextChoices):
        JUDGE = "judge", "Marked by the judge"
        SUGGESTED = "suggested", "Suggested (pre-filled)"

    class Source(models.TextChoices):
        AWER = "awer", "aWER alignment"
        IMPORTED = "imported", "Imported span file"

    judgment = models.ForeignKey(Judgment, on_delete=models.CASCADE, related_name="spans")
    start = models.PositiveIntegerField(help_text="First character (Unicode code points).")
    end = models.PositiveIntegerField(help_text="One past the last character.")
    missing = models.BooleanField(default=False, help_text="A [MISSING] marker: start = end.")
    severity = models.CharField(max_length=8, choices=[(s, s) for s in SEVERITIES])
    category = models.CharField(max_length=CATEGORY_MAX_LENGTH, blank=True, default="")
    origin = models.CharField(max_length=10, choices=Origin.choices, default=Origin.JUDGE)
    suggestion = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="kept_as"
    )
    seconds = models.FloatField(default=0)
    source = models.CharField(max_length=10, choices=Source.choices, blank=True, default="")

    class Meta:
        ordering = ["judgment", "origin", "start", "end", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(missing=True, start=F("end")) | Q(missing=False, start__lt=F("end")),
                name="span_stretch_or_marker",
            ),
            models.CheckConstraint(
                condition=Q(severity__in=list(SEVERITIES)), name="span_severity_known"
            ),
            models.CheckConstraint(
                condition=Q(origin="judge") | Q(suggestion__isnull=True),
                name="span_only_a_judges_span_names_a_suggestion",
            ),
            models.CheckConstraint(condition=Q(seconds__gte=0), name="span_seconds_not_negative"),
            models.CheckConstraint(
                condition=Q(origin="judge", source="")
                | Q(origin="suggested", source__in=["awer", "imported"]),
                name="span_a_suggestion_has_a_source",
            ),
        ]

    def __str__(self) -> str:
        what = "[MISSING]" if self.missing else f"{self.start}–{self.end}"
        return f"{self.severity} {self.category or 'error'} at {what} ({self.origin})"

    @property
    def marked(self) -> MarkedSpan:
        """The span as :mod:`metrics.error_spans` checks it."""
        return MarkedSpan(self.start, self.end, self.severity, self.category, self.missing)


class ImportedSpans(models.Model):
    """The spans an imported file suggests for one candidate (:mod:`metrics.span_file`),
    as :func:`~annotation.judging.span_rows.span_json` writes them (an empty list: the
    file found no error), waiting for its judges to open it. A later file of the same
    system replaces them; a judgment opened before keeps what it was suggested."""

    target = models.OneToOneField(Target, on_delete=models.CASCADE, related_name="imported_spans")
    spans = models.JSONField(default=list, blank=True)
    source = models.CharField(max_length=200, blank=True, help_text="the file it came from")
    imported_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "imported spans"

    def __str__(self) -> str:
        return f"{self.target_id}: {len(self.spans)} spans"
