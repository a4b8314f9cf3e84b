"""The real data the metric tests share: the TED demo corpus and sacreBLEU's README example."""

from __future__ import annotations

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
