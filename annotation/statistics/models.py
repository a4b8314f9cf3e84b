"""The stored automatic statistics of a corpus, one row per preprocessing choice.

Its own module beside :mod:`annotation.models` (which imports it, so Django registers it
with the app's other models): it names the corpus by string and needs nothing else of
the schema.
"""

from __future__ import annotations

from django.db import models


class CorpusStatistics(models.Model):
    """Every automatic metric's per-segment statistics of a corpus for one preprocessing
    choice, with their scores, signatures and paired bootstrap (``data``: numpy arrays and
    a JSON header, :mod:`annotation.scoring`).

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
    # (Target.text_stamp, annotation.candidates).
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
