"""The reference pool of a sentence (seed 001 §3): what a new reference starts from and
what the page offers to take.

The pool is the sentence's corpus references (first reference first, then file order:
:func:`annotation.text.reference_order`) followed by the new references of done
judgments (:func:`pool_judgments` says which), without duplicates. The page shows the
:data:`POOL_SHOWN` entries nearest the candidate (:func:`nearest_in_pool`, with
:func:`annotation.text.nearest`'s tie-break), and a new judgment starts from the nearest
one. A sentence's references are read as (sentence, role, position, text) rows, by
:func:`sentence_references` alone or together with other rows by the page's query, and
put in order by :func:`ordered_references` in both cases.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.db.models import Q, QuerySet

from annotation.controls.api import hidden_reference
from annotation.models import COUNTED, Corpus, Judgment, Target, Translator, left_out
from annotation.models.prepared import Prepared
from annotation.text import REFERENCE_ROLES, nearest, reference_order, words
from metrics.align import PreparedRef, distance_prepared

#: How many references of the pool the page shows (seed 001 §3: "the four most similar").
POOL_SHOWN = 4


@dataclass(frozen=True)
class References:
    """A sentence's corpus references, in reference order."""

    texts: tuple[str, ...] = ()
    #: Whether ``texts[0]`` is the first reference (a sentence may lack one).
    first_is_first_reference: bool = False


#: What a sentence without references has.
NO_REFERENCES = References()


def ordered_references(rows: Iterable[tuple[int, str, int, str]]) -> dict[int, References]:
    """Each sentence's :class:`References` from (sentence id, translator role, target
    position, text) rows of reference targets, in any order."""
    by_sentence: dict[int, list[tuple[tuple[bool, int], str, str]]] = defaultdict(list)
    for sentence_id, role, position, text in rows:
        by_sentence[sentence_id].append((reference_order(role, position), role, text))
    out = {}
    for sentence_id, refs in by_sentence.items():
        refs.sort(key=lambda r: r[0])
        out[sentence_id] = References(
            texts=tuple(text for _, _, text in refs),
            first_is_first_reference=refs[0][1] == Translator.Role.FIRST_REFERENCE,
        )
    return out


def without_shown(references: References, shown: str) -> References:
    """The references of a sentence whose reference ``shown`` is judged as a candidate (a
    control item, :mod:`annotation.controls`): every reference with its words leaves the
    pool, which would otherwise offer the candidate itself, "0 edits", and give the
    control away. The judge then reaches 0 edits by accepting the candidate's words."""
    kept = tuple(t for t in references.texts if words(t) != words(shown))
    first_kept = bool(references.texts) and bool(kept) and kept[0] == references.texts[0]
    return References(kept, references.first_is_first_reference and first_kept)


def pooled_references(
    references: References, *, corpus: Corpus, user_id: int, sentence_id: int, shown: str | None
) -> References:
    """The sentence's ``references`` (reference order) that join the judge's pool: all
    but the one the judge's run of the sentence would show as a control item, left out
    of every item of the sentence alike (:func:`annotation.controls.runs.
    hidden_reference`), and the reference a control shows as its candidate (``shown``):
    the rule both a new judgment's start and its page read."""
    hidden = hidden_reference(
        corpus, user_id=user_id, sentence_id=sentence_id, references=references.texts
    )
    for text in (hidden, shown):
        if text is not None:
            references = without_shown(references, text)
    return references


def sentence_references(sentence_id: int) -> References:
    """One sentence's references, in one query (compiled once per process:
    :mod:`annotation.models.prepared`)."""
    return ordered_references(_REFERENCES(sentence_id)).get(sentence_id, NO_REFERENCES)


def _references_query(sentence_id: int, *, shape: object) -> QuerySet[Any]:
    return Target.objects.filter(
        sentence_id=sentence_id, translator__role__in=REFERENCE_ROLES
    ).values_list("sentence_id", "translator__role", "position", "text")


_REFERENCES = Prepared(_references_query)


@dataclass(frozen=True)
class PoolRef:
    """One entry of a sentence's reference pool, with its distance to the candidate."""

    text: str
    words: tuple[str, ...]
    kind: str  # "first reference", "reference" or "new reference"
    distance: int
    order: int


@lru_cache(maxsize=4096)
def _prepared(tokens: tuple[str, ...]) -> PreparedRef:
    """A pool entry's bit masks, built once: the same references come back on every click."""
    return PreparedRef.from_tokens(tokens)


def build_pool(
    candidate: Sequence[str],
    references: Sequence[str],
    new_refs: Sequence[str],
    *,
    first_is_first_reference: bool = True,
) -> list[PoolRef]:
    """The pool in its own order: the references (first reference first, then file
    order), then accepted new references; duplicates (same words) keep the first entry."""
    pool: list[PoolRef] = []
    seen: set[tuple[str, ...]] = set()
    entries = [
        ("first reference" if k == 0 and first_is_first_reference else "reference", text)
        for k, text in enumerate(references)
    ] + [("new reference", text) for text in new_refs]
    for kind, text in entries:
        tokens = words(text)
        if tokens in seen:
            continue
        seen.add(tokens)
        gap = distance_prepared(candidate, _prepared(tokens)) if candidate else len(tokens)
        pool.append(PoolRef(" ".join(tokens), tokens, kind, gap, len(pool)))
    return pool


def sentence_pool(
    candidate: Sequence[str], references: References, new_refs: Sequence[str]
) -> list[PoolRef]:
    """The pool of a sentence with these references and accepted new references."""
    return build_pool(
        candidate,
        references.texts,
        new_refs,
        first_is_first_reference=references.first_is_first_reference,
    )


def nearest_in_pool(pool: Sequence[PoolRef], n: int = POOL_SHOWN) -> list[PoolRef]:
    """The ``n`` entries nearest the candidate (:func:`annotation.text.nearest`: ties keep
    the pool's order, references first)."""
    return [pool[i] for i in nearest([p.distance for p in pool], n)]


def pool_judgments(
    target_id: int,
    sentence_id: int,
    corpus_id: int,
    evaluator_id: int,
    *,
    share: bool,
    own: bool = False,
    shown: int | None = None,
) -> Q:
    """The done judgments whose new references join the pool of the target ``target_id``
    (of the sentence ``sentence_id`` in the corpus ``corpus_id``): the counted ones
    (:data:`~annotation.models.COUNTED`: done, no control item) of the sentence's *other*
    candidates by this judge, or by every judge when the corpus shares them (but a judge
    the lead left out of the corpus's figures: :func:`~annotation.models.left_out`); and
    the judge's own done control items of the sentence but ``shown`` (the judgment on
    the page). Never a counted judgment of ``target`` itself: with sharing, that would
    hand over another judge's verdict on this very candidate (and void their agreement).
    ``own``: the judgments of ``target`` join too, for a bad-reference control (its
    candidate is a new one, made of ``target``'s: its pool is the one a real candidate
    of the sentence has, with as many entries).

    A control item's new reference joins its judge's pool, and pre-fills the judge's
    identical candidates (:func:`annotation.judging.start.judgment_open`), as a real
    candidate's does: a new reference that never came back, or an identical candidate
    met without the pre-fill, would tell the judge which item was the control (issue
    35). It joins no other judge's pool and counts in no figure.

    Written through the ids of the sentence's targets, so that the database looks up
    the judgments of those few candidates instead of walking every judgment of the
    judge (which SQLite does for a join on the target's sentence)."""
    in_sentence = Target.objects.filter(sentence_id=sentence_id).values("pk")
    counted = COUNTED if own else COUNTED & ~Q(target_id=target_id)
    counted &= left_out(corpus_id) if share else Q(evaluator_id=evaluator_id)
    controls = Q(evaluator_id=evaluator_id, state=Judgment.State.DONE) & ~Q(
        control=Judgment.Control.NONE
    )
    if shown is not None:
        controls &= ~Q(pk=shown)
    return Q(target_id__in=in_sentence) & ~Q(new_ref="") & (counted | controls)


def shown_words(text: str, shown_text: str) -> tuple[str, ...]:
    """The words a judgment showed as its candidate: its own text where it has one (a
    bad-reference control), else its target's (``text``)."""
    return words(shown_text or text)
