"""A language pair's texts as WMT's plain-text releases lay them out, read and checked.

Under one directory, all line-aligned (line k of every file is segment k, counted from 0
as Appraise's item ids count them):

* ``sources/SRC-TGT.txt``: the source segments;
* ``references/SRC-TGT.ref*.txt``: the references (``refA``, ``refB``, … from the file
  name), the first in name order being the corpus's first reference;
* ``system-outputs/SRC-TGT/SYSTEM.txt``: one file per system;
* ``documents/SRC-TGT.docs``: ``domain<TAB>document id`` per line.

Texts are stored whitespace-normalised, as every import stores them
(:func:`~annotation.corpora.evaltrans.normalize_space`); :func:`normalised_offset` maps
a character offset of a file's line to the stored text's, so spans marked on the line
as released land on the same characters.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from annotation.corpora.evaltrans import FIRST_REFERENCE, REFERENCE_SUFFIX, normalize_space
from annotation.limits import WorkLimits, unusable_line
from metrics.textfiles import SegmentFileError, read_parallel

#: The sentence attribute that keeps a line's domain (the first column of the ``.docs``).
DOMAIN_ATTR = "domain"


@dataclass(frozen=True)
class WmtTexts:
    """One pair's texts (module doc): ``references`` and ``systems`` by name, in order,
    each a list of lines; ``documents`` (domain, document id) per line."""

    pair: str
    sources: list[str]
    references: dict[str, list[str]]
    systems: dict[str, list[str]]
    documents: list[tuple[str, str]]

    def reference_translator(self, name: str) -> str:
        """The corpus's translator of WMT's reference ``name``: the first reference, or
        ``NAME reference`` (evalTrans calls a translator so named a reference)."""
        first = next(iter(self.references))
        return FIRST_REFERENCE if name == first else f"{name} {REFERENCE_SUFFIX}"


def read_wmt_texts(root: Path, pair: str, limits: WorkLimits | None = None) -> WmtTexts:
    """The texts of ``pair`` (``SRC-TGT``) under ``root``, or the refusal naming the file
    and line (a file missing, files not parallel, a line no import may store)."""
    sources = root / "sources" / f"{pair}.txt"
    refs = sorted((root / "references").glob(f"{pair}.ref*.txt"))
    systems = sorted((root / "system-outputs" / pair).glob("*.txt"))
    docs = root / "documents" / f"{pair}.docs"
    if not refs:
        raise SegmentFileError(str(root / "references" / f"{pair}.ref*.txt"), None, "no such file")
    if not systems:
        where = root / "system-outputs" / pair / "SYSTEM.txt"
        raise SegmentFileError(str(where), None, "no system's file")
    paths = [sources, docs, *refs, *systems]
    columns = read_parallel(paths)
    texts = [(sources, columns[0]), *zip(paths[2:], columns[2:], strict=True)]
    for path, lines in texts:  # the documents' lines are no text
        bad = unusable_line(lines, limits)
        if bad is not None:
            raise SegmentFileError(str(path), *bad)
    documents = []
    for k, line in enumerate(columns[1], start=1):
        domain, tab, doc = line.partition("\t")
        if not tab or not doc.strip() or "\t" in doc:
            raise SegmentFileError(str(docs), k, "expected 'domain<TAB>document id'")
        documents.append((domain, doc))
    return WmtTexts(
        pair=pair,
        sources=columns[0],
        references={
            _name(p, f"{pair}."): lines
            for p, lines in zip(refs, columns[2 : 2 + len(refs)], strict=True)
        },
        systems={p.stem: lines for p, lines in zip(systems, columns[2 + len(refs) :], strict=True)},
        documents=documents,
    )


def _name(path: Path, prefix: str) -> str:
    """``refA`` of ``en-de.refA.txt``."""
    return path.name.removeprefix(prefix).removesuffix(".txt")


def normalised_offset(text: str, offset: int) -> int:
    """The place of ``text``'s character offset ``offset`` in ``normalize_space(text)``
    (a blank run becomes one space, the ends lose theirs)."""
    before, after = text[:offset], text[offset:]
    place = len(normalize_space(before))
    if before[-1:].isspace() and before.strip() and after.strip():
        place += 1  # the one space the run before this place became
    return place


def targets_of(texts: WmtTexts, line: int) -> Iterator[tuple[str, str]]:
    """Line ``line``'s (translator, stored text) pairs: references, then systems."""
    for name, lines in texts.references.items():
        yield texts.reference_translator(name), normalize_space(lines[line])
    for name, lines in texts.systems.items():
        yield name, normalize_space(lines[line])
