"""The statistics kept in the database: a corpus's automatic statistics, one row per
preprocessing choice (:class:`CorpusStatistics`), and its grown pool's as last scored
(:class:`PoolStatistics`).

They name the corpus by string and need nothing else of the schema. What is stored and
how it is read is :mod:`annotation.statistics.store`'s and :mod:`annotation.statistics.pool`'s.
"""

from __future__ import annotations

from django.db import models


class CorpusStatistics(models.Model):
    """Every automatic metric's per-segment statistics of a corpus for one preprocessing
    choice, with their scores, signatures and paired bootstrap (``data``: numpy arrays and
    a JSON header, :mod:`annotation.statistics.encoding`).

    They depend only on the corpus texts, which hardly ever change after import, and on
    the choice, so they are computed once — the default choice by the import, any other
    on its first view — and read back from then on: a dashboard view never tokenizes the
    corpus again. ``engine`` names the metrics version and the layout of ``data``; rows
    of another engine are ignored (and recomputed).
    """

    corpus = models.ForeignKey(
        "annotation.Corpus", on_delete=models.CASCADE, related_name="statistics"
    )
    choice = models.CharField(max_length=200, help_text="tok:…|case:…|reflen:…|bounds:…")
    engine = models.CharField(max_length=40)
    # The corpus's texts stamp they were scored at: a word moved across a boundary since
    # makes them stale, and their next reader scores only the candidates changed since
    # (Target.text_stamp, annotation.changes.candidates_changed).
    texts_stamp = models.PositiveIntegerField(default=0)
    data = models.BinaryField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "corpus statistics"
        constraints = [
            models.UniqueConstraint(
                fields=["corpus", "choice", "engine"], name="statistics_unique_choice"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.corpus}: {self.choice}"


class PoolStatistics(models.Model):
    """Every automatic metric's statistics of a corpus against its grown reference pool,
    for one preprocessing choice, as of the judgments stamp they were scored at.

    Unlike :class:`CorpusStatistics` they go out of date: each
    accepted new reference grows the pool of one sentence. So the row keeps what each
    sentence's pool was when it was scored (``fingerprints``: a digest per sentence, in
    order) and the texts stamp of the candidates: the next view scores again only the
    sentences whose pool changed since, whatever process stored the row, and a newer
    scoring replaces it. ``engine`` as :class:`CorpusStatistics`'.
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
