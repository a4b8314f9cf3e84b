"""The grown reference pool as references: every accepted new reference of a corpus is one
more reference of its sentence.

Why (seed 001 §2–3): mWER is fair to a correct translation only when some reference is
near it, and a corpus rarely has more than one or two references per sentence. aWER's
judges write a correct new reference for every candidate they judge, so a judged corpus
has grown a pool of references at no extra cost; scoring every automatic metric against
that pool is mWER as the seed argues for it, made cheap.

The rules, each stated once here:

* **Which new references.** The ``new_ref`` of every counted judgment
  (:meth:`~annotation.models.JudgmentQuerySet.counted`: done, no control item) that has
  words. It is stored as its 13a words read as text
  (:func:`annotation.text.readable_new_ref`) and used as that text.
* **Counted once.** The pool holds each translation of a sentence once: a new reference
  whose 13a words equal those of one of the sentence's references, or of an earlier new
  reference of the sentence, adds nothing (judges often agree), and a reference of the
  corpus repeated within its sentence is read once too (the demo corpus has one). A copy
  would weigh one translation twice in the metrics that average over references (NIST,
  TER, mWER's and PER's nearest or average reference length). The original choice reads
  the corpus's references as they are.
* **Order.** A sentence's references first (first reference first:
  :func:`annotation.text.reference_order`), then its new references in the order their
  judgments were made; so WER's and SER's first reference is the same in both choices.
* **As files** (:func:`reference_slots`): one file per reference slot, as sacreBLEU reads
  several references; a sentence with fewer references than the most any sentence has
  gets its first reference repeated in the missing slots (docs/metrics.md says which
  metrics a repeated reference leaves unchanged).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from annotation.models import Corpus, Judgment
from annotation.text import words

#: ``export_references``' file of reference slot ``k`` (``ref0.txt`` holds the first reference).
SLOT_FILE = "ref{}.txt"


def new_references(corpus: Corpus) -> dict[int, list[str]]:
    """Per sentence position, the new references of the judgments its figures count
    (:meth:`~annotation.models.JudgmentQuerySet.in_figures`) in the order they were made
    (one query; duplicates still in: :func:`sentence_pools` drops them)."""
    rows = (
        Judgment.objects.in_figures(corpus.pk)
        .exclude(new_ref="")
        .order_by("pk")
        .values_list("target__sentence__position", "new_ref")
    )
    out: dict[int, list[str]] = defaultdict(list)
    for position, new_ref in rows:
        out[position].append(new_ref)
    return out


class SentencePool(NamedTuple):
    """One sentence's pool: its own references and the new references that joined them,
    each translation once, in the pool's order."""

    references: tuple[str, ...]
    added: tuple[str, ...]

    @property
    def texts(self) -> tuple[str, ...]:
        return self.references + self.added


def sentence_pools(
    refs: Sequence[tuple[str, ...]], additions: Mapping[int, Sequence[str]]
) -> list[SentencePool]:
    """Each sentence's :class:`SentencePool`: its references (``refs[k]``, in reference
    order) then its new references (``additions`` by sentence position, in the order they
    were made), a text whose 13a words are already in the pool left out."""
    out = []
    for k, originals in enumerate(refs):
        seen: set[tuple[str, ...]] = set()
        texts_seen: set[str] = set()  # judges often agree: an equal text is not tokenized again
        kept: list[list[str]] = [[], []]
        for new, texts in enumerate((originals, additions.get(k, ()))):
            for text in texts:
                if text in texts_seen:
                    continue
                texts_seen.add(text)
                tokens = words(text, cache=False)
                if tokens in seen or (new and not tokens):
                    continue
                seen.add(tokens)
                kept[new].append(text)
        out.append(SentencePool(tuple(kept[0]), tuple(kept[1])))
    return out


def reference_slots(refs: Sequence[tuple[str, ...]]) -> list[list[str]]:
    """The references as parallel files: ``slots[i][k]`` is sentence k's reference i, its
    first reference where it has fewer than i + 1 ("" where it has none at all). As many
    slots as the most references any sentence has (at least one)."""
    n = max((len(r) for r in refs), default=1) or 1
    return [[r[i] if i < len(r) else (r[0] if r else "") for r in refs] for i in range(n)]


def one_line(text: str) -> str:
    """A reference as one line of a file (:func:`metrics.textfiles.read_segments` splits
    at "\\n"): its line breaks as spaces, which every tokenizer splits at alike."""
    return text.replace("\r", " ").replace("\n", " ")


def write_reference_files(refs: Sequence[tuple[str, ...]], out: Path) -> list[Path]:
    """Write :func:`reference_slots` to ``out/ref0.txt``, ``out/ref1.txt``, … (UTF-8, one
    line per sentence); returns the files in slot order. Slot files of an earlier export
    beyond the new last one are removed, so ``out/ref*.txt`` is always one pool."""
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for i, lines in enumerate(reference_slots(refs)):
        path = out / SLOT_FILE.format(i)
        path.write_text("".join(one_line(t) + "\n" for t in lines), encoding="utf-8")
        paths.append(path)
    stale = len(paths)
    while (out / SLOT_FILE.format(stale)).is_file():
        (out / SLOT_FILE.format(stale)).unlink()
        stale += 1
    return paths
