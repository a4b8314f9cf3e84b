"""Campaigns (issue 37): one or more corpora (language pairs, protocols) judged under one
set of rules, the work of each corpus dealt to its annotators in batches.

* :class:`Campaign`: the rules. ``judges_per_item`` None keeps the campaigns as they were
  before campaigns held several corpora: every judge of a corpus judges every candidate
  (what a migrated corpus keeps, so nothing a judge did changes meaning). 1–3 splits the
  work: each candidate is judged by that many annotators, and with 1, a share
  (``overlap_percent``) by two, for agreement.
* :class:`Task`: one batch of a corpus as dealt to one annotator: the candidates of a
  range of its sentences, and (``extra``) another batch's overlap items. Dealt on
  demand, given back to the pool when left untouched.
* :class:`CampaignAnnotator`: an annotator's own quota, where the lead set one.
* :class:`AnnotatorLink`: a secret URL that opens one annotator's queue, without a
  password; only its hash is stored.

The rules of dealing live in :mod:`annotation.campaigns.dealing`.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import OuterRef, Q

from annotation.limits import NAME_MAX_LENGTH
from annotation.models.subqueries import AmongIds, scalar_total
from metrics.pairing import MAX_PER_SCREEN, MIN_PER_SCREEN

JUDGES_PER_ITEM_MAX = 3
OVERLAP_PERCENT_DEFAULT = 10
BATCH_SIZE_DEFAULT = 100
BATCH_SIZE_MIN = 10
BATCH_SIZE_MAX = 1000
BATCH_TIMEOUT_HOURS_DEFAULT = 24
WARM_UP_PERCENT_DEFAULT = 25
WARM_UP_PERCENT_MIN = 5
#: The confidences a lead can ask a pair's order to be resolved at (percent).
CONFIDENCE_CHOICES = ((90, "90 %"), (95, "95 %"), (99, "99 %"))
CONFIDENCE_DEFAULT = 95


class Campaign(models.Model):
    name = models.CharField(max_length=NAME_MAX_LENGTH, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Made for one corpus (by its upload, or by migration 0023), never chosen by a lead
    # for another: deleted with that corpus, or when it moves out, once left empty
    # (annotation.campaigns.membership). A campaign a lead created or picked is theirs.
    made_for_corpus = models.BooleanField(
        default=False,
        editable=False,
        help_text="Made for one corpus: goes with it when left empty.",
    )
    judges_per_item = models.PositiveSmallIntegerField(
        "annotators per item",
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(JUDGES_PER_ITEM_MAX)],
        help_text=(
            "How many annotators judge each candidate (1–3), the work dealt in batches. "
            "Empty: every annotator of a corpus judges every candidate of it."
        ),
    )
    overlap_percent = models.PositiveSmallIntegerField(
        "overlap (%)",
        default=OVERLAP_PERCENT_DEFAULT,
        validators=[MaxValueValidator(100)],
        help_text="With one annotator per item, the share of items a second one judges too.",
    )
    batch_size = models.PositiveSmallIntegerField(
        default=BATCH_SIZE_DEFAULT,
        validators=[MinValueValidator(BATCH_SIZE_MIN), MaxValueValidator(BATCH_SIZE_MAX)],
        help_text="Candidates in a batch (whole sentences of one document where they fit).",
    )
    batch_timeout_hours = models.PositiveSmallIntegerField(
        "batch returns after (hours)",
        default=BATCH_TIMEOUT_HOURS_DEFAULT,
        validators=[MinValueValidator(1)],
        help_text="A batch left untouched this long goes back to the pool; what was done stays.",
    )
    quota = models.PositiveIntegerField(
        "batches per annotator",
        null=True,
        blank=True,
        help_text="The most batches one annotator is dealt in this campaign. Empty: no limit.",
    )
    # Adaptive dealing (issue 43, annotation.adaptive): after a warm-up of batches in the
    # random dealing order, rounds of batches drawn with recorded chances that favour the
    # pairs of systems still unresolved at the lead's confidence.
    adaptive = models.BooleanField(
        "adaptive dealing",
        default=False,
        help_text=(
            "After the warm-up, deal the batches where judgments are expected to resolve "
            "pairs of systems still open; every batch keeps a known chance, and the "
            "dashboard weights by it. Needs the work dealt in batches."
        ),
    )
    warm_up_percent = models.PositiveSmallIntegerField(
        "warm-up (%)",
        default=WARM_UP_PERCENT_DEFAULT,
        validators=[MinValueValidator(WARM_UP_PERCENT_MIN), MaxValueValidator(100)],
        help_text="With adaptive dealing, the share of each corpus's batches dealt first "
        "in the random order, before any is favoured.",
    )
    confidence = models.PositiveSmallIntegerField(
        "confidence (%)",
        default=CONFIDENCE_DEFAULT,
        choices=CONFIDENCE_CHOICES,
        help_text="A pair of systems is resolved once its order is significant at this "
        "confidence (adaptive dealing favours the pairs that are not).",
    )
    # Side by side (issue 42, point 1; annotation.sidebyside.campaign): the setting every
    # corpus of the campaign whose protocol allows it follows, unless it has its own.
    side_by_side_per_screen = models.PositiveSmallIntegerField(
        "systems a screen (side by side)",
        null=True,
        blank=True,
        help_text="Judge its corpora side by side, this many systems' candidates a screen "
        "(2–4). Empty: one candidate a page, unless a corpus has its own setting.",
    )
    side_by_side_asks_preference = models.BooleanField(
        "ask which is better (side by side)",
        default=True,
        help_text="Side by side, ask which candidate is better (of 3 or 4: the best).",
    )
    # Stopping (issue 43, point 2): once the pairs a lead cares about are resolved, no new
    # batch is dealt; a batch a judge holds can still be finished (nothing typed is lost).
    stopped_at = models.DateTimeField("dealing stopped", null=True, blank=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(judges_per_item__isnull=True)
                | Q(judges_per_item__gte=1, judges_per_item__lte=JUDGES_PER_ITEM_MAX),
                name="campaign_judges_per_item_range",
            ),
            models.CheckConstraint(
                condition=Q(overlap_percent__lte=100), name="campaign_overlap_range"
            ),
            models.CheckConstraint(
                condition=Q(batch_size__gte=BATCH_SIZE_MIN, batch_size__lte=BATCH_SIZE_MAX),
                name="campaign_batch_size_range",
            ),
            models.CheckConstraint(
                condition=Q(warm_up_percent__gte=WARM_UP_PERCENT_MIN, warm_up_percent__lte=100),
                name="campaign_warm_up_range",
            ),
            models.CheckConstraint(
                condition=Q(adaptive=False) | Q(judges_per_item__isnull=False),
                name="campaign_adaptive_needs_batches",
            ),
            models.CheckConstraint(
                condition=Q(side_by_side_per_screen__isnull=True)
                | Q(
                    side_by_side_per_screen__gte=MIN_PER_SCREEN,
                    side_by_side_per_screen__lte=MAX_PER_SCREEN,
                ),
                name="campaign_side_by_side_per_screen_range",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def splits_work(self) -> bool:
        """Whether the work is dealt in batches (else every judge judges everything)."""
        return self.judges_per_item is not None

    @property
    def alpha(self) -> float:
        """The level a pair's test is read at: 1 − the lead's confidence."""
        return round(1.0 - self.confidence / 100.0, 4)


class CampaignAnnotator(models.Model):
    """An annotator's own quota in a campaign (batches), overriding ``Campaign.quota``."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="annotators")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="campaign_quotas"
    )
    quota = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="campaign_annotator_unique")
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.campaign}"


class Task(models.Model):
    """One batch of a corpus as dealt to one annotator (``copy`` numbers the annotators of
    a batch judged by several). Its items: the system candidates of the corpus's sentences
    at file positions ``start`` to ``end`` (excluded: batch ``batch``, whole documents
    where they fit), and ``extra`` (target ids: the overlap items of batch
    ``extra_batch``). A task with ``batch`` None holds its ``extra`` only (the overlap of
    a corpus of one batch). ``order`` is its place in the corpus's dealing order."""

    corpus = models.ForeignKey("annotation.Corpus", on_delete=models.CASCADE, related_name="tasks")
    batch = models.PositiveIntegerField(null=True, blank=True)
    start = models.PositiveIntegerField(default=0)
    end = models.PositiveIntegerField(default=0)
    copy = models.PositiveSmallIntegerField(default=0)
    order = models.PositiveIntegerField()
    extra_batch = models.PositiveIntegerField(null=True, blank=True)
    extra = models.JSONField(default=list, blank=True)
    size = models.PositiveIntegerField(default=0, help_text="Its candidates, extra included.")
    assignee = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tasks",
    )
    assigned_at = models.DateTimeField(null=True, blank=True)
    touched_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    returned = models.PositiveSmallIntegerField(
        default=0, help_text="Times it went back to the pool, left untouched."
    )
    # Adaptive dealing (annotation.adaptive): the round its batch was drawn in (0: the
    # warm-up; None: not drawn yet, or the campaign does not deal adaptively) and the
    # chance it had of being drawn then, which every item of it shares.
    round = models.PositiveSmallIntegerField(null=True, blank=True)
    probability = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["corpus", "order"]
        constraints = [
            models.UniqueConstraint(fields=["corpus", "batch", "copy"], name="task_unique_copy"),
            models.UniqueConstraint(fields=["corpus", "order"], name="task_unique_order"),
        ]
        indexes = [
            models.Index(fields=["assignee", "finished_at"], name="task_assignee_open"),
        ]

    def __str__(self) -> str:
        return f"{self.corpus_id} batch {self.batch}.{self.copy}"


class DealingRound(models.Model):
    """One round of a corpus's adaptive dealing (``number`` 0: the warm-up): the chance
    each batch still to deal had of being drawn in it (``probabilities``, by batch
    number; absent: dealt before), what the policy favoured (``open_pairs``: the pairs
    of systems, by name, not yet resolved then) and the candidates it was to deal on
    average (``expected``). What the weighted estimates read back."""

    corpus = models.ForeignKey(
        "annotation.Corpus", on_delete=models.CASCADE, related_name="dealing_rounds"
    )
    number = models.PositiveSmallIntegerField()
    probabilities = models.JSONField(default=dict)
    open_pairs = models.JSONField(default=list)
    expected = models.FloatField(default=0.0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["corpus", "number"]
        constraints = [
            models.UniqueConstraint(fields=["corpus", "number"], name="dealing_round_unique")
        ]

    def __str__(self) -> str:
        return f"{self.corpus_id} round {self.number}"


class PairsOfInterest(models.Model):
    """The pairs of systems a lead cares about in a corpus dealt adaptively (``pairs``:
    ``[first, second]`` system names, in the corpus's order): the next rounds favour
    those still open, and the campaign page says which of them remain and the
    judgments they need. No row, or no pair: every pair."""

    corpus = models.OneToOneField(
        "annotation.Corpus", on_delete=models.CASCADE, related_name="pairs_of_interest"
    )
    pairs = models.JSONField(default=list)

    def __str__(self) -> str:
        return f"{self.corpus_id}: {len(self.pairs)} pairs of interest"


class AnnotatorLink(models.Model):
    """A secret URL that opens ``user``'s queue in ``campaign`` without a password. Only
    the token's SHA-256 is stored (``token_hash``), and ``hint``, its first characters,
    which is what lists and logs show."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="links")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="annotator_links"
    )
    token_hash = models.CharField(max_length=64, unique=True)
    hint = models.CharField(max_length=8)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    completion_code = models.CharField(max_length=32, blank=True, default="")

    class Meta:
        ordering = ["campaign", "user", "-created_at"]

    def __str__(self) -> str:
        return f"{self.user} in {self.campaign} ({self.hint}…)"


def free_campaign_name(name: str) -> str:
    """``name``, or ``name (2)``, ``name (3)``, … : the first no campaign has (the name
    of a campaign made for one corpus, :meth:`annotation.models.Corpus.save`)."""
    taken = set(Campaign.objects.filter(name__startswith=name).values_list("name", flat=True))
    candidate, k = name, 1
    while candidate in taken:
        k += 1
        candidate = f"{name} ({k})"
    return candidate


def corpus_items_done(counted: models.QuerySet[Any]) -> Any:
    """The items done of a corpus's tasks (the corpus: ``OuterRef("pk")``), as two
    correlated subqueries: the size of those finished (a task is finished when every
    item of it has a done judgment under it: :func:`annotation.campaigns.dealing.
    finish_task_if_done`), and the ``counted`` judgments (the corpus module's
    :data:`~annotation.models.COUNTED` ones) made under those dealt and
    not finished (by whoever held them; none is made under a task never dealt). So a
    campaign's progress reads the judgments of its open batches only, about a batch per
    annotator, however many were judged before; :mod:`annotation.campaigns.
    batch_progress` counts each annotator's by the same rule."""
    finished = Task.objects.filter(corpus_id=OuterRef("pk"), finished_at__isnull=False)
    open_batches = Task.objects.filter(
        corpus_id=OuterRef(OuterRef("pk")), finished_at__isnull=True, assigned_at__isnull=False
    )
    in_open = counted.filter(AmongIds("task_id", open_batches.values("pk")))
    return scalar_total(finished, "SUM", "size") + scalar_total(in_open, "COUNT", "pk")
