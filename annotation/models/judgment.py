"""One evaluator's judgments of the corpus's candidates (:mod:`annotation.models.corpus`
holds the corpora, their translators, sentences and targets): an SSER score and an aWER
new reference with its edit count, an ESA score, or error spans, and the control items
mixed into a judge's queue, which no figure counts (:meth:`JudgmentQuerySet.counted`).

A module of its own, which the corpus's module imports and not the other way round: the
corpus's querysets read judgments, and a judgment names its target and translator by
string, and reaches the corpus's left-out judges through the evaluator's side of the link.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Count, F, OuterRef, Q, Sum, Value
from django.db.models.functions import Coalesce

from annotation.users import User
from metrics.human import SSER_MAX, SSER_MIN  # the format's scale (seed 001 §2.2)
from metrics.protocols import ESA_MAX, ESA_MIN


class JudgmentQuerySet(models.QuerySet["Judgment"]):
    def done(self) -> JudgmentQuerySet:
        """Accepted judgments, control items included: figures read :meth:`counted`."""
        return self.filter(state=Judgment.State.DONE)

    def real(self) -> JudgmentQuerySet:
        """Judgments of the corpus's candidates, no control item: at most one per
        candidate and judge (what the judge's page opens, the export writes)."""
        return self.filter(control=Judgment.Control.NONE)

    def controls(self) -> JudgmentQuerySet:
        """Control items only (:mod:`annotation.controls`)."""
        return self.exclude(control=Judgment.Control.NONE)

    def counted(self) -> JudgmentQuerySet:
        """The judgments every figure and progress count reads (done, no control item):
        the one place that says control items never count (see :data:`COUNTED`)."""
        return self.filter(COUNTED)

    def in_figures(self, corpus_id: int) -> JudgmentQuerySet:
        """The judgments the figures of corpus ``corpus_id`` read (the dashboard, its
        downloads, ``scores``, the grown pool): :meth:`counted`, and not by a judge the
        lead left out of the corpus (``Corpus.excluded_judges``: see :func:`left_out`).
        Progress is not a figure: a judge left out still works through their queue."""
        return self.counted().of_corpus(corpus_id).filter(left_out(corpus_id))

    def of_corpus(self, corpus_id: int | OuterRef) -> JudgmentQuerySet:
        """Judgments of a corpus (a control item may be on a reference target), found
        through the translator, which names the corpus: one join fewer than the sentence."""
        return self.filter(target__translator__corpus_id=corpus_id)

    def per_evaluator_and_translator(self) -> models.QuerySet[Any]:
        """One row per (evaluator, translator) pair: ``evaluator_id``, ``username``,
        ``translator_id``, ``n`` judgments and their ``seconds`` of active time. As many
        rows as judges times systems, whatever the number of sentences."""
        return (
            self.order_by()
            .values("evaluator_id", "target__translator_id")
            .annotate(
                username=F("evaluator__username"),
                translator_id=F("target__translator_id"),
                n=Count("pk"),
                seconds=Coalesce(Sum("active_seconds"), Value(0.0)),
            )
        )


class Judgment(models.Model):
    """One evaluator's judgment of one system target: SSER and the aWER new reference.

    ``edits`` / ``ref_length`` is the candidate's aWER against ``new_ref`` (seed 001 §2.3),
    recomputed whenever the new reference changes (:func:`annotation.text.new_ref_counts`);
    ``ter_edits`` / ``ter_length`` its HTER, emptied then and filled once the judgment is
    done (:mod:`annotation.statistics.hter`); ``version`` increases with every change so a
    change made from a stale page can be refused. ``note`` and ``flag``: the judge's;
    ``severities``: its error spans' severities (:mod:`annotation.spans`).
    ``ier_items``: IER's information items (:mod:`annotation.ier`), with their counts.
    ``esa_score``: an ESA corpus's 0–100 score; its error spans are :class:`~annotation.
    models.span.Span` rows (``spans``).

    A *control item* (``control`` set, :mod:`annotation.controls`) has a known answer:
    a reference shown as a candidate under the label of ``shown_as``, a candidate shown
    again, or one with injected errors (WMT's "bad reference": its own ``shown_text``,
    so nothing of it reaches a target, pool or metric); one per (target, judge, kind),
    never in a figure (:meth:`JudgmentQuerySet.counted`)."""

    class State(models.TextChoices):
        PENDING = "pending", "Pending"
        DONE = "done", "Done"

    class Control(models.TextChoices):
        NONE = "", "Real judgment"
        REFERENCE = "reference", "Control: a reference shown as a candidate"
        REPEAT = "repeat", "Control: a candidate shown again"
        DEGRADED = "degraded", "Control: a candidate with injected errors"

    class Flag(models.TextChoices):  # evaltrans.schema.FLAGS, ``judgeFlag`` of <eval>
        NONE = "", "No flag"
        GARBLED = "garbled", "The source is garbled"
        UNSURE = "unsure", "Unsure"
        OTHER = "other", "Other (see the note)"

    target = models.ForeignKey(
        "annotation.Target", on_delete=models.CASCADE, related_name="judgments"
    )
    evaluator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="judgments"
    )
    sser = models.PositiveSmallIntegerField(null=True, blank=True)
    # An ESA corpus's 0–100 score of the candidate (metrics.protocols); its error spans
    # (and an MQM judgment's) are its rows of annotation.models.span.Span.
    esa_score = models.PositiveSmallIntegerField(null=True, blank=True)
    new_ref = models.TextField(blank=True, default="")
    edits = models.PositiveIntegerField(null=True, blank=True)
    ref_length = models.PositiveIntegerField(null=True, blank=True)
    ter_edits = models.PositiveIntegerField(null=True, blank=True)
    ter_length = models.PositiveIntegerField(null=True, blank=True)
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    version = models.PositiveIntegerField(default=1)
    active_seconds = models.FloatField(default=0)
    note = models.TextField(blank=True, default="")
    flag = models.CharField(max_length=10, choices=Flag.choices, blank=True, default="")
    #: The operations the judge marked major, ``{op key: "major"}`` (:mod:`annotation.spans`).
    severities = models.JSONField(default=dict, blank=True)
    # IER (annotation.ier): [[start, end, label], …] over the candidate's 13a words, and
    # the counts IER reads (null without items).
    ier_items = models.JSONField(default=list, blank=True, editable=False)
    ier_errors = models.PositiveIntegerField(null=True, blank=True, editable=False)
    ier_length = models.PositiveIntegerField(null=True, blank=True, editable=False)
    # The part of active_seconds spent on IER changes, and their number (seed 001 Table 3).
    ier_seconds = models.FloatField(default=0, editable=False)
    ier_clicks = models.PositiveIntegerField(default=0, editable=False)
    extra_attrs = models.JSONField(default=list, blank=True)
    extra_xml = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # The corpus's judgments stamp of the latest click to, on or from done (0: none), by
    # which kept rows are brought up to date (annotation.changes.judgment_changing), and
    # the corpus whose stamp it is (its target's; 0: none yet). The stamps are counted
    # per corpus, so the changed judgments are looked up by both at once (the index
    # "judgment_figures_stamp"): by the stamp alone, the read would walk every other
    # corpus's judgments stamped above it.
    figures_stamp = models.PositiveBigIntegerField(default=0, editable=False)
    figures_corpus = models.PositiveBigIntegerField(default=0, editable=False)
    control = models.CharField(
        max_length=10, choices=Control.choices, blank=True, default=Control.NONE
    )
    shown_as = models.ForeignKey(
        "annotation.Translator",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        help_text="The system whose label a reference shown as a candidate carries.",
    )
    shown_text = models.TextField(
        blank=True,
        default="",
        help_text="A bad-reference control's candidate: its target's with injected errors.",
    )
    # The batch it was judged in, where the campaign splits the work: what a batch given
    # back to the pool keeps as done (annotation.campaigns.dealing).
    task = models.ForeignKey(
        "annotation.Task",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="judgments",
    )

    objects = JudgmentQuerySet.as_manager()

    # Not columns: what annotation.judging.stack reads into a judgment (its loading
    # query's annotations, or load_stack), present only once read.
    stack_last_event_at: datetime | None
    stack_applied: int
    stack_undone: int
    stack_undo_id: int | None
    stack_undo_before: dict[str, Any] | None
    stack_redo_id: int | None
    stack_redo_after: dict[str, Any] | None

    class Meta:
        ordering = ["target", "evaluator"]
        indexes = [
            models.Index(fields=["figures_corpus", "figures_stamp"], name="judgment_figures_stamp")
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["target", "evaluator", "control"], name="judgment_unique_evaluator"
            ),
            models.CheckConstraint(
                condition=Q(control="", shown_as__isnull=True)
                | Q(control="repeat", shown_as__isnull=True)
                | Q(control="reference", shown_as__isnull=False)
                | Q(control="degraded", shown_as__isnull=True),
                name="judgment_control_kind",
            ),
            models.CheckConstraint(
                condition=Q(sser__isnull=True) | Q(sser__gte=SSER_MIN, sser__lte=SSER_MAX),
                name="judgment_sser_range",
            ),
            models.CheckConstraint(
                condition=Q(esa_score__isnull=True)
                | Q(esa_score__gte=ESA_MIN, esa_score__lte=ESA_MAX),
                name="judgment_esa_score_range",
            ),
            models.CheckConstraint(
                condition=Q(edits__isnull=True) | Q(ref_length__isnull=False),
                name="judgment_edits_with_length",
            ),
            models.CheckConstraint(
                condition=Q(ter_edits__isnull=True) | Q(ter_length__isnull=False),
                name="judgment_ter_edits_with_length",
            ),
        ]

    def __str__(self) -> str:
        control = f" (control: {self.control})" if self.control else ""
        return f"{self.evaluator} on {self.target}{control}"

    @property
    def candidate_text(self) -> str:
        """The candidate as the judge sees it and every count of the judgment reads it:
        the target's text, or a bad-reference control's own (``shown_text``)."""
        if self.control == Judgment.Control.DEGRADED:
            return self.shown_text
        return self.target.text

    @property
    def awer_fraction(self) -> str | None:
        """The evalTrans ``awer`` attribute, "edits/length"."""
        if self.edits is None or self.ref_length is None:
            return None
        return f"{self.edits}/{self.ref_length}"


#: The judgments every figure and progress count reads, as a condition (for the
#: querysets that combine it, like the reference pool's): done, and no control item.
#: :meth:`JudgmentQuerySet.counted` is this filter.
COUNTED = Q(state=Judgment.State.DONE, control=Judgment.Control.NONE)


def left_out(corpus_id: int) -> Q:
    """Judgments not by a judge left out of corpus ``corpus_id``'s figures, as a condition
    querysets combine (:meth:`JudgmentQuerySet.in_figures`, the shared reference pool): the
    one place that says whose work the figures leave out."""
    # Corpus.excluded_judges's link table, reached from the evaluator's side of it.
    excluded = User.excluded_from.through.objects.filter(corpus_id=corpus_id)
    return ~Q(evaluator_id__in=excluded.values("user_id"))
