"""When a candidate's text changes after the import, in one place.

Candidates are fixed at import in every corpus but two cases: a system added to a corpus
(:mod:`annotation.corpora.systems`) and a word moved across the boundary of a system
imported as one document (:mod:`annotation.judging.boundaries`). Everything computed from
the texts must then be forgotten: the stored automatic statistics, the grown pool's too
(the dashboard scores the default choice afresh on its next view, and the judge's live
figures score their rows meanwhile), the dashboard's memo (kept under the judgments
stamp) and the judge's live figures' rows (kept under the texts stamp,
:func:`annotation.judging.figures.corpus_key`).
"""

from __future__ import annotations

from django.db.models import F

from annotation.models import Corpus, CorpusStatistics, PoolStatistics


def candidates_changed(corpus_id: int) -> None:
    """Forget what was computed from the corpus's candidates; call it in the transaction
    that changes them."""
    CorpusStatistics.objects.filter(corpus_id=corpus_id).delete()
    PoolStatistics.objects.filter(corpus_id=corpus_id).delete()
    Corpus.all_objects.filter(pk=corpus_id).update(
        texts_stamp=F("texts_stamp") + 1, judgments_stamp=F("judgments_stamp") + 1
    )
