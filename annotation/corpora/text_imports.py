"""Import plain one-segment-per-line files (sacreBLEU style) as a corpus: the files are
read and checked here, then stored as evalTrans sentences by the import's one writer
(:func:`annotation.corpora.imports.import_elements`), hidden until complete as any import."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from annotation.corpora import evaltrans
from annotation.corpora.evaltrans import (
    FIRST_REFERENCE,
    REFERENCE_SUFFIX,
    CorpusHeader,
    EvalElement,
    SentenceElement,
    normalize_space,
)
from annotation.corpora.import_state import ImportRefused
from annotation.corpora.imports import import_elements, upload_limits
from annotation.corpora.summary import ImportSummary
from annotation.limits import NAME_MAX_LENGTH, length_problem, unusable_line
from metrics.textfiles import SegmentFileError, read_parallel

# Plain-text imports name their references so that evalTrans classifies them as such
# (a name ending in "reference"), in the order of the --ref files.
REFERENCE_NAMES_FOR_TEXT = (
    FIRST_REFERENCE,
    *(
        f"{n} {REFERENCE_SUFFIX}"
        for n in (
            "second",
            "third",
            "fourth",
            "fifth",
            "sixth",
            "seventh",
            "eighth",
            "ninth",
            "tenth",
        )
    ),
)


def corpus_import_text(
    *,
    name: str,
    source: Path,
    refs: Sequence[Path],
    hyps: Sequence[tuple[str, Path]],
) -> ImportSummary:
    """Import plain one-segment-per-line files (sacreBLEU style) as a corpus.

    The first reference file becomes the ``first reference``, the others ``second
    reference``, ``third reference``…; each ``SYSTEM=FILE`` becomes a system. Files must be
    parallel UTF-8.
    """
    if not refs:
        raise ImportRefused(str(source), None, "at least one --ref file is needed")
    if len(refs) > len(REFERENCE_NAMES_FOR_TEXT):
        raise ImportRefused(
            str(refs[-1]), None, f"at most {len(REFERENCE_NAMES_FOR_TEXT)} --ref files"
        )
    system_names = [system for system, _ in hyps]
    for system in system_names:
        if not system or evaltrans.translator_role(system) != evaltrans.Role.SYSTEM:
            raise ImportRefused(
                str(source), None, f"system name {system!r} is empty or ends in 'reference'"
            )
    if len(set(system_names)) != len(system_names):
        raise ImportRefused(str(source), None, "each --hyp needs its own SYSTEM name")
    limits = upload_limits()
    for count, (system, path) in enumerate(hyps, start=1):
        problem = limits.systems_problem(count, system)
        if problem is not None:
            raise ImportRefused(str(path), None, problem)
    for system in system_names:
        problem = length_problem(f"system name {system[:40]!r}…", system, NAME_MAX_LENGTH)
        if problem is not None:
            raise ImportRefused(str(source), None, problem)
    paths = [source, *refs, *(path for _, path in hyps)]
    try:
        columns = read_parallel(paths)
    except SegmentFileError as exc:
        raise ImportRefused(exc.filename, exc.line, exc.reason) from None
    for path, lines in zip(paths, columns, strict=True):
        bad = unusable_line(lines, limits)
        if bad is not None:
            raise ImportRefused(str(path), *bad)
    translators = [*REFERENCE_NAMES_FOR_TEXT[: len(refs)], *system_names]
    sentences = (
        SentenceElement(
            source=normalize_space(row[0]),
            evals=tuple(
                EvalElement(translator=t, target=normalize_space(text), line=k + 1)
                for t, text in zip(translators, row[1:], strict=True)
            ),
            line=k + 1,
            position=k,
        )
        for k, row in enumerate(zip(*columns, strict=True))
    )
    return import_elements(
        CorpusHeader(name=name, extra_attrs=()), sentences, name, str(source), (), None
    )
