"""Generate a synthetic but realistic evalTrans corpus for the import benchmark.

``N`` sentences × ``R`` references × ``S`` MT systems, written as a stream (one sentence in
memory at a time) through :func:`annotation.corpora.evaltrans.write_evaltrans`, so the file
is the canonical format the app reads. Realistic in the ways that cost time on import:

* words (and sentence lengths) are drawn from the TED demo corpus in ``fixtures/``;
* the first reference is a sentence of those words; the other references and the systems
  are edited copies of it (substitutions, deletions, insertions, swapped neighbours), each
  system with its own error rate, so edit distances look like real MT output;
* some systems give the same output as another system on some sentences (``identical``),
  which the import may share;
* optionally a share of system outputs is judged (evaluator, SSER, aWER against a new
  reference that is the target with part of its errors corrected).

Usage::

    python bench/gen_corpus.py OUT.xml [-n 1000] [-r 3] [-s 20] [--judged 0.1] [--seed 0]

The default, 1,000 × 3 × 20, is 23,000 ``<eval>`` elements, about 4 MB.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: make the app importable (Django-free module)
    sys.path.insert(0, str(ROOT))

from annotation.corpora.evaltrans import (  # noqa: E402
    FIRST_REFERENCE,
    CorpusHeader,
    EvalElement,
    SentenceElement,
    iter_evaltrans,
    write_evaltrans,
)

DEMO = ROOT / "fixtures" / "ted-zhen-demo.evaltrans.xml"
EVALUATORS = ("JM", "FC", "AC", "PL")
ORDINALS = ("second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth")


@dataclass(frozen=True)
class Vocabulary:
    """What the synthetic text is drawn from: words, source characters, sentence lengths."""

    words: tuple[str, ...]
    source_chars: tuple[str, ...]
    lengths: tuple[int, ...]

    @classmethod
    def from_corpus(cls, path: Path = DEMO) -> Vocabulary:
        words: list[str] = []
        chars: list[str] = []
        lengths: list[int] = []
        for item in iter_evaltrans(path):
            if isinstance(item, SentenceElement):
                chars.extend(c for c in item.source if not c.isspace())
                for ev in item.evals:
                    tokens = ev.target.split()
                    words.extend(tokens)
                    lengths.append(len(tokens))
        if not words:
            raise ValueError(f"{path}: no words to draw from")
        return cls(tuple(words), tuple(chars), tuple(n for n in lengths if n > 0))


def reference_names(count: int) -> list[str]:
    """``first reference``, ``second reference``, …: every one ends in "reference"."""
    if count < 1:
        raise ValueError(f"references={count}: a sentence needs at least the first reference")
    names = [FIRST_REFERENCE]
    for k in range(1, count):
        ordinal = ORDINALS[k - 1] if k <= len(ORDINALS) else f"{k + 1}th"
        names.append(f"{ordinal} reference")
    return names


def system_names(count: int) -> list[str]:
    return [f"MT-{k + 1:02d}" for k in range(count)]


def _edit(rng: random.Random, words: Sequence[str], rate: float, vocab: Vocabulary) -> list[str]:
    """A copy of ``words`` with about ``rate`` × len edits of the four usual kinds."""
    out = list(words)
    for _ in range(round(rate * len(out) * rng.uniform(0.5, 1.5))):
        kind = rng.random()
        at = rng.randrange(len(out)) if out else 0
        if kind < 0.45 and out:
            out[at] = rng.choice(vocab.words)
        elif kind < 0.65 and len(out) > 1:
            del out[at]
        elif kind < 0.85:
            out.insert(at, rng.choice(vocab.words))
        elif len(out) > 1:
            j = min(at + 1, len(out) - 1)
            out[at], out[j] = out[j], out[at]
    return out or [rng.choice(vocab.words)]


def _distance(a: Sequence[str], b: Sequence[str]) -> int:
    """Word-level Levenshtein distance (for a plausible ``awer`` attribute)."""
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


def iter_sentences(
    *,
    sentences: int = 1000,
    references: int = 3,
    systems: int = 20,
    judged: float = 0.0,
    identical: float = 0.15,
    seed: int = 0,
    vocabulary: Vocabulary | None = None,
) -> Iterator[SentenceElement]:
    """The synthetic sentences, one at a time (deterministic for a given seed)."""
    if sentences < 0 or systems < 0:
        raise ValueError(f"sentences={sentences}, systems={systems}: counts must be >= 0")
    if not 0.0 <= judged <= 1.0 or not 0.0 <= identical <= 1.0:
        raise ValueError(f"judged={judged}, identical={identical}: shares must be in [0, 1]")
    vocab = vocabulary or Vocabulary.from_corpus()
    rng = random.Random(seed)
    ref_names = reference_names(references)
    sys_names = system_names(systems)
    quality = [rng.uniform(0.1, 0.5) for _ in sys_names]  # each system's error rate
    for position in range(sentences):
        length = rng.choice(vocab.lengths)
        first = [rng.choice(vocab.words) for _ in range(length)]
        source = "".join(rng.choice(vocab.source_chars) for _ in range(round(length * 1.4)))
        evals = [EvalElement(translator=ref_names[0], target=" ".join(first), line=0)]
        evals += [
            EvalElement(translator=name, target=" ".join(_edit(rng, first, 0.3, vocab)), line=0)
            for name in ref_names[1:]
        ]
        outputs: list[list[str]] = []
        for k, name in enumerate(sys_names):
            if outputs and rng.random() < identical:
                words = rng.choice(outputs)  # the same output as another system
            else:
                words = _edit(rng, first, quality[k], vocab)
            outputs.append(words)
            target = " ".join(words)
            if rng.random() < judged:
                # The judge accepted some of the words: the new reference is the first
                # reference with about half of the candidate's differences kept.
                new_ref = first if rng.random() < 0.5 else _edit(rng, first, quality[k] / 2, vocab)
                errors = _distance(words, new_ref)
                sser = max(0, min(10, round(10 - 20 * errors / max(1, len(new_ref)))))
                evals.append(
                    EvalElement(
                        translator=name,
                        target=target,
                        line=0,
                        evaluator=rng.choice(EVALUATORS),
                        sser=sser,
                        awer=(errors, len(new_ref)),
                        new_ref=" ".join(new_ref),
                    )
                )
            else:
                evals.append(EvalElement(translator=name, target=target, line=0))
        yield SentenceElement(
            source=source,
            evals=tuple(evals),
            line=0,
            position=position,
            id=f"synthetic.{position // 50}:{position}",
            doc=f"synthetic.{position // 50}",
        )


def generate_corpus(
    out: BinaryIO,
    *,
    sentences: int = 1000,
    references: int = 3,
    systems: int = 20,
    judged: float = 0.0,
    identical: float = 0.15,
    seed: int = 0,
) -> int:
    """Write the corpus to ``out`` (streaming); return the number of ``<eval>`` written."""
    counted = 0

    def counting() -> Iterator[SentenceElement]:
        nonlocal counted
        for sentence in iter_sentences(
            sentences=sentences,
            references=references,
            systems=systems,
            judged=judged,
            identical=identical,
            seed=seed,
        ):
            counted += len(sentence.evals)
            yield sentence

    header = CorpusHeader(
        name=f"synthetic {sentences}x{references}x{systems} seed {seed}",
        extra_attrs=(("generator", "bench/gen_corpus.py"),),
    )
    write_evaltrans(out, header, counting())
    return counted


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the evalTrans file to write")
    parser.add_argument("-n", "--sentences", type=int, default=1000)
    parser.add_argument("-r", "--references", type=int, default=3)
    parser.add_argument("-s", "--systems", type=int, default=20)
    parser.add_argument("--judged", type=float, default=0.0, help="share of system outputs judged")
    parser.add_argument(
        "--identical", type=float, default=0.15, help="chance a system repeats another's output"
    )
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        with args.out.open("wb") as out:
            evals = generate_corpus(
                out,
                sentences=args.sentences,
                references=args.references,
                systems=args.systems,
                judged=args.judged,
                identical=args.identical,
                seed=args.seed,
            )
    except ValueError as exc:
        parser.error(str(exc))
    size = args.out.stat().st_size
    print(
        f"{args.out}: {args.sentences:,} sentences × {args.references} references × "
        f"{args.systems} systems = {evals:,} <eval>, {size:,} bytes ({size / 1e6:.1f} MB)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
