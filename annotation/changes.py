"""Every change that moves a figure, said in one place: the corpus's stamps.

What the app computes from a corpus (the dashboard's figures, the judge's live figures,
the controls' queues) is remembered (:mod:`annotation.statistics.memo`) under counters
on the corpus row, its *stamps*, each value under the stamps it declares it depends on
(:class:`Stamp`). A view reads them with the corpus row it loads anyway, so a look-up
costs no query; a change moves the stamps of what it touched, in its own transaction, so
the next view finds nothing under the new stamps and computes afresh. A remembered value
is then never stale by construction, provided every change says so: each write that
changes what a figure reads calls one function of this module, named for the change, and
nothing else moves a stamp. ``annotation/tests/test_changes.py`` runs every such write
(service, command, admin action) and checks that the right stamp moved.

* :func:`judgment_changing` moves the judgments stamp and gives the judgment it: a
  judge's click to, on or from a done judgment (:mod:`annotation.judging.stack`).
* :func:`judgments_changed` moves the judgments stamp without naming the judgments: a
  judgment, or a judge with their judgments, changed, renamed or deleted in the admin;
  a judge's work discarded (:mod:`annotation.campaigns.judges`); judgments imported; an
  MQM corpus's taxonomy changed (the campaign page's settings form, the admin's corpus
  form: the figures weigh the spans by it).

The judgments stamp says that the judgments changed; two more say which, so that the rows
of the judgments kept from an earlier stamp can be brought up to date by reading the
changed ones alone (:mod:`annotation.statistics.judgment_read`): each judgment's
``figures_stamp``, the judgments stamp of its latest change, moved by
:func:`judgment_changing`; and the corpus's ``judgments_reread_stamp``, the judgments
stamp of the latest change that named none (every other function here that moves the
judgments stamp): rows kept from before it are read again whole. A deletion leaves no row
to stamp, so every deletion is such a change. ``annotation/tests/test_changes.py`` checks,
for every write, that the rows brought up to date equal the rows read afresh.
* :func:`who_counts_changed` moves the judgments stamp: a judge left out of the figures
  or counted again (the lead's page, ``manage.py leave_out``, the admin's corpus form).
* :func:`candidates_changed` moves the texts and judgments stamps (and the imported
  scores' when the corpus has some): a word moved across a boundary
  (:mod:`annotation.judging.boundaries`), a candidate's text edited in the admin.
* :func:`corpus_texts_changed` moves the texts and judgments stamps, and counts the
  corpus's stored sizes again: a system added (:mod:`annotation.corpora.systems`: the
  page, ``manage.py import_text``); a translator, sentence or reference changed or
  deleted in the admin.
* :func:`imported_scores_changed` moves the imported scores' stamp: an imported metric
  stored, replaced or deleted (:mod:`annotation.statistics.external`: the scores page,
  ``manage.py import_scores``, ``comet``, ``delete_scores``).

What moves no stamp, and why: a judgment opened or changed while not done (the figures
count done judgments only); HTER's counts filled in by a worker (a figure that reads a
judgment without them computes the same counts itself:
:func:`annotation.statistics.hter.with_hter_counts`); a corpus's settings (who sees
what, controls, their rate: no remembered value reads them, and the controls' pass mark
is part of its own key); batches dealt, handed back or moved to another campaign (no
figure reads them); a corpus imported (its stamps start at 0) or deleted (a corpus
imported again under its primary key has another creation time, part of every key).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence

import numpy as np
from django.db.models import F, OuterRef, Subquery

from annotation.models import (
    SCORES_DTYPE,
    Corpus,
    CorpusStatistics,
    ExternalScores,
    ImportedSpans,
    PoolStatistics,
    Protocol,
    Sentence,
    Target,
    Translator,
    scalar_total,
)
from metrics.segment_scores import SYSTEM_LAYOUT


class Stamp(enum.Flag):
    """The corpus's stamps, each a counter on its row that only moves forward: what a
    change moves (the functions below) and what a remembered value depends on
    (:class:`annotation.statistics.memo.Shelf`), in the same words."""

    NONE = 0
    #: ``Corpus.judgments_stamp``: the done judgments, and whose of them count.
    JUDGMENTS = enum.auto()
    #: ``Corpus.texts_stamp``: the texts of the candidates and references.
    TEXTS = enum.auto()
    #: ``Corpus.external_stamp``: the imported metrics' segment scores (0: never any).
    EXTERNAL = enum.auto()


#: Each stamp's column on :class:`~annotation.models.Corpus`.
FIELDS = {
    Stamp.JUDGMENTS: "judgments_stamp",
    Stamp.TEXTS: "texts_stamp",
    Stamp.EXTERNAL: "external_stamp",
}


def stamps_of(corpus: Corpus, stamps: Stamp) -> tuple[int, ...]:
    """The values of ``stamps`` on ``corpus`` as it was read, in :class:`Stamp`'s order."""
    return tuple(getattr(corpus, FIELDS[s]) for s in FIELDS if s in stamps)


def _move(corpus_ids: Iterable[int], stamps: Stamp, *, named: bool = False) -> None:
    """Move ``stamps`` of these corpora by one (unfinished imports too), in one UPDATE.
    A move of the judgments stamp that does not name the judgments it changed
    (``named`` False) moves the reread stamp to the new judgments stamp with it."""
    moved = {FIELDS[s]: F(FIELDS[s]) + 1 for s in FIELDS if s in stamps}
    if Stamp.JUDGMENTS in stamps and not named:  # SET reads the row as it was: the new value
        moved["judgments_reread_stamp"] = F(FIELDS[Stamp.JUDGMENTS]) + 1
    Corpus.all_objects.filter(pk__in=list(corpus_ids)).update(**moved)


def judgment_changing(corpus_id: int) -> Subquery:
    """A judge's click is about to change a judgment of corpus ``corpus_id`` that is
    done, or make it done or no longer done (a control item's too: the controls panel
    reads them). Moves the judgments stamp, and returns the new stamp for the judgment's
    ``figures_stamp``, to set in the UPDATE that changes it, in the same transaction,
    after this call: the move holds the corpus row until the transaction ends, so a
    judgment stamped after another's changed after it, and a reader that sees a stamp
    sees every judgment stamped up to it (:mod:`annotation.statistics.judgment_read`).
    Every figure made of the judgments is computed afresh."""
    _move([corpus_id], Stamp.JUDGMENTS, named=True)
    stamp = Corpus.all_objects.filter(pk=corpus_id).values(FIELDS[Stamp.JUDGMENTS])
    return Subquery(stamp[:1])


def judgments_changed(*corpus_ids: int) -> None:
    """Judgments of these corpora changed, done ones or to or from done, without a
    judge's click to name them (:func:`judgment_changing`): deleted, changed or renamed
    in the admin, imported, weighed by another MQM taxonomy. Every figure made of the
    judgments is computed afresh, from the judgments read again whole. Call it in the
    transaction of the change."""
    _move(corpus_ids, Stamp.JUDGMENTS)


def who_counts_changed(corpus_id: int) -> None:
    """A judge was left out of the corpus's figures or counted again
    (``Corpus.excluded_judges``): their judgments stay as they are, but every figure of
    the judgments reads them or no longer does."""
    _move([corpus_id], Stamp.JUDGMENTS)


def candidates_changed(corpus_id: int, targets: Sequence[Target]) -> None:
    """The texts of these candidates (targets of the corpus's systems) changed, the
    corpus keeping its systems and references: a word moved across a boundary of a
    system imported as one document (:mod:`annotation.judging.boundaries`), a candidate
    edited in the admin. Call it in the transaction that changes them.

    Everything computed from the texts goes out of date: the texts stamp moves, and the
    judgments stamp with it (the judgments of these candidates were counted against the
    old text). The stored automatic statistics cost a whole scoring to make again
    (``docs/performance.md``), so they stay, stale (their texts stamp is older than the
    corpus's): the candidates remember the stamp they changed at (``Target.
    text_stamp``), and the next reader scores only those
    (:func:`annotation.statistics.store.updated_statistics`), with the figures of a
    scoring afresh, to the last bit (tested). The grown pool's statistics are deleted
    (its next view scores again the sentences whose candidates changed). Imported
    segment scores were computed elsewhere and cannot be computed again here: those of
    the changed candidates become ``NaN`` (:func:`_forget_imported_scores`), and their
    systems' figures rest on the other sentences. Imported error spans were of the old
    text too: the changed candidates' are deleted, and their next judges are suggested
    the aWER alignment's (:mod:`annotation.judging.prefill`)."""
    PoolStatistics.objects.filter(corpus_id=corpus_id).delete()
    _move([corpus_id], Stamp.TEXTS | Stamp.JUDGMENTS)
    corpora = Corpus.all_objects.filter(pk=corpus_id)
    stamp, imported, protocol = corpora.values_list(
        "texts_stamp", "external_stamp", "protocol"
    ).get()
    Target.objects.filter(pk__in=[t.pk for t in targets]).update(text_stamp=stamp)
    if imported:  # the corpus has (or had) imported scores
        _forget_imported_scores(corpus_id, targets)
    if protocol == Protocol.ESA_PREFILL:
        ImportedSpans.objects.filter(target__in=[t.pk for t in targets]).delete()


def corpus_texts_changed(*corpus_ids: int) -> None:
    """The texts of these corpora changed beyond a few candidates: a system added
    (:mod:`annotation.corpora.systems`) or deleted, a reference changed, a sentence
    changed or deleted. Every figure computed from the texts goes out of date: both
    stamps move as for :func:`candidates_changed`, and the stored automatic statistics
    are deleted (a system added changes every metric's bootstrap and the systems
    themselves: they are scored afresh, by a worker), as are the grown pool's. A new
    system has no imported scores: the others keep theirs. The corpus's stored sizes are
    counted again (:func:`_count_sizes`)."""
    CorpusStatistics.objects.filter(corpus_id__in=corpus_ids).delete()
    PoolStatistics.objects.filter(corpus_id__in=corpus_ids).delete()
    _move(corpus_ids, Stamp.TEXTS | Stamp.JUDGMENTS)
    _count_sizes(corpus_ids)


def _count_sizes(corpus_ids: Iterable[int]) -> None:
    """The stored sizes of these corpora (``n_sentences``, ``n_systems``,
    ``n_candidates``: the campaign's progress and the limits read them, not a count)
    counted again, in one UPDATE: a system added or deleted, a sentence or a candidate
    deleted changes them, and the import's counts would otherwise stay."""
    system = Translator.Role.SYSTEM
    sentences = Sentence.objects.filter(corpus_id=OuterRef("pk"))
    systems = Translator.objects.filter(corpus_id=OuterRef("pk"), role=system)
    candidates = Target.objects.filter(
        translator__corpus_id=OuterRef("pk"), translator__role=system
    )
    Corpus.all_objects.filter(pk__in=list(corpus_ids)).update(
        n_sentences=scalar_total(sentences, "COUNT", "pk"),
        n_systems=scalar_total(systems, "COUNT", "pk"),
        n_candidates=scalar_total(candidates, "COUNT", "pk"),
    )


def imported_scores_changed(corpus: Corpus) -> None:
    """An imported metric of ``corpus`` was stored, replaced or deleted
    (:mod:`annotation.statistics.external`): the stamp of the imported scores moves, on
    the row and on ``corpus`` alike, so a figure read next with this very ``corpus`` is
    read afresh. Call it in the transaction of the change."""
    _move([corpus.pk], Stamp.EXTERNAL)
    corpus.external_stamp = Corpus.all_objects.values_list("external_stamp", flat=True).get(
        pk=corpus.pk
    )


def _forget_imported_scores(corpus_id: int, targets: Sequence[Target]) -> None:
    """The imported scores of ``targets`` (candidates whose text just changed) become
    ``NaN``: they scored a text that is no longer there. Their systems' figures are then
    means over the sentences left, compared on the sentences both systems have (the
    bootstrap's masks). A system-level figure imported alone (one value, no segments:
    :data:`~metrics.segment_scores.SYSTEM_LAYOUT`) was of the old texts as a whole: its
    system has no figure any more."""
    where = Target.objects.filter(pk__in=[t.pk for t in targets])
    positions: dict[int, list[int]] = {}
    for translator, position in where.values_list("translator_id", "sentence__position"):
        positions.setdefault(translator, []).append(position)
    rows = list(
        ExternalScores.objects.filter(
            metric__corpus_id=corpus_id, translator_id__in=positions
        ).annotate(layout=F("metric__layout"))
    )
    for row in rows:
        values = np.frombuffer(bytes(row.values), dtype=SCORES_DTYPE).copy()
        if row.layout == SYSTEM_LAYOUT:
            values[:] = np.nan
        else:
            values[positions[row.translator_id]] = np.nan
        row.values = values.tobytes()
    if rows:
        ExternalScores.objects.bulk_update(rows, ["values"])
        _move([corpus_id], Stamp.EXTERNAL)
