"""The pairs of systems a lead cares about in a corpus dealt adaptively (issue 43, point 2).

A lead comparing a new system with the best of the others has no use for the order of
two weak baselines: once the pairs they chose are resolved, the campaign can stop. The
choice (:class:`~annotation.models.PairsOfInterest`; none: every pair) narrows what
the next rounds favour (:func:`metrics.adaptive.batch_probabilities`' ``focus``) and
what the campaign page lists as still open, with the judgments those need. It changes
no chance already recorded, and no estimate: the weighted estimates read the recorded
chances whatever the rounds favoured.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

from annotation.models import Corpus, PairsOfInterest

#: A pair as the forms and the pages write it: the two systems' names joined by this.
PAIR_SEPARATOR = "|"


def system_pairs(systems: Sequence[str]) -> list[tuple[str, str]]:
    """Every pair of ``systems`` in the policy's order (:attr:`metrics.simulate.
    Campaign.pairs`: each system with every later one)."""
    return list(combinations(systems, 2))


def pair_key(pair: tuple[str, str]) -> str:
    return PAIR_SEPARATOR.join(pair)


def pairs_of_interest(corpus: Corpus) -> frozenset[tuple[str, str]] | None:
    """The pairs the lead chose for ``corpus`` (None: no choice, every pair). One query."""
    chosen = PairsOfInterest.objects.filter(corpus_id=corpus.pk).values_list("pairs", flat=True)
    pairs = next(iter(chosen), None)
    return frozenset((a, b) for a, b in pairs) if pairs else None


def focus_of(systems: Sequence[str], chosen: frozenset[tuple[str, str]] | None) -> list[int] | None:
    """The indices (into :func:`system_pairs` of ``systems``) of the ``chosen`` pairs,
    whichever way round each was written; None: every pair."""
    if chosen is None:
        return None
    return [
        k for k, (a, b) in enumerate(system_pairs(systems)) if (a, b) in chosen or (b, a) in chosen
    ]


def corpus_choose_pairs(corpus: Corpus, pairs: Iterable[tuple[str, str]]) -> None:
    """Keep ``pairs`` as the lead's pairs of interest in ``corpus`` (none: every pair
    again). The caller checked that they are pairs of its systems."""
    chosen = sorted({tuple(p) for p in pairs})
    if not chosen:
        PairsOfInterest.objects.filter(corpus_id=corpus.pk).delete()
        return
    PairsOfInterest.objects.update_or_create(
        corpus_id=corpus.pk, defaults={"pairs": [list(p) for p in chosen]}
    )
