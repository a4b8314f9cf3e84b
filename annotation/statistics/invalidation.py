"""When a candidate's text changes after the import, in one place.

Candidates are fixed at import in every corpus but two cases: a system added to a corpus
(:mod:`annotation.corpora.systems`) and a word moved across the boundary of a system
imported as one document (:mod:`annotation.judging.boundaries`). What was computed from
the texts then goes out of date: the dashboard's memo (kept under the judgments stamp)
and the judge's live figures' rows (kept under the texts stamp,
:func:`annotation.statistics.live.texts_key`) are forgotten as both stamps move.

The stored automatic statistics cost a whole scoring (a worker's job of many seconds at
real size: ``docs/performance.md``) to make again. A system added changes every
metric's bootstrap and the systems themselves: they are deleted. A word moved changes two
candidates of one system: the rows stay, stale (their texts stamp is older than the
corpus's), the two candidates remember the stamp they changed at
(``Target.text_stamp``), and the next reader scores only the candidates changed since
(:func:`annotation.statistics.store.updated_statistics`), with the figures of scoring
afresh, to the last bit
(tested). The grown pool's statistics are deleted either way (its next view scores the
sentences that gained new references again, on a request of its own).

Imported segment scores (COMET, MetricX, …: :mod:`annotation.statistics.external`) were
computed elsewhere and cannot be computed again here: a word moved leaves the two
candidates' scores without a text to stand for, so they are dropped (``NaN``) and their
systems' figures rest on the other sentences; a system added simply has none.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import F

from annotation.models import Corpus, CorpusStatistics, PoolStatistics, Target
from annotation.statistics.external import forget_changed_scores


def texts_changed(corpus_id: int, targets: Sequence[Target] = ()) -> None:
    """Forget what was computed from the corpus's candidates; call it in the transaction
    that changes them. ``targets``: the candidates whose text changed, when the corpus
    kept its systems (a word moved): the stored statistics are then kept, to be brought
    up to date by their next reader; without, they are deleted."""
    if not targets:
        CorpusStatistics.objects.filter(corpus_id=corpus_id).delete()
    PoolStatistics.objects.filter(corpus_id=corpus_id).delete()
    corpora = Corpus.all_objects.filter(pk=corpus_id)
    corpora.update(texts_stamp=F("texts_stamp") + 1, judgments_stamp=F("judgments_stamp") + 1)
    if targets:
        stamp, imported = corpora.values_list("texts_stamp", "external_stamp").get()
        Target.objects.filter(pk__in=[t.pk for t in targets]).update(text_stamp=stamp)
        if imported:  # the corpus has (or had) imported scores
            forget_changed_scores(corpus_id, targets)
