"""The real data the metric tests share: the TED demo corpus and sacreBLEU's README example."""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from lxml import etree

DEMO_XML = Path(__file__).resolve().parents[2] / "fixtures" / "ted-zhen-demo.evaltrans.xml"
REFERENCES = ("first reference", "multi reference")
SYSTEMS = ("DIDI-NLP", "Facebook-AI", "IIE-MT", "NiuTrans", "Online-W")

# sacreBLEU's README example (stream-major there; segment-major here)
README_REFS = [
    ("The dog bit the man.", "The dog had bit the man."),
    ("It was not unexpected.", "No one was surprised."),
    ("The man bit him first.", "The man had bitten the dog."),
]
README_SYS = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]


@cache
def demo() -> dict[str, tuple[str, ...]]:
    """translator → its 40 target sentences, in document order."""
    root = etree.parse(str(DEMO_XML)).getroot()
    out: dict[str, list[str]] = {}
    for sentence in root.iter("sentence"):
        for ev in sentence.iter("eval"):
            out.setdefault(ev.get("translator") or "", []).append(ev.findtext("target") or "")
    return {name: tuple(texts) for name, texts in out.items()}


def demo_refs(*names: str) -> list[tuple[str, ...]]:
    """Segment-major references of the demo corpus (both human references by default)."""
    data = demo()
    return [tuple(seg) for seg in zip(*(data[n] for n in names or REFERENCES), strict=True)]


def demo_lines() -> list[str]:
    """Every source, reference and candidate sentence of the demo corpus."""
    root = etree.parse(str(DEMO_XML)).getroot()
    return [el.text or "" for el in root.iter("source", "target")]


#: The two kinds of long line the TER memory tests and ``bench/ter_memory.py`` score:
#: three systems' documents against the two references' (translations of the same talk
#: twice over: most shifts are tried in the first round), and the references' words
#: with one neighbour swap and one replaced word in every 20 (few errors: a round of
#: shifts after another, each with a few candidates, as a good system's document).
LONG_LINE_KINDS = ("documents", "edited")


def document_words(names: Sequence[str], count: int) -> list[str]:
    """The words of the named translators' documents (their 40 sentences joined), one
    document after another and again, cut at ``count``: one long line of real text."""
    data = demo()
    words: list[str] = []
    while len(words) < count:
        for name in names:
            words += " ".join(data[name]).split()
    return words[:count]


def long_line_pair(kind: str, count: int) -> tuple[str, str]:
    """A candidate line and its reference of ``count`` words each (:data:`LONG_LINE_KINDS`)."""
    ref = document_words(REFERENCES, count)
    if kind == "documents":
        hyp = document_words(("DIDI-NLP", "NiuTrans", "Online-W"), count)
    elif kind == "edited":
        rng = random.Random(1)
        hyp = list(ref)
        for _ in range(count // 20):
            p = rng.randrange(count - 1)
            hyp[p], hyp[p + 1] = hyp[p + 1], hyp[p]
            hyp[rng.randrange(count)] = "xx"
    else:
        raise ValueError(f"unknown kind of long line {kind!r} (choose from {LONG_LINE_KINDS})")
    return " ".join(hyp), " ".join(ref)
