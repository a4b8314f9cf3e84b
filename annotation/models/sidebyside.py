"""Side-by-side judging (issue 42, point 1): a corpus whose judges see 2 to 4 systems'
candidates of one source on one screen, and the screens of each judge's queue.

:class:`SideBySide` is the corpus's setting: how many systems a screen shows, whether
the judge is asked which of two is better, and the seed every judge's draw starts from;
``from_campaign`` where it follows its campaign's setting
(:mod:`annotation.sidebyside.campaign`) rather than one of the corpus's own; ``off``
where that setting says one at a time (a row is kept rather than deleted, so the queues
drawn and the preferences given under it stay, with the figures that read them).
:class:`Comparison` is one screen of one judge's queue, as drawn
(:mod:`metrics.pairing`): the sentence, its candidates in the order shown (left to
right), whether that order is the draw's swap of the sorted one, the seed of the draw,
and the judge's preference: between the first two (A, the left, and B) on a screen of
two, the best of them on a screen of 3 or 4 (``picks_best``). A *control*
screen (``control``: the place of the copy) shows, at that place, a copy of another of
its candidates with injected errors (:mod:`annotation.sidebyside.queue`). Each candidate is
judged by the corpus's protocol in a :class:`~annotation.models.Judgment` of its own, as
on the single-candidate page, so every figure of those judgments reads them unchanged;
only the preference lives here.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from annotation.models.corpus import Corpus, Sentence, Target
from metrics.pairing import MAX_PER_SCREEN, MIN_PER_SCREEN


class SideBySide(models.Model):
    corpus = models.OneToOneField(Corpus, on_delete=models.CASCADE, related_name="side_by_side")
    per_screen = models.PositiveSmallIntegerField(
        default=MIN_PER_SCREEN, help_text="How many systems' candidates a screen shows (2–4)."
    )
    asks_preference = models.BooleanField(
        default=True, help_text="Ask which of the two candidates is better (A, same, B)."
    )
    seed = models.PositiveIntegerField(help_text="Where every judge's draw starts from.")
    from_campaign = models.BooleanField(
        default=False,
        help_text="Follows its campaign's setting (set on the campaign's page); "
        "a corpus's own setting overrides the campaign's.",
    )
    off = models.BooleanField(  # read for the corpus's own setting only: see judged
        default=False,
        help_text="Turned off: its judges are not offered side by side; the queues drawn and "
        "the preferences given are kept, and its figures still read them.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(per_screen__gte=MIN_PER_SCREEN, per_screen__lte=MAX_PER_SCREEN),
                name="side_by_side_per_screen_range",
            ),
        ]

    def __str__(self) -> str:
        said = "off" if self.off else f"{self.per_screen} a screen"
        return f"{self.corpus} side by side ({said})"

    @property
    def judged(self) -> bool:
        """Whether its judges are offered side by side by it: the corpus's own setting
        unless turned off; a setting that follows the campaign's while the campaign has
        one (so turning the campaign's off, or moving the corpus into a campaign without
        one, needs no write here). Reads ``corpus.campaign``: select it with it."""
        if self.from_campaign:
            return self.corpus.campaign.side_by_side_per_screen is not None
        return not self.off


class Comparison(models.Model):
    class Preference(models.TextChoices):
        NONE = "", "not given"
        A = "a", "A better"
        SAME = "same", "same"
        B = "b", "B better"
        C = "c", "C best"
        D = "d", "D best"

    class State(models.TextChoices):
        PENDING = "pending", "Pending"
        DONE = "done", "Done"

    setting = models.ForeignKey(SideBySide, on_delete=models.CASCADE, related_name="comparisons")
    judge = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="comparisons"
    )
    sentence = models.ForeignKey(Sentence, on_delete=models.CASCADE, related_name="+")
    position = models.PositiveIntegerField(help_text="Place in the judge's queue.")
    targets = models.JSONField(help_text="The candidates' target ids, in the order shown.")
    left = models.ForeignKey(Target, on_delete=models.CASCADE, related_name="+")
    right = models.ForeignKey(Target, on_delete=models.CASCADE, related_name="+")
    swapped = models.BooleanField(help_text="Shown in another order than the sorted one.")
    seed = models.PositiveBigIntegerField(help_text="The seed the judge's queue was drawn from.")
    preference = models.CharField(
        max_length=4, choices=Preference.choices, blank=True, default=Preference.NONE
    )
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    picks_best = models.BooleanField(
        default=False,
        help_text="The preference picks the best of the screen's 3 or 4 candidates "
        "(same: none stands out), not A against B.",
    )
    control = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="A control screen: the place (0 the left) of the copy with injected errors.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["setting", "judge", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["setting", "judge", "position"], name="comparison_unique_place"
            ),
            models.UniqueConstraint(
                fields=["setting", "judge", "sentence"], name="comparison_one_per_sentence"
            ),
            models.CheckConstraint(
                condition=~Q(left=models.F("right")) | Q(control__isnull=False),
                name="comparison_two_candidates",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.judge} on sentence {self.sentence_id} ({self.position})"
