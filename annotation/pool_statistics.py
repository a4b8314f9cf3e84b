"""The grown pool's statistics as last scored, kept in the database.

Its own module beside :mod:`annotation.models` (which imports it, so Django registers it
with the app's other models), as :mod:`annotation.events` is: it names the corpus by
string and needs nothing else of the schema. What is stored and how it is used is
:mod:`annotation.dashboard.pool`'s.
"""

from __future__ import annotations

from django.db import models


class PoolStatistics(models.Model):
    """Every automatic metric's statistics of a corpus against its grown reference pool,
    for one preprocessing choice, as of the judgments stamp they were scored at.

    Unlike :class:`~annotation.models.CorpusStatistics` they go out of date: each
    accepted new reference grows the pool of one sentence. So the row keeps what each
    sentence's pool was when it was scored (``fingerprints``: a digest per sentence, in
    order) and the texts stamp of the candidates: the next view scores again only the
    sentences whose pool changed since, whatever process stored the row, and a newer
    scoring replaces it. ``engine`` as :class:`~annotation.models.CorpusStatistics`'.
    """

    corpus = models.ForeignKey(
        "annotation.Corpus", on_delete=models.CASCADE, related_name="pool_statistics"
    )
    choice = models.CharField(max_length=200, help_text="tok:…|case:…|reflen:…|bounds:…")
    engine = models.CharField(max_length=40)
    judgments_stamp = models.PositiveBigIntegerField()
    texts_stamp = models.PositiveIntegerField()
    fingerprints = models.BinaryField()
    data = models.BinaryField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "pool statistics"
        constraints = [
            models.UniqueConstraint(
                fields=["corpus", "choice", "engine"], name="pool_statistics_unique_choice"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.corpus_id}: pool, {self.choice}"
