"""IER, the information item error rate (seed 001 Table 1; Nießen et al. 2000): the rule.

A judge splits the candidate into *information items* (runs of its 13a words) and marks
each item OK or as an error of syntax, of meaning or of another kind; the candidate's
IER is the share of its items not OK. Seed 001 lists it as the second subjective metric
beside SSER and notes its cost: deciding the items, then classifying each one.

Items are stored on the judgment as ``[[start, end, label], …]``: word positions of the
candidate, ``end`` exclusive, the items in order and tiling the candidate exactly. This
module is the one place that says what a valid list is (the judge's page, the evalTrans
reader and the figures all read it), what the default split is, and how items count.

Where the paper is silent:

- **The default split** cuts after a punctuation word (``, ; : . ! ?``) that a word
  other than punctuation follows, and at the end: a clause is a good first guess of an
  information item, and a run of punctuation ("?!") stays with its clause.
- **Every item starts OK**: the judge marks the errors only, as aWER asks only for the
  errors to be clicked. A judgment accepted without an IER change keeps the split and
  marks it was shown with (the default: IER 0 %), so what the judge saw is what counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

#: The marks of an item, as stored and exported (``label`` of ``<item>``), with what the
#: page says. Seed 001 names "OK", "error", "syntax", "meaning" and "others".
#: The labels of an information item, as the ``ierItems`` attribute of an evalTrans
#: ``<eval>`` writes them (:mod:`annotation.corpora.evaltrans.schema`).
IER_LABELS = ("ok", "syntax", "meaning", "other")
LABELS: dict[str, str] = dict(zip(IER_LABELS, ("OK", "syntax", "meaning", "other"), strict=True))
OK = "ok"
#: Words after which the default split cuts (13a makes each its own word).
SPLIT_AFTER = frozenset({",", ";", ":", ".", "!", "?"})

Item = tuple[int, int, str]

ERR_IER_ITEMS = (
    "IER items must be [start, end, label] runs that tile the {n} words in order: {why}."
)


def default_items(candidate: Sequence[str]) -> list[Item]:
    """The split offered before the judge changes anything: see the module."""
    items, start = [], 0
    for i, word in enumerate(candidate):
        last = i + 1 == len(candidate)
        if last or (word in SPLIT_AFTER and candidate[i + 1] not in SPLIT_AFTER):
            items.append((start, i + 1, OK))
            start = i + 1
    return items


def items_problem(items: Any, n_words: int) -> str | None:
    """Why ``items`` is not a valid item list of a candidate of ``n_words`` words (None if
    it is): each a [start, end, label] with a known label, non-empty, in order, no gap and
    no overlap, from 0 to ``n_words``."""
    if not isinstance(items, list | tuple):
        return ERR_IER_ITEMS.format(n=n_words, why="not a list")
    at = 0
    for item in items:
        if not isinstance(item, list | tuple) or len(item) != 3:
            return ERR_IER_ITEMS.format(n=n_words, why=f"{item!r} is not [start, end, label]")
        start, end, label = item
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (start, end)):
            return ERR_IER_ITEMS.format(n=n_words, why=f"{item!r} has a position not a number")
        if start != at or end <= start:
            return ERR_IER_ITEMS.format(n=n_words, why=f"{item!r} does not start at word {at}")
        if label not in LABELS:
            return ERR_IER_ITEMS.format(n=n_words, why=f"{label!r} is none of {', '.join(LABELS)}")
        at = end
    if items and at != n_words:
        return ERR_IER_ITEMS.format(n=n_words, why=f"the last item ends at {at}")
    return None


def as_items(stored: Any) -> list[Item]:
    """Stored items (JSON lists) as tuples."""
    return [(int(s), int(e), str(label)) for s, e, label in stored or ()]


def shown_items(stored: Any, candidate: Sequence[str]) -> list[Item]:
    """The items the page shows and a change starts from: the stored ones, or the default
    split while there are none (or when the candidate's words changed under them: a word
    moved across a segment boundary)."""
    if stored and items_problem(list(map(list, stored)), len(candidate)) is None:
        return as_items(stored)
    return default_items(candidate)


def toggle_gap(items: Sequence[Item], gap: int) -> list[Item]:
    """Cut the item holding the gap before word ``gap`` in two (both keep its mark), or
    join the two items the gap separates: the joined item keeps the first's mark unless
    only the second is an error (an error is not lost by a join). ``gap`` must lie
    between two words (the caller checks)."""
    out: list[Item] = []
    for k, (start, end, label) in enumerate(items):
        if start < gap < end:
            out += [(start, gap, label), (gap, end, label)]
        elif end == gap:
            following = items[k + 1]
            joined = label if label != OK else following[2]
            out.append((start, following[1], joined))
            out += items[k + 2 :]
            return out
        else:
            out.append((start, end, label))
    return out


def mark(items: Sequence[Item], start: int, label: str) -> list[Item]:
    """The item starting at word ``start`` marked ``label`` (the caller checks both)."""
    return [(s, e, label if s == start else old) for s, e, old in items]


def ier_counts(items: Sequence[Sequence[Any]]) -> dict[str, int | None]:
    """The counts stored with the items: ``ier_errors`` (items not OK) and ``ier_length``
    (items), None without items: IER's statistics row (:func:`metrics.human.ier_stats`)."""
    if not items:
        return {"ier_errors": None, "ier_length": None}
    return {"ier_errors": sum(1 for i in items if i[2] != OK), "ier_length": len(items)}


def as_json(items: Sequence[Item]) -> list[list[Any]]:
    """Items as the JSON field stores them (and an event's snapshot holds them)."""
    return [[s, e, label] for s, e, label in items]


def read_items(
    items: Sequence[Item] | None, candidate: Sequence[str]
) -> tuple[dict[str, Any], str | None]:
    """What a judgment read from a file stores of IER (``ier_items`` and the counts; {}
    for none), and why ``items`` do not fit the candidate's words (None if they do)."""
    if items is None:
        return {}, None
    stored = as_json(items)
    problem = items_problem(stored, len(candidate))
    return ({} if problem else {"ier_items": stored, **ier_counts(stored)}), problem
