"""The evalTrans schema (seed 001 §3.1) as models: corpora and their texts.

A corpus holds sentences; each sentence has a source and one *target* per translator.
Translators are references (the first one is the single reference of WER and SER) or
MT systems. A system's target receives *judgments*, one per evaluator
(:mod:`annotation.models.judgment`): an SSER score and an aWER new reference with its
edit count. Control items (known answers mixed into a judge's queue,
:mod:`annotation.controls`) are judgments too, marked by their kind; every figure reads
:meth:`~annotation.models.judgment.JudgmentQuerySet.counted`, which leaves them out.

Reads the pages need are queryset methods (``Corpus.objects.with_progress(user)``);
writes that touch several models are service functions of the feature packages. The
database guards the invariants.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Case, Exists, F, OuterRef, Q, When

from annotation.limits import NAME_MAX_LENGTH
from annotation.models.campaign import Campaign, Task, corpus_items_done, free_campaign_name
from annotation.models.judgment import COUNTED, Judgment
from annotation.models.subqueries import count_of, scalar_total
from annotation.text import REFERENCE_ROLES
from annotation.users import User
from metrics.mqm import Taxonomy, taxonomy_from_json, wmt_taxonomy_json
from metrics.protocols import ESA_MAX

#: Why an aWER corpus with IER on was not judged side by side before its panels offered
#: IER's items; kept for its name (:attr:`Corpus.side_by_side_refusal` refuses none now).
ERR_SIDE_BY_SIDE_IER = (
    "Side by side does not offer IER's information items: this corpus has IER on. "
    "Turn IER off on its page, or judge it one candidate at a time."
)

#: Control items (annotation.controls): about one in every N items of a judge's queue (the
#: same whole number in every sentence's run), N from 3 to 100; by default 1 in 10: a
#: tenth of a judge's time, enough controls for a pass rate within the first hundred.
CONTROL_RATE_MIN, CONTROL_RATE_DEFAULT, CONTROL_RATE_MAX = 3, 10, 100
#: Below this share of passed control items (percent) a judge is flagged. Each control
#: has a strict expectation (0 edits; the very same new reference), so 70 % leaves room
#: for an honest slip while catching a judge who clicks through.
CONTROL_THRESHOLD_DEFAULT = 70
#: ESA and MQM control items (annotation.controls.scored): a candidate with injected errors
#: passes when scored at least this far below its original (ESA: points of 0–100; MQM:
#: penalty points above it), a repeat when within this of its first score. ESA's 10
#: points is a third of a guideline anchor's step; MQM's 1 point is one more minor error
#: (about one error is injected every six words) and its 5 one major error.
CONTROL_ESA_DROP_DEFAULT, CONTROL_ESA_TOLERANCE_DEFAULT = 10, 10
CONTROL_MQM_DROP_DEFAULT, CONTROL_MQM_TOLERANCE_DEFAULT = 1.0, 5.0
#: The least MQM drop a lead may ask: the smallest of WMT's weights (minor punctuation).
CONTROL_MQM_DROP_MIN = 0.1
#: The most MQM penalty points a lead may ask for a drop or a tolerance: a segment with
#: four non-translation errors.
CONTROL_MQM_MAX = 100.0


class CorpusQuerySet(models.QuerySet["Corpus"]):
    def visible_to(self, user: User) -> CorpusQuerySet:
        """Leads see every corpus; a judge only those assigned to it and not archived."""
        if user.is_lead:
            return self
        return self.filter(judges=user, archived=False)

    def with_progress(self, user: User) -> CorpusQuerySet:
        """Corpora with ``n_done``, the user's counted judgments (:meth:`JudgmentQuerySet.
        counted`), one subquery per corpus: with the stored sizes, the whole of a corpus's
        progress in one query whatever the size of the corpora."""
        return self.annotate(
            n_done=count_of(
                Judgment.objects.counted().of_corpus(OuterRef("pk")).filter(evaluator=user),
                "target__translator__corpus_id",
            )
        )

    def with_items_progress(self, user: User) -> CorpusQuerySet:
        """:meth:`with_progress`, and ``n_controls_done``: the user's done control items,
        which the judge's progress counts as items like any other while controls are on
        (:func:`annotation.controls.runs.queue_progress`). One more subquery per corpus."""
        return self.with_progress(user).annotate(
            n_controls_done=count_of(
                Judgment.objects.controls().done().of_corpus(OuterRef("pk")).filter(evaluator=user),
                "target__translator__corpus_id",
            )
        )

    def with_judges_progress(self) -> CorpusQuerySet:
        """Corpora with their campaign's progress: ``n_judges`` (judges assigned), the
        work ``n_judges_assigned`` and what is done of it, ``n_judges_done``, and the
        batches of :meth:`with_batches`. Three subqueries per corpus and those of the
        batches, whatever the size of the corpora.

        Where every judge judges every candidate (``Campaign.judges_per_item`` None), the
        work is ``n_candidates`` per judge, as the judge's queue gives them, and done are
        the done judgments of the judges assigned: judgments of evaluators no longer (or
        never) assigned, such as an import's, count in the figures but not in the
        campaign's progress. The judge's assignment is asked of each judgment
        (``EXISTS``), not joined: joined, SQLite read every judgment of every assigned
        judge in every corpus (0.4 s for 15 corpora of 20,000 candidates with 200 judges
        each, against 0.07 s).

        Where the campaign splits the work, the work is the items of its batches (every
        task's size, overlap items included: a candidate judged twice is two items), and
        done are the items judged in them (:func:`~annotation.models.campaign.
        corpus_items_done`); counting every judge on every candidate there made a campaign
        page say "36 / 60,120". Only one of the two rules is computed for a corpus (a
        ``CASE`` per row)."""
        judges = Corpus.judges.through.objects.filter(corpus_id=OuterRef("pk"))
        assigned = Corpus.judges.through.objects.filter(
            corpus_id=OuterRef(OuterRef("pk")), user_id=OuterRef("evaluator_id")
        )
        done = Judgment.objects.counted().of_corpus(OuterRef("pk")).filter(Exists(assigned))
        items = Task.objects.filter(corpus_id=OuterRef("pk"))
        every_judge = Q(campaign__judges_per_item__isnull=True)
        return (
            self.with_batches()
            .annotate(n_judges=count_of(judges, "corpus_id"))
            .annotate(
                n_judges_done=Case(
                    When(every_judge, then=count_of(done, "target__translator__corpus_id")),
                    default=corpus_items_done(Judgment.objects.filter(COUNTED)),
                ),
                n_judges_assigned=Case(
                    When(every_judge, then=F("n_candidates") * F("n_judges")),
                    default=scalar_total(items, "SUM", "size"),
                ),
            )
        )

    def with_batches(self) -> CorpusQuerySet:
        """Corpora with their batches (:class:`~annotation.models.Task`, one per copy of a
        batch): ``n_batches`` drawn, ``n_batches_dealt`` (ever, given back since or not),
        ``n_batches_finished`` and ``n_batches_returned`` (times a batch went back to the
        pool, left untouched); 0 where none is drawn. One subquery each per corpus, over
        the corpus's tasks (a few hundred rows)."""
        tasks = Task.objects.filter(corpus_id=OuterRef("pk"))
        return self.annotate(
            n_batches=scalar_total(tasks, "COUNT", "pk"),
            n_batches_dealt=scalar_total(tasks.filter(assigned_at__isnull=False), "COUNT", "pk"),
            n_batches_finished=scalar_total(tasks.filter(finished_at__isnull=False), "COUNT", "pk"),
            n_batches_returned=scalar_total(tasks, "SUM", "returned"),
        )

    def with_judging(self, user: User) -> CorpusQuerySet:
        """Corpora with ``is_judge``: whether ``user`` is one of its judges (one subquery
        per corpus). A lead sees every corpus, and is offered to judge only these: a lead
        with 20,040 candidates of a corpus they merely run is not invited to judge them."""
        mine = Corpus.judges.through.objects.filter(corpus_id=OuterRef("pk"), user_id=user.pk)
        return self.annotate(is_judge=Exists(mine))


_CorpusManagerBase = models.Manager.from_queryset(CorpusQuerySet)


class CorpusManager(_CorpusManagerBase["Corpus"]):
    """Corpora whose import is complete. As the default manager it is what every page,
    command, form and figure reads (and what a judge's ``assigned_corpora`` reads), so a
    corpus half-way through its import can be seen nowhere: one rule, in one place."""

    def get_queryset(self) -> CorpusQuerySet:
        # django-stubs types a from_queryset manager's get_queryset as the plain QuerySet.
        return super().get_queryset().filter(ready=True)  # type: ignore[return-value]


def validate_mqm_taxonomy(value: object) -> None:
    """A corpus's MQM taxonomy as :func:`metrics.mqm.taxonomy_from_json` reads it, or
    the field's error saying where it is wrong."""
    try:
        taxonomy_from_json(value)
    except ValueError as refused:
        raise ValidationError(str(refused), code="mqm_taxonomy") from None


class Protocol(models.TextChoices):
    """How judges judge the corpus's candidates. aWER: a new reference by clicks and
    the SSER score (seed 001), the default and every older corpus's. ESA (Kocmi
    et al. 2024): error spans, minor or major, and a 0–100 score; with pre-filled
    spans (ESA^AI, Zouhar et al. 2025) the judge corrects spans suggested to them.
    MQM (Freitag et al. 2021): error spans with a category and a severity, scored
    by the corpus's taxonomy and weights (``mqm_taxonomy``)."""

    AWER = "awer", "aWER + SSER"
    ESA = "esa", "ESA"
    ESA_PREFILL = "esa_prefill", "ESA with pre-filled spans"
    MQM = "mqm", "MQM"


class Corpus(models.Model):
    name = models.CharField(max_length=NAME_MAX_LENGTH, unique=True)
    protocol = models.CharField(
        max_length=16,
        choices=Protocol.choices,
        default=Protocol.AWER,
        help_text=(
            "How judges judge its candidates. aWER + SSER: a new reference by clicks and a "
            "0–10 score. ESA: error spans (minor, major, missing) and a 0–100 score; with "
            "pre-filled spans the judge corrects spans suggested to them. MQM: error spans "
            "with a category and a severity, scored by the taxonomy's weights. One "
            "campaign may mix protocols."
        ),
    )
    # Read where the protocol is MQM (metrics.mqm: categories and penalty points).
    mqm_taxonomy = models.JSONField(
        "MQM taxonomy and weights",
        default=wmt_taxonomy_json,
        validators=[validate_mqm_taxonomy],
        help_text=(
            "JSON: the points of each severity (weights) and the categories offered, each "
            "with weights of its own if they differ. Default: WMT's MQM taxonomy with "
            "Freitag et al. (2021)'s weights (minor 1, minor punctuation 0.1, major 5, "
            "non-translation 25 penalty points)."
        ),
    )
    # The campaign it is judged in (annotation.models.campaign): a corpus saved without
    # one gets a campaign of its own, named after it (Corpus.save), as every corpus
    # made before campaigns held several corpora did in migration 0023.
    campaign = models.ForeignKey(
        "annotation.Campaign", on_delete=models.PROTECT, related_name="corpora"
    )
    blind = models.BooleanField(
        default=True, help_text="Judges see 'System N' instead of the translator's name."
    )
    # None follows ``blind`` (shows_live_figures): a corpus made blind later hides them.
    judges_see_figures = models.BooleanField(
        "judges see live figures",
        null=True,
        blank=True,
        default=None,
        help_text=(
            "Judges see this system's running figures (aWER, BLEU, …) over their "
            "judgments. Unset: hidden in a blind corpus, shown in a named one."
        ),
    )
    share_new_refs = models.BooleanField(
        default=False,
        help_text="Accepted new references join every judge's reference pool, not only their own.",
    )
    judges = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="assigned_corpora", blank=True
    )
    # Who runs the corpus's campaign: the lead who uploaded it, and whoever the campaign
    # page adds. Judges with nothing assigned are told to ask them (User.objects.to_ask).
    leads = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        related_name="led_corpora",
        blank=True,
        help_text="The leads judges should ask about this corpus.",
    )
    # Read by JudgmentQuerySet.in_figures (a lead's decision, e.g. after failed controls).
    excluded_judges = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        related_name="excluded_from",
        blank=True,
        help_text="Left out of every figure of this corpus; their judgments stay stored.",
    )
    extra_attrs = models.JSONField(default=list, blank=True)
    extra_xml = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # The corpus's sizes, stored by the import and counted again when its texts change
    # (annotation.changes): counting 20,000 targets on every page that lists corpora
    # does not scale.
    n_sentences = models.PositiveIntegerField(default=0, editable=False)
    n_systems = models.PositiveIntegerField(default=0, editable=False)
    n_candidates = models.PositiveIntegerField(
        default=0, editable=False, help_text="System targets: the candidates judges judge."
    )
    # The stamps (annotation.changes, which alone moves them): read with the corpus row,
    # they tell whether figures computed earlier still hold, at no extra query.
    # judgments_stamp moves whenever a done judgment of the corpus changes, or who counts;
    # texts_stamp when a candidate's text does (a system added, a word moved across a
    # segment boundary).
    judgments_stamp = models.PositiveBigIntegerField(default=0, editable=False)
    # The judgments stamp of the latest change naming no judgment (annotation.changes):
    # rows kept from before it are read again whole (annotation.statistics.judgment_read).
    judgments_reread_stamp = models.PositiveBigIntegerField(default=0, editable=False)
    texts_stamp = models.PositiveIntegerField(default=0, editable=False)
    # Moves when an imported metric of the corpus is stored, replaced or deleted
    # (annotation.statistics.external): 0 says there is none, so a dashboard of a corpus
    # without one asks nothing more, and the figures made of them are kept under it.
    external_stamp = models.PositiveIntegerField(default=0, editable=False)
    # False while the import writes the corpus (in short transactions, so judges keep
    # working meanwhile): nothing but the import and the admin sees it until it is whole.
    ready = models.BooleanField(default=True, editable=False)
    # annotation.corpora.removal: kept whole for its leads, out of its judges' reach.
    archived = models.BooleanField(
        default=False, help_text="Hidden from its judges; kept whole for its leads."
    )
    # Quality control (annotation.controls): known answers mixed into each judge's queue.
    controls_enabled = models.BooleanField(
        "control items",
        default=False,
        help_text="Mix control items (known answers) into every judge's queue.",
    )
    control_rate = models.PositiveSmallIntegerField(
        "one control in every",
        default=CONTROL_RATE_DEFAULT,
        validators=[MinValueValidator(CONTROL_RATE_MIN), MaxValueValidator(CONTROL_RATE_MAX)],
        help_text=(
            f"items of a judge's queue ({CONTROL_RATE_MIN}–{CONTROL_RATE_MAX}), as near as "
            "the same whole number of controls in every sentence's run of items comes."
        ),
    )
    control_pass_threshold = models.PositiveSmallIntegerField(
        "pass threshold (%)",
        default=CONTROL_THRESHOLD_DEFAULT,
        validators=[MaxValueValidator(100)],
        help_text="A judge who passes fewer of their control items than this is flagged.",
    )
    # ESA and MQM control items (annotation.controls.scored): how far below its original a
    # candidate with injected errors must score, and how near its first score a repeat.
    control_esa_drop = models.PositiveSmallIntegerField(
        "ESA: injected errors score at least this lower",
        default=CONTROL_ESA_DROP_DEFAULT,
        validators=[MinValueValidator(1), MaxValueValidator(ESA_MAX)],
        help_text=(
            f"points of ESA's 0–{ESA_MAX} (1–{ESA_MAX}): a candidate with injected errors "
            "passes when the judge scores it at least this far below their score of the "
            "original candidate."
        ),
    )
    control_esa_tolerance = models.PositiveSmallIntegerField(
        "ESA: a repeat scores within",
        default=CONTROL_ESA_TOLERANCE_DEFAULT,
        validators=[MaxValueValidator(ESA_MAX)],
        help_text=(
            f"points of ESA's 0–{ESA_MAX} (0–{ESA_MAX}): a candidate shown again passes when "
            "scored at most this far from the judge's first score of it."
        ),
    )
    control_mqm_drop = models.FloatField(
        "MQM: injected errors cost at least",
        default=CONTROL_MQM_DROP_DEFAULT,
        validators=[MinValueValidator(CONTROL_MQM_DROP_MIN), MaxValueValidator(CONTROL_MQM_MAX)],
        help_text=(
            f"penalty points ({CONTROL_MQM_DROP_MIN:g}–{CONTROL_MQM_MAX:g}): a candidate with "
            "injected errors passes when the judge's spans of it cost at least this many "
            "points more than their spans of the original candidate."
        ),
    )
    control_mqm_tolerance = models.FloatField(
        "MQM: a repeat costs within",
        default=CONTROL_MQM_TOLERANCE_DEFAULT,
        validators=[MinValueValidator(0), MaxValueValidator(CONTROL_MQM_MAX)],
        help_text=(
            f"penalty points (0–{CONTROL_MQM_MAX:g}): a candidate shown again passes when "
            "its spans cost at most this far from the judge's first spans of it."
        ),
    )
    # IER, a second judging method (annotation.ier): judges split each candidate into
    # information items and mark each one.
    ier_enabled = models.BooleanField(
        "IER", default=False, help_text="Judges also mark information items (IER)."
    )

    objects = CorpusManager()  # the default manager: complete corpora only
    all_objects = CorpusQuerySet.as_manager()  # unfinished imports too

    class Meta:
        verbose_name_plural = "corpora"
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(control_rate__gte=CONTROL_RATE_MIN, control_rate__lte=CONTROL_RATE_MAX),
                name="corpus_control_rate_range",
            ),
            models.CheckConstraint(
                condition=Q(control_pass_threshold__lte=100), name="corpus_control_threshold_range"
            ),
            models.CheckConstraint(
                condition=Q(control_esa_drop__gte=1, control_esa_drop__lte=ESA_MAX)
                & Q(control_esa_tolerance__lte=ESA_MAX),
                name="corpus_control_esa_range",
            ),
            models.CheckConstraint(
                condition=Q(
                    control_mqm_drop__gte=CONTROL_MQM_DROP_MIN,
                    control_mqm_drop__lte=CONTROL_MQM_MAX,
                    control_mqm_tolerance__gte=0,
                    control_mqm_tolerance__lte=CONTROL_MQM_MAX,
                ),
                name="corpus_control_mqm_range",
            ),
            models.CheckConstraint(
                condition=Q(protocol__in=[p.value for p in Protocol]),
                name="corpus_protocol_known",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.campaign_id is None:
            self.campaign = Campaign.objects.create(
                name=free_campaign_name(self.name), made_for_corpus=True
            )
        super().save(*args, **kwargs)

    @property
    def taxonomy(self) -> Taxonomy:
        """The MQM taxonomy its spans are scored by (:mod:`metrics.mqm`)."""
        return taxonomy_from_json(self.mqm_taxonomy)

    @property
    def marks_spans(self) -> bool:
        """Whether its judges mark error spans (ESA, ESA with pre-filled spans, MQM) on
        the ESA / MQM page, rather than make a new reference (aWER)."""
        return self.protocol != Protocol.AWER

    @property
    def side_by_side_refusal(self) -> str:
        """Why its candidates cannot be judged side by side (:mod:`annotation.sidebyside`),
        "" where they can: the one rule of which protocols side by side supports, read by
        the corpus's own setting, the campaign's and the lead's links alike. None is
        refused now: aWER with IER on is judged side by side too, each panel with IER's
        items (``templates/sidebyside/_awer_ier.html``); the rule stays, in one place,
        for the next protocol a screen cannot show."""
        return ""

    @property
    def judged_side_by_side(self) -> bool:
        """Whether its judges are offered side-by-side judging: it has a setting that is
        on (:attr:`~annotation.models.SideBySide.judged`), or its campaign has one
        that reaches it (a corpus that joined since:
        :func:`annotation.sidebyside.campaign.side_by_side_of` stores it when first
        opened). Reads ``side_by_side`` and ``campaign``: select them with it."""
        if hasattr(self, "side_by_side"):
            return bool(self.side_by_side.judged)
        return self.campaign.side_by_side_per_screen is not None and not self.side_by_side_refusal

    @property
    def scores_esa(self) -> bool:
        """Whether its judges give each candidate ESA's 0–100 score (MQM's score is its
        spans' points)."""
        return self.protocol in (Protocol.ESA, Protocol.ESA_PREFILL)

    @property
    def span_taxonomy(self) -> Taxonomy | None:
        """The taxonomy its spans take a category of: MQM's; None for ESA, whose spans
        have none (:func:`metrics.error_spans.span_problems`)."""
        return self.taxonomy if self.protocol == Protocol.MQM else None

    @property
    def shows_live_figures(self) -> bool:
        """Whether a judge's page shows the system's live figures (a system's running aWER,
        BLEU, … over the judge's judgments): the lead's choice, or where none was made,
        only in a named corpus, as seed 001's tool; in a blind one they would tell the
        judge which "System N" is good and anchor every later judgment."""
        if self.judges_see_figures is None:
            return not self.blind
        return self.judges_see_figures


class Translator(models.Model):
    """A column of the corpus: a reference translation or an MT system."""

    class Role(models.TextChoices):
        FIRST_REFERENCE = REFERENCE_ROLES[0], "First reference"
        REFERENCE = REFERENCE_ROLES[1], "Reference"
        SYSTEM = "system", "System"

    corpus = models.ForeignKey(Corpus, on_delete=models.CASCADE, related_name="translators")
    name = models.CharField(max_length=NAME_MAX_LENGTH)
    role = models.CharField(max_length=20, choices=Role.choices)
    position = models.PositiveIntegerField(help_text="Order of first appearance in the file.")
    # A system imported as one document (seed 002): annotation.resegmenting's record of
    # how its candidates were cut; None for a system imported segment by segment.
    segmentation = models.JSONField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["corpus", "position"]
        constraints = [
            models.UniqueConstraint(fields=["corpus", "name"], name="translator_unique_name"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_reference(self) -> bool:
        return self.role != self.Role.SYSTEM


class Sentence(models.Model):
    corpus = models.ForeignKey(Corpus, on_delete=models.CASCADE, related_name="sentences")
    position = models.PositiveIntegerField()
    # NULL is "the file has no such attribute", apart from an empty one (id=""): the
    # export writes back what was read.
    xml_id = models.CharField("id", max_length=NAME_MAX_LENGTH, null=True, blank=True)  # noqa: DJ001
    doc = models.CharField(max_length=NAME_MAX_LENGTH, null=True, blank=True)  # noqa: DJ001
    source = models.TextField()
    extra_attrs = models.JSONField(default=list, blank=True)
    extra_xml = models.JSONField(default=list, blank=True)
    after_xml = models.JSONField(
        default=list, blank=True, help_text="Unknown elements that follow this sentence."
    )
    # Where the sentence comes in every judge's queue (annotation.judging.order: documents
    # interleaved, so that every prefix is a stratified sample). Stored by the import once
    # it has read every sentence's document (NULL until then); its unique index is what
    # the judge's next candidate walks.
    queue_position = models.PositiveIntegerField(null=True, editable=False)

    class Meta:
        ordering = ["corpus", "position"]
        constraints = [
            models.UniqueConstraint(fields=["corpus", "position"], name="sentence_unique_position"),
            models.UniqueConstraint(
                fields=["corpus", "queue_position"], name="sentence_unique_queue_position"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.corpus} #{self.position + 1}"


class Target(models.Model):
    """The text one translator gives for one sentence.

    A system has exactly one target per sentence (its judgments hang below it). A
    reference translator may appear more than once in a sentence (seed 001's example file
    has two "multi reference" entries), so ``ordinal`` numbers its entries; systems always
    have ordinal 0, and (sentence, translator, ordinal) is unique.
    """

    sentence = models.ForeignKey(Sentence, on_delete=models.CASCADE, related_name="targets")
    translator = models.ForeignKey(Translator, on_delete=models.CASCADE, related_name="targets")
    ordinal = models.PositiveSmallIntegerField(default=0)
    position = models.PositiveIntegerField(help_text="Order within the sentence in the file.")
    text = models.TextField()
    # The corpus's texts stamp when ``text`` last changed after the import (0: never).
    text_stamp = models.PositiveIntegerField(default=0, editable=False)
    extra_attrs = models.JSONField(default=list, blank=True)
    extra_xml = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["sentence", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["sentence", "translator", "ordinal"], name="target_unique_per_translator"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.translator}: {self.text[:60]}"
